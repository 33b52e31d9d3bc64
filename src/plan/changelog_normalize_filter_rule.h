// Flink's PushCalcPastChangelogNormalizeRule (FLINK-37390, Flink 2.1+) for the filter of a Calc over a
// ChangelogNormalize over its Exchange: the Calc's conjuncts that read only key columns (or no column
// at all) become a Calc below the Exchange, and every other conjunct becomes the ChangelogNormalize's
// `condition` (`ChangelogNormalize(key=[id], condition=[...])`), so the normalization keeps only rows
// that pass and emits the filtered changelog exactly (a -D when a kept row stops passing, a +I when a
// key's row first passes). Non-deterministic conjuncts move too, as in Flink. The Calc above keeps its
// projections only (and goes away when they pass every column through). The projection part of
// Flink's rule is column pruning's (projection_prune_rule.h). A ChangelogNormalize or Exchange with
// several parents is left alone, so one consumer's filter never applies to another's rows.
//
// Threading: pure; one rule object per optimization (it memoizes rewritten nodes).
#pragma once

#include <map>

#include "plan/plan_node.h"

namespace sluice {

class ChangelogNormalizeFilterRule {
 public:
  // `parents`: the number of parents of each node of the plans the rule is applied to.
  explicit ChangelogNormalizeFilterRule(std::map<const PlanNode*, int> parents) : parents_(std::move(parents)) {}
  PlanNodePtr Apply(const PlanNodePtr& node);

 private:
  bool Shared(const PlanNode* n) const;
  // `calc` (already over rewritten inputs) with its filter moved into the ChangelogNormalize below.
  PlanNodePtr Push(const CalcNode& calc) const;

  std::map<const PlanNode*, int> parents_;
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
