// Binding of set operations (binder.h): UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL], planned with
// Flink's answers and changelogs:
// - UNION ALL: one n-ary Union.
// - UNION: the Union, then a GroupAggregate over every column (Flink's plan).
// - INTERSECT ALL / EXCEPT ALL: Flink's rewrites (RewriteIntersectAllRule, RewriteMinusAllRule): a Union
//   of both sides with marker columns, a GroupAggregate of per-side counts (COUNT of the markers) or of
//   the marker sum, a Calc keeping the rows left over, and a Correlate with ReplicateRows that emits
//   each of them as many times as the result holds it.
// - INTERSECT / EXCEPT: Flink plans a semi / anti join under a GroupAggregate; Sluice plans the same
//   marker Union, a GroupAggregate of MAX(marker) per side (a value that changes only when a side's
//   first row comes or its last row goes, so the aggregate emits nothing for further copies), a Calc
//   keeping the rows present on the left and (not) on the right, and a GroupAggregate over every column,
//   which, as Flink's, emits +I when a row enters the result and -D when it leaves it
//   (docs/flink_differences.md#intersect-and-except-plans).
#include "binder/binder.h"

#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

namespace {

// A set operation of kind `kind` (and ALL flag) whose branches can join its parent's: nothing of its
// own (WITH, ORDER BY, LIMIT, OFFSET). Only UNIONs merge; INTERSECT and EXCEPT stay binary.
bool IsMergeable(const ast::Query& q, const ast::SetOp& parent) {
  if (parent.op != ast::SetOpKind::kUnion) return false;
  if (q.kind != ast::QueryKind::kSetOp || !q.with.empty() || !q.order_by.empty() || q.limit || q.offset) return false;
  const auto& op = q.As<ast::SetOp>();
  return op.op == parent.op && op.all == parent.all;
}

std::string SetOpName(const ast::SetOp& op) {
  std::string name = op.op == ast::SetOpKind::kUnion ? "UNION" : op.op == ast::SetOpKind::kIntersect ? "INTERSECT" : "EXCEPT";
  return op.all ? name + " ALL" : name;
}

ExprPtr Literal(Value v) { return MakeLiteral(std::move(v)); }

ExprPtr BigIntLiteral(int64_t v) { return Literal(Value::Int(LogicalType::BigInt().WithNullable(false), v)); }

// A Calc over `input` with projections `exprs` named `names`, and an optional condition.
std::shared_ptr<CalcNode> MakeCalc(const PlanNodePtr& input, std::vector<ExprPtr> exprs, const std::vector<std::string>& names,
                                   ExprPtr condition = nullptr) {
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {input};
  calc->projections = std::move(exprs);
  calc->condition = std::move(condition);
  for (size_t i = 0; i < calc->projections.size(); ++i) calc->schema.Add(names[i], calc->projections[i]->type);
  return calc;
}

// An Exchange on the first `num_keys` columns and a GroupAggregate on them with `aggs` above it.
std::shared_ptr<GroupAggregateNode> MakeGroupAggregate(const PlanNodePtr& input, size_t num_keys, std::vector<AggregateCall> aggs) {
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {input};
  ex->schema = input->schema;
  for (size_t i = 0; i < num_keys; ++i) ex->keys.push_back(static_cast<int>(i));
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->inputs = {ex};
  agg->group_keys = ex->keys;
  for (size_t i = 0; i < num_keys; ++i) {
    const auto& f = input->schema.field(i);
    agg->schema.Add(f.name, f.type.WithTimeAttribute(TimeAttribute::kNone));
  }
  for (const auto& a : aggs) agg->schema.Add(a.output_name, a.function->result_type);
  agg->aggs = std::move(aggs);
  return agg;
}

// FUNCTION(column) over `input`, not yet retracting (trait inference switches when the input retracts).
Result<AggregateCall> MakeAggregateCall(const std::string& name, const PlanNode& input, int column, std::string output_name) {
  AggregateCall ac;
  ac.name = name;
  ac.args = {column};
  ac.arg_types = {input.schema.field(static_cast<size_t>(column)).type.WithTimeAttribute(TimeAttribute::kNone)};
  ac.arg_constants = {std::nullopt};
  ASSIGN_OR_RETURN(ac.function, ResolveAggregate(name, ac.arg_types, {nullptr}, false));
  ac.output_name = std::move(output_name);
  return ac;
}

}  // namespace

