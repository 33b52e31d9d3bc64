// Window Top-N and window deduplication, both run by the WindowRank operator.
#include "runtime/operators/window_rank_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

namespace {

// The operator's partition keys: the node's, plus window_start for SESSION windows. Windows are held
// by window_end; sessions of different partition keys may end together, and each is its own window.
std::vector<int> OperatorKeys(const AttachedWindow& window, std::vector<int> keys) {
  if (window.window.kind == WindowKind::kSession) keys.push_back(window.window_start);
  return keys;
}

}  // namespace

Result<Operator*> TranslateWindowRank(Translator& t, const PlanNodePtr& node) {
  const auto& r = node->As<WindowRankNode>();
  WindowRankSpec spec;
  spec.window_end = r.window.window_end;
  spec.partition_keys = OperatorKeys(r.window, r.partition_keys);
  for (const auto& k : r.order) spec.order.push_back({k.column, k.ascending, k.nulls_first});
  spec.rank_start = r.rank_start;
  spec.rank_end = r.rank_end;
  spec.output_rank_number = r.output_rank_number;
  spec.event_time_column = Translator::FirstRowtimeColumn(r.inputs[0]->schema);
  spec.local_time = r.window.local_time;
  return t.Add(std::make_unique<WindowRankOperator>("WindowRank", r.inputs[0]->schema.types(), std::move(spec)),
               node->inputs);
}

// Keep-first: the earliest rowtime, ties kept in arrival order; keep-last: the latest, a later row
// winning ties (runtime/operators/window_rank_operator.h).
Result<Operator*> TranslateWindowDeduplicate(Translator& t, const PlanNodePtr& node) {
  const auto& d = node->As<WindowDeduplicateNode>();
  WindowRankSpec spec;
  spec.window_end = d.window.window_end;
  spec.partition_keys = OperatorKeys(d.window, d.partition_keys);
  spec.order.push_back({d.order_key, !d.keep_last, !d.keep_last});
  spec.later_ties_first = d.keep_last;
  spec.event_time_column = d.order_key;
  spec.local_time = d.window.local_time;
  return t.Add(std::make_unique<WindowRankOperator>("WindowDeduplicate", d.inputs[0]->schema.types(), std::move(spec)),
               node->inputs);
}

}  // namespace sluice
