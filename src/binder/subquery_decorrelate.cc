// Correlated subqueries that group (GROUP BY, aggregates, HAVING) or are DISTINCT (binder.h),
// decorrelated as Calcite's RelDecorrelator and Flink's SubQueryDecorrelator do: the WHERE conjuncts
// `inner_column = outer_column` are taken out of the subquery, those inner columns join its GROUP BY
// (or its DISTINCT columns) and its output, and the subquery's rows are then joined with the outer
// rows on them like those of an uncorrelated subquery:
//
//   a IN (SELECT MAX(x) FROM t2 WHERE t2.k = t1.k GROUP BY t2.g)
//     -> semi join ON a = m AND t1.k = k with (SELECT MAX(x) AS m, k FROM t2 GROUP BY k, g)
//
// (a row whose key is NULL can never be joined, so those rows are filtered first, as Calcite does).
// Another correlation (`t2.x < t1.y`) uses Calcite's value generator: the subquery's rows joined with
// the distinct values of the outer columns it reads, which then key the groups as inner columns would.
// An outer column the SELECT list, GROUP BY or HAVING reads (in an aggregate's argument, grouped, or
// the item of a plain or DISTINCT subquery) is carried as Calcite carries it: read as the inner column
// of its equality, or joined from the value generator below the aggregate and then grouped by
// (`SUM(i.v * o.w)` groups by k and w). Outside an aggregate's argument and not grouped it is refused
// with Calcite's validator wording, as Flink refuses it. Inside a set operation a correlation is refused
// with Flink's wording, whose decorrelation leaves the correlation variable in the plan there.
#include <algorithm>
#include <functional>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "common/check.h"
#include "function/scalar_function.h"
#include "plan/optimizer.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

void SplitConjuncts(const ast::Expr& e, std::vector<const ast::Expr*>* out) {
  if (e.kind == ast::ExprKind::kBinary && e.As<ast::Binary>().op == ast::BinaryOp::kAnd) {
    SplitConjuncts(*e.As<ast::Binary>().left, out);
    SplitConjuncts(*e.As<ast::Binary>().right, out);
    return;
  }
  out->push_back(&e);
}

}  // namespace

bool HasAnySubquery(const ast::Expr& e) {
  std::vector<const ast::Expr*> scalars;
  CollectScalarSubqueries(e, &scalars);
  return !scalars.empty() || HasSubqueryPredicate(e);
}

bool IsCorrelationRefusal(const Status& status) {
  return !status.ok() && status.message().find("A correlated reference") != std::string::npos;
}

bool IsGroupedSelect(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSelect || !q.with.empty() || q.limit || q.offset) return false;
  const auto& s = q.As<ast::Select>();
  if (!s.from || !s.windows.empty()) return false;
  std::vector<const ast::Call*> aggs;
  for (const auto& item : s.items) CollectAggregates(*item.expr, &aggs);
  return s.distinct || !s.group_by.empty() || s.having || !aggs.empty();
}

Status Binder::CorrelatedSetOperation(const ast::Query& query, ast::SourcePos pos) const {
  return Error(pos, "unexpected correlate variable $cor0 in the plan (a correlated reference inside a " +
                        std::string(query.kind == ast::QueryKind::kSetOp ? "set operation (UNION, INTERSECT, EXCEPT)" : "WITH") +
                        " of a subquery cannot be decorrelated, as in Flink)");
}

