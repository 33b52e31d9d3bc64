// Subqueries in WHERE (binder.h), planned as Flink's SubQueryRemoveRule and decorrelation plan them:
// a [NOT] IN (subquery) or [NOT] EXISTS conjunct becomes a LeftSemiJoin / LeftAntiJoin of the rows
// that pass the other conjuncts with the subquery's rows. One under OR, CASE, ... is a LEFT join with
// marker rows (binder/subquery_mark.cc).
//
// A correlated subquery is a plain SELECT ... FROM ... WHERE (no GROUP BY, aggregates, DISTINCT, set
// operation or LIMIT) whose WHERE conjuncts may read the outer query's columns: those conjuncts move
// into the join condition (an equality between an outer and an inner column becomes a join key, the
// rest a residual condition); the others filter the subquery's rows. The subquery's side of the join
// is its IN column, then the inner columns the moved conjuncts read. A correlated subquery that groups
// or is DISTINCT is decorrelated by binder/subquery_decorrelate.cc.
//
// NOT IN is an anti join on `x = y OR x IS NULL OR y IS NULL` (the IS NULL tests only for nullable
// sides), so a NULL on either side removes the row as SQL's three-valued NOT IN does; without NULLs it
// is an anti join on the key x = y.
#include <algorithm>
#include <set>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"
#include "plan/optimizer.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

void SplitAnd(const ast::Expr& e, std::vector<const ast::Expr*>* out) {
  if (e.kind == ast::ExprKind::kBinary && e.As<ast::Binary>().op == ast::BinaryOp::kAnd) {
    SplitAnd(*e.As<ast::Binary>().left, out);
    SplitAnd(*e.As<ast::Binary>().right, out);
    return;
  }
  out->push_back(&e);
}

// The conjuncts of a WHERE with NOT pushed through OR (De Morgan, as Calcite simplifies it before
// removing subqueries): NOT (a OR b) is the conjuncts NOT a and NOT b. `negated` marks a conjunct read
// under NOT.
struct Conjunct {
  const ast::Expr* expr;
  bool negated;
};

void SplitConjuncts(const ast::Expr& e, bool negated, std::vector<Conjunct>* out) {
  if (e.kind == ast::ExprKind::kBinary && e.As<ast::Binary>().op == (negated ? ast::BinaryOp::kOr : ast::BinaryOp::kAnd)) {
    SplitConjuncts(*e.As<ast::Binary>().left, negated, out);
    SplitConjuncts(*e.As<ast::Binary>().right, negated, out);
    return;
  }
  if (e.kind == ast::ExprKind::kUnary && e.As<ast::Unary>().op == ast::UnaryOp::kNot) {
    SplitConjuncts(*e.As<ast::Unary>().operand, !negated, out);
    return;
  }
  out->push_back({&e, negated});
}

// A WHERE conjunct that is a subquery predicate: [NOT] IN (subquery), [NOT] EXISTS, or NOT of one.
struct SubqueryPredicate {
  const ast::Query* query = nullptr;
  const ast::Expr* operand = nullptr;  // IN only
  bool anti = false;
  ast::SourcePos pos;
};

std::optional<SubqueryPredicate> AsSubqueryPredicate(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::kIn && e.As<ast::In>().subquery) {
    const auto& in = e.As<ast::In>();
    return SubqueryPredicate{in.subquery.get(), in.operand.get(), in.negated, e.pos};
  }
  if (e.kind == ast::ExprKind::kExists) return SubqueryPredicate{e.As<ast::Exists>().query.get(), nullptr, false, e.pos};
  if (e.kind == ast::ExprKind::kUnary && e.As<ast::Unary>().op == ast::UnaryOp::kNot) {
    auto inner = AsSubqueryPredicate(*e.As<ast::Unary>().operand);
    if (inner) inner->anti = !inner->anti;
    return inner;
  }
  return std::nullopt;
}

}  // namespace

bool IsPlainSelect(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSelect || !q.with.empty() || !q.order_by.empty() || q.limit || q.offset) return false;
  const auto& s = q.As<ast::Select>();
  if (!s.from || s.distinct || !s.group_by.empty() || s.having || !s.windows.empty()) return false;
  std::vector<const ast::Call*> aggs;
  for (const auto& item : s.items) CollectAggregates(*item.expr, &aggs);
  return aggs.empty();
}

