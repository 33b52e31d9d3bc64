// IN / EXISTS subqueries that are not a conjunct of WHERE (under OR, NOT of an OR, CASE, ...), planned
// as Calcite's SubQueryRemoveRule plans them for Flink: the outer rows LEFT joined with marker rows of
// the subquery, and the predicate rewritten to test the marker columns (binder.h).
//
//   EXISTS (q)          LEFT JOIN (SELECT DISTINCT TRUE AS i FROM q) ON TRUE;  i IS NOT NULL
//   x IN (SELECT y ...) LEFT JOIN (SELECT DISTINCT y, TRUE AS i ...) ON x = y;  i IS NOT NULL
//
// With a nullable x or y, IN is three-valued: the rows are also LEFT joined ON TRUE with the counts
// (SELECT COUNT(*) AS c, COUNT(y) AS ck ...), and the predicate is
//   CASE WHEN i IS NOT NULL THEN TRUE
//        WHEN c IS NOT NULL AND (x IS NULL OR ck < c) THEN NULL  -- q has rows, x or some y is NULL
//        ELSE FALSE END
// (c IS NULL: q has no rows, streaming emits no global aggregate row). NOT IN is NOT of it, so a NULL
// on either side makes it UNKNOWN as SQL's NOT IN. An IN reached from the root of WHERE through AND /
// OR only, where UNKNOWN acts as FALSE, needs no counts (Calcite's Logic.UNKNOWN_AS_FALSE).
// Correlated subqueries are refused here.
#include <set>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// Calc(projections) over `input`, named `names`.
PlanNodePtr MakeCalc(const PlanNodePtr& input, std::vector<ExprPtr> projections, const std::vector<std::string>& names) {
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {input};
  for (size_t i = 0; i < projections.size(); ++i) {
    calc->schema.Add(names[i], projections[i]->type.WithTimeAttribute(TimeAttribute::kNone));
  }
  calc->projections = std::move(projections);
  return calc;
}

}  // namespace

void CollectSubqueryPredicates(const ast::Expr& e, std::vector<const ast::Expr*>* out,
                               std::set<const ast::Expr*>* unknown_as_false, bool positive) {
  if ((e.kind == ast::ExprKind::kIn && e.As<ast::In>().subquery) || e.kind == ast::ExprKind::kExists) {
    out->push_back(&e);
    if (positive) unknown_as_false->insert(&e);
    return;
  }
  // Under AND / OR from the root of WHERE, UNKNOWN acts as FALSE (Calcite's Logic.UNKNOWN_AS_FALSE).
  const bool and_or = e.kind == ast::ExprKind::kBinary &&
                      (e.As<ast::Binary>().op == ast::BinaryOp::kAnd || e.As<ast::Binary>().op == ast::BinaryOp::kOr);
  ForEachChild(e, [&](const ast::Expr& c) { CollectSubqueryPredicates(c, out, unknown_as_false, positive && and_or); });
}

// One global COUNT(*) AS c, COUNT(y) AS ck over the subquery's rows (column 0: y).
Result<PlanNodePtr> Binder::SubqueryCounts(const PlanNodePtr& rows, ast::SourcePos pos) {
  const LogicalType& yt = rows->schema.field(0).type;
  PlanNodePtr pre = MakeCalc(rows, {MakeLiteral(Value::Boolean(true)), MakeColumnRef(0, yt)}, {"i", "y"});
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {pre};
  ex->schema = pre->schema;
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->inputs = {ex};
  agg->state_ttl_ms = aggregate_ttl_ms_;
  const char* names[] = {"c", "ck"};
  for (int i = 0; i < 2; ++i) {
    AggregateCall count;
    count.name = "COUNT";
    count.args = {i};
    count.arg_types = {pre->schema.field(static_cast<size_t>(i)).type};
    count.arg_constants = {std::nullopt};
    count.output_name = names[i];
    auto fn = ResolveAggregate("COUNT", count.arg_types, {nullptr}, /*needs_retract=*/false);
    if (!fn.ok()) return Error(pos, fn.status().message());
    count.function = *fn;
    agg->schema.Add(count.output_name, count.function->result_type);
    agg->aggs.push_back(std::move(count));
  }
  return PlanNodePtr(agg);
}

