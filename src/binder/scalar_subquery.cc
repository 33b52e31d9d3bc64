// Scalar subqueries (binder.h), planned as Flink plans them: the outer rows joined with the
// subquery's single row, whose value column the expression then reads. In WHERE the join is an inner
// join (the conjunct becomes its condition through the filter-into-join rule); in the SELECT list a
// LEFT join ON TRUE, so a subquery without rows gives NULL.
//
// An uncorrelated scalar subquery that is not an aggregate without GROUP BY (one row by construction)
// gets Calcite's SINGLE_VALUE aggregate over it, failing the job on a second row as Flink does.
// A correlated one is Flink's decorrelated form: a SELECT of one aggregate FROM ... WHERE whose
// correlated conjuncts are equalities `inner_column = outer_column`; it becomes that aggregate grouped
// by the inner columns (rows with a NULL key filtered first, as Flink does), joined on the equalities.
#include <algorithm>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/scalar_function.h"
#include "plan/optimizer.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// `(SELECT expr)`: one item without FROM, WHERE, aggregates or subqueries of its own.
bool IsValuesItem(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSelect || !q.order_by.empty() || q.limit || q.offset) return false;
  const auto& s = q.As<ast::Select>();
  if (s.from || s.where || !s.group_by.empty() || s.having || s.distinct || s.items.size() != 1) return false;
  const ast::Expr& item = *s.items[0].expr;
  std::vector<const ast::Call*> aggs;
  CollectAggregates(item, &aggs);
  return item.kind != ast::ExprKind::kStar && aggs.empty() && !HasAnySubquery(item);
}

}  // namespace

bool IsSingleRowAggregate(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSelect || q.limit || q.offset) return false;
  const auto& s = q.As<ast::Select>();
  if (!s.group_by.empty() || s.having || s.distinct) return false;
  std::vector<const ast::Call*> aggs;
  for (const auto& item : s.items) CollectAggregates(*item.expr, &aggs);
  return !aggs.empty();
}

namespace {

void SplitAndConjuncts(const ast::Expr& e, std::vector<const ast::Expr*>* out) {
  if (e.kind == ast::ExprKind::kBinary && e.As<ast::Binary>().op == ast::BinaryOp::kAnd) {
    SplitAndConjuncts(*e.As<ast::Binary>().left, out);
    SplitAndConjuncts(*e.As<ast::Binary>().right, out);
    return;
  }
  out->push_back(&e);
}

}  // namespace

// A subquery that may return more than one row: Calcite's SINGLE_VALUE over all its rows (one global
// group), which returns the value of the only row and fails the job on a second one.
Result<PlanNodePtr> Binder::SingleValueAggregate(const PlanNodePtr& input, ast::SourcePos pos, size_t num_keys) const {
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {input};
  ex->schema = input->schema;
  for (size_t k = 0; k < num_keys; ++k) ex->keys.push_back(static_cast<int>(k));
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->inputs = {ex};
  agg->group_keys = ex->keys;
  agg->state_ttl_ms = aggregate_ttl_ms_;
  for (size_t k = 0; k < num_keys; ++k) agg->schema.Add(input->schema.field(k).name, input->schema.field(k).type);
  AggregateCall single;
  single.name = "SINGLE_VALUE";
  single.args = {static_cast<int>(num_keys)};
  single.arg_types = {input->schema.field(num_keys).type.WithTimeAttribute(TimeAttribute::kNone)};
  single.arg_constants = {std::nullopt};
  single.output_name = "$f0";
  auto fn = ResolveAggregate(single.name, single.arg_types, {nullptr}, /*needs_retract=*/false);
  if (!fn.ok()) return Error(pos, fn.status().message());
  single.function = *fn;
  agg->schema.Add(single.output_name, single.function->result_type);
  agg->aggs.push_back(std::move(single));
  return PlanNodePtr(agg);
}

