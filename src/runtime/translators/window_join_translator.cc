#include "runtime/operators/window_join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateWindowJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<WindowJoinNode>();
  WindowJoinSpec spec;
  spec.left_outer = j.join_type == JoinType::kLeft || j.join_type == JoinType::kFull;
  spec.right_outer = j.join_type == JoinType::kRight || j.join_type == JoinType::kFull;
  spec.right_driven = j.join_type == JoinType::kRight;
  spec.semi = j.join_type == JoinType::kSemi;
  spec.anti = j.join_type == JoinType::kAnti;
  spec.left_keys = j.left_keys;
  spec.right_keys = j.right_keys;
  spec.left_window_end = j.left_window.window_end;
  spec.right_window_end = j.right_window.window_end;
  spec.left_event_time = Translator::FirstRowtimeColumn(j.inputs[0]->schema);
  spec.right_event_time = Translator::FirstRowtimeColumn(j.inputs[1]->schema);
  spec.residual = j.residual;
  spec.local_time = j.left_window.local_time;
  return t.Add(std::make_unique<WindowJoinOperator>("WindowJoin", j.inputs[0]->schema.types(),
                                                    j.inputs[1]->schema.types(), std::move(spec)),
               node->inputs);
}

}  // namespace sluice
