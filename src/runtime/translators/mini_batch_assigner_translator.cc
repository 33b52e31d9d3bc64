#include "runtime/operators/mini_batch_assigner_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateMiniBatchAssigner(Translator& t, const PlanNodePtr& node) {
  const auto& a = node->As<MiniBatchAssignerNode>();
  return t.Add(std::make_unique<MiniBatchAssignerOperator>(a.ExplainName(), a.interval_ms, a.mode), node->inputs);
}

}  // namespace sluice
