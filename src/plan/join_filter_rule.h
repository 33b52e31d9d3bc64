// Flink's filter-into-join rules for inner joins (FlinkFilterJoinRule): a WHERE over a join (comma
// joins and JOIN ... ON alike) gives its equalities between the two sides to the join as keys, its
// one-sided conditions to the side they read (a Calc over that input, so state keeps only matching
// rows, and filter push-down can take them into a scan), and the rest to the join's residual.
//
// Threading: pure; one rule object per optimization (it memoizes rewritten nodes).
#pragma once

#include <map>

#include "plan/plan_node.h"

namespace sluice {

class JoinFilterRule {
 public:
  PlanNodePtr Apply(const PlanNodePtr& node);

 private:
  PlanNodePtr Push(const CalcNode& calc);

  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