PlanNodePtr binder_internal::MakeDistinctAggregate(const PlanNodePtr& input, int64_t state_ttl_ms) {
  auto agg = MakeGroupAggregate(input, input->schema.size(), {});
  agg->state_ttl_ms = state_ttl_ms;
  return agg;
}

// "a UNION b UNION c ..." parses into a chain of binary SetOps as long as the branches; a chain of one
// kind of UNION binds into ONE n-ary Union, collecting the branches with an explicit stack, so neither
// the binder's recursion nor the plan grows with the number of branches (Calcite's UnionMergeRule gives
// Flink the same node).
Result<Binder::Relation> Binder::BindSetOp(const ast::SetOp& op) {
  struct Branch {
    const ast::Query* query;
    ast::SourcePos pos;  // the set operation that joins it
  };
  std::vector<Branch> branches;
  std::vector<Branch> todo = {{op.right.get(), op.pos}, {op.left.get(), op.pos}};
  while (!todo.empty()) {
    Branch b = todo.back();
    todo.pop_back();
    if (IsMergeable(*b.query, op)) {
      const auto& inner = b.query->As<ast::SetOp>();
      todo.push_back({inner.right.get(), inner.pos});
      todo.push_back({inner.left.get(), inner.pos});
      continue;
    }
    branches.push_back(b);
  }
  std::vector<Relation> inputs;
  inputs.reserve(branches.size());
  for (const Branch& b : branches) {
    ASSIGN_OR_RETURN(Relation r, BindQueryBody(*b.query));
    if (!inputs.empty() && r.node->schema.size() != inputs[0].node->schema.size()) {
      return Error(b.pos, "Column count mismatch in " + SetOpName(op) + ": " + std::to_string(inputs[0].node->schema.size()) +
                              " vs " + std::to_string(r.node->schema.size()));
    }
    inputs.push_back(std::move(r));
  }
  Schema schema;
  ASSIGN_OR_RETURN(std::vector<PlanNodePtr> nodes, CastBranchesToCommon(inputs, op.pos, &schema));
  PlanNodePtr out;
  if (op.op == ast::SetOpKind::kUnion) {
    auto u = std::make_shared<UnionNode>();
    u->schema = schema;
    u->inputs = std::move(nodes);
    out = op.all ? PlanNodePtr(u) : MakeDistinctAggregate(u, -1);
  } else if (op.all) {
    ASSIGN_OR_RETURN(out, PlanIntersectExceptAll(op.op == ast::SetOpKind::kIntersect, nodes[0], nodes[1]));
  } else {
    ASSIGN_OR_RETURN(out, PlanIntersectExcept(op.op == ast::SetOpKind::kIntersect, nodes[0], nodes[1]));
  }
  Relation rel;
  rel.node = out;
  for (const auto& f : out->schema.fields()) rel.scope.columns.push_back({"", f.name, f.type});
  return rel;
}

// Common types per column (a Calc casting a branch where needed), and the schema of their union in
// `out_schema`; the first branch names the columns.
Result<std::vector<PlanNodePtr>> Binder::CastBranchesToCommon(const std::vector<Relation>& inputs, ast::SourcePos pos,
                                                              Schema* out) {
  const Schema& first = inputs[0].node->schema;
  Schema& out_schema = *out;
  std::vector<std::vector<ExprPtr>> projections(inputs.size());
  std::vector<bool> cast(inputs.size(), false);
  for (size_t i = 0; i < first.size(); ++i) {
    std::vector<ExprPtr> column;
    column.reserve(inputs.size());
    for (const Relation& r : inputs) column.push_back(MakeColumnRef(static_cast<int>(i), r.node->schema.field(i).type));
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&column, pos));
    bool nullable = false;
    for (size_t b = 0; b < inputs.size(); ++b) {
      nullable |= column[b]->type.nullable();
      cast[b] = cast[b] || column[b]->kind != ExprKind::kColumnRef;
      projections[b].push_back(std::move(column[b]));
    }
    // A time attribute survives the union when every branch has the same kind on this column (Flink's
    // leastRestrictive of time indicators), so windows over a UNION ALL of event-time streams work.
    TimeAttribute attr = inputs[0].node->schema.field(i).type.time_attribute();
    for (const Relation& r : inputs) {
      if (r.node->schema.field(i).type.time_attribute() != attr) attr = TimeAttribute::kNone;
    }
    out_schema.Add(first.field(i).name, common->type.WithNullable(nullable).WithTimeAttribute(attr));
  }
  std::vector<PlanNodePtr> nodes;
  for (size_t b = 0; b < inputs.size(); ++b) {
    PlanNodePtr in = inputs[b].node;
    if (!cast[b]) {
      nodes.push_back(in);
      continue;
    }
    // Each branch keeps the common column names, so the Union's inputs agree with its schema.
    nodes.push_back(MakeCalc(in, std::move(projections[b]), out_schema.names()));
  }
  return nodes;
}