bool IsOrderedPlainSelect(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSelect || !q.with.empty() || (q.order_by.empty() && !q.limit && !q.offset)) return false;
  for (const auto& o : q.order_by) {
    // An ordinal names a SELECT item, which the subquery's FROM-scoped sort cannot read.
    if (o.expr->kind == ast::ExprKind::kLiteral) return false;
  }
  const auto& s = q.As<ast::Select>();
  if (!s.from || s.distinct || !s.group_by.empty() || s.having || !s.windows.empty()) return false;
  std::vector<const ast::Call*> aggs;
  for (const auto& item : s.items) CollectAggregates(*item.expr, &aggs);
  return aggs.empty();
}

bool HasSubqueryPredicate(const ast::Expr& e) {
  if ((e.kind == ast::ExprKind::kIn && e.As<ast::In>().subquery) || e.kind == ast::ExprKind::kExists) return true;
  bool found = false;
  ForEachChild(e, [&](const ast::Expr& c) { found = found || HasSubqueryPredicate(c); });
  return found;
}

Result<Binder::Relation> Binder::BindWhere(const ast::Expr& where, Relation input) {
  std::vector<Conjunct> conjuncts;
  SplitConjuncts(where, /*negated=*/false, &conjuncts);
  std::vector<Conjunct> plain;
  std::vector<SubqueryPredicate> subqueries;
  std::vector<const ast::Expr*> marks;  // IN / EXISTS under OR, CASE, ...: subquery_mark.cc
  std::set<const ast::Expr*> unknown_as_false;
  for (const Conjunct& c : conjuncts) {
    if (auto p = AsSubqueryPredicate(*c.expr)) {
      p->anti = p->anti != c.negated;
      subqueries.push_back(*p);
    } else {
      CollectSubqueryPredicates(*c.expr, &marks, &unknown_as_false, /*positive=*/!c.negated);
      plain.push_back(c);
    }
  }
  // Scalar subqueries of the other conjuncts: inner joins where a comparison rejects their NULL, else
  // LEFT joins; dropped again after the filter.
  std::vector<const ast::Expr*> scalars, left_scalars;
  for (const Conjunct& c : plain) SplitScalarSubqueries(*c.expr, &scalars, &left_scalars);
  const Relation before = input;
  if (!scalars.empty()) {
    ASSIGN_OR_RETURN(input, JoinScalarSubqueries(scalars, std::move(input), /*left_outer=*/false));
  }
  if (!left_scalars.empty()) {
    ASSIGN_OR_RETURN(input, JoinScalarSubqueries(left_scalars, std::move(input), /*left_outer=*/true));
    scalars.insert(scalars.end(), left_scalars.begin(), left_scalars.end());
  }
  if (!marks.empty()) {
    ASSIGN_OR_RETURN(input, JoinSubqueryMarks(marks, unknown_as_false, std::move(input)));
  }
  ExprPtr cond;
  if (subqueries.empty()) {
    ASSIGN_OR_RETURN(cond, BindExpr(where, input.scope));
  } else {
    std::vector<ExprPtr> bound;
    for (const Conjunct& c : plain) {
      ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*c.expr, input.scope));
      if (b->type.id() != TypeId::kBoolean && b->type.id() != TypeId::kNull) {
        return Error(c.expr->pos, "WHERE clause must be a BOOLEAN expression, but is " + b->type.ToString());
      }
      if (c.negated) {
        ASSIGN_OR_RETURN(b, MakeFunctionCall("NOT", {b}, c.expr->pos));
      }
      bound.push_back(b);
    }
    cond = AndAll(std::move(bound));
  }
  if (cond) {
    if (cond->type.id() != TypeId::kBoolean && cond->type.id() != TypeId::kNull) {
      return Error(where.pos, "WHERE clause must be a BOOLEAN expression, but is " + cond->type.ToString());
    }
    auto filter = std::make_shared<CalcNode>();
    filter->inputs = {input.node};
    filter->projections = IdentityProjections(input.node->schema);
    filter->condition = cond;
    filter->schema = input.node->schema;
    input.node = filter;
  }
  if (!scalars.empty() || !marks.empty()) {
    for (const ast::Expr* s : scalars) replacements_.erase(s);
    for (const ast::Expr* m : marks) replacements_.erase(m);
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {input.node};
    for (size_t i = 0; i < before.node->schema.size(); ++i) {
      calc->projections.push_back(MakeColumnRef(static_cast<int>(i), input.node->schema.field(i).type));
      calc->schema.Add(input.node->schema.field(i).name, input.node->schema.field(i).type);
    }
    input.node = calc;
    input.scope.columns.resize(before.scope.columns.size());
  }
  for (const auto& p : subqueries) {
    ASSIGN_OR_RETURN(input, BindSemiAntiJoin(*p.query, p.operand, p.anti, p.pos, std::move(input)));
  }
  return input;
}

