#include "runtime/operators/temporal_join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateTemporalJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<TemporalJoinNode>();
  return t.Add(std::make_unique<TemporalJoinOperator>("TemporalJoin", j.inputs[0]->schema.types(),
                                                      j.inputs[1]->schema.types(), j.left_keys, j.right_keys,
                                                      j.left_time, j.right_time, j.left_outer, j.residual),
               node->inputs);
}

}  // namespace sluice
