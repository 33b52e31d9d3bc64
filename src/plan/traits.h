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

namespace sluice {

Status InferChangelogModes(const std::vector<PlanNodePtr>& roots);

// The unique key of a node's changing result as column names (empty when unknown or append-only).
std::vector<std::string> UpsertKeyNames(const PlanNode& node);
// The same key as column indexes of the node's output.
std::vector<int> UpsertKeyIndexes(const PlanNode& node);
// Flink's JoinInputSideSpec of input `side` (0 left, 1 right) of a regular join (JoinUtil.analyzeJoinInput
// over the input's upsert key): the input's unique key (columns of that input; empty: NoUniqueKey),
// and its name in EXPLAIN: "JoinKeyContainsUniqueKey" when the key lies within the side's join keys,
// "HasUniqueKey" otherwise, "NoUniqueKey" without one. A global aggregation's side (at most one row,
// Flink's empty unique key) is named "JoinKeyContainsUniqueKey"; its unique key is returned empty, so
// the operator keeps and bundles its one row as a side without a key.
std::vector<int> JoinInputUniqueKey(const JoinNode& join, int side);
std::string JoinInputSpecName(const JoinNode& join, int side);
// True for operators whose state grows with the number of distinct keys (aggregates, dedup, Top-N,
// joins): without a state TTL their memory is unbounded on an unbounded key space.
bool StateGrowsWithKeys(const PlanNode& node);
Status ValidateSinks(const std::vector<PlanNodePtr>& roots);
// An OverAggregate ordered by a column that is not a time attribute (Flink's non-time OVER: an
// unbounded frame that updates the rows after one that arrives out of order).
bool IsNonTimeOver(const PlanNode& node);

}  // namespace sluice