// Each side's columns, then `markers` (literals); the Union of both sides.
Result<PlanNodePtr> Binder::MarkedUnion(const PlanNodePtr& left, const PlanNodePtr& right,
                                        const std::vector<std::vector<ExprPtr>>& markers,
                                        const std::vector<std::string>& marker_names) {
  auto u = std::make_shared<UnionNode>();
  const PlanNodePtr sides[2] = {left, right};
  for (size_t s = 0; s < 2; ++s) {
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names = left->schema.names();
    for (size_t i = 0; i < left->schema.size(); ++i) {
      // The union's columns are plain values: a time attribute does not survive a set operation.
      const LogicalType t = sides[s]->schema.field(i).type;
      ExprPtr ref = MakeColumnRef(static_cast<int>(i), t);
      if (t.time_attribute() != TimeAttribute::kNone) ref = MakeCast(ref, t.WithTimeAttribute(TimeAttribute::kNone), false);
      exprs.push_back(ref);
    }
    for (size_t m = 0; m < markers[s].size(); ++m) {
      exprs.push_back(markers[s][m]);
      names.push_back(marker_names[m]);
    }
    u->inputs.push_back(MakeCalc(sides[s], std::move(exprs), names));
  }
  // A marker is nullable in the union when either side's literal is NULL.
  const Schema& l = u->inputs[0]->schema;
  const Schema& r = u->inputs[1]->schema;
  for (size_t i = 0; i < l.size(); ++i) {
    u->schema.Add(l.field(i).name, l.field(i).type.WithNullable(l.field(i).type.nullable() || r.field(i).type.nullable()));
  }
  return PlanNodePtr(u);
}

Result<PlanNodePtr> Binder::PlanIntersectExcept(bool intersect, const PlanNodePtr& left, const PlanNodePtr& right) {
  const size_t width = left->schema.size();
  const LogicalType marker = LogicalType::Integer();
  const ExprPtr one = Literal(Value::Int(marker, 1));
  const ExprPtr null = Literal(Value::Null(marker));
  ASSIGN_OR_RETURN(PlanNodePtr u, MarkedUnion(left, right, {{one, null}, {null, one}}, {"vcol_left_marker", "vcol_right_marker"}));
  std::vector<AggregateCall> aggs;
  ASSIGN_OR_RETURN(AggregateCall l, MakeAggregateCall("MAX", *u, static_cast<int>(width), "vcol_left_marker"));
  ASSIGN_OR_RETURN(AggregateCall r, MakeAggregateCall("MAX", *u, static_cast<int>(width + 1), "vcol_right_marker"));
  aggs.push_back(std::move(l));
  aggs.push_back(std::move(r));
  auto agg = MakeGroupAggregate(u, width, std::move(aggs));
  // Present on the left, and on the right (INTERSECT) or not (EXCEPT).
  const Schema& as = agg->schema;
  ASSIGN_OR_RETURN(ExprPtr has_left, MakeFunctionCall("IS NOT NULL", {MakeColumnRef(static_cast<int>(width), as.field(width).type)}, {}));
  ASSIGN_OR_RETURN(ExprPtr right_test, MakeFunctionCall(intersect ? "IS NOT NULL" : "IS NULL",
                                                       {MakeColumnRef(static_cast<int>(width + 1), as.field(width + 1).type)}, {}));
  ExprPtr where = MakeSpecial(ExprKind::kAnd, LogicalType::Boolean().WithNullable(false), {has_left, right_test});
  std::vector<ExprPtr> cols;
  for (size_t i = 0; i < width; ++i) cols.push_back(MakeColumnRef(static_cast<int>(i), as.field(i).type));
  auto calc = MakeCalc(agg, std::move(cols), left->schema.names(), where);
  return MakeDistinctAggregate(calc, -1);
}

