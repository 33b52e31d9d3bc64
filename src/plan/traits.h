// Trait inference on physical plans: which changes each node emits, and whether each sink can store
// what reaches it.
//
// Changelog modes are inferred bottom-up from what sources emit and what each operator does to it
// (stateless operators pass their input's mode through; a Union emits the union of its inputs'), as
// the first pass of Flink's FlinkChangelogModeInferenceProgram. Sink validation then refuses an
// updating or deleting input into a sink that only appends, with Flink's message naming the node that
// produces the changes, followed by Sluice's advice on what would work.
//
// The second pass, top-down, asks for update-before rows where a consumer needs them (a retracting
// sink, a stateful operator, a SinkUpsertMaterializer); a DropUpdateBefore that turns out to sit
// under such a consumer is removed. It also decides, per sink with a PRIMARY KEY, whether a
// SinkUpsertMaterializer must run ('table.exec.sink.upsert-materialize'), with the reason EXPLAIN prints.
//
// Threading: mutates the traits of the nodes of the plan it is given; plans are not shared yet.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"
#include "plan/upsert_keys.h"  // the upsert keys the inference reads, for this header's users

namespace sluice {

Status InferChangelogModes(const std::vector<PlanNodePtr>& roots);

// True for operators whose state grows with the number of distinct keys (aggregates, dedup, Top-N,
// joins): without a state TTL their memory is unbounded on an unbounded key space.
bool StateGrowsWithKeys(const PlanNode& node);
Status ValidateSinks(const std::vector<PlanNodePtr>& roots);
// An OverAggregate ordered by a column that is not a time attribute (Flink's non-time OVER: an
// unbounded frame that updates the rows after one that arrives out of order).
bool IsNonTimeOver(const PlanNode& node);

}  // namespace sluice
