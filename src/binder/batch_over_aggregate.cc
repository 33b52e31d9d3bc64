// Binding of OVER aggregates in batch mode, as Flink's BatchPhysicalOverAggregate: the calls are grouped
// by their window's (PARTITION BY, ORDER BY); each group becomes an OverAggregate over a Sort (partition
// keys ascending, then the order keys) over an Exchange on the partition keys, and every call keeps its
// own frame: ROWS or RANGE between any two bounds (UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW,
// n FOLLOWING, UNBOUNDED FOLLOWING). Without a frame clause the frame is RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW with an ORDER BY and the whole partition without one, as in Calcite.
// Partition and order keys may be expressions (projected first); NULLs sort first ascending and last
// descending unless NULLS FIRST/LAST says otherwise. Groups chain: each OverAggregate passes its input
// through and appends its calls' columns, so the calls' columns follow the input in group order.
#include <map>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "common/config.h"
#include "function/aggregate/aggregate_function.h"
#include "types/value.h"

namespace sluice {

namespace {

using Bound = ast::FrameBound;

// A literal's numeric value in the physical unit of a RANGE order key of type `key` (logical_type.h):
// integers as they are, DECIMAL unscaled at the key's scale, TIMESTAMP microseconds, DATE days, TIME
// milliseconds. False when the literal's type does not measure the key.
bool RangeOffset(const LogicalType& key, const Expr& off, long double* out) {
  const LogicalType& t = off.type;
  const Value& v = off.literal;
  if (key.IsNumeric()) {
    long double x;
    if (t.IsIntegral()) {
      x = static_cast<long double>(v.int_value());
    } else if (t.id() == TypeId::kDecimal) {
      x = static_cast<long double>(v.decimal_value());
      for (int i = 0; i < t.scale(); ++i) x /= 10;
    } else if (t.id() == TypeId::kDouble || t.id() == TypeId::kFloat) {
      x = static_cast<long double>(v.double_value());
    } else {
      return false;
    }
    if (key.id() == TypeId::kDecimal) {
      for (int i = 0; i < key.scale(); ++i) x *= 10;
    }
    *out = x;
    return true;
  }
  if (t.id() != TypeId::kIntervalDayTime) return false;  // milliseconds
  const long double ms = static_cast<long double>(v.int_value());
  switch (key.id()) {
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: *out = ms * 1000; return true;
    case TypeId::kDate: *out = ms / 86400000; return true;
    case TypeId::kTime: *out = ms; return true;
    default: return false;
  }
}

// One window group of the batch plan: the calls sharing a (PARTITION BY, ORDER BY).
struct OverGroup {
  std::vector<int> partition;
  std::vector<SortKey> order;
  std::vector<size_t> calls;
};

// The column of `pre` holding `e` (bound): an input column as it is, any other expression projected
// into `pre` as a new column.
int ProjectedColumn(const ExprPtr& e, CalcNode* pre) {
  if (e->kind == ExprKind::kColumnRef) return e->column_index;
  pre->projections.push_back(e);
  pre->schema.Add("$f" + std::to_string(pre->schema.size()), e->type);
  return static_cast<int>(pre->projections.size() - 1);
}

// Calcite's SqlWindow.isAlwaysNonEmpty: only a frame between unbounded or current-row bounds, in
// order, surely holds a row; one with an offset bound may be empty, so its aggregates are nullable.
bool FrameMayBeEmpty(const OverFrame& f) {
  auto bound_key = [](OverFrameBound::Kind k) {
    switch (k) {
      case OverFrameBound::Kind::kUnboundedPreceding: return 0;
      case OverFrameBound::Kind::kCurrentRow: return 1;
      case OverFrameBound::Kind::kUnboundedFollowing: return 2;
      default: return -1;
    }
  };
  const int lower = bound_key(f.start.kind);
  return !(lower > -1 && lower <= bound_key(f.end.kind));
}

// The chain of OverAggregates over `below`: per group an Exchange on its partition keys (unless the
// group below is partitioned alike, as Flink's plan: its distribution already satisfies it), a Sort
// on partition then order keys, and the OverAggregate appending its calls' columns (Flink's names
// w0$o0, w0$o1, ... across the groups). `call_columns[ci]` receives call ci's column.
PlanNodePtr BatchOverChain(PlanNodePtr below, const std::vector<OverGroup>& groups, std::vector<AggregateCall> aggs,
                           const std::vector<OverFrame>& frames, const std::vector<bool>& may_be_empty,
                           std::vector<ExprPtr>* call_columns) {
  size_t n = 0;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const OverGroup& g = groups[gi];
    PlanNodePtr sort_input = below;
    if (gi == 0 || groups[gi - 1].partition != g.partition) {
      auto ex = std::make_shared<ExchangeNode>();
      ex->inputs = {below};
      ex->schema = below->schema;
      ex->keys = g.partition;
      sort_input = ex;
    }
    auto sort = std::make_shared<SortNode>();
    sort->variant = SortNode::Variant::kBatchSort;
    for (int k : g.partition) sort->order.push_back(SortKey{k, true, true});
    for (const auto& k : g.order) sort->order.push_back(k);
    sort->inputs = {sort_input};
    sort->schema = below->schema;
    auto node = std::make_shared<OverAggregateNode>();
    node->batch = true;
    node->rowtime = false;
    node->partition_keys = g.partition;
    node->order = g.order;
    node->inputs = {sort};
    node->schema = below->schema;
    for (size_t ci : g.calls) {
      AggregateCall& ac = aggs[ci];
      ac.output_name = "w0$o" + std::to_string(n++);
      const LogicalType t = ac.function ? binder_internal::AggregateOutputType(ac, may_be_empty[ci])
                                        : ac.arg_types[0].WithNullable(true);  // LEAD/LAG
      node->schema.Add(ac.output_name, t);
      node->aggs.push_back(std::move(ac));
      node->frames.push_back(frames[ci]);
      (*call_columns)[ci] = MakeColumnRef(static_cast<int>(node->schema.size() - 1), t);
    }
    below = node;
  }
  return below;
}

}  // namespace

