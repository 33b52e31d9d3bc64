#include "plan/traits.h"
#include "runtime/operators/join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<JoinNode>();
  static constexpr JoinKind kKinds[] = {JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight,
                                        JoinKind::kFull,  JoinKind::kSemi, JoinKind::kAnti};
  JoinOptions options;
  options.left_ttl_ms = j.left_ttl_ms >= 0 ? j.left_ttl_ms : t.ConfigTtlMillis();
  options.right_ttl_ms = j.right_ttl_ms >= 0 ? j.right_ttl_ms : t.ConfigTtlMillis();
  // Flink's JoinInputSideSpec (EXPLAIN leftInputSpec / rightInputSpec): each side's unique key decides
  // how its state is keyed and, in mini-batch, how its bundle folds.
  options.left_unique_key = JoinInputUniqueKey(j, 0);
  options.right_unique_key = JoinInputUniqueKey(j, 1);
  // Flink's StreamExecJoin runs semi and anti joins without mini-batch (StreamingSemiAntiJoinOperator).
  if (j.mini_batch && !IsSemiOrAnti(j.join_type)) RETURN_IF_ERROR(MiniBatchSize(t.config(), &options.mini_batch_size));
  return t.Add(std::make_unique<JoinOperator>("Join", kKinds[static_cast<int>(j.join_type)], j.inputs[0]->schema.types(),
                                              j.inputs[1]->schema.types(), j.left_keys, j.right_keys, j.residual,
                                              std::move(options)),
               node->inputs);
}

}  // namespace sluice
