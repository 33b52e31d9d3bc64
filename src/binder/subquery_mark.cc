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
// A correlated subquery (equalities inner_column = outer_column only) adds its correlation columns to
// the distinct values and groups the counts by them, the joins keyed on them too.
#include <algorithm>
#include <set>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/scalar_function.h"
#include "plan/optimizer.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// `node` LEFT JOIN `right` ON left_keys = right_keys AND `condition` (or TRUE): the right columns
// appended, nullable, to the schema and to `scope` (qualifier "$subquery", names no query can spell).
void LeftJoinAppend(PlanNodePtr* node_io, Scope* scope, const PlanNodePtr& right, std::vector<int> left_keys,
                    std::vector<int> right_keys, ExprPtr condition, size_t* counter) {
  auto node = std::make_shared<JoinNode>();
  node->join_type = JoinType::kLeft;
  node->left_keys = std::move(left_keys);
  node->right_keys = std::move(right_keys);
  node->condition = condition ? condition : MakeLiteral(Value::Boolean(true));
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {*node_io};
  lx->schema = (*node_io)->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {right};
  rx->schema = right->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  for (const auto& f : (*node_io)->schema.fields()) node->schema.Add(f.name, f.type.WithTimeAttribute(TimeAttribute::kNone));
  for (auto& c : scope->columns) c.type = c.type.WithTimeAttribute(TimeAttribute::kNone);
  for (const auto& f : right->schema.fields()) {
    const std::string name = "$mark" + std::to_string((*counter)++) + "$" + f.name;
    const LogicalType t = f.type.WithTimeAttribute(TimeAttribute::kNone).WithNullable(true);
    node->schema.Add(name, t);
    scope->columns.push_back({"$subquery", name, t});
  }
  *node_io = node;
}

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

