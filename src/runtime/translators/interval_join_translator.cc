#include "runtime/operators/interval_join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateIntervalJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<IntervalJoinNode>();
  IntervalJoinSpec spec;
  spec.left_outer = j.join_type == JoinType::kLeft || j.join_type == JoinType::kFull;
  spec.right_outer = j.join_type == JoinType::kRight || j.join_type == JoinType::kFull;
  spec.left_keys = j.left_keys;
  spec.right_keys = j.right_keys;
  spec.rowtime = j.rowtime;
  spec.left_time = j.left_time;
  spec.right_time = j.right_time;
  spec.lower_ms = j.lower_ms;
  spec.upper_ms = j.upper_ms;
  spec.residual = j.residual;
  return t.Add(std::make_unique<IntervalJoinOperator>("IntervalJoin", j.inputs[0]->schema.types(),
                                                      j.inputs[1]->schema.types(), std::move(spec)),
               node->inputs);
}

}  // namespace sluice
