// ORDER BY: a sort with a limit is a Rank over the whole input; a sort on a time attribute first is a
// TemporalSort; any other a full Sort (bounded inputs).
#include <algorithm>
#include <limits>

#include "runtime/operators/rank_operator.h"
#include "runtime/operators/sort_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

namespace {

// Flink's StreamExecSortLimit / StreamExecLimit are a Rank over the whole input without the rank
// number: rows offset+1 .. offset+fetch.
Result<Operator*> TranslateSortLimit(Translator& t, const PlanNodePtr& node) {
  const auto& so = node->As<SortNode>();
  std::vector<RankOperator::SortKey> order;
  for (const auto& k : so.order) order.push_back({k.column, k.ascending, k.nulls_first});
  constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();
  const int64_t end = so.fetch < 0 || so.fetch > kUnbounded - so.offset ? kUnbounded : so.offset + so.fetch;
  return t.Add(std::make_unique<RankOperator>(so.ExplainName(), so.inputs[0]->schema.types(), std::vector<int>{},
                                              std::move(order), std::min(so.offset, kUnbounded - 1) + 1, end,
                                              /*output_rank_number=*/false, so.input_has_retractions,
                                              so.emit_update_before),
               node->inputs);
}

}  // namespace

Result<Operator*> TranslateSort(Translator& t, const PlanNodePtr& node) {
  const auto& so = node->As<SortNode>();
  if (so.variant == SortNode::Variant::kSortLimit || so.variant == SortNode::Variant::kLimit) {
    return TranslateSortLimit(t, node);
  }
  const Schema& in = so.inputs[0]->schema;
  std::vector<SortSpec> order;
  for (const auto& k : so.order) order.push_back({k.column, k.ascending, k.nulls_first});
  if (so.variant == SortNode::Variant::kTemporalSort) {
    const bool rowtime =
        in.field(static_cast<size_t>(so.order[0].column)).type.time_attribute() == TimeAttribute::kRowtime;
    return t.Add(std::make_unique<TemporalSortOperator>("TemporalSort", in.types(), std::move(order), rowtime),
                 node->inputs);
  }
  return t.Add(std::make_unique<SortOperator>(so.ExplainName(), in.types(), std::move(order), so.offset, so.fetch,
                                              so.input_has_retractions),
               node->inputs);
}

}  // namespace sluice
