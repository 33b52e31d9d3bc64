#include "plan/window_rules.h"

#include <algorithm>

#include "common/config.h"
#include "function/aggregate/aggregate_function.h"
#include "plan/optimizer.h"

namespace sluice {

namespace {

// Flink's experimental emit options (declared in common/config.cc).
constexpr char kEmitEarlyFireEnabledKey[] = "table.exec.emit.early-fire.enabled";
constexpr char kEmitLateFireEnabledKey[] = "table.exec.emit.late-fire.enabled";
constexpr char kEmitLateFireDelayKey[] = "table.exec.emit.late-fire.delay";
constexpr char kEmitAllowLatenessKey[] = "table.exec.emit.allow-lateness";

// Flink's WindowEmitStrategy for a window aggregation: its validation (same messages) and, for event
// time, the allowed lateness and late-fire delay the operator runs with (0 lateness: no late firing).
Status ApplyWindowEmit(const WindowEmitConfig& emit, bool event_time, bool session, WindowAggregateNode* node) {
  if (emit.early_fire_enabled) {
    return Status::NotSupported("'table.exec.emit.early-fire.enabled' (early firing of windows) is not supported by Sluice yet");
  }
  if (!emit.late_fire_enabled) return Status::OK();  // Flink ignores the allowed lateness without late firing
  if (session) {
    return Status::PlanError("Session window doesn't support EMIT strategy currently.\nSluice: late firing "
                             "('table.exec.emit.late-fire.enabled') works with TUMBLE, HOP and CUMULATE windows.");
  }
  const int64_t lateness = emit.allow_lateness_ms.value_or(0);
  if (event_time && lateness <= 0) {
    return Status::PlanError("The 'AFTER WATERMARK' emit strategy requires set 'allow-lateness' or "
                             "'minIdleStateRetentionTime' in table config.\nSluice: set 'table.exec.emit.allow-lateness' "
                             "to a duration > 0.");
  }
  if (!emit.late_fire_delay_ms || *emit.late_fire_delay_ms < 0) {
    return Status::PlanError("Late-fire delay should not be null or negative value when enable late-fire emit strategy.\n"
                             "Sluice: set 'table.exec.emit.late-fire.delay' ('0 s' fires on every late row).");
  }
  if (*emit.late_fire_delay_ms > lateness) {
    return Status::PlanError("Allow-lateness [" + std::to_string(lateness) + "ms] should not be smaller than Late-fire delay [" +
                             std::to_string(*emit.late_fire_delay_ms) + "ms] when enable late-fire emit strategy.");
  }
  // Processing-time windows have no late rows: Flink ignores the late trigger there.
  if (!event_time) return Status::OK();
  node->allow_lateness_ms = lateness;
  node->late_fire_delay_ms = *emit.late_fire_delay_ms;
  return Status::OK();
}

// Whether the GROUP BY keys besides the window's are exactly the SESSION window's PARTITION BY keys
// (plain column references), so sessions per group key are Flink's sessions per partition key.
bool SessionKeysArePartitionKeys(const WindowTableFunctionNode& tvf, const GroupAggregateNode& agg,
                                 const std::vector<ExprPtr>& projections, const std::vector<bool>& is_window_key) {
  std::vector<bool> grouped(tvf.partition_keys.size(), false);
  for (int k : agg.group_keys) {
    if (is_window_key[static_cast<size_t>(k)]) continue;
    const Expr& e = *projections[static_cast<size_t>(k)];
    if (e.kind != ExprKind::kColumnRef) return false;
    auto it = std::find(tvf.partition_keys.begin(), tvf.partition_keys.end(), e.column_index);
    if (it == tvf.partition_keys.end()) return false;
    grouped[static_cast<size_t>(it - tvf.partition_keys.begin())] = true;
  }
  return std::find(grouped.begin(), grouped.end(), false) == grouped.end();
}

// Flink's SessionWindowSpec summary names the partition keys after the gap, when there are any:
// "SESSION(time_col=[ts], gap=[5 min], partition keys=[k, j])".
std::string SessionSummary(const WindowSpec& window, const std::string& time_col, const std::string& keys) {
  std::string s = window.Explain(time_col);
  if (window.kind == WindowKind::kSession && !keys.empty()) s.insert(s.size() - 1, ", partition keys=[" + keys + "]");
  return s;
}

}  // namespace

WindowEmitConfig ReadWindowEmitConfig(const Configuration* config) {
  WindowEmitConfig emit;
  if (config == nullptr) return emit;
  emit.early_fire_enabled = config->GetBool(kEmitEarlyFireEnabledKey);
  emit.late_fire_enabled = config->GetBool(kEmitLateFireEnabledKey);
  if (config->IsSet(kEmitLateFireDelayKey)) emit.late_fire_delay_ms = config->GetDurationMillis(kEmitLateFireDelayKey);
  emit.allow_lateness_ms = config->IsSet(kEmitAllowLatenessKey) ? config->GetDurationMillis(kEmitAllowLatenessKey)
                                                                : config->GetDurationMillis("table.exec.state.ttl");
  return emit;
}

std::string WindowTableFunctionNode::ExplainAttributes() const {
  const Schema& in = inputs[0]->schema;
  std::string keys;  // in PARTITION BY order
  for (int k : partition_keys) keys += (keys.empty() ? "" : ", ") + in.field(static_cast<size_t>(k)).name;
  return "window=[" + SessionSummary(window, in.field(static_cast<size_t>(time_column)).name, keys) + "]";
}

std::string WindowAggregateNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::vector<std::string> items;
  std::string keys;
  for (int k : group_keys) {
    const std::string& name = in.schema.field(static_cast<size_t>(k)).name;
    items.push_back(name);
    keys += (keys.empty() ? "" : ", ") + name;
  }
  for (const auto& a : aggs) items.push_back(ExplainAggregateCall(in, a));
  const size_t w = group_keys.size() + aggs.size();
  items.push_back("start('w$) AS " + schema.field(w).name);
  items.push_back("end('w$) AS " + schema.field(w + 1).name);
  if (with_window_time) items.push_back(std::string(proctime ? "proctime" : "rowtime") + "('w$) AS " + schema.field(w + 2).name);
  // Flink's legacy group window also names the processing-time property of an event-time window,
  // which Sluice's plan does not carry (no query can read it).
  const bool legacy_proctime_property = group_window && !proctime;
  if (legacy_proctime_property) items.push_back("proctime('w$) AS w$proctime");
  std::string select;
  for (const auto& i : items) select += (select.empty() ? "" : ", ") + i;
  std::string s = keys.empty() ? "" : "groupBy=[" + keys + "], ";
  const std::string& time_col = in.schema.field(static_cast<size_t>(time_column)).name;
  if (group_window) {
    // Flink's legacy form: window=[TumblingGroupWindow('w$, ts, 10000)], properties=[w$start, ...].
    std::string win;
    switch (window.kind) {
      case WindowKind::kTumble: win = "TumblingGroupWindow('w$, " + time_col + ", " + std::to_string(window.size_ms) + ")"; break;
      case WindowKind::kSession: win = "SessionGroupWindow('w$, " + time_col + ", " + std::to_string(window.size_ms) + ")"; break;
      default:
        win = "SlidingGroupWindow('w$, " + time_col + ", " + std::to_string(window.size_ms) + ", " +
              std::to_string(window.step_ms) + ")";
        break;
    }
    std::string props;
    for (size_t p = w; p < schema.size(); ++p) props += (props.empty() ? "" : ", ") + schema.field(p).name;
    if (legacy_proctime_property) props += ", w$proctime";
    s += "window=[" + win + "], properties=[" + props + "], select=[" + select + "]";
  } else {
    // A SESSION aggregation's group keys are its partition keys (Flink prints them in groupBy order).
    s += "window=[" + SessionSummary(window, time_col, keys) + "], select=[" + select + "]";
  }
  // Flink's WindowEmitStrategy text when late firing is on.
  if (allow_lateness_ms > 0) {
    s += late_fire_delay_ms > 0 ? ", emit=[late delay " + std::to_string(late_fire_delay_ms) + " millisecond]"
                                : std::string(", emit=[late no delay]");
  }
  return s;
}