Status Binder::DecorrelateWhere(const ast::Select& select, const Scope& outer, const PlanNodePtr& outer_rows, Relation* inner,
                                std::vector<int>* inner_keys, std::vector<int>* outer_keys) {
  const size_t ni = inner->scope.columns.size();
  std::vector<ExprPtr> local, correlated;
  std::vector<const ast::Expr*> nested;  // conjuncts with subqueries of their own: BindWhere's
  bool equalities = true;
  if (select.where) {
    std::vector<const ast::Expr*> conjuncts;
    SplitConjuncts(*select.where, &conjuncts);
    for (const ast::Expr* c : conjuncts) {
      if (HasAnySubquery(*c)) {
        nested.push_back(c);
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr b, BindCorrelated(*c, inner->scope, outer));
      std::vector<bool> used(ni + outer.columns.size(), false);
      CollectColumns(*b, &used);
      if (std::find(used.begin() + static_cast<std::ptrdiff_t>(ni), used.end(), true) == used.end()) {
        local.push_back(b);
        continue;
      }
      correlated.push_back(b);
      // inner_column = outer_column, in either order, of one type.
      const bool eq = b->kind == ExprKind::kCall && b->function && b->function->name == "=" && b->args.size() == 2 &&
                      b->args[0]->kind == ExprKind::kColumnRef && b->args[1]->kind == ExprKind::kColumnRef &&
                      b->args[0]->type.EqualsIgnoringNullability(b->args[1]->type);
      int a = eq ? b->args[0]->column_index : -1, o = eq ? b->args[1]->column_index : -1;
      if (a >= static_cast<int>(ni)) std::swap(a, o);
      if (!eq || a >= static_cast<int>(ni) || o < static_cast<int>(ni)) {
        equalities = false;
        continue;
      }
      inner_keys->push_back(a);
      outer_keys->push_back(o - static_cast<int>(ni));
    }
  }
  // Rows with a NULL key can never join: filtered first, as Calcite's decorrelation does.
  for (int k : equalities ? *inner_keys : std::vector<int>{}) {
    const LogicalType& t = inner->scope.columns[static_cast<size_t>(k)].type;
    if (!t.nullable()) continue;
    ASSIGN_OR_RETURN(ExprPtr nn, MakeFunctionCall("IS NOT NULL", {MakeColumnRef(k, t)}, select.from->pos));
    local.push_back(nn);
  }
  if (ExprPtr cond = AndAll(local)) {
    auto filter = std::make_shared<CalcNode>();
    filter->inputs = {inner->node};
    filter->projections = IdentityProjections(inner->node->schema);
    filter->condition = cond;
    filter->schema = inner->node->schema;
    inner->node = filter;
  }
  for (const ast::Expr* c : nested) {
    ASSIGN_OR_RETURN(*inner, BindWhere(*c, std::move(*inner)));
  }
  ASSIGN_OR_RETURN(std::vector<bool> outside, OuterColumnsOutsideWhere(select, inner->scope, outer));
  // Calcite's value generator: the rows joined with the distinct values of the outer columns the
  // correlation reads (all of them when it is not only equalities; else those the SELECT list, GROUP
  // BY or HAVING read that no equality provides), which then key them as inner columns would.
  std::vector<bool> used(ni + outer.columns.size(), false);
  if (equalities) {
    for (size_t o = 0; o < outer.columns.size(); ++o) {
      const bool provided = std::find(outer_keys->begin(), outer_keys->end(), static_cast<int>(o)) != outer_keys->end();
      used[ni + o] = outside[o] && !provided;
    }
  } else {
    for (const ExprPtr& c : correlated) CollectColumns(*c, &used);
    for (size_t o = 0; o < outer.columns.size(); ++o) used[ni + o] = used[ni + o] || outside[o];
    outer_keys->clear();
    inner_keys->clear();
  }
  std::vector<int> generated;
  for (size_t o = 0; o < outer.columns.size(); ++o) {
    if (used[ni + o]) generated.push_back(static_cast<int>(o));
  }
  if (!generated.empty()) {
    const ExprPtr condition = equalities ? MakeLiteral(Value::Boolean(true)) : AndAll(correlated);
    ASSIGN_OR_RETURN(inner->node, JoinCorrelationValues(outer_rows, generated, inner->node, condition));
    for (size_t j = 0; j < generated.size(); ++j) {
      const auto& f = inner->node->schema.field(ni + j);
      inner->scope.columns.push_back({"$cor", f.name, f.type});
      outer_keys->push_back(generated[j]);
      inner_keys->push_back(static_cast<int>(ni + j));
    }
  }
  outer_in_inner_.assign(outer.columns.size(), -1);
  for (size_t j = 0; j < outer_keys->size(); ++j) outer_in_inner_[static_cast<size_t>((*outer_keys)[j])] = (*inner_keys)[j];
  return Status::OK();
}

