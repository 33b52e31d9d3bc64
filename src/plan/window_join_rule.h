// Window join planning (Flink's StreamPhysicalWindowJoinRule with WindowJoinUtil): a join whose two
// inputs carry windows (plan/window_rank_rule.h, FindWindowColumns) and whose equi-keys pair a
// window_start of each side and a window_end of each side becomes a WindowJoin. The window equalities
// leave the keys; the other equi-keys hash the Exchanges (single when none) and, with the non-equi
// part, form the remaining condition Flink prints as where=[...].
//
// As in Flink, a join that pairs only one of the window columns, or whose sides differ in window or
// time attribute kind, stays a regular join. Windows on processing time are refused with Flink's
// words ("Processing time Window Join is not supported yet."). [NOT] IN / [NOT] EXISTS subqueries correlated
// on both window columns (binder/subquery.cc's LeftSemiJoin / LeftAntiJoin) become a WindowJoin with
// joinType=[LeftSemiJoin] / [LeftAntiJoin] the same way; NOT IN's NULL tests stay in its condition.
//
// Threading: pure functions over immutable plans.
#pragma once

#include <map>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

class WindowJoinRule {
 public:
  // The plan with every matching Join rewritten (shared sub-plans stay shared).
  Result<PlanNodePtr> Apply(const PlanNodePtr& node);

 private:
  Result<PlanNodePtr> Rewrite(const JoinNode& join);
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace sluice
