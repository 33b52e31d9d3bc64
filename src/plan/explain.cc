#include "plan/explain.h"

#include "plan/traits.h"
#include "plan/window_rules.h"

#include <map>
#include <set>

namespace sluice {

namespace {

void CountParents(const PlanNode* node, std::map<const PlanNode*, int>* parents, std::set<const PlanNode*>* seen) {
  if (!seen->insert(node).second) return;
  for (const auto& in : node->inputs) {
    (*parents)[in.get()]++;
    CountParents(in.get(), parents, seen);
  }
}

class TreePrinter {
 public:
  TreePrinter(bool changelog, const std::map<const PlanNode*, int>& parents, std::string late_rows_table)
      : changelog_(changelog), parents_(parents), late_rows_table_(std::move(late_rows_table)) {}

  void Print(const PlanNode* node, const std::string& prefix, const std::string& child_prefix, std::string* out) {
    auto reused = reuse_ids_.find(node);
    if (reused != reuse_ids_.end()) {
      *out += prefix + "Reused(reference_id=[" + std::to_string(reused->second) + "])\n";
      return;
    }
    std::string attrs = node->ExplainAttributes();
    auto add = [&attrs](const std::string& a) { attrs += (attrs.empty() ? "" : ", ") + a; };
    auto p = parents_.find(node);
    if (p != parents_.end() && p->second > 1) {
      int id = static_cast<int>(reuse_ids_.size()) + 1;
      reuse_ids_[node] = id;
      add("reuse_id=[" + std::to_string(id) + "]");
    }
    if (changelog_) {
      add("changelogMode=[" + node->changelog_mode.ToString() + "]");
      // Beyond Flink: the unique key of an updating result, and operators whose state grows with keys.
      if (!node->changelog_mode.IsInsertOnly()) {
        std::vector<std::string> key = UpsertKeyNames(*node);
        if (!key.empty()) {
          std::string k;
          for (const auto& c : key) k += (k.empty() ? "" : ", ") + c;
          add("upsertKey=[[" + k + "]]");
        }
      }
      if (StateGrowsWithKeys(*node)) add("state=[grows with keys]");
      // Beyond Flink: operators that drop rows behind the watermark (counted in the job summary, and
      // written to the late-rows table when one is set).
      if (DropsLateRows(*node)) {
        add(late_rows_table_.empty() ? "lateRows=[dropped and counted]" : "lateRows=[to " + late_rows_table_ + "]");
      }
    }
    // Flink prints a node without attributes by its name alone (DropUpdateBefore).
    std::string line = node->ExplainName() + (attrs.empty() ? "" : "(" + attrs + ")");
    *out += prefix + line + "\n";
    // A LookupJoin reads its table through the connector, as Flink's: only the probe side is printed.
    const size_t shown = node->kind == PlanKind::kLookupJoin ? 1 : node->inputs.size();
    for (size_t i = 0; i < shown; ++i) {
      bool last = i + 1 == shown;
      Print(node->inputs[i].get(), child_prefix + (last ? "+- " : ":- "), child_prefix + (last ? "   " : ":  "), out);
    }
  }

 private:
  bool changelog_;
  const std::map<const PlanNode*, int>& parents_;
  std::string late_rows_table_;
  std::map<const PlanNode*, int> reuse_ids_;
};

}  // namespace

std::string ExplainTree(const std::vector<PlanNodePtr>& roots, bool with_changelog_mode,
                        const std::string& late_rows_table) {
  std::map<const PlanNode*, int> parents;
  std::set<const PlanNode*> seen;
  for (const auto& r : roots) CountParents(r.get(), &parents, &seen);
  TreePrinter printer(with_changelog_mode, parents, late_rows_table);
  std::string out;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (i) out += "\n";
    printer.Print(roots[i].get(), "", "", &out);
  }
  return out;
}

std::string ExplainPlan(const std::vector<PlanNodePtr>& logical, const std::vector<PlanNodePtr>& physical,
                        const ExplainOptions& options) {
  std::string out = "== Abstract Syntax Tree ==\n";
  out += ExplainTree(logical, false);
  out += "\n== Optimized Physical Plan ==\n";
  out += ExplainTree(physical, options.changelog_mode, options.late_rows_table);
  out += "\n== Optimized Execution Plan ==\n";
  out += ExplainTree(physical, false);
  return out + "\n";
}

}  // namespace sluice