Result<std::vector<bool>> Binder::OuterColumnsOutsideWhere(const ast::Select& select, const Scope& inner, const Scope& outer) {
  const size_t no = outer.columns.size();
  std::vector<bool> read(no, false), grouped(no, false);
  std::vector<std::pair<const ast::Identifier*, int>> bare;  // read outside an aggregate's argument
  const Scope* enclosing = outer_scope_;
  outer_scope_ = nullptr;  // each scope on its own: an outer column is one `inner` does not have
  std::function<void(const ast::Expr&, bool, bool)> walk = [&](const ast::Expr& e, bool in_aggregate, bool group_key) {
    if (e.kind != ast::ExprKind::kIdentifier) {
      const bool aggregate = in_aggregate || IsAggregateCall(e);
      ForEachChild(e, [&](const ast::Expr& c) { walk(c, aggregate, group_key); });
      return;
    }
    const auto& id = e.As<ast::Identifier>();
    if (BindIdentifier(id, inner).ok()) return;
    Result<ExprPtr> bound = BindIdentifier(id, outer);
    if (!bound.ok()) return;  // binding the clause reports it
    std::vector<bool> cols(no, false);
    CollectColumns(**bound, &cols);
    for (size_t o = 0; o < no; ++o) {
      if (!cols[o]) continue;
      read[o] = true;
      if (group_key) grouped[o] = true;
      if (!in_aggregate && !group_key) bare.push_back({&id, static_cast<int>(o)});
    }
  };
  for (const auto& item : select.items) {
    if (item.expr->kind != ast::ExprKind::kStar) walk(*item.expr, false, false);
  }
  if (select.having) walk(*select.having, false, false);
  std::function<void(const ast::GroupingElement&)> keys = [&](const ast::GroupingElement& g) {
    if (g.expr) walk(*g.expr, false, true);
    for (const auto& sub : g.elements) keys(sub);
  };
  for (const auto& g : select.group_by) keys(g);
  outer_scope_ = enclosing;
  std::vector<const ast::Call*> aggs;
  for (const auto& item : select.items) CollectAggregates(*item.expr, &aggs);
  if (select.group_by.empty() && !select.having && aggs.empty()) return read;
  for (const auto& [id, o] : bare) {
    if (grouped[static_cast<size_t>(o)]) continue;
    const std::string& qualifier = outer.columns[static_cast<size_t>(o)].qualifier;
    std::string text = id->parts.size() == 1 ? (qualifier.empty() ? "" : qualifier + ".") + id->parts[0] : "";
    for (size_t p = 0; p < id->parts.size() && id->parts.size() > 1; ++p) text += (p ? "." : "") + id->parts[p];
    return Error(id->pos, "Expression '" + text + "' is not being grouped (the subquery aggregates its rows: an outer column " +
                              "outside an aggregate's argument must be one of its GROUP BY keys, as in Flink; add it to the " +
                              "subquery's GROUP BY, or compute the expression outside the subquery)");
  }
  return read;
}

