#include "plan/traits.h"

#include <set>

#include "catalog/catalog.h"

namespace sluice {

namespace {

void Infer(PlanNode* node, std::set<PlanNode*>* done) {
  if (!done->insert(node).second) return;
  for (auto& in : node->inputs) Infer(in.get(), done);
  switch (node->kind) {
    case PlanKind::kTableSourceScan: node->changelog_mode = node->As<TableSourceScanNode>().source_mode; break;
    case PlanKind::kValues: node->changelog_mode = ChangelogMode::InsertOnly(); break;
    case PlanKind::kCalc:
    case PlanKind::kWatermarkAssigner:
    case PlanKind::kCorrelate:
    case PlanKind::kSink: node->changelog_mode = node->inputs[0]->changelog_mode; break;
    case PlanKind::kUnion: {
      ChangelogMode m;
      for (const auto& in : node->inputs) m = m.Union(in->changelog_mode);
      node->changelog_mode = m;
      break;
    }
  }
}

// The deepest node on the path down from `node` that first emits a change of a kind in `kinds`.
const PlanNode* Producer(const PlanNode* node, ChangelogMode kinds) {
  for (const auto& in : node->inputs) {
    ChangelogMode m = in->changelog_mode;
    bool has = false;
    for (RowKind k : {RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) has |= kinds.Contains(k) && m.Contains(k);
    if (has) return Producer(in.get(), kinds);
  }
  return node;
}

}  // namespace

Status InferChangelogModes(const std::vector<PlanNodePtr>& roots) {
  std::set<PlanNode*> done;
  for (const auto& r : roots) Infer(r.get(), &done);
  return Status::OK();
}

Status ValidateSinks(const std::vector<PlanNodePtr>& roots) {
  for (const auto& r : roots) {
    if (r->kind != PlanKind::kSink) continue;
    const auto& sink = r->As<SinkNode>();
    ChangelogMode in = sink.inputs[0]->changelog_mode;
    bool updates = (in.Contains(RowKind::kUpdateAfter) || in.Contains(RowKind::kUpdateBefore)) &&
                   !sink.accepted_mode.Contains(RowKind::kUpdateAfter);
    bool deletes = in.Contains(RowKind::kDelete) && !sink.accepted_mode.Contains(RowKind::kDelete);
    if (!updates && !deletes) continue;
    std::string what = updates && deletes ? "update and delete changes" : (updates ? "update changes" : "delete changes");
    const PlanNode* producer = Producer(&sink, in);
    std::string name = sink.table ? sink.table->path.FullName() : "collect";
    std::string msg = "Table sink '" + name + "' doesn't support consuming " + what + " which is produced by node " +
                      producer->ExplainName() + "(" + producer->ExplainAttributes() + ")";
    msg += "\nSluice: this query emits [" + in.ToString() + "] but the sink ('" +
           (sink.table ? sink.table->connector() : std::string("?")) + "') only stores [" + sink.accepted_mode.ToString() +
           "]. Write it to a sink that accepts updates instead, e.g. 'upsert-kafka' or a 'print' sink, or a filesystem "
           "sink with 'format' = 'debezium-json', declared with a PRIMARY KEY on the query's unique key.";
    return Status::PlanError(msg);
  }
  return Status::OK();
}

}  // namespace sluice
