// Flink's filter-into-join rules for inner joins (FlinkFilterJoinRule): a WHERE over a join (comma
// joins and JOIN ... ON alike) gives its equalities between the two sides to the join as keys, its
// one-sided conditions to the side they read (a Calc over that input, so state keeps only matching
// rows, and filter push-down can take them into a scan), and the rest to the join's residual.
// Likewise Calcite's FilterCorrelateRule for a Correlate (CROSS / LEFT JOIN UNNEST): the WHERE's
// conjuncts that read no element column go below it, so over a ChangelogNormalize they become its
// condition and a row that stops passing is a -D, as in Flink (random query 1-19 of an earlier
// generator, case random_unnest_filter_over_normalize).
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
  PlanNodePtr PushPastCorrelate(const CalcNode& calc);

  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