Result<Binder::Relation> Binder::BindBatchOverAggregates(const ast::Select& select, Relation input) {
  std::vector<const ast::Call*> calls;
  for (const auto& item : select.items) CollectOverAggregates(*item.expr, &calls);
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  pre->projections = binder_internal::IdentityProjections(input.node->schema);
  pre->schema = input.node->schema;
  auto column_of = [&](const ast::Expr& e) -> Result<int> {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(e, input.scope));
    return ProjectedColumn(b, pre.get());
  };
  // One group per distinct (partition keys, order keys), in the order of first use.
  std::vector<OverGroup> groups;
  std::map<std::string, size_t> group_of;
  std::vector<AggregateCall> aggs(calls.size());
  std::vector<OverFrame> frames(calls.size());
  std::vector<bool> may_be_empty(calls.size());
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const ast::Call& call = *calls[ci];
    ASSIGN_OR_RETURN(const ResolvedWindow rw, ResolveWindow(call));
    OverGroup g;
    std::string text;
    for (const auto& p : *rw.partition_by) {
      ASSIGN_OR_RETURN(int c, column_of(*p));
      g.partition.push_back(c);
      text += std::to_string(c) + ",";
    }
    text += "/";
    for (const auto& o : *rw.order_by) {
      ASSIGN_OR_RETURN(int c, column_of(*o.expr));
      SortKey k{c, !o.descending, true};
      // Flink sorts NULLs first in ascending order and last in descending order by default.
      k.nulls_first = o.nulls == ast::OrderItem::Nulls::kDefault ? k.ascending : o.nulls == ast::OrderItem::Nulls::kFirst;
      g.order.push_back(k);
      text += std::to_string(c) + (k.ascending ? "a" : "d") + (k.nulls_first ? "f," : "l,");
    }
    ASSIGN_OR_RETURN(frames[ci], BindBatchOverFrame(*rw.frame, g.order, pre->schema));
    may_be_empty[ci] = FrameMayBeEmpty(frames[ci]);
    const std::string fname = binder_internal::Upper(call.name.back());
    if (fname == "LEAD" || fname == "LAG") {
      ASSIGN_OR_RETURN(aggs[ci], BindLeadLag(call, fname, input, pre.get()));
    } else {
      // A frame whose start moves retracts the rows that leave it.
      const bool sliding = frames[ci].start.kind != OverFrameBound::Kind::kUnboundedPreceding;
      ASSIGN_OR_RETURN(aggs[ci], BindAggregateCall(call, input, pre.get(), sliding));
    }
    if (aggs[ci].distinct) {
      // Flink 2.2.1's batch OverAggregate refuses DISTINCT (random query 2021-32).
      return Error(call.pos, "Distinct not supported in Windowing function!");
    }
    auto [it, added] = group_of.emplace(text, groups.size());
    if (added) groups.push_back(std::move(g));
    groups[it->second].calls.push_back(ci);
  }
  PlanNodePtr below = pre->projections.size() == input.node->schema.size() ? input.node : PlanNodePtr(pre);
  Relation out;
  out.scope = input.scope;
  for (size_t i = input.scope.columns.size(); i < below->schema.size(); ++i) {
    out.scope.columns.push_back({"$over", below->schema.field(i).name, below->schema.field(i).type});
  }
  std::vector<ExprPtr> call_columns(calls.size());
  out.node = BatchOverChain(below, groups, std::move(aggs), frames, may_be_empty, &call_columns);
  for (size_t i = below->schema.size(); i < out.node->schema.size(); ++i) {
    out.scope.columns.push_back({"$over", out.node->schema.field(i).name, out.node->schema.field(i).type});
  }
  for (size_t ci = 0; ci < calls.size(); ++ci) replacements_[calls[ci]] = call_columns[ci];
  return out;
}