void SplitScalarSubqueries(const ast::Expr& condition, std::vector<const ast::Expr*>* inner,
                           std::vector<const ast::Expr*>* left) {
  std::vector<const ast::Expr*> conjuncts;
  SplitAndConjuncts(condition, &conjuncts);
  for (const ast::Expr* c : conjuncts) {
    std::vector<const ast::Expr*> found;
    CollectScalarSubqueries(*c, &found);
    const bool comparison = c->kind == ast::ExprKind::kBinary && c->As<ast::Binary>().op != ast::BinaryOp::kAnd &&
                            c->As<ast::Binary>().op != ast::BinaryOp::kOr &&
                            c->As<ast::Binary>().op >= ast::BinaryOp::kEq && c->As<ast::Binary>().op <= ast::BinaryOp::kGe;
    for (const ast::Expr* s : found) {
      const bool operand = comparison && (c->As<ast::Binary>().left.get() == s || c->As<ast::Binary>().right.get() == s);
      (operand ? inner : left)->push_back(s);
    }
  }
}

void CollectScalarSubqueries(const ast::Expr& e, std::vector<const ast::Expr*>* out) {
  if (e.kind == ast::ExprKind::kSubquery) {
    out->push_back(&e);
    return;
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectScalarSubqueries(c, out); });
}

Result<Binder::ScalarSide> Binder::BindScalarSubquery(const ast::Query& query, const Scope& outer, const PlanNodePtr& outer_rows,
                                                      ast::SourcePos pos) {
  SubqueryScopeGuard guard(this, &outer, /*correlation_allowed=*/false);
  ScalarSide side;
  auto uncorrelated = BindQueryBody(query);
  const bool correlated = !uncorrelated.ok() && uncorrelated.status().message().find("A correlated reference") != std::string::npos;
  if (!correlated) {
    if (!uncorrelated.ok()) return uncorrelated.status();
    side.rel = std::move(*uncorrelated);
    if (side.rel.node->schema.size() != 1) {
      return Error(pos, "A scalar subquery must return exactly one column, but returns " +
                            std::to_string(side.rel.node->schema.size()));
    }
    if (!IsSingleRowAggregate(query)) {
      ASSIGN_OR_RETURN(side.rel.node, SingleValueAggregate(side.rel.node, pos));
      side.rel.scope.columns = {{"", side.rel.node->schema.field(0).name, side.rel.node->schema.field(0).type}};
      side.rel.select_calc = nullptr;
    }
    return side;
  }
  if (query.kind != ast::QueryKind::kSelect || !query.with.empty()) return CorrelatedSetOperation(query, pos);
  if (IsValuesItem(query)) return ValuesItemSide(query.As<ast::Select>(), outer, pos);
  const bool aggregate = IsSingleRowAggregate(query);
  if (!aggregate && IsGroupedSelect(query)) return GroupedScalarSide(query, outer, outer_rows, pos);
  // An ORDER BY without LIMIT or OFFSET orders nothing in a subquery (dropped, as Calcite does). With
  // one, Calcite's RelDecorrelator (which plans Flink's scalar subqueries) leaves the correlation in
  // the Sort, and Flink fails.
  const bool ordered = IsOrderedPlainSelect(query);
  if (ordered && (query.limit || query.offset)) return CorrelatedSortError(pos);
  if ((!aggregate && !IsPlainSelect(query) && !ordered) || !query.As<ast::Select>().from) {
    return NotSupported(pos, "A correlated scalar subquery that is not one aggregate without GROUP BY or a plain SELECT ... FROM ... WHERE");
  }
  const auto& select = query.As<ast::Select>();
  if (select.items.size() != 1 || select.items[0].expr->kind == ast::ExprKind::kStar) {
    return Error(pos, "A scalar subquery must return exactly one column");
  }
  ASSIGN_OR_RETURN(Relation inner, BindTableRef(*select.from));
  std::vector<int> inner_keys;
  RETURN_IF_ERROR(DecorrelateWhere(select, outer, outer_rows, &inner, &inner_keys, &side.outer_keys));
  if (!aggregate) {
    ASSIGN_OR_RETURN(side.rel.node, CorrelatedSingleValue(select, inner, inner_keys, pos));
    for (const auto& f : side.rel.node->schema.fields()) side.rel.scope.columns.push_back({"", f.name, f.type});
    return side;
  }
  RETURN_IF_ERROR(CorrelatedAggregate(select, std::move(inner), inner_keys, pos, &side));
  return side;
}

