// A batch-mode OverAggregate (plan/plan_node.h OverAggregateNode::batch) runs as the
// BatchOverAggregateOperator over its sorted input.
#include "runtime/operators/batch_over_aggregate_operator.h"
#include "runtime/translators/translators.h"
#include "state/sort_key.h"

namespace sluice {

Result<Operator*> TranslateBatchOverAggregate(Translator& t, const PlanNodePtr& node) {
  const auto& o = node->As<OverAggregateNode>();
  const Schema& in = o.inputs[0]->schema;
  for (int c : o.partition_keys) {
    if (!IsSortKeyEncodable(in.field(static_cast<size_t>(c)).type)) {
      return Status::NotSupported("An OVER window partitioned by a column of type " +
                                  in.field(static_cast<size_t>(c)).type.ToString() + " is not supported by Sluice yet");
    }
  }
  for (const auto& k : o.order) {
    if (!IsSortKeyEncodable(in.field(static_cast<size_t>(k.column)).type)) {
      return Status::NotSupported("An OVER window ordered by a column of type " +
                                  in.field(static_cast<size_t>(k.column)).type.ToString() + " is not supported by Sluice yet");
    }
  }
  BatchOverAggregateOperator::Options opts;
  opts.partition_keys = o.partition_keys;
  opts.order = o.order;
  opts.frames = o.frames;
  for (const auto& a : o.aggs) {
    opts.calls.push_back({a.function, a.args, a.distinct, a.filter});
    // LEAD/LAG (no function): the offset is their constant argument.
    const int64_t k = a.function ? 0 : a.constant_args[0].int_value();
    opts.shifts.push_back(a.name == "LAG" ? -k : k);
  }
  return t.Add(std::make_unique<BatchOverAggregateOperator>("OverAggregate", in.types(), o.schema.types(), std::move(opts)),
               node->inputs);
}

}  // namespace sluice
