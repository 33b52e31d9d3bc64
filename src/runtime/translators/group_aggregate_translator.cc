#include "common/config.h"
#include "runtime/job.h"
#include "runtime/operators/group_aggregate_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateGroupAggregate(Translator& t, const PlanNodePtr& node) {
  const auto& g = node->As<GroupAggregateNode>();
  std::vector<GroupAggregateOperator::Agg> aggs;
  for (const auto& a : g.aggs) aggs.push_back({a.function, a.args, a.distinct, a.filter});
  int64_t batch_size = 0;
  RETURN_IF_ERROR(MiniBatchSize(t.config(), &batch_size));
  const int64_t ttl_ms = g.state_ttl_ms >= 0 ? g.state_ttl_ms : t.ConfigTtlMillis();
  // A global phase runs fused with its local phase, over the local phase's input (plan_node.h), with
  // the two phases' bundles (runtime/operators/group_aggregate_operator.h).
  std::vector<PlanNodePtr> inputs = node->inputs;
  if (g.phase == GroupAggregateNode::Phase::kGlobal) inputs = {g.inputs[0]->inputs[0]->inputs[0]};
  if (g.phase == GroupAggregateNode::Phase::kLocal) {
    return Status::Internal("a LocalGroupAggregate runs with its global phase");
  }
  auto op = std::make_unique<GroupAggregateOperator>(g.ExplainName(), inputs[0]->schema.types(), g.group_keys,
                                                     std::move(aggs), g.schema.types(), g.emit_update_before,
                                                     batch_size, g.phase == GroupAggregateNode::Phase::kGlobal, ttl_ms,
                                                     inputs[0]->changelog_mode.IsInsertOnly());
  // Only a fold to the final table reads its changes (runtime/job.h): one net change per key per chunk.
  if (t.context().final_table_input == node.get()) op->set_net_changes(true);
  return t.Add(std::move(op), inputs);
}

}  // namespace sluice