// A correlated `(SELECT expr)` without FROM, as Calcite plans it for Flink: the outer rows LEFT joined
// ON TRUE with SINGLE_VALUE(TRUE) of a one-row Values, the item computed over the joined row (NULL
// until the Values row has arrived).
Result<Binder::ScalarSide> Binder::ValuesItemSide(const ast::Select& select, const Scope& outer, ast::SourcePos pos) {
  ScalarSide side;
  {
    SubqueryScopeGuard none(this, nullptr, /*correlation_allowed=*/false);  // the outer row is the item's scope
    ASSIGN_OR_RETURN(side.outer_value, BindExpr(*select.items[0].expr, outer));
  }
  auto values = std::make_shared<ValuesNode>();
  values->rows.push_back({});
  auto marker = std::make_shared<CalcNode>();
  marker->inputs = {values};
  marker->projections = {MakeLiteral(Value::Boolean(true))};
  marker->schema.Add("nullIndicator", marker->projections[0]->type);
  ASSIGN_OR_RETURN(side.rel.node, SingleValueAggregate(marker, pos));
  for (const auto& f : side.rel.node->schema.fields()) side.rel.scope.columns.push_back({"", f.name, f.type});
  return side;
}

// A correlated plain SELECT: Calcite's SINGLE_VALUE of its column per correlation key.
Result<PlanNodePtr> Binder::CorrelatedSingleValue(const ast::Select& select, const Relation& inner,
                                                  const std::vector<int>& inner_keys, ast::SourcePos pos) {
  std::vector<ExprPtr> projections;
  Schema schema;
  for (int k : inner_keys) {
    projections.push_back(MakeColumnRef(k, inner.scope.columns[static_cast<size_t>(k)].type));
    schema.Add("k" + std::to_string(schema.size()), projections.back()->type);
  }
  ASSIGN_OR_RETURN(ExprPtr value, BindExpr(*select.items[0].expr, inner.scope));
  projections.push_back(value);
  schema.Add("v", value->type.WithTimeAttribute(TimeAttribute::kNone));
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {inner.node};
  calc->projections = std::move(projections);
  calc->schema = schema;
  return SingleValueAggregate(calc, pos, inner_keys.size());
}

// A correlated aggregate grouped by the correlation keys `inner_keys` (its keys first): the joined side,
// and its projection, the value, evaluated over the joined rows, where a COUNT of an outer row without a
// group reads 0 (Calcite's count-bug rule), as Flink plans it.
Status Binder::CorrelatedAggregate(const ast::Select& select, Relation inner, const std::vector<int>& inner_keys,
                                   ast::SourcePos pos, ScalarSide* side) {
  extra_group_columns_ = inner_keys;
  ASSIGN_OR_RETURN(side->rel, BindAggregate(select, std::move(inner)));
  const auto& calc = side->rel.node->As<CalcNode>();
  if (calc.projections.size() != 1) return Error(pos, "A scalar subquery must return exactly one column");
  if (calc.inputs[0]->kind != PlanKind::kGroupAggregate) {
    // The aggregation's own subqueries are joined to the aggregate's rows (its keys first): as Flink
    // plans it, the value over those rows, then SINGLE_VALUE of it per key (an outer row without a
    // group reads NULL, the LEFT join's, also for a COUNT).
    auto value = std::make_shared<CalcNode>();
    value->inputs = {calc.inputs[0]};
    for (size_t k = 0; k < inner_keys.size(); ++k) {
      value->projections.push_back(MakeColumnRef(static_cast<int>(k), calc.inputs[0]->schema.field(k).type));
      value->schema.Add("k" + std::to_string(k), value->projections.back()->type);
    }
    value->projections.push_back(calc.projections[0]);
    value->schema.Add("v", calc.projections[0]->type.WithTimeAttribute(TimeAttribute::kNone));
    value->condition = calc.condition;
    ASSIGN_OR_RETURN(side->rel.node, SingleValueAggregate(value, pos, inner_keys.size()));
    side->rel.scope.columns.clear();
    for (const auto& f : side->rel.node->schema.fields()) side->rel.scope.columns.push_back({"", f.name, f.type});
    return Status::OK();
  }
  const auto& agg = calc.inputs[0]->As<GroupAggregateNode>();
  side->value = calc.projections[0];
  for (size_t j = 0; j < agg.aggs.size(); ++j) {
    if (agg.aggs[j].name == "COUNT") side->count_columns.push_back(static_cast<int>(agg.group_keys.size() + j));
  }
  side->rel.node = calc.inputs[0];
  side->rel.scope.columns.clear();
  for (const auto& f : side->rel.node->schema.fields()) side->rel.scope.columns.push_back({"", f.name, f.type});
  return Status::OK();
}

