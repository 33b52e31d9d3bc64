// 'table.optimizer.non-deterministic-update.strategy' = 'TRY_RESOLVE': Flink's check for
// non-deterministic updates (StreamNonDeterministicUpdatePlanVisitor, "Determinism in Continuous
// Queries").
//
// An updating pipeline retracts rows by recomputing them: a -U/-D row must carry the same values the
// earlier +I/+U row carried, at least in the columns its consumer matches rows by. The rule walks each
// sink tree top-down with the set of columns its parent needs deterministic:
//   - a sink over an updating input needs its PRIMARY KEY (all columns without one, or when a
//     SinkUpsertMaterializer runs);
//   - a stateful operator over an updating input that matches retractions by whole rows (GroupAggregate,
//     Rank, Deduplicate, a Join side without a unique key) needs all its input's columns;
//   - columns within the input's upsert key are always deterministic and are dropped from the set;
//   - nothing is required of an insert-only input.
// A Calc that must produce a required column with a non-deterministic function (NOW, RAND, UUID,
// CURRENT_TIMESTAMP, ...), or filters an updating input with one, is refused with Flink's wording; so
// is a non-deterministic join condition over updates. A LookupJoin over an updating input whose
// looked-up columns are required is planned with upsertMaterialize=[true], as Flink resolves it.
//
// Threading: mutates the plan it is given (LookupJoinNode::upsert_materialize); run after
// InferChangelogModes.
#pragma once

#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

Status ResolveNonDeterministicUpdates(const std::vector<PlanNodePtr>& roots);

}  // namespace sluice