Result<Binder::Relation> Binder::BindGroupedCorrelated(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                                       std::vector<int>* outer_keys, size_t* num_items) {
  const auto& select = query.As<ast::Select>();
  ASSIGN_OR_RETURN(Relation inner, BindTableRef(*select.from));
  aggregate_ttl_ms_ = -1;
  RETURN_IF_ERROR(ApplyStateTtlHints(select, inner));
  std::vector<int> inner_keys;
  RETURN_IF_ERROR(DecorrelateWhere(select, outer, outer_rows, &inner, &inner_keys, outer_keys));
  // The items over the aggregate (its keys first: the inner key columns) or over the inner rows.
  std::vector<const ast::Call*> aggs;
  for (const auto& item : select.items) CollectAggregates(*item.expr, &aggs);
  const bool grouped = !select.group_by.empty() || select.having || !aggs.empty();
  std::vector<std::pair<int, LogicalType>> key_columns;
  std::vector<std::string> key_names;
  for (int k : inner_keys) {
    key_columns.push_back({k, inner.scope.columns[static_cast<size_t>(k)].type});
    key_names.push_back(inner.scope.columns[static_cast<size_t>(k)].name);
  }
  Relation out;
  if (grouped) {
    extra_group_columns_ = inner_keys;
    ASSIGN_OR_RETURN(out, BindAggregate(select, std::move(inner)));
    for (size_t j = 0; j < key_columns.size(); ++j) key_columns[j].first = static_cast<int>(j);
  } else {
    ASSIGN_OR_RETURN(out, BindProjection(select, std::move(inner)));
  }
  SLUICE_CHECK(out.node->kind == PlanKind::kCalc);  // BindAggregate and BindProjection end in their Calc
  auto calc = std::make_shared<CalcNode>(out.node->As<CalcNode>());
  *num_items = calc->projections.size();
  std::vector<std::string> names = calc->schema.names();
  for (size_t j = 0; j < key_columns.size(); ++j) {
    calc->projections.push_back(MakeColumnRef(key_columns[j].first, key_columns[j].second));
    names.push_back(key_names[j]);
  }
  Uniquify(&names);
  calc->schema = Schema();
  for (size_t i = 0; i < names.size(); ++i) calc->schema.Add(names[i], calc->projections[i]->type.WithTimeAttribute(TimeAttribute::kNone));
  out.node = calc;
  if (select.distinct) out.node = MakeDistinctAggregate(calc, aggregate_ttl_ms_);
  out.select_calc = nullptr;
  out.scope.columns.clear();
  for (const auto& f : out.node->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

Result<Binder::Relation> Binder::DecorrelateSubqueryRelation(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                                             size_t want_columns, const Status& refusal,
                                                             std::vector<ExprPtr>* correlation) {
  if (query.kind != ast::QueryKind::kSelect || !query.with.empty()) return CorrelatedSetOperation(query, query.pos);
  if (!IsGroupedSelect(query) && !IsPlainSelect(query)) return refusal;
  std::vector<int> outer_keys;
  size_t num_items = 0;
  ASSIGN_OR_RETURN(Relation rel, BindGroupedCorrelated(query, outer, outer_rows, &outer_keys, &num_items));
  const size_t nk = outer_keys.size();
  if (want_columns > 0 && num_items != want_columns) {
    return Error(query.pos, want_columns == 1 ? "The subquery of IN must return exactly one column, but returns " + std::to_string(num_items)
                                              : "The subquery of IN must return " + std::to_string(want_columns) +
                                                    " columns (one per value on its left), but returns " + std::to_string(num_items));
  }
  if (want_columns == 0 && num_items > 0) {
    // EXISTS reads only the keys.
    auto keys = std::make_shared<CalcNode>();
    keys->inputs = {rel.node};
    for (size_t j = 0; j < nk; ++j) {
      const auto& f = rel.node->schema.field(num_items + j);
      keys->projections.push_back(MakeColumnRef(static_cast<int>(num_items + j), f.type));
      keys->schema.Add(f.name, f.type);
    }
    rel.node = keys;
    rel.scope.columns.erase(rel.scope.columns.begin(), rel.scope.columns.begin() + static_cast<std::ptrdiff_t>(num_items));
  }
  const size_t nouter = outer.columns.size();
  for (size_t j = 0; j < nk; ++j) {
    const int o = outer_keys[j];
    const int k = static_cast<int>(nouter + want_columns + j);
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(o, outer.columns[static_cast<size_t>(o)].type),
                                                        MakeColumnRef(k, rel.node->schema.field(want_columns + j).type)},
                                                  query.pos));
    correlation->push_back(eq);
  }
  return rel;
}

Result<Binder::ScalarSide> Binder::GroupedScalarSide(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                                     ast::SourcePos pos) {
  ScalarSide side;
  size_t num_items = 0;
  ASSIGN_OR_RETURN(Relation rel, BindGroupedCorrelated(query, outer, outer_rows, &side.outer_keys, &num_items));
  if (num_items != 1) return Error(pos, "A scalar subquery must return exactly one column");
  // Calcite's SINGLE_VALUE of the item per key (the keys first), failing the job on a key's second row.
  const size_t nk = side.outer_keys.size();
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {rel.node};
  for (size_t j = 0; j <= nk; ++j) {
    const size_t c = j < nk ? j + 1 : 0;
    calc->projections.push_back(MakeColumnRef(static_cast<int>(c), rel.node->schema.field(c).type));
    calc->schema.Add(j < nk ? "k" + std::to_string(j) : "v", rel.node->schema.field(c).type);
  }
  ASSIGN_OR_RETURN(side.rel.node, SingleValueAggregate(calc, pos, nk));
  for (const auto& f : side.rel.node->schema.fields()) side.rel.scope.columns.push_back({"", f.name, f.type});
  return side;
}

}  // namespace sluice
