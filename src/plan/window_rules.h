// Window planning: Flink's rule that turns GROUP BY window_start, window_end[, window_time][, keys] over
// a window TVF into a WindowAggregate (the TVF is folded into the aggregate, which assigns rows to
// windows itself), and the facts about window nodes the rest of the planner asks for.
//
// The rewrite applies to GroupAggregate <- Exchange <- [Calc] <- WindowTableFunction when the group
// keys hold both window_start and window_end as plain references and nothing else reads a window
// column; otherwise the plan stays a regular (updating) GroupAggregate over the TVF's rows, as Flink
// falls back too. The result is Calc <- WindowAggregate <- Exchange <- Calc <- (the TVF's input): the
// lower Calc computes keys and arguments plus the time attribute, the upper one restores the
// aggregate's column order. HOP needs size to be a multiple of slide and CUMULATE max size a
// multiple of step (Flink's conditions for slicing); HOP, CUMULATE and SESSION need aggregate
// functions that can merge partial results; SESSION needs its PARTITION BY columns as the keys.
//
// When the TVF cannot fold (a filter or an expression reads a window column, or the rows come from
// a window aggregation, Top-N or join: plan/window_rank_rule.h's window properties) and the windows
// are on event time, the GroupAggregate over window_start, window_end[, keys] becomes a WindowAggregate
// over the rows' attached windows (Flink's WindowAttachedWindowingStrategy): window_end is its time
// column and window_start_column names window_start; each window is emitted once (with the emit
// options of the window TVF the windows come from: early and late firing, as below). A SESSION window
// needs its PARTITION BY keys as exactly the other group keys (Flink's validGroupKeyPartitionKey).
// Processing-time windows stay a GroupAggregate there, as in Flink.
//
// Emit strategies (Flink's experimental WindowEmitStrategy options, ApplyWindowEmit in the .cc): early
// firing (TUMBLE, HOP, CUMULATE on event or processing time) and late firing with allowed lateness
// (event time) make the WindowAggregate updating; SESSION windows refuse them, with Flink's checks and
// messages. Flink runs them on the legacy group window only and refuses them on window TVF
// aggregations; Sluice plans both alike and runs them on both (docs/flink_differences.md).
//
// Threading: pure functions over immutable plans.
#pragma once

#include <map>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

class WindowAggregateRule {
 public:
  // The plan with every matching GroupAggregate rewritten (shared sub-plans stay shared).
  Result<PlanNodePtr> Apply(const PlanNodePtr& node);

 private:
  Result<PlanNodePtr> Rewrite(const PlanNodePtr& agg_node);
  // GroupAggregate <- Exchange <- [Calc] <- WindowTableFunction, the TVF folded into the aggregate.
  Result<PlanNodePtr> FoldTableFunction(const PlanNodePtr& agg_node);
  // Over rows that carry event-time windows (the window columns read by anything else, or a window
  // aggregation's output): a WindowAggregate over those windows.
  Result<PlanNodePtr> OverAttachedWindows(const PlanNodePtr& agg_node);
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

class Configuration;

// The session's 'table.exec.emit.*' options for a window TVF being bound (plan_node.h WindowEmitConfig);
// an unset 'table.exec.emit.allow-lateness' falls back to 'table.exec.state.ttl', as Flink's
// WindowEmitStrategy falls back to the idle state retention time. `config` may be null (defaults).
WindowEmitConfig ReadWindowEmitConfig(const Configuration* config);

// Whether the node drops rows that arrive behind the watermark (EXPLAIN marks it; the job summary
// counts the drops per operator; runtime/late_rows.h): event-time window aggregation, rowtime OVER
// aggregation, rowtime keep-first deduplication, rowtime TemporalSort, and window Top-N, window
// deduplication and window joins.
bool DropsLateRows(const PlanNode& node);

}  // namespace sluice
