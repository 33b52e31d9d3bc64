// The rewrite rules that turn the binder's logical plan into the physical plan Sluice runs:
//   - merge adjacent Calcs (projection over projection, filter over projection), as Flink's
//     FlinkCalcMergeRule; drop Calcs that only pass every column through unchanged;
//   - prune columns top-down so a TableSourceScan reads only the physical columns the query uses
//     (Flink's projection push-down, printed as project=[...] in EXPLAIN);
//   - offer filters over a scan to its connector (filter_pushdown_rule.h, Flink's filter push-down);
//   - reuse identical sub-plans across the INSERTs of a statement set, so a shared view is computed
//     once (Flink's sub-plan reuse; EXPLAIN shows reuse_id / Reused).
// Trait inference (changelog modes) and sink validation are in traits.h.
//
// Threading: pure functions; they build new nodes and never modify their inputs' nodes.
#pragma once

#include <map>
#include <vector>

#include "common/status.h"
#include "plan/filter_pushdown_rule.h"
#include "plan/plan_node.h"

namespace sluice {

// Optimizes the trees of one statement (a statement set has several) whose roots' output columns
// are all needed (sinks or a query result). Equal sub-plans end up shared. With `push_filters`,
// filters over scans are offered to their connectors (filter_pushdown_rule.h). In `batch` mode a
// ROW_NUMBER()/RANK()/DENSE_RANK() OVER without an upper bound on the rank stays an unbounded Rank (a
// batch rank numbers every row, as Flink's batch OverAggregate); streaming mode refuses it.
Result<std::vector<PlanNodePtr>> OptimizePlans(const std::vector<PlanNodePtr>& roots,
                                               const FilterPushDownFn& push_filters = nullptr, bool batch = false);

// Replaces structurally equal sub-trees of `roots` by one shared node.
void ReuseSubPlans(std::vector<PlanNodePtr>* roots);

// Rewrites column references of `e` through `mapping` (old index -> new index).
ExprPtr RemapColumns(const ExprPtr& e, const std::vector<int>& mapping);

// Replaces column references of `e` by `inputs[index]` (substitution through a projection).
ExprPtr SubstituteColumns(const ExprPtr& e, const std::vector<ExprPtr>& inputs);

// A shallow copy of `node` reading `inputs` (the node itself when they are unchanged).
PlanNodePtr CopyWithInputs(const PlanNodePtr& node, std::vector<PlanNodePtr> inputs);

// Marks which input columns `e` reads.
void CollectColumns(const Expr& e, std::vector<bool>* used);

// The number of parents of every node reachable from `roots` (a shared sub-plan has several).
std::map<const PlanNode*, int> CountParents(const std::vector<PlanNodePtr>& roots);

// The conjuncts of a condition (its AND's arguments, or itself; none for null).
std::vector<ExprPtr> Conjuncts(const ExprPtr& e);

// The conjunction of `parts` (null parts skipped), flattened; null when nothing is left.
ExprPtr AndAll(const std::vector<ExprPtr>& parts);

}  // namespace sluice