Result<ExprPtr> Binder::BindCorrelated(const ast::Expr& e, const Scope& inner, const Scope& outer) {
  SubqueryScopeGuard guard(this, &outer, /*correlation_allowed=*/true);
  return BindExpr(e, inner);
}

namespace {

PlanNodePtr FilterRows(PlanNodePtr rows, ExprPtr cond) {
  auto filter = std::make_shared<CalcNode>();
  filter->inputs = {rows};
  filter->projections = IdentityProjections(rows->schema);
  filter->condition = std::move(cond);
  filter->schema = rows->schema;
  return filter;
}

// The semi (anti) join of `left` with `right` on `cond` (equalities become keys), behind exchanges on
// them; of the left columns, the first `keep` (the outer rows' own; the rest are IN operands appended
// as join keys).
PlanNodePtr SemiAntiJoinNode(const PlanNodePtr& left, const PlanNodePtr& right, ExprPtr cond, bool anti, size_t keep) {
  auto node = std::make_shared<JoinNode>();
  node->join_type = anti ? JoinType::kAnti : JoinType::kSemi;
  const size_t nl = left->schema.size();
  std::vector<ExprPtr> residual = SplitEquiKeys(cond, nl, node.get());
  node->condition = cond ? cond : MakeLiteral(Value::Boolean(true));
  node->residual = AndAll(std::move(residual));
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {left};
  lx->schema = left->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {right};
  rx->schema = right->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  for (const auto& f : left->schema.fields()) node->schema.Add(f.name, f.type.WithTimeAttribute(TimeAttribute::kNone));
  if (keep == nl) return node;
  // Drop the appended IN operands again.
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {node};
  for (size_t i = 0; i < keep; ++i) {
    calc->projections.push_back(MakeColumnRef(static_cast<int>(i), node->schema.field(i).type));
    calc->schema.Add(node->schema.field(i).name, node->schema.field(i).type);
  }
  return calc;
}

std::string InColumnsError(size_t want, size_t got) {
  return want == 1 ? "The subquery of IN must return exactly one column, but returns " + std::to_string(got)
                   : "The subquery of IN must return " + std::to_string(want) + " columns (one per value on its left), but returns " +
                         std::to_string(got);
}
}  // namespace

