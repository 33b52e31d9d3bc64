// A processing-time temporal join against a bounded table: the table is loaded into memory when the
// job starts (LookupTableLoader), then probed by the left side.
#include "catalog/catalog.h"
#include "connectors/connector.h"
#include "runtime/job.h"
#include "runtime/operators/lookup_join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

namespace {

// Every source under the lookup table must end.
Status CheckBoundedLookupTable(Translator& t, const LookupJoinNode& join, const PlanNode& node) {
  if (node.kind == PlanKind::kTableSourceScan) {
    auto it = t.resources().sources.find(&node);
    if (it != t.resources().sources.end() && !it->second->bounded()) {
      return Status::NotSupported("A processing-time temporal join against the unbounded table '" + join.table_name +
                                  "' ('connector' = '" + node.As<TableSourceScanNode>().table->connector() +
                                  "') is not supported by Sluice yet: Sluice loads the lookup table into memory when "
                                  "the job starts, so it must be bounded (a 'filesystem' or 'values' table, 'datagen' "
                                  "with 'number-of-rows')");
    }
  }
  for (const auto& in : node.inputs) RETURN_IF_ERROR(CheckBoundedLookupTable(t, join, *in));
  return Status::OK();
}

}  // namespace

Result<Operator*> TranslateLookupJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<LookupJoinNode>();
  RETURN_IF_ERROR(CheckBoundedLookupTable(t, j, *j.inputs[1]));
  auto join = std::make_unique<LookupJoinOperator>("LookupJoin", j.inputs[0]->schema.types(), j.inputs[1]->schema.types(),
                                                   j.left_keys, j.right_keys, j.left_outer, j.residual);
  // The table's pipeline is translated first, so its source is declared (and read) before the probe side.
  ASSIGN_OR_RETURN(Operator * loader,
                   t.Add(std::make_unique<LookupTableLoader>("LookupTableLoader", join.get()), {j.inputs[1]}));
  (void)loader;
  return t.Add(std::move(join), {j.inputs[0]});
}

}  // namespace sluice