// A call's frame: ROWS/RANGE bounds with their offsets in the order key's physical unit; without a
// frame clause RANGE UNBOUNDED PRECEDING to CURRENT ROW with an ORDER BY, else the whole partition.
Result<OverFrame> Binder::BindBatchOverFrame(const ast::WindowSpec& w, const std::vector<SortKey>& order,
                                             const Schema& schema) {
  OverFrame f;
  if (w.frame_unit == ast::WindowSpec::FrameUnit::kNone) {
    f.rows = order.empty();
    f.start.kind = OverFrameBound::Kind::kUnboundedPreceding;
    f.end.kind = order.empty() ? OverFrameBound::Kind::kUnboundedFollowing : OverFrameBound::Kind::kCurrentRow;
    return f;
  }
  f.rows = w.frame_unit == ast::WindowSpec::FrameUnit::kRows;
  static const Bound kCurrentRow{};  // "ROWS <start>" without BETWEEN ends at the current row
  const Bound& end = w.frame_end ? *w.frame_end : kCurrentRow;
  if (w.frame_start.kind == Bound::Kind::kUnboundedFollowing) {
    return Error(w.pos, "UNBOUNDED FOLLOWING window not supported");
  }
  if (end.kind == Bound::Kind::kUnboundedPreceding) return Error(w.pos, "UNBOUNDED PRECEDING window not supported");
  for (int side = 0; side < 2; ++side) {
    const Bound& b = side == 0 ? w.frame_start : end;
    OverFrameBound& fb = side == 0 ? f.start : f.end;
    fb.kind = static_cast<OverFrameBound::Kind>(b.kind);
    if (b.kind != Bound::Kind::kPreceding && b.kind != Bound::Kind::kFollowing) continue;
    ASSIGN_OR_RETURN(ExprPtr off, BindExpr(*b.offset, Scope{}));
    if (off->kind != ExprKind::kLiteral || off->literal.is_null()) {
      return Error(b.offset->pos, "The bound of an OVER window frame must be a literal");
    }
    if (f.rows) {
      if (!off->type.IsIntegral() || off->literal.int_value() < 0) {
        return Error(b.offset->pos, "ROWS value must be a non-negative integral constant");
      }
      fb.offset = static_cast<long double>(off->literal.int_value());
      continue;
    }
    if (order.size() != 1) return Error(w.pos, "RANGE clause cannot be used with compound ORDER BY clause");
    const LogicalType& key = schema.field(static_cast<size_t>(order[0].column)).type;
    if (!RangeOffset(key, *off, &fb.offset)) return Error(b.offset->pos, "Data Type mismatch between ORDER BY and RANGE clause");
    if (fb.offset < 0) return Error(b.offset->pos, "RANGE value must be a non-negative constant");
  }
  return f;
}

// LEAD/LAG(x [, offset [, default]]): x of the row `offset` rows after/before in the partition's order
// (whatever the frame), else the default (NULL without one). Column args: x[, default]; constant_args:
// the offset.
Result<AggregateCall> Binder::BindLeadLag(const ast::Call& call, const std::string& fname, const Relation& input,
                                          CalcNode* pre) {
  if (call.args.empty() || call.args.size() > 3) return Error(call.pos, "Invalid number of arguments to function '" + fname + "'");
  AggregateCall ac;
  ac.name = fname;
  ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*call.args[0], input.scope));
  const LogicalType xt = x->type.WithTimeAttribute(TimeAttribute::kNone);
  ac.args.push_back(ProjectedColumn(x, pre));
  ac.arg_types.push_back(xt);
  int64_t offset = 1;
  if (call.args.size() > 1) {
    ASSIGN_OR_RETURN(ExprPtr off, BindExpr(*call.args[1], Scope{}));
    if (off->kind != ExprKind::kLiteral || off->literal.is_null() || !off->type.IsIntegral() || off->literal.int_value() < 0) {
      return Error(call.args[1]->pos, "The offset of " + fname + " must be a non-negative integer literal");
    }
    offset = off->literal.int_value();
  }
  ac.constant_args.push_back(Value::BigInt(offset));
  if (call.args.size() > 2) {
    ASSIGN_OR_RETURN(ExprPtr d, BindExpr(*call.args[2], input.scope));
    if (!d->type.EqualsIgnoringNullability(xt)) d = binder_internal::MakeSpecial(ExprKind::kCast, xt.WithNullable(true), {d});
    pre->projections.push_back(d);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), d->type);
    ac.args.push_back(static_cast<int>(pre->projections.size() - 1));
    ac.arg_types.push_back(d->type);
  }
  return ac;
}

}  // namespace sluice