Result<Binder::Relation> Binder::BindSubqueryRelation(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                                      size_t want_columns, std::vector<ExprPtr>* correlation) {
  SubqueryScopeGuard guard(this, &outer, /*correlation_allowed=*/false);
  const size_t nouter = outer.columns.size();
  const bool ordered = IsOrderedPlainSelect(query);
  if (!IsPlainSelect(query)) {
    Result<Relation> body = BindQueryBody(query);
    if (IsCorrelationRefusal(body.status()) && !ordered) {
      return DecorrelateSubqueryRelation(query, outer, outer_rows, want_columns, body.status(), correlation);
    }
    if (!IsCorrelationRefusal(body.status())) {
      ASSIGN_OR_RETURN(Relation rel, std::move(body));
      if (want_columns > 0 && rel.node->schema.size() != want_columns) {
        return Error(query.pos, InColumnsError(want_columns, rel.node->schema.size()));
      }
      return rel;
    }
    // A correlated plain SELECT with ORDER BY / LIMIT: planned below as a plain one, sorted after its WHERE.
  }
  const auto& select = query.As<ast::Select>();
  ASSIGN_OR_RETURN(Relation inner, BindTableRef(*select.from));
  const size_t ni = inner.scope.columns.size();
  // WHERE conjuncts: those reading outer columns (bound past the inner ones) move to the join.
  std::vector<ExprPtr> local, correlated;
  std::vector<bool> inner_read(ni, false);
  std::vector<const ast::Expr*> nested;  // conjuncts with subqueries of their own: BindWhere's
  if (select.where) {
    std::vector<const ast::Expr*> conjuncts;
    SplitAnd(*select.where, &conjuncts);
    for (const ast::Expr* c : conjuncts) {
      if (HasAnySubquery(*c)) {
        nested.push_back(c);
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr b, BindCorrelated(*c, inner.scope, outer));
      std::vector<bool> used(ni + nouter, false);
      CollectColumns(*b, &used);
      if (std::find(used.begin() + static_cast<std::ptrdiff_t>(ni), used.end(), true) == used.end()) {
        local.push_back(b);
        continue;
      }
      for (size_t i = 0; i < ni; ++i) inner_read[i] = inner_read[i] || used[i];
      correlated.push_back(b);
    }
  }
  if (ExprPtr cond = AndAll(local)) inner.node = FilterRows(inner.node, cond);
  for (const ast::Expr* c : nested) {
    ASSIGN_OR_RETURN(inner, BindWhere(*c, std::move(inner)));
  }
  if (ordered) {
    ASSIGN_OR_RETURN(inner, SortCorrelatedSubquery(query, std::move(inner)));
  }
  // The subquery's side: its IN column, then the inner columns the correlation reads.
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {inner.node};
  Relation out;
  std::vector<std::string> names;
  if (want_columns > 0) {
    bool star = false;
    for (const auto& item : select.items) star = star || item.expr->kind == ast::ExprKind::kStar;
    if (select.items.size() != want_columns || star) {
      return Error(query.pos, want_columns == 1 ? "The subquery of IN must return exactly one column"
                                                : InColumnsError(want_columns, select.items.size()));
    }
    for (size_t i = 0; i < want_columns; ++i) {
      Result<ExprPtr> bound = BindExpr(*select.items[i].expr, inner.scope);
      if (IsCorrelationRefusal(bound.status()) && ordered && (query.limit || query.offset)) {
        return CorrelatedSortError(select.items[i].pos);
      }
      if (IsCorrelationRefusal(bound.status())) {
        // An item reading outer columns: decorrelated as a grouping subquery's (the value generator).
        return DecorrelateSubqueryRelation(query, outer, outer_rows, want_columns, bound.status(), correlation);
      }
      ASSIGN_OR_RETURN(ExprPtr item, std::move(bound));
      calc->projections.push_back(item);
      names.push_back(select.items[i].alias.empty() ? ImplicitName(*select.items[i].expr, i) : select.items[i].alias);
    }
  }
  // Column mapping of the correlated conditions: inner i -> its place on the subquery's side (after
  // the outer columns), outer j -> j.
  std::vector<int> mapping(ni + nouter, -1);
  for (size_t j = 0; j < nouter; ++j) mapping[ni + j] = static_cast<int>(j);
  for (size_t i = 0; i < ni; ++i) {
    if (!inner_read[i]) continue;
    mapping[i] = static_cast<int>(nouter + calc->projections.size());
    calc->projections.push_back(MakeColumnRef(static_cast<int>(i), inner.scope.columns[i].type));
    names.push_back(inner.scope.columns[i].name);
  }
  for (const auto& c : correlated) correlation->push_back(RemapColumns(c, mapping));
  Uniquify(&names);
  for (size_t i = 0; i < names.size(); ++i) {
    calc->schema.Add(names[i], calc->projections[i]->type.WithTimeAttribute(TimeAttribute::kNone));
    out.scope.columns.push_back({"", names[i], calc->schema.field(i).type});
  }
  out.node = calc;
  return out;
}

