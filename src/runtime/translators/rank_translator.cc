#include "runtime/operators/rank_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateRank(Translator& t, const PlanNodePtr& node) {
  const auto& r = node->As<RankNode>();
  std::vector<RankOperator::SortKey> order;
  for (const auto& k : r.order) order.push_back({k.column, k.ascending, k.nulls_first});
  return t.Add(std::make_unique<RankOperator>("Rank", r.inputs[0]->schema.types(), r.partition_keys, std::move(order),
                                              r.rank_start, r.rank_end, r.output_rank_number, r.input_has_retractions,
                                              r.emit_update_before, RankOperator::RankTypeOf(r.rank_function)),
               node->inputs);
}

}  // namespace sluice
