// IN / EXISTS subqueries that are not a conjunct of WHERE (under OR, NOT of an OR, CASE, ...), planned
// as Calcite's SubQueryRemoveRule plans them for Flink: the outer rows LEFT joined with marker rows of
// the subquery, and the predicate rewritten to test the marker columns (binder.h).
//
//   EXISTS (q)          LEFT JOIN (SELECT DISTINCT TRUE AS i FROM q) ON TRUE;  i IS NOT NULL
//   x IN (SELECT y ...) LEFT JOIN (SELECT DISTINCT y, TRUE AS i ...) ON x = y;  i IS NOT NULL
//   (x1, x2) IN (SELECT y1, y2 ...)  ... ON x1 = y1 AND x2 = y2 (no counts: Flink refuses COUNT(y1, y2))
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

// A binding that failed on a column its scope does not have (the other side's, for a join's ON).
bool IsColumnNotFound(const Status& status) {
  return !status.ok() && status.message().find("not found in any table") != std::string::npos;
}

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

// SELECT DISTINCT columns..., TRUE AS i of `rows` (`projections` over them, named `names`, then "i"):
// the distinct values first and the marker after, as Flink plans it, so the values stay the unique key
// the join is keyed on; without values, SELECT DISTINCT TRUE AS i.
PlanNodePtr DistinctMarker(const PlanNodePtr& rows, std::vector<ExprPtr> projections, std::vector<std::string> names,
                           int64_t ttl_ms) {
  if (projections.empty()) {
    return MakeDistinctAggregate(MakeCalc(rows, {MakeLiteral(Value::Boolean(true))}, {"i"}), ttl_ms);
  }
  PlanNodePtr distinct = MakeDistinctAggregate(MakeCalc(rows, std::move(projections), names), ttl_ms);
  std::vector<ExprPtr> marked = IdentityProjections(distinct->schema);
  marked.push_back(MakeLiteral(Value::Boolean(true)));
  names.push_back("i");
  return MakeCalc(distinct, std::move(marked), names);
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
  // Under AND / OR from the root of WHERE, UNKNOWN acts as FALSE (Calcite's Logic.UNKNOWN_AS_FALSE), and
  // so it does in a searched CASE's WHEN conditions wherever the CASE is.
  if (e.kind == ast::ExprKind::kCase && !e.As<ast::Case>().operand) {
    for (const auto& [when, then] : e.As<ast::Case>().when_then) {
      CollectSubqueryPredicates(*when, out, unknown_as_false, /*positive=*/true);
      CollectSubqueryPredicates(*then, out, unknown_as_false, /*positive=*/false);
    }
    if (e.As<ast::Case>().else_expr) CollectSubqueryPredicates(*e.As<ast::Case>().else_expr, out, unknown_as_false, false);
    return;
  }
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

Result<PlanNodePtr> Binder::JoinCorrelationValues(const PlanNodePtr& outer_rows, const std::vector<int>& outer_cols,
                                                  const PlanNodePtr& inner, const ExprPtr& condition) {
  std::vector<ExprPtr> projections;
  std::vector<std::string> names;
  for (int o : outer_cols) {
    projections.push_back(MakeColumnRef(o, outer_rows->schema.field(static_cast<size_t>(o)).type));
    names.push_back(outer_rows->schema.field(static_cast<size_t>(o)).name);
  }
  PlanNodePtr values = MakeDistinctAggregate(MakeCalc(outer_rows, std::move(projections), names), aggregate_ttl_ms_);
  const size_t ni = inner->schema.size();
  std::vector<int> mapping(ni + outer_rows->schema.size(), -1);
  for (size_t i = 0; i < ni; ++i) mapping[i] = static_cast<int>(i);
  for (size_t j = 0; j < outer_cols.size(); ++j) mapping[ni + static_cast<size_t>(outer_cols[j])] = static_cast<int>(ni + j);
  ExprPtr cond = RemapColumns(condition, mapping);
  auto node = std::make_shared<JoinNode>();
  node->join_type = JoinType::kInner;
  node->residual = AndAll(SplitEquiKeys(cond, ni, node.get()));
  node->condition = cond;
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {inner};
  lx->schema = inner->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {values};
  rx->schema = values->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  names = inner->schema.names();
  for (const auto& f : values->schema.fields()) names.push_back(f.name);
  Uniquify(&names);
  for (size_t i = 0; i < names.size(); ++i) {
    const LogicalType& t = i < ni ? inner->schema.field(i).type : values->schema.field(i - ni).type;
    node->schema.Add(names[i], t.WithTimeAttribute(TimeAttribute::kNone));
  }
  return PlanNodePtr(node);
}

Result<Binder::MarkSide> Binder::DecorrelateMarks(const Relation& input, const Relation& right,
                                                 const std::vector<ExprPtr>& correlation) {
  MarkSide side;
  side.rows = right.node;
  const size_t nouter = input.scope.columns.size();
  std::vector<int> inner_keys;
  if (!CorrelationKeys(correlation, nouter, &side.outer_keys, &inner_keys)) {
    // Calcite's value generator: the subquery's rows joined with the distinct values of the outer
    // columns its correlation reads, which then key the markers as inner columns would.
    side.outer_keys.clear();
    inner_keys.clear();
    std::vector<bool> used(nouter + right.node->schema.size(), false);
    for (const ExprPtr& c : correlation) CollectColumns(*c, &used);
    for (size_t o = 0; o < nouter; ++o) {
      if (used[o]) side.outer_keys.push_back(static_cast<int>(o));
    }
    // The correlation over outer ++ subquery columns, as JoinCorrelationValues reads it: subquery first.
    const size_t nr = right.node->schema.size();
    std::vector<int> swap(nouter + nr);
    for (size_t i = 0; i < swap.size(); ++i) swap[i] = static_cast<int>(i < nouter ? nr + i : i - nouter);
    ASSIGN_OR_RETURN(side.rows, JoinCorrelationValues(input.node, side.outer_keys, right.node, RemapColumns(AndAll(correlation), swap)));
    for (size_t j = 0; j < side.outer_keys.size(); ++j) inner_keys.push_back(static_cast<int>(nr + j));
  }
  for (int k : inner_keys) side.keys.push_back(MakeColumnRef(k, side.rows->schema.field(static_cast<size_t>(k)).type));
  return side;
}

// outer_keys[j] = column `first + j` of a join's right side, whose left side has `nl` columns.
Status Binder::MarkKeyEqualities(const MarkSide& side, const PlanNode& left, size_t nl, size_t first, ast::SourcePos pos,
                                 std::vector<ExprPtr>* out) {
  for (size_t j = 0; j < side.outer_keys.size(); ++j) {
    const int o = side.outer_keys[j];
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(o, left.schema.field(static_cast<size_t>(o)).type),
                                                        MakeColumnRef(static_cast<int>(nl + first + j), side.keys[j]->type)}, pos));
    out->push_back(eq);
  }
  return Status::OK();
}

