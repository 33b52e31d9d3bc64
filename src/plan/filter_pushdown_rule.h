// Filter push-down into table sources, as Flink's PushFilterIntoTableSourceScanRule with
// SupportsFilterPushDown: the conjuncts of the filter over a TableSourceScan are offered to the
// connector, which says which of them it uses to skip data (partitions, files, row groups). The
// accepted ones are recorded on the scan (TableSourceScanNode::filters, printed by EXPLAIN as
// filter=[...] in the table's digest) and handed to the source when it is created
// (ConnectorContext::filters).
//
// Sluice always keeps the whole filter in the Calc above the scan, as Flink's Iceberg source does
// (its applyFilters returns every filter as remaining): a source's filtering is a best effort that
// never decides which rows the query returns, so a connector that prunes too little is only slower.
//
// The rule follows a chain of Calcs down to the scan (a filter pushed to a join's side sits on a
// projection Calc until the final merge), substituting each condition through the projections
// below it. A scan or Calc with several parents (a shared sub-plan) is left alone: pushing one
// consumer's filter into it would change what the others read.
//
// Threading: pure; builds new nodes.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

// Asks the scan's connector which of `conjuncts` (over the table's physical columns) it accepts:
// nullopt when the connector does not support filter push-down, otherwise one flag per conjunct.
using FilterPushDownFn =
    std::function<Result<std::optional<std::vector<bool>>>(const TableSourceScanNode&, const std::vector<ExprPtr>&)>;

// Offers the filters above every scan of `roots` to `push`; returns the rewritten roots.
[[nodiscard]] Result<std::vector<PlanNodePtr>> PushFiltersIntoScans(const std::vector<PlanNodePtr>& roots,
                                                                    const FilterPushDownFn& push);

}  // namespace sluice
