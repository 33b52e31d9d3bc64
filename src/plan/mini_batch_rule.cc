#include "plan/mini_batch_rule.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "function/aggregate/aggregate_function.h"

namespace sluice {

namespace {

void CollectNodes(const PlanNodePtr& n, std::set<const PlanNode*>* seen, std::vector<PlanNodePtr>* out) {
  if (!seen->insert(n.get()).second) return;
  for (const auto& in : n->inputs) CollectNodes(in, seen, out);
  out->push_back(n);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool CanSplit(const GroupAggregateNode& g) {
  if (g.inputs.empty() || g.inputs[0]->kind != PlanKind::kExchange) return false;
  for (const auto& a : g.aggs) {
    if (!a.function || !a.function->merge) return false;
  }
  return true;
}

}  // namespace

void ApplyMiniBatchRules(std::vector<PlanNodePtr>* roots, int64_t interval_ms, bool two_phase) {
  std::set<const PlanNode*> seen;
  std::vector<PlanNodePtr> nodes;
  for (const auto& r : *roots) CollectNodes(r, &seen, &nodes);
  bool has_aggregate = false;
  for (const auto& n : nodes) has_aggregate |= n->kind == PlanKind::kGroupAggregate;
  if (!has_aggregate) return;

  // Split aggregates into local and global phases.
  if (two_phase) {
    for (const auto& n : nodes) {
      if (n->kind != PlanKind::kGroupAggregate) continue;
      auto& global = n->As<GroupAggregateNode>();
      if (global.phase != GroupAggregateNode::Phase::kSingle || !CanSplit(global)) continue;
      const PlanNodePtr exchange = global.inputs[0];
      const PlanNodePtr input = exchange->inputs[0];
      auto local = std::make_shared<GroupAggregateNode>(global);
      local->phase = GroupAggregateNode::Phase::kLocal;
      local->inputs = {input};
      local->schema = Schema();
      local->partial_names.clear();
      for (int k : global.group_keys) {
        const Field& f = input->schema.field(static_cast<size_t>(k));
        local->schema.Add(f.name, f.type);
        local->partial_names.push_back(f.name);
      }
      for (size_t a = 0; a < global.aggs.size(); ++a) {
        std::string name = Lower(global.aggs[a].name) + "$" + std::to_string(a);
        local->schema.Add(name, global.aggs[a].function->result_type);
        local->partial_names.push_back(name);
      }
      local->changelog_mode = input->changelog_mode;
      local->upsert_keys.clear();
      auto new_exchange = std::make_shared<ExchangeNode>(exchange->As<ExchangeNode>());
      new_exchange->inputs = {local};
      new_exchange->schema = local->schema;
      new_exchange->keys.clear();
      for (size_t k = 0; k < global.group_keys.size(); ++k) new_exchange->keys.push_back(static_cast<int>(k));
      global.phase = GroupAggregateNode::Phase::kGlobal;
      global.partial_names = local->partial_names;
      global.inputs = {new_exchange};
    }
  }

  // A MiniBatchAssigner over each source: over a WatermarkAssigner, else over a scan that no
  // WatermarkAssigner reads (computed columns between a WatermarkAssigner and its scan stay inside).
  std::set<const PlanNode*> inside_source;
  for (const auto& n : nodes) {
    if (n->kind != PlanKind::kWatermarkAssigner) continue;
    for (const PlanNode* p = n->inputs[0].get(); !p->inputs.empty(); p = p->inputs[0].get()) inside_source.insert(p);
    inside_source.insert(n->inputs[0].get());
  }
  std::map<const PlanNode*, PlanNodePtr> assigners;
  auto assigner_for = [&](const PlanNodePtr& source) {
    auto& a = assigners[source.get()];
    if (!a) {
      auto node = std::make_shared<MiniBatchAssignerNode>();
      node->interval_ms = interval_ms;
      node->inputs = {source};
      node->schema = source->schema;
      node->changelog_mode = source->changelog_mode;
      node->upsert_keys = source->upsert_keys;
      a = node;
    }
    return a;
  };
  // Nodes created above (local phases, exchanges) are reached through their parents' inputs.
  seen.clear();
  nodes.clear();
  for (const auto& r : *roots) CollectNodes(r, &seen, &nodes);
  for (const auto& n : nodes) {
    if (inside_source.count(n.get()) || n->kind == PlanKind::kWatermarkAssigner) continue;
    for (auto& in : n->inputs) {
      const bool source_top = in->kind == PlanKind::kWatermarkAssigner ||
                              (in->kind == PlanKind::kTableSourceScan && !inside_source.count(in.get()));
      if (source_top) in = assigner_for(in);
    }
  }
}

}  // namespace sluice