// EXISTS: SELECT DISTINCT k..., TRUE AS i, one row (per correlation key) while the subquery has rows,
// LEFT joined; the predicate is i IS NOT NULL.
Status Binder::JoinExistsMark(const ast::Expr& p, const MarkSide& side, Relation* input, size_t* counter) {
  std::vector<ExprPtr> projections = side.keys;
  std::vector<std::string> names;
  for (size_t j = 0; j < side.keys.size(); ++j) names.push_back("k" + std::to_string(j));
  PlanNodePtr marker = DistinctMarker(side.rows, std::move(projections), std::move(names), aggregate_ttl_ms_);
  std::vector<ExprPtr> eqs;
  RETURN_IF_ERROR(MarkKeyEqualities(side, *input->node, input->node->schema.size(), 0, p.pos, &eqs));
  std::vector<int> key_columns;
  for (size_t j = 0; j < side.keys.size(); ++j) key_columns.push_back(static_cast<int>(j));
  LeftJoinAppend(&input->node, &input->scope, marker, side.outer_keys, key_columns, AndAll(eqs), counter);
  const int m = static_cast<int>(input->node->schema.size() - 1);
  ASSIGN_OR_RETURN(replacements_[&p], MakeFunctionCall("IS NOT NULL", {MakeColumnRef(m, input->node->schema.field(m).type)}, p.pos));
  return Status::OK();
}