Result<Binder::Relation> Binder::JoinScalarSubqueries(const std::vector<const ast::Expr*>& subqueries, Relation input,
                                                      bool left_outer) {
  for (const ast::Expr* s : subqueries) {
    if (replacements_.count(s)) continue;
    ASSIGN_OR_RETURN(ScalarSide side, BindScalarSubquery(*s->As<ast::SubqueryExpr>().query, input.scope, input.node, s->pos));
    const size_t nl = input.node->schema.size();
    auto node = std::make_shared<JoinNode>();
    // A correlated COUNT is 0, not missing, for an outer row without subquery rows: always LEFT joined.
    const bool outer = left_outer || !side.count_columns.empty();
    node->join_type = outer ? JoinType::kLeft : JoinType::kInner;
    std::vector<ExprPtr> eqs;
    for (size_t k = 0; k < side.outer_keys.size(); ++k) {
      const int o = side.outer_keys[k];
      node->left_keys.push_back(o);
      node->right_keys.push_back(static_cast<int>(k));
      ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(o, input.scope.columns[static_cast<size_t>(o)].type),
                                                          MakeColumnRef(static_cast<int>(nl + k), side.rel.node->schema.field(k).type)},
                                                    s->pos));
      eqs.push_back(eq);
    }
    node->condition = eqs.empty() ? MakeLiteral(Value::Boolean(true)) : AndAll(eqs);
    auto lx = std::make_shared<ExchangeNode>();
    lx->inputs = {input.node};
    lx->schema = input.node->schema;
    lx->keys = node->left_keys;
    auto rx = std::make_shared<ExchangeNode>();
    rx->inputs = {side.rel.node};
    rx->schema = side.rel.node->schema;
    rx->keys = node->right_keys;
    node->inputs = {lx, rx};
    std::vector<std::string> names = input.node->schema.names();
    for (const auto& f : side.rel.node->schema.fields()) names.push_back(f.name);
    Uniquify(&names);
    for (auto& c : input.scope.columns) c.type = c.type.WithTimeAttribute(TimeAttribute::kNone);
    for (size_t i = 0; i < names.size(); ++i) {
      LogicalType t = i < nl ? input.node->schema.field(i).type : side.rel.node->schema.field(i - nl).type;
      t = t.WithTimeAttribute(TimeAttribute::kNone);
      if (i >= nl && outer) t = t.WithNullable(true);
      node->schema.Add(names[i], t);
      if (i >= nl) input.scope.columns.push_back({"$scalar", names[i], t});
    }
    const size_t value = node->schema.size() - 1;
    replacements_[s] = MakeColumnRef(static_cast<int>(value), node->schema.field(value).type);
    if (side.value) {
      // The value over the aggregate's columns, read after the join; a COUNT column as 0 for NULL.
      std::vector<int> shift(side.rel.node->schema.size());
      std::vector<ExprPtr> columns(shift.size());
      for (size_t i = 0; i < shift.size(); ++i) {
        shift[i] = static_cast<int>(nl + i);
        columns[i] = MakeColumnRef(static_cast<int>(nl + i), node->schema.field(nl + i).type);
      }
      for (int c : side.count_columns) {
        ASSIGN_OR_RETURN(ExprPtr is_null, MakeFunctionCall("IS NULL", {columns[static_cast<size_t>(c)]}, s->pos));
        auto e = std::make_shared<Expr>();
        e->kind = ExprKind::kCase;
        e->type = side.rel.node->schema.field(static_cast<size_t>(c)).type;
        e->args = {is_null, MakeLiteral(Value::BigInt(0)), columns[static_cast<size_t>(c)]};
        e->has_else = true;
        columns[static_cast<size_t>(c)] = e;
      }
      replacements_[s] = SubstituteColumns(side.value, columns);
    } else if (side.outer_value) {
      ASSIGN_OR_RETURN(ExprPtr missing, MakeFunctionCall("IS NULL", {MakeColumnRef(static_cast<int>(value), node->schema.field(value).type)}, s->pos));
      auto e = std::make_shared<Expr>();
      e->kind = ExprKind::kCase;
      e->type = side.outer_value->type.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone);
      e->args = {missing, MakeLiteral(Value::Null(e->type)), side.outer_value};
      e->has_else = true;
      replacements_[s] = e;
    }
    input.node = node;
    input.select_calc = nullptr;
  }
  return input;
}

}  // namespace sluice