// A correlated plain SELECT's ORDER BY / LIMIT / OFFSET over its rows that pass the local WHERE
// conjuncts, below the correlation: Flink's SubQueryDecorrelator pulls the correlation condition up
// through the Sort, so the LIMIT cuts the subquery's rows of all outer rows together (`EXISTS (SELECT 1
// FROM c WHERE c.k = o.k ORDER BY c.tier LIMIT 1)` is a semi join with the one row of the lowest tier).
// An ORDER BY reading the outer query leaves the correlation in the Sort, which Flink fails on.
Result<Binder::Relation> Binder::SortCorrelatedSubquery(const ast::Query& query, Relation inner) {
  Result<Relation> sorted = BindOrderLimit(query, std::move(inner), /*top=*/false);
  if (IsCorrelationRefusal(sorted.status())) return CorrelatedSortError(query.order_by.empty() ? query.pos : query.order_by[0].pos);
  return sorted;
}

// Flink fails where the correlation cannot move above a subquery's Sort: an outer column in its ORDER
// BY or SELECT list, or a LIMIT in a subquery Calcite's RelDecorrelator plans (a scalar one, IN /
// EXISTS outside WHERE's conjuncts).
Status Binder::CorrelatedSortError(ast::SourcePos pos) const {
  return Error(pos, "unexpected correlate variable $cor0 in the plan (a correlated subquery with ORDER BY, LIMIT or "
                    "OFFSET whose correlation is not in its WHERE, or outside a WHERE conjunct, cannot be decorrelated, "
                    "as in Flink)");
}

// An uncorrelated EXISTS reads one row while the subquery has rows, as Flink plans it:
// Calc(m, where m IS NOT NULL) over GroupAggregate(MIN(TRUE) AS m) of the subquery's rows.
Result<PlanNodePtr> Binder::NonEmptyMarker(PlanNodePtr rows, ast::SourcePos pos) {
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {rows};
  pre->projections = {MakeLiteral(Value::Boolean(true))};
  pre->schema.Add("i", pre->projections[0]->type);
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {pre};
  ex->schema = pre->schema;
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->inputs = {ex};
  AggregateCall min;
  min.name = "MIN";
  min.args = {0};
  min.arg_types = {pre->schema.field(0).type};
  min.arg_constants = {std::nullopt};
  min.output_name = "m";
  auto fn = ResolveAggregate("MIN", min.arg_types, {nullptr}, /*needs_retract=*/false);
  if (!fn.ok()) return Error(pos, fn.status().message());
  min.function = *fn;
  agg->aggs.push_back(min);
  agg->schema.Add("m", min.function->result_type);
  auto post = std::make_shared<CalcNode>();
  post->inputs = {agg};
  ExprPtr m = MakeColumnRef(0, agg->schema.field(0).type);
  post->projections = {m};
  ASSIGN_OR_RETURN(post->condition, MakeFunctionCall("IS NOT NULL", {m}, pos));
  post->schema = agg->schema;
  return PlanNodePtr(post);
}

