// Mini-batch rule: the plan shape Flink gives a streaming job with 'table.exec.mini-batch.enabled'.
//
// - A MiniBatchAssigner(interval=[allow-latency], mode=[ProcTime]) goes over every source (over its
//   WatermarkAssigner when it has one) of a statement that has a group aggregation.
// - A GroupAggregate whose functions all merge is split into LocalGroupAggregate -> Exchange ->
//   GlobalGroupAggregate, unless 'table.optimizer.agg-phase-strategy' is 'ONE_PHASE' (Flink's
//   TwoStageOptimizedAggregateRule). The local phase emits what its input emits (partial results
//   per batch); the global phase keeps the aggregate's changelog mode and upsert key.
// Runs after trait inference (it copies the modes it derives). The runtime runs both phases as one
// mini-batch aggregate on its single task (plan_node.h, GroupAggregateNode).
//
// Threading: mutates the physical plan it is given, before the job is built.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/plan_node.h"

namespace sluice {

void ApplyMiniBatchRules(std::vector<PlanNodePtr>* roots, int64_t interval_ms, bool two_phase);

}  // namespace sluice
