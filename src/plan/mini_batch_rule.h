// Mini-batch rule: the plan shape Flink gives a streaming job with 'table.exec.mini-batch.enabled'.
//
// - A MiniBatchAssigner goes over the sources (over the WatermarkAssigner when there is one) with the
//   interval Flink's MiniBatchIntervalInferRule infers: (allow-latency, ProcTime) from every sink,
//   turned into (allow-latency, RowTime) below an operator that needs the watermark (event-time
//   windows, OVER, interval and temporal joins, MATCH_RECOGNIZE, deduplication, temporal sort), none
//   below a legacy group window (see mini_batch_rule.cc for the exact rules).
// - A GroupAggregate whose functions all merge is split into LocalGroupAggregate -> Exchange ->
//   GlobalGroupAggregate, unless 'table.optimizer.agg-phase-strategy' is 'ONE_PHASE' (Flink's
//   TwoStageOptimizedAggregateRule). The local phase emits what its input emits (partial results
//   per batch); the global phase keeps the aggregate's changelog mode and upsert key.
// Runs after trait inference (it copies the modes it derives). The runtime runs both phases as one
// operator with the two phases' bundles (runtime/operators/group_aggregate_operator.h); the assigner
// cuts the bundles with watermarks (runtime/operators/mini_batch_assigner_operator.h).
//
// Threading: mutates the physical plan it is given, before the job is built.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/plan_node.h"

namespace sluice {

// Flink's MiniBatchInterval trait: how a node's input is cut into mini-batches. kNone with interval 0:
// nothing asked yet; kNone with interval -1: no mini-batch below this node (NoMiniBatch). kRowTime with
// interval 0: an operator needs the watermark, any interval will do.
struct MiniBatchInterval {
  enum class Mode : uint8_t { kNone, kProcTime, kRowTime };
  int64_t interval_ms = 0;
  Mode mode = Mode::kNone;
  static MiniBatchInterval NoMiniBatch() { return {-1, Mode::kNone}; }
  bool IsNoMiniBatch() const { return interval_ms == -1 && mode == Mode::kNone; }
};

// Flink's FlinkRelOptUtil.mergeMiniBatchInterval: the interval a node gets from a parent (b) merged
// with the one it has (a). Event time wins over processing time; two event-time intervals give their
// greatest common divisor.
MiniBatchInterval MergeMiniBatchIntervals(const MiniBatchInterval& a, const MiniBatchInterval& b);

// Before trait inference: marks the operators that run in bundles beside the group aggregate
// (DeduplicateNode::mini_batch: a Deduplicate keeping the first row is then updating, as Flink's;
// JoinNode::mini_batch: EXPLAIN prints miniBatch=[true]; semi and anti joins still run row by row).
void MarkMiniBatchOperators(const std::vector<PlanNodePtr>& roots);

void ApplyMiniBatchRules(std::vector<PlanNodePtr>* roots, int64_t interval_ms, bool two_phase);

}  // namespace sluice
