// The walk every bottom-up rewrite rule shares: a plan DAG rewritten from its leaves up, each node once,
// so a shared sub-plan stays shared.
//
// Threading: builds new nodes; never modifies the nodes it is given.
#pragma once

#include <functional>
#include <map>

#include "common/status.h"
#include "plan/plan_node.h"

namespace sluice {

// What a rule does at one node: given the `original` node and a `copy` of it over the rewritten inputs
// (the node itself when they are unchanged), the node that replaces it (`copy` when the rule does not
// apply).
using PlanNodeRewrite = std::function<Result<PlanNodePtr>(const PlanNode& original, const PlanNodePtr& copy)>;

// `node` with `rewrite` applied to every node below it and then to it; `memo` maps the nodes already
// rewritten (a rule's member, so its Apply can be called per root).
Result<PlanNodePtr> RewriteBottomUp(const PlanNodePtr& node, const PlanNodeRewrite& rewrite,
                                    std::map<const PlanNode*, PlanNodePtr>* memo);

}  // namespace sluice