Result<Binder::Relation> Binder::JoinSubqueryMarks(const std::vector<const ast::Expr*>& predicates,
                                                   const std::set<const ast::Expr*>& unknown_as_false, Relation input) {
  size_t counter = 0;
  // `input` LEFT JOIN `right` ON left_keys = right_keys (or TRUE): the right columns appended, nullable,
  // to the schema and to the scope (qualifier "$subquery", names no query can spell).
  auto left_join = [&counter](Relation* input, const PlanNodePtr& right, std::vector<int> left_keys,
                              std::vector<int> right_keys, ExprPtr condition) {
  auto node = std::make_shared<JoinNode>();
  node->join_type = JoinType::kLeft;
  node->left_keys = std::move(left_keys);
  node->right_keys = std::move(right_keys);
  node->condition = condition ? condition : MakeLiteral(Value::Boolean(true));
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {input->node};
  lx->schema = input->node->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {right};
  rx->schema = right->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  for (const auto& f : input->node->schema.fields()) node->schema.Add(f.name, f.type.WithTimeAttribute(TimeAttribute::kNone));
  for (auto& c : input->scope.columns) c.type = c.type.WithTimeAttribute(TimeAttribute::kNone);
  for (const auto& f : right->schema.fields()) {
    const std::string name = "$mark" + std::to_string(counter++) + "$" + f.name;
    const LogicalType t = f.type.WithTimeAttribute(TimeAttribute::kNone).WithNullable(true);
    node->schema.Add(name, t);
    input->scope.columns.push_back({"$subquery", name, t});
  }
  input->node = node;
  input->select_calc = nullptr;
};
  for (const ast::Expr* p : predicates) {
    const bool is_in = p->kind == ast::ExprKind::kIn;
    const ast::Query& query = is_in ? *p->As<ast::In>().subquery : *p->As<ast::Exists>().query;
    std::vector<ExprPtr> correlation;
    ASSIGN_OR_RETURN(Relation right, BindSubqueryRelation(query, input.scope, is_in, &correlation));
    if (!correlation.empty()) {
      return NotSupported(p->pos, "A correlated IN or EXISTS subquery that is not a conjunct of WHERE (under OR, CASE, ...)");
    }
    if (!is_in) {
      // SELECT DISTINCT TRUE AS i: one row while the subquery has rows (Flink's plan of it).
      PlanNodePtr marker = MakeDistinctAggregate(MakeCalc(right.node, {MakeLiteral(Value::Boolean(true))}, {"i"}), aggregate_ttl_ms_);
      left_join(&input, marker, {}, {}, nullptr);
      const int m = static_cast<int>(input.node->schema.size() - 1);
      ASSIGN_OR_RETURN(replacements_[p], MakeFunctionCall("IS NOT NULL", {MakeColumnRef(m, input.node->schema.field(m).type)}, p->pos));
      continue;
    }
    const auto& in = p->As<ast::In>();
    // x and y in their common type; a computed x becomes a column appended to the outer rows.
    ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*in.operand, input.scope));
    std::vector<ExprPtr> pair = {x, MakeColumnRef(0, right.node->schema.field(0).type)};
    RETURN_IF_ERROR(CastAllToCommon(&pair, p->pos).status());
    x = pair[0];
    const ExprPtr y = pair[1];
    if (x->kind != ExprKind::kColumnRef) {
      std::vector<ExprPtr> projections = IdentityProjections(input.node->schema);
      projections.push_back(x);
      std::vector<std::string> names = input.node->schema.names();
      names.push_back("$mark" + std::to_string(counter++) + "$x");
      const LogicalType xt = x->type;
      input.node = MakeCalc(input.node, std::move(projections), names);
      input.scope.columns.push_back({"$subquery", names.back(), xt});
      input.select_calc = nullptr;
      x = MakeColumnRef(static_cast<int>(names.size() - 1), xt);
    }
    const int xi = x->column_index;
    // The distinct values with their marker: SELECT DISTINCT y, TRUE AS i.
    PlanNodePtr values = MakeCalc(right.node, {y, MakeLiteral(Value::Boolean(true))}, {"y", "i"});
    PlanNodePtr distinct = MakeDistinctAggregate(values, aggregate_ttl_ms_);
    const size_t nl = input.node->schema.size();
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {x, MakeColumnRef(static_cast<int>(nl), distinct->schema.field(0).type)}, p->pos));
    left_join(&input, distinct, {xi}, {0}, eq);
    const int ii = static_cast<int>(nl + 1);
    ASSIGN_OR_RETURN(ExprPtr found, MakeFunctionCall("IS NOT NULL", {MakeColumnRef(ii, input.node->schema.field(ii).type)}, p->pos));
    ExprPtr result = found;
    if ((x->type.nullable() || y->type.nullable()) && (in.negated || !unknown_as_false.count(p))) {
      const PlanNodePtr yrows = MakeCalc(right.node, {y}, {"y"});
      ASSIGN_OR_RETURN(PlanNodePtr counts, SubqueryCounts(yrows, p->pos));
      const size_t nc = input.node->schema.size();
      left_join(&input, counts, {}, {}, nullptr);
      const ExprPtr c = MakeColumnRef(static_cast<int>(nc), input.node->schema.field(nc).type);
      const ExprPtr ck = MakeColumnRef(static_cast<int>(nc + 1), input.node->schema.field(nc + 1).type);
      std::vector<ExprPtr> nulls;
      if (x->type.nullable()) {
        ASSIGN_OR_RETURN(ExprPtr t, MakeFunctionCall("IS NULL", {x}, p->pos));
        nulls.push_back(t);
      }
      if (y->type.nullable()) {
        ASSIGN_OR_RETURN(ExprPtr t, MakeFunctionCall("<", {ck, c}, p->pos));
        nulls.push_back(t);
      }
      ASSIGN_OR_RETURN(ExprPtr has_rows, MakeFunctionCall("IS NOT NULL", {c}, p->pos));
      ExprPtr any_null = nulls.size() == 1 ? nulls[0] : MakeSpecial(ExprKind::kOr, LogicalType::Boolean().WithNullable(true), nulls);
      ExprPtr unknown = MakeSpecial(ExprKind::kAnd, LogicalType::Boolean().WithNullable(true), {has_rows, any_null});
      auto e = std::make_shared<Expr>();
      e->kind = ExprKind::kCase;
      e->type = LogicalType::Boolean().WithNullable(true);
      e->args = {found, MakeLiteral(Value::Boolean(true)), unknown, MakeLiteral(Value::Null(LogicalType::Boolean().WithNullable(true))),
                 MakeLiteral(Value::Boolean(false))};
      e->has_else = true;
      result = e;
    }
    if (in.negated) {
      ASSIGN_OR_RETURN(result, MakeFunctionCall("NOT", {result}, p->pos));
    }
    replacements_[p] = result;
  }
  return input;
}

}  // namespace sluice
