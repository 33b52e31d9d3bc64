// Upsert keys of physical plans: the unique key of each node's changing result (the columns no two live
// rows share), as Flink's FlinkRelMdUpsertKeys / FlinkRelMdUniqueKeys derive them, from declared
// PRIMARY KEYs, grouping keys, deduplication and Top-N keys, through projections, filters and joins.
// Changelog inference (plan/traits.h) uses them for sinks and joins; EXPLAIN prints them.
//
// Threading: reads the plan it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan_node.h"

namespace sluice {

// The unique key of a node's changing result as column names (empty when unknown or append-only).
std::vector<std::string> UpsertKeyNames(const PlanNode& node);
// The same key as column indexes of the node's output.
std::vector<int> UpsertKeyIndexes(const PlanNode& node);
// The columns of `calc`'s output that carry `key` (columns of its input) unchanged: per key column the
// first projection that references it; nullopt when the projection drops or computes one.
std::optional<std::vector<int>> KeyThroughCalc(const CalcNode& calc, const std::vector<int>& key);
// Whether the rows of `node` are unique on `columns` (its known key lies within them).
bool UniqueOnColumns(const PlanNode& node, const std::vector<int>& columns);
// Flink's JoinInputSideSpec of input `side` (0 left, 1 right) of a regular join (JoinUtil.analyzeJoinInput
// over the input's upsert key): the input's unique key (columns of that input; empty: NoUniqueKey),
// and its name in EXPLAIN: "JoinKeyContainsUniqueKey" when the key lies within the side's join keys,
// "HasUniqueKey" otherwise, "NoUniqueKey" without one. A global aggregation's side (at most one row,
// Flink's empty unique key) is named "JoinKeyContainsUniqueKey"; its unique key is returned empty, so
// the operator keeps and bundles its one row as a side without a key.
std::vector<int> JoinInputUniqueKey(const JoinNode& join, int side);
std::string JoinInputSpecName(const JoinNode& join, int side);

}  // namespace sluice