Result<PlanNodePtr> Binder::PlanIntersectExceptAll(bool intersect, const PlanNodePtr& left, const PlanNodePtr& right) {
  const size_t width = left->schema.size();
  PlanNodePtr counted;  // [n, columns...] with the rows to keep
  if (intersect) {
    const ExprPtr yes = Literal(Value::Boolean(true));
    const ExprPtr null = Literal(Value::Null(LogicalType::Boolean()));
    ASSIGN_OR_RETURN(PlanNodePtr u, MarkedUnion(left, right, {{yes, null}, {null, yes}}, {"vcol_left_marker", "vcol_right_marker"}));
    std::vector<AggregateCall> aggs;
    ASSIGN_OR_RETURN(AggregateCall l, MakeAggregateCall("COUNT", *u, static_cast<int>(width), "vcol_left_cnt"));
    ASSIGN_OR_RETURN(AggregateCall r, MakeAggregateCall("COUNT", *u, static_cast<int>(width + 1), "vcol_right_cnt"));
    aggs.push_back(std::move(l));
    aggs.push_back(std::move(r));
    auto agg = MakeGroupAggregate(u, width, std::move(aggs));
    const Schema& as = agg->schema;
    ExprPtr lc = MakeColumnRef(static_cast<int>(width), as.field(width).type);
    ExprPtr rc = MakeColumnRef(static_cast<int>(width + 1), as.field(width + 1).type);
    ASSIGN_OR_RETURN(ExprPtr l_any, MakeFunctionCall(">=", {lc, BigIntLiteral(1)}, {}));
    ASSIGN_OR_RETURN(ExprPtr r_any, MakeFunctionCall(">=", {rc, BigIntLiteral(1)}, {}));
    ExprPtr where = MakeSpecial(ExprKind::kAnd, LogicalType::Boolean().WithNullable(false), {l_any, r_any});
    ASSIGN_OR_RETURN(ExprPtr more, MakeFunctionCall(">", {lc, rc}, {}));
    ASSIGN_OR_RETURN(ExprPtr least, MakeFunctionCall("IF", {more, rc, lc}, {}));
    std::vector<ExprPtr> exprs = {least};
    std::vector<std::string> names = {"$f0"};
    for (size_t i = 0; i < width; ++i) {
      exprs.push_back(MakeColumnRef(static_cast<int>(i), as.field(i).type));
      names.push_back(as.field(i).name);
    }
    counted = MakeCalc(agg, std::move(exprs), names, where);
  } else {
    ASSIGN_OR_RETURN(PlanNodePtr u, MarkedUnion(left, right, {{BigIntLiteral(1)}, {BigIntLiteral(-1)}}, {"vcol_marker"}));
    ASSIGN_OR_RETURN(AggregateCall sum, MakeAggregateCall("SUM", *u, static_cast<int>(width), "sum_vcol_marker"));
    std::vector<AggregateCall> aggs;
    aggs.push_back(std::move(sum));
    auto agg = MakeGroupAggregate(u, width, std::move(aggs));
    const Schema& as = agg->schema;
    ExprPtr n = MakeColumnRef(static_cast<int>(width), as.field(width).type);
    ASSIGN_OR_RETURN(ExprPtr where, MakeFunctionCall(">", {n, BigIntLiteral(0)}, {}));
    std::vector<ExprPtr> exprs = {n};
    std::vector<std::string> names = {"sum_vcol_marker"};
    for (size_t i = 0; i < width; ++i) {
      exprs.push_back(MakeColumnRef(static_cast<int>(i), as.field(i).type));
      names.push_back(as.field(i).name);
    }
    counted = MakeCalc(agg, std::move(exprs), names, where);
  }
  auto replicate = std::make_shared<ReplicateRowsNode>();
  replicate->inputs = {counted};
  replicate->schema = counted->schema;
  std::vector<std::string> names = counted->schema.names();
  for (size_t i = 0; i < width; ++i) names.push_back(left->schema.field(i).name);
  Uniquify(&names);
  std::vector<ExprPtr> copies;
  for (size_t i = 0; i < width; ++i) {
    const LogicalType& t = counted->schema.field(i + 1).type;
    replicate->schema.Add(names[width + 1 + i], t);
    copies.push_back(MakeColumnRef(static_cast<int>(width + 1 + i), t));
  }
  return PlanNodePtr(MakeCalc(replicate, std::move(copies), left->schema.names()));
}

}  // namespace sluice