// x IN (SELECT y ...): SELECT DISTINCT y, k..., TRUE AS i LEFT joined ON x = y (and the keys); with the
// counts where UNKNOWN must be told from FALSE. A row (x1, ..., xn) IN (SELECT y1, ..., yn ...) is joined
// ON x1 = y1 AND ... AND xn = yn, as Calcite plans it; its counts would be COUNT(y1, ..., yn), which
// Flink refuses, and so does Sluice.
Status Binder::JoinInMark(const ast::Expr& p, const MarkSide& side, bool unknown_as_false, Relation* input, size_t* counter) {
  const auto& in = p.As<ast::In>();
  std::vector<const ast::Expr*> operands;
  if (in.operand->kind == ast::ExprKind::kRowCtor) {
    for (const auto& f : in.operand->As<ast::RowCtor>().fields) operands.push_back(f.get());
  } else {
    operands.push_back(in.operand.get());
  }
  const size_t n = operands.size();
  // Each x and y in their common type; a computed x becomes a column appended to the outer rows.
  std::vector<ExprPtr> xs, ys;
  bool nullable = false;
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*operands[i], input->scope));
    std::vector<ExprPtr> pair = {x, MakeColumnRef(static_cast<int>(i), side.rows->schema.field(i).type)};
    RETURN_IF_ERROR(CastAllToCommon(&pair, p.pos).status());
    x = pair[0];
    if (x->kind != ExprKind::kColumnRef) {
      std::vector<ExprPtr> projections = IdentityProjections(input->node->schema);
      projections.push_back(x);
      std::vector<std::string> names = input->node->schema.names();
      names.push_back("$mark" + std::to_string((*counter)++) + "$x");
      const LogicalType xt = x->type;
      input->node = MakeCalc(input->node, std::move(projections), names);
      input->scope.columns.push_back({"$subquery", names.back(), xt});
      input->select_calc = nullptr;
      x = MakeColumnRef(static_cast<int>(names.size() - 1), xt);
    }
    nullable = nullable || x->type.nullable() || pair[1]->type.nullable();
    xs.push_back(x);
    ys.push_back(pair[1]);
  }
  const bool three_valued = nullable && (in.negated || !unknown_as_false);
  if (three_valued && n > 1) {
    return Error(p.pos, "We now only support the count of one field. (Flink refuses a row-valued IN subquery whose values may "
                        "be NULL where its UNKNOWN is told from FALSE, as in the SELECT list or a NOT IN under OR: it would "
                        "count the subquery's rows without NULLs with COUNT of several columns)");
  }
  const size_t nk = side.keys.size();
  std::vector<ExprPtr> projections = ys;
  projections.insert(projections.end(), side.keys.begin(), side.keys.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back(n == 1 ? "y" : "y" + std::to_string(i));
  for (size_t j = 0; j < nk; ++j) names.push_back("k" + std::to_string(j));
  PlanNodePtr distinct = DistinctMarker(side.rows, std::move(projections), std::move(names), aggregate_ttl_ms_);
  const size_t nl = input->node->schema.size();
  std::vector<ExprPtr> eqs;
  std::vector<int> left_keys, right_keys;
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {xs[i], MakeColumnRef(static_cast<int>(nl + i), distinct->schema.field(i).type)}, p.pos));
    eqs.push_back(eq);
    left_keys.push_back(xs[i]->column_index);
    right_keys.push_back(static_cast<int>(i));
  }
  RETURN_IF_ERROR(MarkKeyEqualities(side, *input->node, nl, n, p.pos, &eqs));
  for (size_t j = 0; j < nk; ++j) {
    left_keys.push_back(side.outer_keys[j]);
    right_keys.push_back(static_cast<int>(j + n));
  }
  LeftJoinAppend(&input->node, &input->scope, distinct, left_keys, right_keys, AndAll(eqs), counter);
  const int ii = static_cast<int>(nl + n + nk);
  ASSIGN_OR_RETURN(ExprPtr result, MakeFunctionCall("IS NOT NULL", {MakeColumnRef(ii, input->node->schema.field(ii).type)}, p.pos));
  if (three_valued) {
    ASSIGN_OR_RETURN(result, JoinInCounts(p, side, xs[0], ys[0], result, input, counter));
  }
  if (in.negated) {
    ASSIGN_OR_RETURN(result, MakeFunctionCall("NOT", {result}, p.pos));
  }
  replacements_[&p] = result;
  return Status::OK();
}

