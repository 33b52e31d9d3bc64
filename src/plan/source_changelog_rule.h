// Source changelog rule: what the planner puts over a source that emits more than inserts, as
// Flink's StreamPhysicalTableSourceScanRule and FlinkChangelogModeInferenceProgram do.
//
// - An upsert source (emits +I/+U/-D without -U, e.g. 'upsert-kafka', or 'values' with
//   'changelog-mode' = 'I,UA,D') gets Exchange(hash[primary key]) and ChangelogNormalize(key=[...]) over
//   it, which turns the upserts into an exact changelog. Such a table must declare a PRIMARY KEY.
//   A source that emits -U as well gets the same when 'table.exec.source.cdc-events-duplicate' is true.
// - Any other source that emits -U gets a DropUpdateBefore over it; trait inference removes it again
//   when a consumer needs the before-images.
// The nodes go over the source's WatermarkAssigner when the table has one (the runtime fuses watermark
// generation into the scan), so they see the table's declared columns.
//
// Threading: a pure function over the binder's plan; it copies the nodes it changes.
#pragma once

#include <functional>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

// Asks the table's connector what its source emits.
using SourceModeFn = std::function<Result<ChangelogMode>(const TableSourceScanNode&)>;

Result<std::vector<PlanNodePtr>> PlaceSourceChangelogNodes(const std::vector<PlanNodePtr>& roots,
                                                           const SourceModeFn& mode_of, bool cdc_events_duplicate);

}  // namespace sluice