bool DropsLateRows(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kWindowAggregate: return !node.As<WindowAggregateNode>().proctime;
    // The SESSION table function holds rows until their session closes (event time only).
    case PlanKind::kWindowTableFunction:
      return node.As<WindowTableFunctionNode>().window.kind == WindowKind::kSession && !node.As<WindowTableFunctionNode>().proctime;
    case PlanKind::kOverAggregate: return node.As<OverAggregateNode>().rowtime;
    case PlanKind::kMatch: return node.As<MatchNode>().rowtime;
    case PlanKind::kIntervalJoin: return node.As<IntervalJoinNode>().rowtime;
    // Planned on event time only (plan/window_rank_rule.h, plan/window_join_rule.h).
    case PlanKind::kWindowRank:
    case PlanKind::kWindowDeduplicate:
    case PlanKind::kWindowJoin: return true;
    case PlanKind::kDeduplicate: {
      const auto& d = node.As<DeduplicateNode>();
      return d.rowtime && !d.keep_last && !d.mini_batch;  // mini-batch: no row is late
    }
    case PlanKind::kSort: {
      // A TemporalSort on rowtime drops rows behind what it already emitted (and NULL rowtimes).
      const auto& so = node.As<SortNode>();
      return so.variant == SortNode::Variant::kTemporalSort && !so.order.empty() &&
             so.inputs[0]->schema.field(static_cast<size_t>(so.order[0].column)).type.time_attribute() ==
                 TimeAttribute::kRowtime;
    }
    default: return false;
  }
}

