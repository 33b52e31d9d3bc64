// Window table functions and window aggregates.
#include "function/aggregate/aggregate_function.h"
#include "runtime/operators/session_window_table_function_operator.h"
#include "runtime/operators/window_aggregate_operator.h"
#include "runtime/operators/window_table_function_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

Result<Operator*> TranslateWindowTableFunction(Translator& t, const PlanNodePtr& node) {
  const auto& w = node->As<WindowTableFunctionNode>();
  if (w.window.kind == WindowKind::kSession) {
    return t.Add(std::make_unique<SessionWindowTableFunctionOperator>("WindowTableFunction", w.schema.types(), w.window.size_ms,
                                                                      w.time_column, w.local_time, w.partition_keys,
                                                                      w.proctime),
                 node->inputs);
  }
  return t.Add(std::make_unique<WindowTableFunctionOperator>("WindowTableFunction", w.schema.types(), w.window,
                                                             w.time_column, w.proctime, w.local_time),
               node->inputs);
}

Result<Operator*> TranslateWindowAggregate(Translator& t, const PlanNodePtr& node) {
  const auto& w = node->As<WindowAggregateNode>();
  std::vector<WindowAggregateOperator::Agg> aggs;
  for (const auto& a : w.aggs) aggs.push_back({a.function, a.args, a.distinct, a.filter});
  if (w.input_has_retractions) {
    // The hidden row counter (Flink's count1$): COUNT(*), retracting.
    ASSIGN_OR_RETURN(auto count, ResolveAggregate("COUNT", {}, {}, /*needs_retract=*/true));
    aggs.push_back({std::move(count), {}, false, -1});
  }
  auto op = std::make_unique<WindowAggregateOperator>("WindowAggregate", w.inputs[0]->schema.types(), w.group_keys,
                                                      std::move(aggs), w.schema.types(), w.window, w.time_column,
                                                      w.proctime, w.local_time, w.with_window_time);
  if (w.window_start_column >= 0) op->SetAttachedWindows(w.window_start_column);
  if (w.input_has_retractions) op->SetRetracting();
  if (w.allow_lateness_ms > 0) op->SetLateFiring(w.allow_lateness_ms, w.late_fire_delay_ms, w.emit_update_before);
  if (w.early_fire_delay_ms >= 0) op->SetEarlyFiring(w.early_fire_delay_ms, w.emit_update_before);
  return t.Add(std::move(op), node->inputs);
}

}  // namespace sluice
