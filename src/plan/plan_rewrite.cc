#include "plan/plan_rewrite.h"

#include "plan/optimizer.h"

namespace sluice {

Result<PlanNodePtr> RewriteBottomUp(const PlanNodePtr& node, const PlanNodeRewrite& rewrite,
                                    std::map<const PlanNode*, PlanNodePtr>* memo) {
  auto found = memo->find(node.get());
  if (found != memo->end()) return found->second;
  std::vector<PlanNodePtr> inputs;
  for (const auto& in : node->inputs) {
    ASSIGN_OR_RETURN(PlanNodePtr x, RewriteBottomUp(in, rewrite, memo));
    inputs.push_back(x);
  }
  ASSIGN_OR_RETURN(PlanNodePtr out, rewrite(*node, CopyWithInputs(node, inputs)));
  (*memo)[node.get()] = out;
  return out;
}

}  // namespace sluice