// The subquery's COUNT(*) AS c, COUNT(y) AS ck (per correlation key) LEFT joined; the IN is then
// three-valued (ThreeValuedIn of `found`).
Result<ExprPtr> Binder::JoinInCounts(const ast::Expr& p, const MarkSide& side, const ExprPtr& x, const ExprPtr& y,
                                     const ExprPtr& found, Relation* input, size_t* counter) {
  const size_t nk = side.keys.size();
  std::vector<ExprPtr> yp = side.keys;
  yp.push_back(y);
  std::vector<std::string> yn;
  for (size_t j = 0; j < nk; ++j) yn.push_back("k" + std::to_string(j));
  yn.push_back("y");
  ASSIGN_OR_RETURN(PlanNodePtr counts, SubqueryCounts(MakeCalc(side.rows, std::move(yp), yn), nk, p.pos));
  const size_t nc = input->node->schema.size();
  std::vector<ExprPtr> ceqs;
  RETURN_IF_ERROR(MarkKeyEqualities(side, *input->node, nc, 0, p.pos, &ceqs));
  std::vector<int> key_columns;
  for (size_t j = 0; j < nk; ++j) key_columns.push_back(static_cast<int>(j));
  LeftJoinAppend(&input->node, &input->scope, counts, side.outer_keys, key_columns, AndAll(ceqs), counter);
  const ExprPtr c = MakeColumnRef(static_cast<int>(nc + nk), input->node->schema.field(nc + nk).type);
  const ExprPtr ck = MakeColumnRef(static_cast<int>(nc + nk + 1), input->node->schema.field(nc + nk + 1).type);
  auto call = [&](const std::string& name, std::vector<ExprPtr> args) { return MakeFunctionCall(name, std::move(args), p.pos); };
  return ThreeValuedIn(found, x, y->type.nullable(), c, ck, call);
}

Result<Binder::Relation> Binder::JoinSubqueryMarks(const std::vector<const ast::Expr*>& predicates,
                                                   const std::set<const ast::Expr*>& unknown_as_false, Relation input) {
  size_t counter = 0;
  for (const ast::Expr* p : predicates) {
    if (replacements_.count(p)) continue;
    const bool is_in = p->kind == ast::ExprKind::kIn;
    const ast::Query& query = is_in ? *p->As<ast::In>().subquery : *p->As<ast::Exists>().query;
    size_t want = 0;
    if (is_in) {
      const ast::Expr& operand = *p->As<ast::In>().operand;
      want = operand.kind == ast::ExprKind::kRowCtor ? operand.As<ast::RowCtor>().fields.size() : 1;
    }
    std::vector<ExprPtr> correlation;
    ASSIGN_OR_RETURN(Relation right, BindSubqueryRelation(query, input.scope, input.node, want, &correlation));
    if (!correlation.empty() && IsOrderedPlainSelect(query) && (query.limit || query.offset)) {
      return CorrelatedSortError(p->pos);  // Calcite's RelDecorrelator keeps the correlation in the Sort
    }
    if (!is_in && IsSingleRowAggregate(query)) {
      replacements_[p] = MakeLiteral(Value::Boolean(true));  // one row for every outer row, as BindSemiAntiJoin
      continue;
    }
    ASSIGN_OR_RETURN(MarkSide side, DecorrelateMarks(input, right, correlation));
    if (is_in) {
      RETURN_IF_ERROR(JoinInMark(*p, side, unknown_as_false.count(p) > 0, &input, &counter));
    } else {
      RETURN_IF_ERROR(JoinExistsMark(*p, side, &input, &counter));
    }
  }
  input.select_calc = nullptr;
  return input;
}

