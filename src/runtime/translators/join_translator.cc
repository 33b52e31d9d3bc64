#include <limits>

#include "plan/interval_join_rule.h"
#include "plan/traits.h"
#include "runtime/operators/join_operator.h"
#include "runtime/translators/translators.h"

namespace sluice {

namespace {

// Whether every row `node` emits after forwarding a watermark W holds a value above W in column
// `column` (NULL aside): the window_end of an insert-only event-time window aggregation (it fires a
// window once W reaches window_end - 1 ms and drops the rows of fired windows, so a window it emits
// later ends after W + 1 ms), through Calcs that pass the column by reference and Exchanges.
bool ExceedsWatermark(const PlanNode& node, int column) {
  switch (node.kind) {
    case PlanKind::kExchange: return ExceedsWatermark(*node.inputs[0], column);
    case PlanKind::kCalc: {
      const Expr& p = *node.As<CalcNode>().projections[static_cast<size_t>(column)];
      return p.kind == ExprKind::kColumnRef && ExceedsWatermark(*node.inputs[0], p.column_index);
    }
    case PlanKind::kWindowAggregate: {
      const auto& w = node.As<WindowAggregateNode>();
      if (w.group_window || w.proctime || w.local_time || w.Updates() || w.window.kind == WindowKind::kSession) {
        return false;
      }
      return static_cast<size_t>(column) == w.group_keys.size() + w.aggs.size() + 1;  // window_end
    }
    default: return false;
  }
}

// Event-time state retention of an inner join of insert-only inputs (JoinOptions::left_bound_column):
// for each side, a condition bound `side - other >= k` whose other column exceeds its input's watermark
// (ExceedsWatermark) lets the side drop a row once that watermark reaches the row's value - k. The
// tightest (largest) k wins.
void SetStateBounds(const JoinNode& j, JoinOptions* options) {
  if (j.join_type != JoinType::kInner || !j.residual) return;
  for (const auto& in : j.inputs) {
    if (!in->changelog_mode.IsInsertOnly()) return;
  }
  const auto bounds = ExtractTimeDifferenceBounds(j.residual, j.inputs[0]->schema, j.inputs[1]->schema);
  for (const TimeDifferenceBound& b : bounds) {
    // Left rows: l - r >= micros with r above the right input's watermark. Right rows: l - r <= micros,
    // i.e. r - l >= -micros, with l above the left input's watermark.
    if (b.lower && options->left_ttl_ms == 0 && ExceedsWatermark(*j.inputs[1], b.right_column)) {
      if (options->left_bound_column < 0 || b.micros > options->left_bound_micros) {
        options->left_bound_column = b.left_column;
        options->left_bound_micros = b.micros;
      }
    }
    if (!b.lower && options->right_ttl_ms == 0 && ExceedsWatermark(*j.inputs[0], b.left_column) &&
        b.micros != std::numeric_limits<int64_t>::min()) {
      if (options->right_bound_column < 0 || -b.micros > options->right_bound_micros) {
        options->right_bound_column = b.right_column;
        options->right_bound_micros = -b.micros;
      }
    }
  }
}

}  // namespace

Result<Operator*> TranslateJoin(Translator& t, const PlanNodePtr& node) {
  const auto& j = node->As<JoinNode>();
  static constexpr JoinKind kKinds[] = {JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight,
                                        JoinKind::kFull,  JoinKind::kSemi, JoinKind::kAnti};
  JoinOptions options;
  options.left_ttl_ms = j.left_ttl_ms >= 0 ? j.left_ttl_ms : t.ConfigTtlMillis();
  options.right_ttl_ms = j.right_ttl_ms >= 0 ? j.right_ttl_ms : t.ConfigTtlMillis();
  // Flink's JoinInputSideSpec (EXPLAIN leftInputSpec / rightInputSpec): each side's unique key decides
  // how its state is keyed and, in mini-batch, how its bundle folds.
  options.left_unique_key = JoinInputUniqueKey(j, 0);
  options.right_unique_key = JoinInputUniqueKey(j, 1);
  // Flink's StreamExecJoin runs semi and anti joins without mini-batch (StreamingSemiAntiJoinOperator).
  SetStateBounds(j, &options);
  if (j.mini_batch && !IsSemiOrAnti(j.join_type)) RETURN_IF_ERROR(MiniBatchSize(t.config(), &options.mini_batch_size));
  return t.Add(std::make_unique<JoinOperator>("Join", kKinds[static_cast<int>(j.join_type)], j.inputs[0]->schema.types(),
                                              j.inputs[1]->schema.types(), j.left_keys, j.right_keys, j.residual,
                                              std::move(options)),
               node->inputs);
}

}  // namespace sluice
