#include "runtime/operators/calc_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateCalc(Translator& t, const PlanNodePtr& node) {
  const auto& c = node->As<CalcNode>();
  return t.Add(std::make_unique<CalcOperator>("Calc", c.projections, c.condition, node->inputs[0]->schema.size()), node->inputs);
}

}  // namespace sluice
