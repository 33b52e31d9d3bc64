#include "runtime/operators/sort_merge_join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

// SortMergeJoin (batch equi-join, plan/batch_physical.h): the result once, at the end of both inputs.
Result<Operator*> TranslateSortMergeJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<SortMergeJoinNode>();
  static constexpr JoinKind kKinds[] = {JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight,
                                        JoinKind::kFull,  JoinKind::kSemi, JoinKind::kAnti};
  return t.Add(std::make_unique<SortMergeJoinOperator>(
                   j.ExplainName(), kKinds[static_cast<int>(j.join_type)], j.inputs[0]->schema.types(),
                   j.inputs[1]->schema.types(), j.left_keys, j.right_keys, j.residual, j.schema.types()),
               node->inputs);
}

}  // namespace sluice
