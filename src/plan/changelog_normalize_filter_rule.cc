#include "plan/changelog_normalize_filter_rule.h"

#include <algorithm>
#include <set>

#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"

namespace sluice {

bool ChangelogNormalizeFilterRule::Shared(const PlanNode* n) const {
  auto it = parents_.find(n);
  return it != parents_.end() && it->second > 1;
}

PlanNodePtr ChangelogNormalizeFilterRule::Apply(const PlanNodePtr& node) {
  // Whether a node is shared is known of the original plan.
  auto rule = [this](const PlanNode& original, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (original.kind != PlanKind::kCalc || !original.As<CalcNode>().condition) return out;
    const PlanNode* normalize = original.inputs[0].get();
    if (normalize->kind == PlanKind::kChangelogNormalize && !Shared(normalize) &&
        normalize->inputs[0]->kind == PlanKind::kExchange && !Shared(normalize->inputs[0].get())) {
      return Push(out->As<CalcNode>());
    }
    return out;
  };
  return RewriteBottomUp(node, rule, &memo_).value();  // the rule never fails
}

PlanNodePtr ChangelogNormalizeFilterRule::Push(const CalcNode& calc) const {
  const auto& normalize = calc.inputs[0]->As<ChangelogNormalizeNode>();
  const auto& exchange = normalize.inputs[0]->As<ExchangeNode>();
  const std::set<int> keys(normalize.keys.begin(), normalize.keys.end());
  std::vector<ExprPtr> key_conjuncts;
  std::vector<ExprPtr> other_conjuncts{normalize.condition};
  for (const auto& c : Conjuncts(calc.condition)) {
    std::vector<bool> used(normalize.schema.size(), false);
    CollectColumns(*c, &used);
    bool key_only = true;
    for (size_t i = 0; i < used.size(); ++i) key_only = key_only && (!used[i] || keys.count(static_cast<int>(i)) > 0);
    (key_only ? key_conjuncts : other_conjuncts).push_back(c);
  }
  // Below the Exchange: a filter on the key columns (the Exchange's input has the same columns).
  PlanNodePtr exchange_input = exchange.inputs[0];
  if (!key_conjuncts.empty()) {
    auto below = std::make_shared<CalcNode>();
    below->schema = exchange_input->schema;
    for (size_t i = 0; i < below->schema.size(); ++i) {
      below->projections.push_back(MakeColumnRef(static_cast<int>(i), below->schema.field(i).type));
    }
    below->condition = AndAll(key_conjuncts);
    below->inputs = {exchange_input};
    exchange_input = below;
  }
  auto new_exchange = std::make_shared<ExchangeNode>(exchange);
  new_exchange->inputs = {exchange_input};
  auto new_normalize = std::make_shared<ChangelogNormalizeNode>(normalize);
  new_normalize->inputs = {new_exchange};
  new_normalize->condition = AndAll(other_conjuncts);
  auto above = std::make_shared<CalcNode>(calc);
  above->condition = nullptr;
  above->inputs = {new_normalize};
  return above;
}

}  // namespace sluice