void Binder::ForgetSubqueries(const ast::Expr& e) {
  std::vector<const ast::Expr*> scalars, marks;
  std::set<const ast::Expr*> unused;
  CollectScalarSubqueries(e, &scalars);
  CollectSubqueryPredicates(e, &marks, &unused, /*positive=*/false);
  for (const ast::Expr* s : scalars) replacements_.erase(s);
  for (const ast::Expr* m : marks) replacements_.erase(m);
}

Result<bool> Binder::JoinOnSubqueriesToSide(const ast::Expr& on, Relation* left, Relation* right) {
  std::vector<const ast::Expr*> scalars, marks;
  std::set<const ast::Expr*> unknown_as_false;  // a join condition's UNKNOWN matches nothing, as FALSE
  CollectScalarSubqueries(on, &scalars);
  CollectSubqueryPredicates(on, &marks, &unknown_as_false, /*positive=*/true);
  if (scalars.empty() && marks.empty()) return false;
  auto attach = [&](Relation rel) -> Result<Relation> {
    if (!scalars.empty()) {
      ASSIGN_OR_RETURN(rel, JoinScalarSubqueries(scalars, std::move(rel), /*left_outer=*/true));
    }
    if (!marks.empty()) {
      ASSIGN_OR_RETURN(rel, JoinSubqueryMarks(marks, unknown_as_false, std::move(rel)));
    }
    return rel;
  };
  // The right side first, as Flink's subquery removal does; the left one for what reads left columns.
  const size_t nl = left->node->schema.size();
  Result<Relation> on_right = attach(*right);
  if (on_right.ok()) {
    std::vector<int> shift(on_right->node->schema.size());
    for (size_t i = 0; i < shift.size(); ++i) shift[i] = static_cast<int>(nl + i);
    for (auto& [expr, bound] : replacements_) {
      if (std::count(scalars.begin(), scalars.end(), expr) || std::count(marks.begin(), marks.end(), expr)) {
        bound = RemapColumns(bound, shift);
      }
    }
    *right = std::move(*on_right);
    return true;
  }
  ForgetSubqueries(on);
  Result<Relation> on_left = attach(*left);
  if (on_left.ok()) {
    *left = std::move(*on_left);
    return true;
  }
  ForgetSubqueries(on);
  // Reading both sides, the subquery would be correlated with the join itself, which Flink's subquery
  // removal cannot decorrelate: it fails with this message (an IN whose operand reads the other side
  // fails with a NullPointerException instead).
  if (!IsColumnNotFound(on_right.status()) || !IsColumnNotFound(on_left.status())) {
    return !IsColumnNotFound(on_right.status()) ? on_right.status() : on_left.status();
  }
  return Error(on.pos, "unexpected correlate variable $cor0 in the plan (a subquery in the ON condition of an outer "
                       "join that reads columns of both sides cannot be decorrelated, as in Flink)");
}

Result<Binder::Relation> Binder::DropHelperColumns(Relation rel) {
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {rel.node};
  Scope kept;
  for (size_t i = 0; i < rel.scope.columns.size(); ++i) {
    const auto& c = rel.scope.columns[i];
    if (c.qualifier == "$subquery" || c.qualifier == "$scalar") continue;
    calc->projections.push_back(MakeColumnRef(static_cast<int>(i), rel.node->schema.field(i).type));
    calc->schema.Add(rel.node->schema.field(i).name, rel.node->schema.field(i).type);
    kept.columns.push_back(c);
  }
  rel.node = calc;
  rel.scope = std::move(kept);
  rel.select_calc = nullptr;
  return rel;
}

}  // namespace sluice