Result<Binder::Relation> Binder::BindSemiAntiJoin(const ast::Query& query, const ast::Expr* operand, bool anti,
                                                  ast::SourcePos pos, Relation input) {
  // x [NOT] IN (SELECT y ...), or (x1, ..., xn) [NOT] IN (SELECT y1, ..., yn ...): one equality per value.
  std::vector<const ast::Expr*> operands;
  if (operand && operand->kind == ast::ExprKind::kRowCtor) {
    for (const auto& f : operand->As<ast::RowCtor>().fields) operands.push_back(f.get());
  } else if (operand) {
    operands.push_back(operand);
  }
  std::vector<ExprPtr> correlation;
  ASSIGN_OR_RETURN(Relation right, BindSubqueryRelation(query, input.scope, input.node, operands.size(), &correlation));
  if (!operand && IsSingleRowAggregate(query)) {
    // An aggregate without GROUP BY has its one row for every outer row: EXISTS is TRUE, as Calcite
    // simplifies it (NOT EXISTS FALSE).
    if (!anti) return input;
    auto none = std::make_shared<CalcNode>();
    none->inputs = {input.node};
    none->projections = IdentityProjections(input.node->schema);
    none->condition = MakeLiteral(Value::Boolean(false));
    none->schema = input.node->schema;
    input.node = none;
    input.select_calc = nullptr;
    return input;
  }
  const size_t nl0 = input.node->schema.size();
  std::vector<ExprPtr> conds;
  // Each xi and yi in their common type; a computed xi (or a cast) becomes a column appended to the left
  // side, so the equality stays a join key.
  std::vector<ExprPtr> xs;
  for (size_t i = 0; i < operands.size(); ++i) {
    ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*operands[i], input.scope));
    const LogicalType& yt = right.node->schema.field(i).type;
    std::vector<ExprPtr> pair = {x, MakeColumnRef(static_cast<int>(i), yt)};
    RETURN_IF_ERROR(CastAllToCommon(&pair, pos).status());
    if (pair[1]->kind != ExprKind::kColumnRef) {
      auto rc = std::make_shared<CalcNode>();
      rc->inputs = {right.node};
      rc->projections = IdentityProjections(right.node->schema);
      rc->projections[i] = pair[1];
      for (size_t c = 0; c < right.node->schema.size(); ++c) {
        rc->schema.Add(right.node->schema.field(c).name, c == i ? pair[1]->type : right.node->schema.field(c).type);
      }
      right.node = rc;
    }
    xs.push_back(pair[0]);
  }
  size_t appended = 0;
  for (auto& x : xs) {
    if (x->kind == ExprKind::kColumnRef) continue;
    auto lc = std::make_shared<CalcNode>();
    lc->inputs = {input.node};
    lc->projections = IdentityProjections(input.node->schema);
    lc->projections.push_back(x);
    lc->schema = input.node->schema;
    std::vector<std::string> names = input.node->schema.names();
    names.push_back("$f" + std::to_string(input.node->schema.size()));
    Uniquify(&names);
    lc->schema.Add(names.back(), x->type);
    x = MakeColumnRef(static_cast<int>(input.node->schema.size()), x->type);
    input.node = lc;
    ++appended;
  }
  const int nleft = static_cast<int>(input.node->schema.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const ExprPtr& x = xs[i];
    ExprPtr y = MakeColumnRef(nleft + static_cast<int>(i), right.node->schema.field(i).type);
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {x, y}, pos));
    if (anti && (x->type.nullable() || y->type.nullable())) {
      // NOT IN: a pair with a NULL on either side is not known to differ, so it does not clear the row.
      std::vector<ExprPtr> any;
      if (x->type.nullable()) { ASSIGN_OR_RETURN(ExprPtr t, MakeFunctionCall("IS NULL", {x}, pos)); any.push_back(t); }
      if (y->type.nullable()) { ASSIGN_OR_RETURN(ExprPtr t, MakeFunctionCall("IS NULL", {y}, pos)); any.push_back(t); }
      any.push_back(eq);
      eq = MakeSpecial(ExprKind::kOr, LogicalType::Boolean(), std::move(any));
    }
    conds.push_back(eq);
  }
  const bool extra_left = appended > 0;
  // The correlated conditions read outer columns as 0.., the subquery's from nouter: shift the
  // subquery's past an appended left column.
  for (auto& c : correlation) {
    if (extra_left) {
      std::vector<int> shift(nl0 + right.node->schema.size());
      for (size_t i = 0; i < shift.size(); ++i) shift[i] = static_cast<int>(i < nl0 ? i : i + appended);
      c = RemapColumns(c, shift);
    }
    conds.push_back(c);
  }
  if (!operand && correlation.empty()) {
    ASSIGN_OR_RETURN(right.node, NonEmptyMarker(right.node, pos));
  }
  input.node = SemiAntiJoinNode(input.node, right.node, AndAll(conds), anti, nl0);
  // A regular join materializes time attributes (plain timestamps afterwards, as in Flink).
  for (auto& c : input.scope.columns) c.type = c.type.WithTimeAttribute(TimeAttribute::kNone);
  input.select_calc = nullptr;
  return input;
}

}  // namespace sluice
