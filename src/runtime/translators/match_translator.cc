#include "runtime/operators/match_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateMatch(Translator& t, const PlanNodePtr& node) {
  auto match = std::static_pointer_cast<const MatchNode>(node);
  return t.Add(std::make_unique<MatchOperator>("Match", match, node->inputs[0]->schema.types()), node->inputs);
}

}  // namespace sluice
