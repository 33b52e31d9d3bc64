#include "plan/source_changelog_rule.h"

#include <map>

#include "catalog/catalog.h"
#include "plan/optimizer.h"

namespace sluice {

namespace {

class SourceChangelogRule {
 public:
  SourceChangelogRule(const SourceModeFn& mode_of, bool cdc_events_duplicate)
      : mode_of_(mode_of), cdc_events_duplicate_(cdc_events_duplicate) {}

  // `in_source`: the node sits between a WatermarkAssigner and its scan.
  Result<PlanNodePtr> Rewrite(const PlanNodePtr& node, bool in_source) {
    auto found = memo_.find(node.get());
    if (found != memo_.end()) return found->second;
    PlanNodePtr out;
    switch (node->kind) {
      case PlanKind::kTableSourceScan: {
        auto scan = std::make_shared<TableSourceScanNode>(node->As<TableSourceScanNode>());
        ASSIGN_OR_RETURN(scan->source_mode, mode_of_(*scan));
        out = scan;
        if (!in_source) {
          ASSIGN_OR_RETURN(out, Wrap(out, *scan));
        }
        break;
      }
      case PlanKind::kWatermarkAssigner: {
        ASSIGN_OR_RETURN(PlanNodePtr in, Rewrite(node->inputs[0], true));
        out = CopyWithInputs(node, {in});
        const PlanNode* below = in.get();
        while (below->kind != PlanKind::kTableSourceScan && !below->inputs.empty()) below = below->inputs[0].get();
        if (below->kind == PlanKind::kTableSourceScan) {
          ASSIGN_OR_RETURN(out, Wrap(out, below->As<TableSourceScanNode>()));
        }
        break;
      }
      default: {
        // Computed columns between a watermark and its scan stay inside the source.
        bool pass = in_source && node->kind == PlanKind::kCalc;
        std::vector<PlanNodePtr> inputs;
        for (const auto& in : node->inputs) {
          ASSIGN_OR_RETURN(PlanNodePtr r, Rewrite(in, pass));
          inputs.push_back(std::move(r));
        }
        out = CopyWithInputs(node, std::move(inputs));
        break;
      }
    }
    memo_[node.get()] = out;
    return out;
  }

 private:
  Result<PlanNodePtr> Wrap(const PlanNodePtr& top, const TableSourceScanNode& scan) {
    const ChangelogMode mode = scan.source_mode;
    const bool upsert = mode.Contains(RowKind::kUpdateAfter) && !mode.Contains(RowKind::kUpdateBefore);
    const bool retract = mode.Contains(RowKind::kUpdateBefore);
    const CatalogTable& table = *scan.table;
    if (upsert && table.primary_key.empty()) {
      return Status::PlanError("Table '" + table.path.FullName() + "' produces a changelog stream that contains UPDATE_AFTER but no UPDATE_BEFORE ([" +
                               mode.ToString() + "]), which requires a primary key constraint on the table: add PRIMARY KEY (...) NOT ENFORCED");
    }
    // A CDC source (neither insert-only nor upsert: debezium-json, values 'I,UB,UA,D' or 'I,D')
    // whose events may repeat is normalized by its primary key, which it must then declare.
    const bool cdc = !mode.IsInsertOnly() && !upsert;
    if (cdc && cdc_events_duplicate_ && table.primary_key.empty()) {
      return Status::PlanError("Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the "
                               "changelog sources to define a PRIMARY KEY. However, table '" +
                               table.path.FullName() + "' doesn't have a primary key.");
    }
    if (upsert || (cdc && cdc_events_duplicate_)) {
      std::vector<int> keys;
      for (const auto& name : table.primary_key) {
        auto idx = top->schema.IndexOf(name);
        if (!idx) return Status::Internal("primary key column " + name + " is not in the scan of " + table.path.FullName());
        keys.push_back(static_cast<int>(*idx));
      }
      PlanNodePtr input = top;
      if (retract) {
        // ChangelogNormalize reads upserts by key, so a CDC source's update-before rows are dropped
        // first (Flink's changelog-mode inference asks its input for ONLY_UPDATE_AFTER); a -U would
        // otherwise read as a delete of the key.
        auto drop = std::make_shared<DropUpdateBeforeNode>();
        drop->schema = top->schema;
        drop->inputs = {top};
        input = drop;
      }
      auto exchange = std::make_shared<ExchangeNode>();
      exchange->keys = keys;
      exchange->schema = top->schema;
      exchange->inputs = {input};
      auto normalize = std::make_shared<ChangelogNormalizeNode>();
      normalize->keys = keys;
      normalize->schema = top->schema;
      normalize->inputs = {exchange};
      return PlanNodePtr(normalize);
    }
    if (retract) {
      auto drop = std::make_shared<DropUpdateBeforeNode>();
      drop->schema = top->schema;
      drop->inputs = {top};
      return PlanNodePtr(drop);
    }
    return top;
  }

  const SourceModeFn& mode_of_;
  bool cdc_events_duplicate_;
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace

Result<std::vector<PlanNodePtr>> PlaceSourceChangelogNodes(const std::vector<PlanNodePtr>& roots,
                                                           const SourceModeFn& mode_of, bool cdc_events_duplicate) {
  SourceChangelogRule rule(mode_of, cdc_events_duplicate);
  std::vector<PlanNodePtr> out;
  for (const auto& r : roots) {
    ASSIGN_OR_RETURN(PlanNodePtr n, rule.Rewrite(r, false));
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace sluice
