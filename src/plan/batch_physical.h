// Batch physical planning ('execution.runtime-mode' = 'batch'): one logical plan, and where Flink's
// batch planner picks a batch physical node instead of a streaming one, so does this rule.
//
// After trait inference of the streaming physical plan, every GroupAggregate over an insert-only input
// becomes a HashAggregate (Flink's BatchPhysicalHashAggregate, one phase): it emits each group's final
// row once, at the end of input, so nothing above it sees an update. Traits are inferred again after
// each rewrite (an aggregate over a HashAggregate has an insert-only input then, and is rewritten too),
// so the roots leave with their final changelog modes. Likewise every equi-join over insert-only
// inputs becomes a HashJoin (Flink's BatchPhysicalHashJoin, build side right), emitting joined and
// NULL-padded rows once at the end of its inputs, so outer joins retract nothing; when
// 'table.exec.disabled-operators' disables the hash joins ('HashJoin' or 'ShuffleHashJoin'), a
// SortMergeJoin (Flink's BatchPhysicalSortMergeJoin) instead, unless 'SortMergeJoin' is disabled too
// (then it stays a Join, where Flink plans a NestedLoopJoin). An unknown operator name fails planning
// with Flink's error. Every Rank
// (Top-N) and Deduplicate over an insert-only input becomes a batch Rank (global=[true]) that sorts
// its input at its end and emits the ranked rows once. A MATCH_RECOGNIZE ordered by a rowtime loses
// the WatermarkAssigner below it (Flink's batch plans have none; its operator then matches at the end
// of the input). Batch sorts (SortNode::Variant::kBatchSort) are chosen by the binder already. What
// Flink's batch planner refuses is refused first, in its words: a processing-time or SESSION window
// TVF, a legacy GROUP BY SESSION window, ORDER BY ... OFFSET without LIMIT (an event-time temporal join,
// which Flink's batch planner fails to plan, runs as in streaming mode).
//
// Threading: pure planning on the caller's thread; rewrites the plan of one statement in place.
#pragma once

#include <vector>

#include "common/status.h"
#include "common/config.h"
#include "plan/plan_node.h"

namespace sluice {

// Rewrites `roots` (sinks) for batch execution and infers their changelog modes (plan/traits.h).
// `config`: 'table.exec.disabled-operators' (common/config.h).
[[nodiscard]] Status ApplyBatchPhysicalRules(const Configuration& config, std::vector<PlanNodePtr>* roots);

}  // namespace sluice
