// GROUP BY keys and grouping sets (binder.h): plain keys, GROUPING SETS, ROLLUP and CUBE, and the
// GROUPING / GROUPING_ID functions, planned as Flink plans them: an Expand below the GroupAggregate
// emits each row once per grouping set (the keys the set leaves out NULL) with the set's id $e, and the
// aggregate groups by every key and $e; GROUPING(...) reads $e through a CASE, as in Flink's Calc.
#include <algorithm>

#include "binder/binder.h"
#include "binder/binder_util.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

using AstSet = std::vector<const ast::Expr*>;

// Calcite caps grouping sets too; a CUBE of many keys would expand every row thousands of times.
constexpr size_t kMaxGroupingSets = 4096;

// The key expressions of one item of ROLLUP / CUBE / GROUPING SETS: a parenthesized tuple is several.
AstSet ItemKeys(const ast::GroupingElement& g) {
  if (g.kind == ast::GroupingElement::Kind::kEmpty) return {};
  if (g.expr->kind == ast::ExprKind::kRowCtor && !g.expr->As<ast::RowCtor>().explicit_row) {
    AstSet out;
    for (const auto& f : g.expr->As<ast::RowCtor>().fields) out.push_back(f.get());
    return out;
  }
  return {g.expr.get()};
}

// The grouping sets one element of a GROUP BY stands for.
Status SetsOf(const ast::GroupingElement& g, bool nested, std::vector<AstSet>* out) {
  using Kind = ast::GroupingElement::Kind;
  switch (g.kind) {
    case Kind::kExpr:
      out->push_back(nested ? ItemKeys(g) : AstSet{g.expr.get()});
      return Status::OK();
    case Kind::kEmpty: out->push_back({}); return Status::OK();
    case Kind::kGroupingSets:
      for (const auto& e : g.elements) RETURN_IF_ERROR(SetsOf(e, true, out));
      return Status::OK();
    case Kind::kRollup:
    case Kind::kCube: {
      std::vector<AstSet> items;
      for (const auto& e : g.elements) {
        if (e.kind != Kind::kExpr && e.kind != Kind::kEmpty) {
          return Status::BindError("ROLLUP and CUBE take expressions and parenthesized lists of expressions");
        }
        items.push_back(ItemKeys(e));
      }
      if (g.kind == Kind::kRollup) {
        // (a, b, c): {a, b, c}, {a, b}, {a}, {}.
        for (size_t n = items.size() + 1; n-- > 0;) {
          AstSet s;
          for (size_t i = 0; i < n; ++i) s.insert(s.end(), items[i].begin(), items[i].end());
          out->push_back(std::move(s));
        }
        return Status::OK();
      }
      if (items.size() > 12) return Status::BindError("CUBE of more than 12 expressions is not allowed");
      for (size_t mask = 0; mask < (size_t{1} << items.size()); ++mask) {
        AstSet s;
        for (size_t i = 0; i < items.size(); ++i) {
          if (!(mask & (size_t{1} << i))) s.insert(s.end(), items[i].begin(), items[i].end());
        }
        out->push_back(std::move(s));
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

// Calcite's order of grouping sets (ImmutableBitSet.COMPARATOR): a set before the sets it contains,
// else by the lowest key in which they differ, lowest first.
bool CalciteBefore(const std::vector<bool>& a, const std::vector<bool>& b) {
  bool a_has_b = true, b_has_a = true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (b[i] && !a[i]) a_has_b = false;
    if (a[i] && !b[i]) b_has_a = false;
  }
  if (a_has_b != b_has_a) return a_has_b;
  if (a_has_b) return false;  // equal
  size_t i = 0;
  for (;;) {
    size_t na = i, nb = i;
    while (na < a.size() && !a[na]) ++na;
    while (nb < b.size() && !b[nb]) ++nb;
    if (na != nb) return na < nb;  // the one whose next key comes first (none counts as last)
    i = na + 1;
  }
}

}  // namespace

// The GROUP BY keys as the first columns of `pre`, the projection below the aggregate, with their
// names and digests (a key written in several grouping sets is one key); a legacy group window groups
// by its three window columns. With several grouping sets, ctx->grouping_sets says which keys each keeps.
Status Binder::BindGroupKeys(const ast::Select& select, const Relation& input, const ast::Call* group_window,
                             AggContext* ctx, CalcNode* pre, std::vector<std::string>* key_names) {
  // A decorrelated scalar subquery's keys come first, in every grouping set (binder/scalar_subquery.cc).
  const std::vector<int> extra = std::move(extra_group_columns_);
  extra_group_columns_.clear();
  for (int c : extra) {
    const ScopeColumn& col = input.scope.columns[static_cast<size_t>(c)];
    ExprPtr k = MakeColumnRef(c, col.type);
    ctx->key_digests.push_back(k->ToString());
    pre->projections.push_back(k);
    pre->schema.Add(col.name, col.type.WithTimeAttribute(TimeAttribute::kNone));
    key_names->push_back(col.name);
  }
  std::vector<AstSet> sets = {{}};
  bool any_set = false;
  for (const auto& g : select.group_by) {
    std::vector<AstSet> element;
    RETURN_IF_ERROR(SetsOf(g, false, &element));
    any_set |= g.kind != ast::GroupingElement::Kind::kExpr && g.kind != ast::GroupingElement::Kind::kEmpty;
    if (sets.size() * element.size() > kMaxGroupingSets) {
      return Error(g.pos, "Too many grouping sets (more than " + std::to_string(kMaxGroupingSets) + ")");
    }
    std::vector<AstSet> product;
    for (const AstSet& s : sets) {
      for (const AstSet& e : element) {
        AstSet joined = s;
        joined.insert(joined.end(), e.begin(), e.end());
        product.push_back(std::move(joined));
      }
    }
    sets = std::move(product);
  }
  // Bind every key once, in order of first appearance; equal expressions are one key.
  std::map<const ast::Expr*, int> key_of;
  for (const AstSet& s : sets) {
    for (const ast::Expr* e : s) {
      if (key_of.count(e)) continue;
      if (e == group_window) {
        if (any_set) return NotSupported(e->pos, "A legacy group window in GROUPING SETS, ROLLUP or CUBE");
        // The legacy group window groups by its three window columns (the last in the scope).
        ctx->group_window = Upper(group_window->name.back());
        ctx->group_window_key = static_cast<int>(pre->projections.size());
        key_of[e] = ctx->group_window_key;
        for (size_t c = input.scope.columns.size() - 3; c < input.scope.columns.size(); ++c) {
          const ScopeColumn& col = input.scope.columns[c];
          ExprPtr k = MakeColumnRef(static_cast<int>(c), col.type);
          ctx->key_digests.push_back(k->ToString());
          pre->projections.push_back(k);
          pre->schema.Add(col.name, col.type.WithTimeAttribute(TimeAttribute::kNone));
          key_names->push_back(col.name);
        }
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*e, input.scope));
      const std::string digest = k->ToString();
      auto same = std::find(ctx->key_digests.begin(), ctx->key_digests.end(), digest);
      if (same != ctx->key_digests.end()) {
        key_of[e] = static_cast<int>(same - ctx->key_digests.begin());
        continue;
      }
      key_of[e] = static_cast<int>(pre->projections.size());
      ctx->key_digests.push_back(digest);
      std::string kn = e->kind == ast::ExprKind::kIdentifier ? e->As<ast::Identifier>().parts.back()
                                                             : "$f" + std::to_string(pre->projections.size());
      pre->projections.push_back(k);
      pre->schema.Add(kn, k->type.WithTimeAttribute(TimeAttribute::kNone));
      key_names->push_back(kn);
    }
  }
  // The distinct sets as key masks, in Calcite's order (insertion sort: the order is not a strict weak
  // one, and there are few sets).
  const size_t nk = pre->projections.size();
  std::vector<std::vector<bool>> masks;
  for (const AstSet& s : sets) {
    std::vector<bool> m(nk, false);
    for (size_t k = 0; k < extra.size(); ++k) m[k] = true;
    for (const ast::Expr* e : s) m[static_cast<size_t>(key_of[e])] = true;
    if (std::find(masks.begin(), masks.end(), m) != masks.end()) continue;
    size_t at = masks.size();
    while (at > 0 && CalciteBefore(m, masks[at - 1])) --at;
    masks.insert(masks.begin() + static_cast<std::ptrdiff_t>(at), std::move(m));
  }
  if (masks.size() > 1) ctx->grouping_sets = std::move(masks);
  return Status::OK();
}

// With several grouping sets: the key columns some set leaves out become nullable, and $e joins the
// keys (after them, as Flink's groupBy=[a, b, $e]).
void Binder::PrepareGroupingSets(AggContext* ctx) {
  if (ctx->grouping_sets.empty()) return;
  const size_t nk = ctx->num_keys;
  for (size_t k = 0; k < nk; ++k) {
    bool dropped = false;
    for (const auto& s : ctx->grouping_sets) dropped |= !s[k];
    if (dropped) ctx->output_types[k] = ctx->output_types[k].WithNullable(true);
  }
  ctx->expand_ids.clear();
  for (const auto& s : ctx->grouping_sets) {
    int64_t id = 0;
    for (size_t k = 0; k < nk; ++k) id = (id << 1) | (s[k] ? 0 : 1);
    ctx->expand_ids.push_back(id);
  }
  ctx->key_digests.push_back("$e");  // matches no expression
  ctx->output_types.push_back(LogicalType::BigInt().WithNullable(false));
  ctx->num_keys = nk + 1;
}

// The Expand between `pre` and the aggregate's Exchange; `group_keys` gets the keys and $e. An
// aggregate argument that is also a key reads a copy of it, which the Expand never nulls.
PlanNodePtr Binder::PlanExpand(const std::shared_ptr<CalcNode>& pre, const AggContext& ctx, std::vector<AggregateCall>* aggs,
                               std::vector<int>* group_keys) {
  const size_t nk = ctx.num_keys - 1;
  auto own_column = [&](int c) {
    if (c < 0 || static_cast<size_t>(c) >= nk) return c;
    pre->projections.push_back(pre->projections[static_cast<size_t>(c)]);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), pre->schema.field(static_cast<size_t>(c)).type);
    return static_cast<int>(pre->projections.size() - 1);
  };
  for (auto& a : *aggs) {
    for (int& c : a.args) c = own_column(c);
    a.filter = own_column(a.filter);
  }
  auto expand = std::make_shared<ExpandNode>();
  expand->inputs = {pre};
  expand->expand_ids = ctx.expand_ids;
  for (const auto& s : ctx.grouping_sets) {
    std::vector<bool> keep(pre->schema.size(), true);
    for (size_t k = 0; k < nk; ++k) keep[k] = s[k];
    expand->keep.push_back(std::move(keep));
  }
  for (size_t c = 0; c < pre->schema.size(); ++c) {
    const Field& f = pre->schema.field(c);
    expand->schema.Add(f.name, c < nk ? ctx.output_types[c] : f.type);
  }
  expand->schema.Add("$e", LogicalType::BigInt().WithNullable(false));
  group_keys->clear();
  for (size_t k = 0; k < nk; ++k) group_keys->push_back(static_cast<int>(k));
  group_keys->push_back(static_cast<int>(pre->schema.size()));
  return expand;
}

