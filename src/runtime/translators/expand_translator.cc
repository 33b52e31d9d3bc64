// Expand (GROUPING SETS, ROLLUP and CUBE).
#include "runtime/operators/expand_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateExpand(Translator& t, const PlanNodePtr& node) {
  const auto& e = node->As<ExpandNode>();
  return t.Add(std::make_unique<ExpandOperator>("Expand", e.keep, e.expand_ids, e.schema), node->inputs);
}

}  // namespace sluice
