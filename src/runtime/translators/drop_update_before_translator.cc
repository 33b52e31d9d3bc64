#include "runtime/operators/drop_update_before_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateDropUpdateBefore(Translator& t, const PlanNodePtr& node) {
  return t.Add(std::make_unique<DropUpdateBeforeOperator>("DropUpdateBefore"), node->inputs);
}

}  // namespace sluice
