#include "plan/traits.h"
#include "runtime/operators/over_aggregate_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateOverAggregate(Translator& t, const PlanNodePtr& node) {
  if (node->As<OverAggregateNode>().batch) return TranslateBatchOverAggregate(t, node);
  if (IsNonTimeOver(*node)) return TranslateNonTimeOverAggregate(t, node);
  const auto& o = node->As<OverAggregateNode>();
  std::vector<AccumulatorCall> calls;
  for (const auto& a : o.aggs) calls.push_back({a.function, a.args, a.distinct, a.filter});
  return t.Add(std::make_unique<OverAggregateOperator>("OverAggregate", o.inputs[0]->schema.types(), o.partition_keys,
                                                       o.order_column, o.rowtime, o.rows_frame, o.preceding,
                                                       std::move(calls), o.schema.types()),
               node->inputs);
}

}  // namespace sluice
