#include "plan/filter_pushdown_rule.h"

#include <map>
#include <set>

#include "function/scalar_function.h"
#include "plan/optimizer.h"

namespace sluice {
namespace {

// A non-deterministic call (RAND(), UUID()) must be evaluated once per row, never by a source.
bool IsDeterministic(const Expr& e) {
  if (e.kind == ExprKind::kCall && (e.function == nullptr || !e.function->deterministic)) return false;
  for (const auto& a : e.args) {
    if (!IsDeterministic(*a)) return false;
  }
  return true;
}

class FilterPushDown {
 public:
  FilterPushDown(const FilterPushDownFn& push, std::map<const PlanNode*, int> parents)
      : push_(push), parents_(std::move(parents)) {}

  Result<PlanNodePtr> Apply(const PlanNodePtr& node) {
    auto found = memo_.find(node.get());
    if (found != memo_.end()) return found->second;
    PlanNodePtr out;
    if (node->kind == PlanKind::kCalc) {
      ASSIGN_OR_RETURN(out, PushChain(node));
    }
    if (!out) {
      std::vector<PlanNodePtr> inputs;
      for (const auto& in : node->inputs) {
        ASSIGN_OR_RETURN(PlanNodePtr x, Apply(in));
        inputs.push_back(x);
      }
      out = CopyWithInputs(node, inputs);
    }
    memo_[node.get()] = out;
    return out;
  }

 private:
  bool Shared(const PlanNode* n) const {
    auto it = parents_.find(n);
    return it != parents_.end() && it->second > 1;
  }

  // The chain of Calcs from `top` down to a scan, with the filter offered to the scan's connector;
  // null when `top` does not sit on an unshared scan through unshared Calcs, or nothing is offered.
  Result<PlanNodePtr> PushChain(const PlanNodePtr& top) {
    std::vector<PlanNodePtr> chain{top};
    PlanNodePtr cur = top->inputs[0];
    while (cur->kind == PlanKind::kCalc && !Shared(cur.get())) {
      chain.push_back(cur);
      cur = cur->inputs[0];
    }
    if (cur->kind != PlanKind::kTableSourceScan || Shared(cur.get())) return PlanNodePtr();
    const auto& scan = cur->As<TableSourceScanNode>();
    if (scan.filter_push_down) return PlanNodePtr();
    // Every condition of the chain over the scan's columns, bottom Calc first.
    std::vector<ExprPtr> conds;
    std::vector<ExprPtr> below;  // the projections of the Calc below, over the scan's columns
    for (size_t k = chain.size(); k-- > 0;) {
      const auto& calc = chain[k]->As<CalcNode>();
      const bool on_scan = k + 1 == chain.size();
      auto over_scan = [&](const ExprPtr& e) { return on_scan ? e : SubstituteColumns(e, below); };
      for (const auto& c : Conjuncts(calc.condition)) conds.push_back(over_scan(c));
      std::vector<ExprPtr> projections;
      for (const auto& p : calc.projections) projections.push_back(over_scan(p));
      below = std::move(projections);
    }
    // Offer the deterministic conjuncts that read physical columns only, over physical ordinals.
    const size_t physical = scan.projection.size();
    std::vector<int> to_physical(scan.schema.size(), -1);
    for (size_t i = 0; i < physical; ++i) to_physical[i] = scan.projection[i];
    std::vector<ExprPtr> offered;
    for (const auto& c : conds) {
      std::vector<bool> used(scan.schema.size(), false);
      CollectColumns(*c, &used);
      bool any = false, only_physical = true;
      for (size_t i = 0; i < used.size(); ++i) {
        if (!used[i]) continue;
        any = true;
        only_physical = only_physical && i < physical;
      }
      if (any && only_physical && IsDeterministic(*c)) offered.push_back(RemapColumns(c, to_physical));
    }
    if (offered.empty()) return PlanNodePtr();
    ASSIGN_OR_RETURN(std::optional<std::vector<bool>> accepted, push_(scan, offered));
    if (!accepted) return PlanNodePtr();
    auto pushed = std::make_shared<TableSourceScanNode>(scan);
    pushed->filter_push_down = true;
    for (size_t i = 0; i < offered.size() && i < accepted->size(); ++i) {
      if ((*accepted)[i]) pushed->filters.push_back(offered[i]);
    }
    PlanNodePtr out = pushed;
    for (size_t k = chain.size(); k-- > 0;) out = CopyWithInputs(chain[k], {out});
    return out;
  }

  const FilterPushDownFn& push_;
  std::map<const PlanNode*, int> parents_;
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace

Result<std::vector<PlanNodePtr>> PushFiltersIntoScans(const std::vector<PlanNodePtr>& roots,
                                                      const FilterPushDownFn& push) {
  if (!push) return roots;
  FilterPushDown rule(push, CountParents(roots));
  std::vector<PlanNodePtr> out;
  for (const auto& r : roots) {
    ASSIGN_OR_RETURN(PlanNodePtr x, rule.Apply(r));
    out.push_back(x);
  }
  return out;
}

}  // namespace sluice
