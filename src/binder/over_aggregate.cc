// Binding of OVER aggregates: `agg([DISTINCT] x) [FILTER (WHERE c)] OVER (PARTITION BY k ORDER BY t
// [ROWS|RANGE BETWEEN ... PRECEDING AND CURRENT ROW])` in a SELECT list. As in Flink's streaming mode,
// every OVER call of one SELECT must use the same window, ordered by one time attribute ascending;
// the default frame with an ORDER BY is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. The calls
// become one OverAggregateNode whose extra columns replace them in the SELECT list. Batch mode binds them
// as Flink's batch planner does instead (any windows and frames: binder/batch_over_aggregate.cc).
#include <cctype>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "common/config.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

Result<Binder::Relation> Binder::BindOverAggregates(const ast::Select& select, Relation input) {
  if (config_ && IsBatchRuntimeMode(*config_)) return BindBatchOverAggregates(select, std::move(input));
  std::vector<const ast::Call*> calls;
  for (const auto& item : select.items) CollectOverAggregates(*item.expr, &calls);
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  for (size_t i = 0; i < input.node->schema.size(); ++i) {
    pre->projections.push_back(MakeColumnRef(static_cast<int>(i), input.node->schema.field(i).type));
  }
  pre->schema = input.node->schema;
  auto node = std::make_shared<OverAggregateNode>();
  std::string window_text;
  // Calcite's SqlWindow.isAlwaysNonEmpty: a frame starting at an offset PRECEDING may be empty, so its
  // aggregates are nullable; one from UNBOUNDED PRECEDING or CURRENT ROW always holds the current row.
  bool frame_may_be_empty = false;
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const ast::Call& call = *calls[ci];
    ASSIGN_OR_RETURN(const ResolvedWindow rw, ResolveWindow(call));
    const ast::WindowSpec& w = *rw.frame;  // the frame; partition and order come from rw
    const auto& partition_by = *rw.partition_by;
    const auto& order_by = *rw.order_by;
    // Every OVER call shares the first one's window.
    std::vector<int> partition;
    for (const auto& p : partition_by) {
      ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*p, input.scope));
      if (b->kind != ExprKind::kColumnRef) return NotSupported(p->pos, "PARTITION BY an expression in an OVER window (partition by a column)");
      partition.push_back(b->column_index);
    }
    if (order_by.size() > 1) {
      // Flink's wording for any second ORDER BY column, a time attribute or not (random query 2015-205).
      return Error(rw.pos, "The window can only be ordered by a single time column.");
    }
    if (order_by.empty()) {
      return Error(rw.pos, "OVER windows' ordering in stream mode must be defined on a time attribute (exactly one ORDER BY column).");
    }
    ASSIGN_OR_RETURN(ExprPtr order, BindExpr(*order_by[0].expr, input.scope));
    if (order_by[0].descending) {
      return Error(order_by[0].expr->pos, "The window can only be ordered in ASCENDING mode.");
    }
    if (order->type.time_attribute() == TimeAttribute::kNone) {
      // Flink 2.2 refuses a bounded frame over another order; an unbounded one it runs with its
      // non-time OVER operator (runtime/operators/non_time_over_aggregate_operator.h), NULLs first.
      const bool bounded = w.frame_unit != ast::WindowSpec::FrameUnit::kNone &&
                           w.frame_start.kind != ast::FrameBound::Kind::kUnboundedPreceding;
      if (bounded) return Error(order_by[0].expr->pos, "Non-time attribute sort is not supported for bounded OVER window.");
      if (order_by[0].nulls == ast::OrderItem::Nulls::kLast) {
        return NotSupported(order_by[0].expr->pos, "NULLS LAST in the ORDER BY of an OVER window");
      }
    }
    if (order->kind != ExprKind::kColumnRef) {
      return NotSupported(order_by[0].expr->pos, "ORDER BY an expression in an OVER window (order by a column)");
    }
    bool rows = w.frame_unit == ast::WindowSpec::FrameUnit::kRows;
    int64_t preceding = -1;
    if (w.frame_unit != ast::WindowSpec::FrameUnit::kNone) {
      if (w.frame_end && w.frame_end->kind != ast::FrameBound::Kind::kCurrentRow) {
        // Flink 2.2.1's StreamExecOverAggregate, for ROWS frames too (batch mode runs them).
        return Status::PlanError("OVER RANGE FOLLOWING windows are not supported yet.");
      }
      const ast::FrameBound& start = w.frame_start;
      frame_may_be_empty = start.kind == ast::FrameBound::Kind::kPreceding;
      if (start.kind == ast::FrameBound::Kind::kPreceding) {
        ASSIGN_OR_RETURN(ExprPtr off, BindExpr(*start.offset, Scope{}));
        if (off->kind != ExprKind::kLiteral || off->literal.is_null()) {
          return Error(start.offset->pos, "The PRECEDING bound of an OVER window must be a literal");
        }
        if (rows) {
          if (!off->type.IsIntegral() || off->literal.int_value() < 0) {
            return Error(start.offset->pos, "ROWS ... PRECEDING needs a non-negative integer");
          }
        } else if (off->type.id() != TypeId::kIntervalDayTime || off->literal.int_value() < 0) {
          return Error(start.offset->pos, "RANGE ... PRECEDING on a time attribute needs a day-time interval, e.g. INTERVAL '10' MINUTE");
        }
        preceding = off->literal.int_value();
      } else if (start.kind == ast::FrameBound::Kind::kCurrentRow) {
        preceding = 0;
      } else if (start.kind != ast::FrameBound::Kind::kUnboundedPreceding) {
        return NotSupported(w.pos, "An OVER window that starts after the current row (FOLLOWING)");
      }
    }
    const std::string text = std::to_string(order->column_index) + "/" + std::to_string(rows) + "/" +
                             std::to_string(preceding) + "/" + [&] {
                               std::string p;
                               for (int c : partition) p += std::to_string(c) + ",";
                               return p;
                             }();
    if (ci == 0) {
      window_text = text;
      node->partition_keys = partition;
      node->order_column = order->column_index;
      node->rowtime = order->type.time_attribute() == TimeAttribute::kRowtime;
      node->rows_frame = rows;
      node->preceding = preceding;
    } else if (text != window_text) {
      // Flink 2.2.1's wording (batch mode runs several windows).
      return Status::PlanError("Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same "
                               "window. please re-check the over window statement.");
    }
    // Bounded frames retract the rows that leave them.
    ASSIGN_OR_RETURN(AggregateCall ac, BindAggregateCall(call, input, pre.get(), preceding >= 0));
    if (ac.distinct && config_ && IsBatchRuntimeMode(*config_)) {
      // Flink 2.2.1's batch OverAggregate refuses DISTINCT (random query 2021-32).
      return Error(call.pos, "Distinct not supported in Windowing function!");
    }
    ac.output_name = "w0$o" + std::to_string(ci);
    node->aggs.push_back(std::move(ac));
  }
  PlanNodePtr below = pre->projections.size() == input.node->schema.size() ? input.node : PlanNodePtr(pre);
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {below};
  ex->schema = below->schema;
  ex->keys = node->partition_keys;
  node->inputs = {ex};
  node->schema = below->schema;
  Relation out;
  out.node = node;
  out.scope = input.scope;
  for (size_t i = input.scope.columns.size(); i < below->schema.size(); ++i) {
    out.scope.columns.push_back({"$over", below->schema.field(i).name, below->schema.field(i).type});
  }
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const LogicalType t = binder_internal::AggregateOutputType(node->aggs[ci], frame_may_be_empty);
    node->schema.Add(node->aggs[ci].output_name, t);
    out.scope.columns.push_back({"$over", node->aggs[ci].output_name, t});
    replacements_[calls[ci]] = MakeColumnRef(static_cast<int>(node->schema.size() - 1), t);
  }
  return out;
}

}  // namespace sluice
