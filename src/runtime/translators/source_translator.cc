// Sources: table scans (with the watermark assigner and computed columns fused in) and VALUES.
#include <optional>

#include "catalog/catalog.h"
#include "common/config.h"
#include "connectors/connector.h"
#include "runtime/job.h"
#include "runtime/operators/source_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

namespace {

// The source's idle timeout in milliseconds: the table's 'scan.watermark.idle-timeout' (a hint
// overrides the WITH clause), else 'table.exec.source.idle-timeout'; 0 disables it.
Result<int64_t> IdleTimeoutMillis(const Translator& t, const TableSourceScanNode& scan) {
  std::optional<std::string> text;
  auto it = scan.table->options.find(kScanIdleTimeoutOption);
  if (it != scan.table->options.end()) text = it->second;
  for (const auto& [k, v] : scan.hint_options) {
    if (k == kScanIdleTimeoutOption) text = v;
  }
  if (!text) return t.config() ? t.config()->GetDurationMillis(kIdleTimeoutKey) : 0;
  auto ms = ParseDurationMillis(*text);
  if (!ms.ok() || *ms < 0) {
    return Status::InvalidArgument("Invalid value for option '" + std::string(kScanIdleTimeoutOption) + "' of table '" +
                                   scan.table->path.FullName() + "': '" + *text +
                                   "' is not a duration (e.g. '10 s', '1 min', '500 ms')");
  }
  return *ms;
}

Result<Operator*> MakeSource(Translator& t, const TableSourceScanNode& scan, std::vector<ExprPtr> computed, int rowtime,
                             ExprPtr watermark) {
  auto it = t.resources().sources.find(&scan);
  if (it == t.resources().sources.end()) {
    return Status::Internal("no source created for " + scan.table->path.FullName());
  }
  ASSIGN_OR_RETURN(auto splits, it->second->CreateSplits());
  auto op = std::make_unique<SourceOperator>(scan.table->path.name, std::move(splits), scan.schema, std::move(computed),
                                             rowtime, std::move(watermark), t.chunk_size());
  ASSIGN_OR_RETURN(int64_t idle_ms, IdleTimeoutMillis(t, scan));
  op->SetIdleTimeout(idle_ms * 1000);
  op->SetSplitDiscovery(it->second);
  op->SetSummaryFields(it->second->SummaryFields());
  t.RegisterSource(op.get());
  return t.Add(std::move(op), {});
}

}  // namespace

Result<Operator*> TranslateTableSourceScan(Translator& t, const PlanNodePtr& node) {
  return MakeSource(t, node->As<TableSourceScanNode>(), {}, -1, nullptr);
}

// The assigner runs inside the source, with a projection-only Calc right above the scan (the table's
// computed columns) fused in too.
Result<Operator*> TranslateWatermarkAssigner(Translator& t, const PlanNodePtr& node) {
  const auto& wm = node->As<WatermarkAssignerNode>();
  const PlanNode* below = wm.inputs[0].get();
  std::vector<ExprPtr> computed;
  if (below->kind == PlanKind::kCalc && !below->As<CalcNode>().condition &&
      below->inputs[0]->kind == PlanKind::kTableSourceScan) {
    computed = below->As<CalcNode>().projections;
    below = below->inputs[0].get();
  }
  if (below->kind != PlanKind::kTableSourceScan) return Status::Internal("WatermarkAssigner must sit on a table scan");
  if (t.config() && IsBatchRuntimeMode(*t.config())) {
    // Batch mode has no watermarks (Flink's batch planner drops the assigner): no row is late, and the
    // event-time operators see only the end of input's final watermark (random query 2022-35: a batch
    // OVER lost a row the streaming watermark would have made late).
    return MakeSource(t, below->As<TableSourceScanNode>(), std::move(computed), -1, nullptr);
  }
  return MakeSource(t, below->As<TableSourceScanNode>(), std::move(computed), wm.rowtime_index, wm.watermark);
}

Result<Operator*> TranslateValues(Translator& t, const PlanNodePtr& node) {
  const auto& v = node->As<ValuesNode>();
  auto op = std::make_unique<ValuesOperator>("Values", v.schema, v.rows);
  t.RegisterSource(op.get());
  return t.Add(std::move(op), {});
}

}  // namespace sluice