Result<PlanNodePtr> WindowAggregateRule::Apply(const PlanNodePtr& node) {
  auto f = memo_.find(node.get());
  if (f != memo_.end()) return f->second;
  std::vector<PlanNodePtr> inputs;
  for (const auto& in : node->inputs) {
    ASSIGN_OR_RETURN(PlanNodePtr x, Apply(in));
    inputs.push_back(x);
  }
  PlanNodePtr out = CopyWithInputs(node, inputs);
  if (out->kind == PlanKind::kGroupAggregate) {
    ASSIGN_OR_RETURN(PlanNodePtr rewritten, Rewrite(out));
    if (rewritten) out = rewritten;
  }
  memo_[node.get()] = out;
  return out;
}

Result<PlanNodePtr> WindowAggregateRule::Rewrite(const PlanNodePtr& agg_node) {
  const auto& agg = agg_node->As<GroupAggregateNode>();
  const PlanNodePtr& exchange = agg.inputs[0];
  if (exchange->kind != PlanKind::kExchange) return PlanNodePtr();
  PlanNodePtr below = exchange->inputs[0];
  const CalcNode* calc = nullptr;
  if (below->kind == PlanKind::kCalc) {
    calc = &below->As<CalcNode>();
    below = calc->inputs[0];
  }
  if (below->kind != PlanKind::kWindowTableFunction) return PlanNodePtr();
  const auto& tvf = below->As<WindowTableFunctionNode>();
  const PlanNodePtr& data = tvf.inputs[0];
  const int nw = static_cast<int>(data->schema.size());
  std::vector<ExprPtr> projections;
  if (calc) {
    projections = calc->projections;
  } else {
    for (size_t i = 0; i < tvf.schema.size(); ++i) projections.push_back(MakeColumnRef(static_cast<int>(i), tvf.schema.field(i).type));
  }
  // Window property of an aggregate input column: 0 start, 1 end, 2 time; -1 for other columns.
  auto window_prop = [&](int col) {
    const Expr& e = *projections[static_cast<size_t>(col)];
    return e.kind == ExprKind::kColumnRef && e.column_index >= nw ? e.column_index - nw : -1;
  };
  int key_of_prop[3] = {-1, -1, -1};
  std::vector<bool> is_window_key(projections.size(), false);
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    int p = window_prop(agg.group_keys[i]);
    if (p < 0) continue;
    if (key_of_prop[p] >= 0) return PlanNodePtr();  // the same window column grouped twice
    key_of_prop[p] = static_cast<int>(i);
    is_window_key[static_cast<size_t>(agg.group_keys[i])] = true;
  }
  if (key_of_prop[0] < 0 || key_of_prop[1] < 0) return PlanNodePtr();
  // Nothing but the window keys may read window columns (Flink keeps the TVF otherwise).
  std::vector<bool> used(tvf.schema.size(), false);
  for (size_t i = 0; i < projections.size(); ++i) {
    if (!is_window_key[i]) CollectColumns(*projections[i], &used);
  }
  if (calc && calc->condition) CollectColumns(*calc->condition, &used);
  for (size_t i = static_cast<size_t>(nw); i < used.size(); ++i) {
    if (used[i]) return PlanNodePtr();
  }
  const WindowSpec& w = tvf.window;
  // Flink assigns sessions per partition key (over the whole input without PARTITION BY), then groups
  // by the other keys within each session. The WindowAggregate merges sessions per group key, so it
  // is planned only when the group keys (besides the window's) are exactly the partition keys; else
  // the plan stays Flink's: the session WindowTableFunction, then a GroupAggregate over its rows.
  // (The legacy GROUP BY k, SESSION(ts, gap) has sessions per group key: that is its meaning.)
  if (w.kind == WindowKind::kSession && !tvf.group_window && !SessionKeysArePartitionKeys(tvf, agg, projections, is_window_key)) {
    return PlanNodePtr();
  }
  if (w.kind == WindowKind::kHop && w.size_ms % w.step_ms != 0) {
    return Status::PlanError("HOP table function based aggregate requires size must be an integral multiple of slide, but got size " +
                             std::to_string(w.size_ms) + " ms and slide " + std::to_string(w.step_ms) + " ms");
  }
  if (w.kind == WindowKind::kCumulate && w.size_ms % w.step_ms != 0) {
    return Status::PlanError("CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, but got maxSize " +
                             std::to_string(w.size_ms) + " ms and step " + std::to_string(w.step_ms) + " ms");
  }
  static const char* kNames[] = {"TUMBLE", "HOP", "CUMULATE", "SESSION"};
  const bool merges = w.kind != WindowKind::kTumble;
  for (const auto& a : agg.aggs) {
    if (merges && !a.distinct && !a.function->merge) {
      return Status::NotSupported(a.name + " in a " + kNames[static_cast<int>(w.kind)] +
                                  " window aggregation is not supported by Sluice yet (its partial results cannot be merged)");
    }
  }
  // The Calc below the aggregate: keys and arguments over the TVF's input, then the time attribute.
  auto lower = std::make_shared<CalcNode>();
  lower->inputs = {data};
  lower->condition = calc ? calc->condition : nullptr;
  std::vector<int> mapping(projections.size(), -1);
  for (size_t i = 0; i < projections.size(); ++i) {
    if (is_window_key[i]) continue;
    mapping[i] = static_cast<int>(lower->projections.size());
    lower->projections.push_back(projections[i]);
    lower->schema.Add(exchange->schema.field(i).name, exchange->schema.field(i).type);
  }
  const Field& time_field = data->schema.field(static_cast<size_t>(tvf.time_column));
  int time_column = -1;
  for (size_t i = 0; i < lower->projections.size(); ++i) {
    const Expr& p = *lower->projections[i];
    if (p.kind == ExprKind::kColumnRef && p.column_index == tvf.time_column &&
        p.type.time_attribute() == time_field.type.time_attribute()) {
      time_column = static_cast<int>(i);
    }
  }
  if (time_column < 0) {
    time_column = static_cast<int>(lower->projections.size());
    lower->projections.push_back(MakeColumnRef(tvf.time_column, time_field.type));
    std::string name = time_field.name;
    if (lower->schema.IndexOf(name)) name = "$f" + std::to_string(lower->schema.size());
    lower->schema.Add(name, time_field.type);
  }
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {lower};
  ex->schema = lower->schema;
  auto wagg = std::make_shared<WindowAggregateNode>();
  wagg->inputs = {ex};
  wagg->window = w;
  wagg->time_column = time_column;
  wagg->proctime = tvf.proctime;
  wagg->local_time = tvf.local_time;
  wagg->with_window_time = key_of_prop[2] >= 0;
  wagg->group_window = tvf.group_window;
  RETURN_IF_ERROR(ApplyWindowEmit(tvf.emit, !tvf.proctime, w.kind == WindowKind::kSession, wagg.get()));
  std::vector<int> key_position(agg.group_keys.size(), -1);  // group key -> WindowAggregate output column
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    if (is_window_key[static_cast<size_t>(agg.group_keys[i])]) continue;
    key_position[i] = static_cast<int>(wagg->group_keys.size());
    wagg->group_keys.push_back(mapping[static_cast<size_t>(agg.group_keys[i])]);
    wagg->schema.Add(agg.schema.field(i).name, agg.schema.field(i).type);
  }
  ex->keys = wagg->group_keys;
  const size_t nk = agg.group_keys.size();
  for (size_t a = 0; a < agg.aggs.size(); ++a) {
    AggregateCall call = agg.aggs[a];
    for (int& c : call.args) c = mapping[static_cast<size_t>(c)];
    if (call.filter >= 0) call.filter = mapping[static_cast<size_t>(call.filter)];
    wagg->aggs.push_back(std::move(call));
    wagg->schema.Add(agg.schema.field(nk + a).name, agg.schema.field(nk + a).type);
  }
  const int first_prop = static_cast<int>(wagg->schema.size());
  for (int p = 0; p < (wagg->with_window_time ? 3 : 2); ++p) {
    key_position[static_cast<size_t>(key_of_prop[p])] = first_prop + p;
    wagg->schema.Add(agg.schema.field(static_cast<size_t>(key_of_prop[p])).name, tvf.schema.field(static_cast<size_t>(nw + p)).type);
  }
  // The aggregate's column order on top (merged into the projection above by the optimizer).
  auto upper = std::make_shared<CalcNode>();
  upper->inputs = {wagg};
  upper->schema = agg.schema;
  for (size_t i = 0; i < nk; ++i) {
    int from = key_position[i];
    upper->projections.push_back(MakeColumnRef(from, wagg->schema.field(static_cast<size_t>(from)).type));
  }
  for (size_t a = 0; a < agg.aggs.size(); ++a) {
    int from = static_cast<int>(wagg->group_keys.size() + a);
    upper->projections.push_back(MakeColumnRef(from, wagg->schema.field(static_cast<size_t>(from)).type));
  }
  return PlanNodePtr(upper);
}

}  // namespace sluice
