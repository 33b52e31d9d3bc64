// An OverAggregate ordered by a column that is not a time attribute (plan/traits.h IsNonTimeOver) runs
// as the NonTimeOverAggregateOperator; -U rows only when a consumer asked for them.
#include "plan/traits.h"
#include "runtime/operators/non_time_over_aggregate_operator.h"
#include "runtime/translators/translators.h"
#include "state/sort_key.h"

namespace sluice {

Result<Operator*> TranslateNonTimeOverAggregate(Translator& t, const PlanNodePtr& node) {
  const auto& o = node->As<OverAggregateNode>();
  const LogicalType& order_type = o.inputs[0]->schema.field(static_cast<size_t>(o.order_column)).type;
  if (!IsSortKeyEncodable(order_type)) {
    return Status::NotSupported("An OVER window ordered by a column of type " + order_type.ToString() +
                                " is not supported by Sluice yet");
  }
  std::vector<AccumulatorCall> calls;
  for (const auto& a : o.aggs) calls.push_back({a.function, a.args, a.distinct, a.filter});
  const bool emit_ub = node->changelog_mode.Contains(RowKind::kUpdateBefore);
  return t.Add(std::make_unique<NonTimeOverAggregateOperator>("OverAggregate", o.inputs[0]->schema.types(),
                                                              o.partition_keys, o.order_column, o.rows_frame,
                                                              std::move(calls), o.schema.types(), emit_ub),
               node->inputs);
}

}  // namespace sluice