// CASE WHEN found THEN TRUE WHEN c IS NOT NULL AND (x IS NULL OR ck < c) THEN NULL ELSE FALSE END (the IS
// NULL test for a nullable x, the count test for nullable values).
// `call` binds a function call: Binder::MakeFunctionCall.
template <typename Call>
Result<ExprPtr> ThreeValuedIn(const ExprPtr& found, const ExprPtr& x, bool y_nullable, const ExprPtr& c, const ExprPtr& ck,
                              Call&& call) {
  std::vector<ExprPtr> nulls;
  if (x->type.nullable()) {
    ASSIGN_OR_RETURN(ExprPtr t, call("IS NULL", {x}));
    nulls.push_back(t);
  }
  if (y_nullable) {
    ASSIGN_OR_RETURN(ExprPtr t, call("<", {ck, c}));
    nulls.push_back(t);
  }
  ASSIGN_OR_RETURN(ExprPtr has_rows, call("IS NOT NULL", {c}));
  const LogicalType boolean = LogicalType::Boolean().WithNullable(true);
  ExprPtr any_null = nulls.size() == 1 ? nulls[0] : MakeSpecial(ExprKind::kOr, boolean, nulls);
  ExprPtr unknown = MakeSpecial(ExprKind::kAnd, boolean, {has_rows, any_null});
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCase;
  e->type = boolean;
  e->args = {found, MakeLiteral(Value::Boolean(true)), unknown, MakeLiteral(Value::Null(boolean)), MakeLiteral(Value::Boolean(false))};
  e->has_else = true;
  return ExprPtr(e);
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

// COUNT(*) AS c, COUNT(y) AS ck over the subquery's rows (its columns: `num_keys` correlation keys, then
// y), grouped by the keys (one global group without).
Result<PlanNodePtr> Binder::SubqueryCounts(const PlanNodePtr& rows, size_t num_keys, ast::SourcePos pos) {
  std::vector<ExprPtr> projections;
  std::vector<std::string> names;
  for (size_t k = 0; k < num_keys; ++k) {
    projections.push_back(MakeColumnRef(static_cast<int>(k), rows->schema.field(k).type));
    names.push_back(rows->schema.field(k).name);
  }
  projections.push_back(MakeLiteral(Value::Boolean(true)));
  projections.push_back(MakeColumnRef(static_cast<int>(num_keys), rows->schema.field(num_keys).type));
  names.push_back("i");
  names.push_back("y");
  PlanNodePtr pre = MakeCalc(rows, std::move(projections), names);
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {pre};
  ex->schema = pre->schema;
  for (size_t k = 0; k < num_keys; ++k) ex->keys.push_back(static_cast<int>(k));
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->inputs = {ex};
  agg->group_keys = ex->keys;
  agg->state_ttl_ms = aggregate_ttl_ms_;
  for (size_t k = 0; k < num_keys; ++k) agg->schema.Add(pre->schema.field(k).name, pre->schema.field(k).type);
  const char* count_names[] = {"c", "ck"};
  for (int i = 0; i < 2; ++i) {
    AggregateCall count;
    count.name = "COUNT";
    count.args = {static_cast<int>(num_keys) + i};
    count.arg_types = {pre->schema.field(num_keys + static_cast<size_t>(i)).type};
    count.arg_constants = {std::nullopt};
    count.output_name = count_names[i];
    auto fn = ResolveAggregate("COUNT", count.arg_types, {nullptr}, /*needs_retract=*/false);
    if (!fn.ok()) return Error(pos, fn.status().message());
    count.function = *fn;
    agg->schema.Add(count.output_name, count.function->result_type);
    agg->aggs.push_back(std::move(count));
  }
  return PlanNodePtr(agg);
}

// The correlation of a subquery under OR: equalities inner_column = outer_column only, as join keys
// (`outer` of the outer rows, `inner` of the subquery's relation, whose columns follow the `nouter`).
static bool CorrelationKeys(const std::vector<ExprPtr>& correlation, size_t nouter, std::vector<int>* outer,
                            std::vector<int>* inner) {
  for (const ExprPtr& c : correlation) {
    const bool eq = c->kind == ExprKind::kCall && c->function && c->function->name == "=" && c->args.size() == 2 &&
                    c->args[0]->kind == ExprKind::kColumnRef && c->args[1]->kind == ExprKind::kColumnRef &&
                    c->args[0]->type.EqualsIgnoringNullability(c->args[1]->type);
    int o = eq ? c->args[0]->column_index : -1, k = eq ? c->args[1]->column_index : -1;
    if (o >= static_cast<int>(nouter)) std::swap(o, k);
    if (!eq || o >= static_cast<int>(nouter) || k < static_cast<int>(nouter)) return false;
    outer->push_back(o);
    inner->push_back(k - static_cast<int>(nouter));
  }
  return true;
}

Result<Binder::Relation> Binder::JoinSubqueryMarks(const std::vector<const ast::Expr*>& predicates,
                                                   const std::set<const ast::Expr*>& unknown_as_false, Relation input) {
  size_t counter = 0;
  for (const ast::Expr* p : predicates) {
    const bool is_in = p->kind == ast::ExprKind::kIn;
    const ast::Query& query = is_in ? *p->As<ast::In>().subquery : *p->As<ast::Exists>().query;
    std::vector<ExprPtr> correlation;
    const size_t nouter = input.scope.columns.size();
    ASSIGN_OR_RETURN(Relation right, BindSubqueryRelation(query, input.scope, is_in, &correlation));
    std::vector<int> outer_keys, inner_keys;
    if (!CorrelationKeys(correlation, nouter, &outer_keys, &inner_keys)) {
      return NotSupported(p->pos, "A correlated IN or EXISTS subquery that is not a conjunct of WHERE (under OR, CASE, ...) "
                                  "with a correlated condition other than inner_column = outer_column");
    }
    const size_t nk = outer_keys.size();
    std::vector<ExprPtr> keys;  // the subquery's correlation columns
    std::vector<std::string> key_names;
    for (int k : inner_keys) {
      keys.push_back(MakeColumnRef(k, right.node->schema.field(static_cast<size_t>(k)).type));
      key_names.push_back("k" + std::to_string(key_names.size()));
    }
    // outer_keys[j] = the right side's column `first + j`, for a join whose left side has `nl` columns.
    auto key_eqs = [&](size_t nl, size_t first, std::vector<ExprPtr>* out) -> Status {
      for (size_t j = 0; j < nk; ++j) {
        const int o = outer_keys[j];
        ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(o, input.node->schema.field(static_cast<size_t>(o)).type),
                                                            MakeColumnRef(static_cast<int>(nl + first + j), keys[j]->type)}, p->pos));
        out->push_back(eq);
      }
      return Status::OK();
    };
    std::vector<int> key_columns;
    for (size_t j = 0; j < nk; ++j) key_columns.push_back(static_cast<int>(j));
    if (!is_in) {
      // SELECT DISTINCT k..., TRUE AS i: one row (per correlation key) while the subquery has rows.
      std::vector<ExprPtr> projections = keys;
      projections.push_back(MakeLiteral(Value::Boolean(true)));
      std::vector<std::string> names = key_names;
      names.push_back("i");
      PlanNodePtr marker = MakeDistinctAggregate(MakeCalc(right.node, std::move(projections), names), aggregate_ttl_ms_);
      std::vector<ExprPtr> eqs;
      RETURN_IF_ERROR(key_eqs(input.node->schema.size(), 0, &eqs));
      LeftJoinAppend(&input.node, &input.scope, marker, outer_keys, key_columns, AndAll(eqs), &counter);
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
    std::vector<ExprPtr> projections = {y};
    projections.insert(projections.end(), keys.begin(), keys.end());
    projections.push_back(MakeLiteral(Value::Boolean(true)));
    std::vector<std::string> names = {"y"};
    names.insert(names.end(), key_names.begin(), key_names.end());
    names.push_back("i");
    PlanNodePtr distinct = MakeDistinctAggregate(MakeCalc(right.node, std::move(projections), names), aggregate_ttl_ms_);
    const size_t nl = input.node->schema.size();
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {x, MakeColumnRef(static_cast<int>(nl), distinct->schema.field(0).type)}, p->pos));
    std::vector<ExprPtr> eqs = {eq};
    RETURN_IF_ERROR(key_eqs(nl, 1, &eqs));
    std::vector<int> left_keys = {xi}, right_keys = {0};
    for (size_t j = 0; j < nk; ++j) {
      left_keys.push_back(outer_keys[j]);
      right_keys.push_back(static_cast<int>(j + 1));
    }
    LeftJoinAppend(&input.node, &input.scope, distinct, left_keys, right_keys, AndAll(eqs), &counter);
    const int ii = static_cast<int>(nl + 1 + nk);
    ASSIGN_OR_RETURN(ExprPtr found, MakeFunctionCall("IS NOT NULL", {MakeColumnRef(ii, input.node->schema.field(ii).type)}, p->pos));
    ExprPtr result = found;
    if ((x->type.nullable() || y->type.nullable()) && (in.negated || !unknown_as_false.count(p))) {
      std::vector<ExprPtr> yp = keys;
      yp.push_back(y);
      std::vector<std::string> yn = key_names;
      yn.push_back("y");
      ASSIGN_OR_RETURN(PlanNodePtr counts, SubqueryCounts(MakeCalc(right.node, std::move(yp), yn), nk, p->pos));
      const size_t nc = input.node->schema.size();
      std::vector<ExprPtr> ceqs;
      RETURN_IF_ERROR(key_eqs(nc, 0, &ceqs));
      LeftJoinAppend(&input.node, &input.scope, counts, outer_keys, key_columns, AndAll(ceqs), &counter);
      const ExprPtr c = MakeColumnRef(static_cast<int>(nc + nk), input.node->schema.field(nc + nk).type);
      const ExprPtr ck = MakeColumnRef(static_cast<int>(nc + nk + 1), input.node->schema.field(nc + nk + 1).type);
      auto call = [&](const std::string& name, std::vector<ExprPtr> args) { return MakeFunctionCall(name, std::move(args), p->pos); };
      ASSIGN_OR_RETURN(result, ThreeValuedIn(found, x, y->type.nullable(), c, ck, call));
    }
    if (in.negated) {
      ASSIGN_OR_RETURN(result, MakeFunctionCall("NOT", {result}, p->pos));
    }
    replacements_[p] = result;
  }
  input.select_calc = nullptr;
  return input;
}

}  // namespace sluice