// GROUPING(k1, ..., kn) / GROUPING_ID(...) over the aggregate's output: bit n-1-i is set when the
// current grouping set leaves out ki. Without grouping sets every key is grouped: 0.
Result<ExprPtr> Binder::BindGroupingCall(const ast::Call& call, const AggContext& ctx) {
  const std::string name = Upper(call.name.back());
  if (call.args.empty()) return Error(call.pos, "Invalid number of arguments to function '" + name + "'");
  std::vector<size_t> keys;
  for (const auto& a : call.args) {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, ctx.input));
    auto it = std::find(ctx.key_digests.begin(), ctx.key_digests.end(), b->ToString());
    if (it == ctx.key_digests.end()) return Error(a->pos, "Argument to " + name + " operator must be a grouped expression");
    keys.push_back(static_cast<size_t>(it - ctx.key_digests.begin()));
  }
  const LogicalType type = LogicalType::BigInt().WithNullable(false);
  auto value_in = [&](const std::vector<bool>& set) {
    int64_t v = 0;
    for (size_t k : keys) v = (v << 1) | (set[k] ? 0 : 1);
    return MakeLiteral(Value::Int(type, v));
  };
  if (ctx.grouping_sets.empty()) return MakeLiteral(Value::Int(type, 0));
  // CASE($e = id0, v0, $e = id1, v1, ..., v_last), as Flink's Calc prints it.
  const int e_col = static_cast<int>(ctx.num_keys - 1);
  ExprPtr e = MakeColumnRef(e_col, type);
  std::vector<ExprPtr> args;
  const size_t n = ctx.grouping_sets.size();
  for (size_t s = 0; s + 1 < n; ++s) {
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {e, MakeLiteral(Value::Int(type, ctx.expand_ids[s]))}, call.pos));
    args.push_back(eq);
    args.push_back(value_in(ctx.grouping_sets[s]));
  }
  args.push_back(value_in(ctx.grouping_sets[n - 1]));
  auto c = std::make_shared<Expr>();
  c->kind = ExprKind::kCase;
  c->type = type;
  c->args = std::move(args);
  c->has_else = true;
  return ExprPtr(c);
}

}  // namespace sluice
