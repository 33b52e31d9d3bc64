#include "runtime/operators/hash_aggregate_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

// HashAggregate (batch GROUP BY, plan/batch_physical.h): final rows once, at the end of input.
Result<Operator*> TranslateHashAggregate(Translator& t, const PlanNodePtr& node) {
  const auto& g = node->As<HashAggregateNode>();
  std::vector<AccumulatorCall> aggs;
  for (const auto& a : g.aggs) aggs.push_back({a.function, a.args, a.distinct, a.filter});
  return t.Add(std::make_unique<HashAggregateOperator>(g.ExplainName(), g.inputs[0]->schema.types(), g.group_keys,
                                                       std::move(aggs), g.schema.types()),
               node->inputs);
}

}  // namespace sluice
