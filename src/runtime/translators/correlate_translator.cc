// Correlate (UNNEST) and the operators that pass chunks through: Union, Exchange.
#include "runtime/operators/correlate_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateCorrelate(Translator& t, const PlanNodePtr& node) {
  const auto& c = node->As<CorrelateNode>();
  return t.Add(
      std::make_unique<CorrelateOperator>("Correlate", c.collection, c.left_outer, c.with_ordinality, c.schema),
      node->inputs);
}

Result<Operator*> TranslateUnion(Translator& t, const PlanNodePtr& node) {
  return t.Add(std::make_unique<UnionOperator>("Union", static_cast<int>(node->inputs.size())), node->inputs);
}

// One task runs everything, so an exchange passes chunks through unchanged; mini-batch aggregates cut
// their own batches, so the assigner passes rows through too.
Result<Operator*> TranslatePassThrough(Translator& t, const PlanNodePtr& node) {
  return t.Add(std::make_unique<UnionOperator>(node->ExplainName(), 1), node->inputs);
}

}  // namespace sluice
