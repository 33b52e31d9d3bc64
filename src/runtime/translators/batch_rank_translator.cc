#include "runtime/operators/batch_rank_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

// Batch Rank (Top-N and dedup in batch mode, plan/batch_physical.h): ranked rows once, at the end of input.
Result<Operator*> TranslateBatchRank(Translator& t, const PlanNodePtr& node) {
  const auto& r = node->As<BatchRankNode>();
  BatchRankOperator::Options o;
  o.partition_keys = r.partition_keys;
  for (const auto& k : r.order) {
    o.order_columns.push_back(k.column);
    o.ascending.push_back(k.ascending);
    o.nulls_first.push_back(k.nulls_first);
  }
  o.rank_start = r.rank_start;
  o.rank_end = r.rank_end;
  o.function = r.rank_function == "RANK"         ? BatchRankOperator::RankFunction::kRank
               : r.rank_function == "DENSE_RANK" ? BatchRankOperator::RankFunction::kDenseRank
                                                 : BatchRankOperator::RankFunction::kRowNumber;
  o.output_rank_number = r.output_rank_number;
  o.ties_latest_first = r.ties_latest_first;
  return t.Add(std::make_unique<BatchRankOperator>(r.ExplainName(), r.inputs[0]->schema.types(), r.schema.types(), std::move(o)),
               node->inputs);
}

}  // namespace sluice
