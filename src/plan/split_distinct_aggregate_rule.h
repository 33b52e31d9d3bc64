// Flink's SplitAggregateRule ('table.optimizer.distinct-agg.split.enabled'): a GroupAggregate with a
// DISTINCT aggregate is split against skew into
//   Calc(select=[..., MOD(HASH_CODE(d), bucket-num) AS $fN])         the bucket of the distinct value
//   -> Exchange(hash[keys, $fN]) -> GroupAggregate(partialFinalType=[PARTIAL])   per key and bucket
//   -> Exchange(hash[keys]) -> GroupAggregate(partialFinalType=[FINAL])          per key
// The partial phase runs every call (COUNT, SUM, $SUM0, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE,
// LISTAGG, with their DISTINCT and FILTER) per key and bucket; the final phase combines the partial
// results (COUNT by $SUM0, the others by themselves; AVG as a partial $SUM0 and COUNT, a final $SUM0
// of each and a Calc dividing them). The buckets hash the arguments of the DISTINCT and MIN/MAX/
// FIRST_VALUE/LAST_VALUE calls that are not group keys. Same answer as the one-phase plan, more
// intermediate updates.
//
// When the hashed calls read more than one column set, every row is first expanded once per set (an
// Expand with the set's id $e, nulling the other sets' bucket columns, then a Calc with a filter
// $g_<id> per set, ANDed with a call's own FILTER), and each partial call reads only its set's rows.
// STDDEV_POP/STDDEV_SAMP/VAR_POP/VAR_SAMP are first reduced to SUM(x * x), SUM(x) and COUNT(x) (and
// AVG, SUM with them) as Flink's AggregateReduceFunctionsRule does, and a Calc over the final phase
// computes them. Not split (the one-phase plan runs), as Flink's doAllAggSupportSplit: aggregates
// with other functions (COLLECT, ...), LISTAGG with a separator, FIRST_VALUE/LAST_VALUE with two
// arguments; and where HASH_CODE takes no bucket argument's type (ARRAY, ROW, BYTES, ...).
//
// Runs on the physical plan after OptimizePlans and before trait inference (which picks the final
// phase's retracting functions, and keeps a final MIN/MAX over a partial one on an insert-only input
// plain, as Flink's monotonicity analysis does).
//
// Threading: builds new nodes; never modifies the nodes it is given.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

[[nodiscard]] Status ApplySplitDistinctAggregates(std::vector<PlanNodePtr>* roots, int64_t buckets);

}  // namespace sluice
