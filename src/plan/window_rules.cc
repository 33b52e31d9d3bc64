#include "plan/window_rules.h"

#include <algorithm>
#include <optional>

#include "common/config.h"
#include "function/aggregate/aggregate_function.h"
#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"
#include "plan/window_rank_rule.h"

namespace sluice {

namespace {

// Flink's experimental emit options (declared in common/config.cc).
constexpr char kEmitEarlyFireEnabledKey[] = "table.exec.emit.early-fire.enabled";
constexpr char kEmitEarlyFireDelayKey[] = "table.exec.emit.early-fire.delay";
constexpr char kEmitLateFireEnabledKey[] = "table.exec.emit.late-fire.enabled";
constexpr char kEmitLateFireDelayKey[] = "table.exec.emit.late-fire.delay";
constexpr char kEmitAllowLatenessKey[] = "table.exec.emit.allow-lateness";

// Flink's WindowEmitStrategy text of one firing ("delay 5000 millisecond", "no delay").
std::string FireDelayText(int64_t delay_ms) {
  return delay_ms > 0 ? "delay " + std::to_string(delay_ms) + " millisecond" : "no delay";
}

// Flink's WindowEmitStrategy for a window aggregation: its validation (same checks, in Flink's order,
// same messages) and what the operator runs with: early firing (event and processing time), and for
// event time the allowed lateness and late-fire delay (0 lateness: no late firing; processing-time
// windows have no late rows, so Flink ignores the late trigger there). EXPLAIN's emit=[...] text is
// Flink's toString: every enabled firing, whether it takes effect or not.
Status ApplyWindowEmit(const WindowEmitConfig& emit, bool event_time, bool session, WindowAggregateNode* node) {
  if (!emit.early_fire_enabled && !emit.late_fire_enabled) return Status::OK();  // allowed lateness alone is ignored
  if (session) {
    return Status::PlanError("Session window doesn't support EMIT strategy currently.\nSluice: early and late firing "
                             "('table.exec.emit.early-fire.enabled', 'table.exec.emit.late-fire.enabled') work with "
                             "TUMBLE, HOP and CUMULATE windows.");
  }
  const int64_t lateness = emit.late_fire_enabled ? emit.allow_lateness_ms.value_or(0) : 0;
  if (event_time && emit.late_fire_enabled && lateness <= 0) {
    return Status::PlanError("The 'AFTER WATERMARK' emit strategy requires set 'allow-lateness' or "
                             "'minIdleStateRetentionTime' in table config.\nSluice: set 'table.exec.emit.allow-lateness' "
                             "to a duration > 0.");
  }
  // Flink's two delay messages lack the space between "when" and "enable" (concatenated literals).
  if (emit.early_fire_enabled && (!emit.early_fire_delay_ms || *emit.early_fire_delay_ms < 0)) {
    return Status::PlanError("Early-fire delay should not be null or negative value whenenable early-fire emit strategy.\n"
                             "Sluice: set 'table.exec.emit.early-fire.delay' ('0 s' fires on every row).");
  }
  if (emit.late_fire_enabled && (!emit.late_fire_delay_ms || *emit.late_fire_delay_ms < 0)) {
    return Status::PlanError("Late-fire delay should not be null or negative value whenenable late-fire emit strategy.\n"
                             "Sluice: set 'table.exec.emit.late-fire.delay' ('0 s' fires on every late row).");
  }
  if (emit.late_fire_enabled && *emit.late_fire_delay_ms > lateness) {
    return Status::PlanError("Allow-lateness [" + std::to_string(lateness) + "ms] should not be smaller than Late-fire delay [" +
                             std::to_string(*emit.late_fire_delay_ms) + "ms] when enable late-fire emit strategy.");
  }
  node->emit.clear();
  if (emit.early_fire_enabled) node->emit = "early " + FireDelayText(*emit.early_fire_delay_ms);
  if (emit.late_fire_enabled) node->emit += (node->emit.empty() ? "late " : ", late ") + FireDelayText(*emit.late_fire_delay_ms);
  if (emit.early_fire_enabled) node->early_fire_delay_ms = *emit.early_fire_delay_ms;
  if (!event_time || !emit.late_fire_enabled) return Status::OK();
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
  if (config->IsSet(kEmitEarlyFireDelayKey)) emit.early_fire_delay_ms = config->GetDurationMillis(kEmitEarlyFireDelayKey);
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
  } else if (window_start_column >= 0) {
    // Over attached windows: Flink names the window columns (and a session's partition keys).
    AttachedWindow attached;
    attached.window = window;
    attached.window_start = window_start_column;
    attached.window_end = time_column;
    if (window.kind == WindowKind::kSession) attached.session_keys = keys;
    s += "window=[" + attached.Explain(in) + "], select=[" + select + "]";
  } else {
    // A SESSION aggregation's group keys are its partition keys (Flink prints them in groupBy order).
    s += "window=[" + SessionSummary(window, time_col, keys) + "], select=[" + select + "]";
  }
  if (!emit.empty()) s += ", emit=[" + emit + "]";  // Flink's WindowEmitStrategy text
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
  auto rule = [this](const PlanNode&, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (out->kind != PlanKind::kGroupAggregate) return out;
    ASSIGN_OR_RETURN(PlanNodePtr rewritten, Rewrite(out));
    return rewritten ? rewritten : out;
  };
  return RewriteBottomUp(node, rule, &memo_);
}

Result<PlanNodePtr> WindowAggregateRule::Rewrite(const PlanNodePtr& agg_node) {
  ASSIGN_OR_RETURN(PlanNodePtr folded, FoldTableFunction(agg_node));
  if (folded) return folded;
  return OverAttachedWindows(agg_node);
}

namespace {

// A GroupAggregate <- Exchange <- [Calc] <- WindowTableFunction whose TVF can fold into the aggregate.
struct FoldMatch {
  const WindowTableFunctionNode* tvf = nullptr;
  const CalcNode* calc = nullptr;
  const ExchangeNode* exchange = nullptr;
  std::vector<ExprPtr> projections;  // the aggregate's input columns over the TVF's columns
  int key_of_prop[3] = {-1, -1, -1};  // group key index of window_start, window_end, window_time
  std::vector<bool> is_window_key;    // per aggregate input column
};

// Matches the shape and the use of window columns (only as group keys), else nullopt.
std::optional<FoldMatch> MatchFold(const GroupAggregateNode& agg) {
  FoldMatch m;
  const PlanNodePtr& exchange = agg.inputs[0];
  if (exchange->kind != PlanKind::kExchange) return std::nullopt;
  m.exchange = &exchange->As<ExchangeNode>();
  PlanNodePtr below = exchange->inputs[0];
  if (below->kind == PlanKind::kCalc) {
    m.calc = &below->As<CalcNode>();
    below = m.calc->inputs[0];
  }
  if (below->kind != PlanKind::kWindowTableFunction) return std::nullopt;
  m.tvf = &below->As<WindowTableFunctionNode>();
  const int nw = static_cast<int>(m.tvf->inputs[0]->schema.size());
  if (m.calc) {
    m.projections = m.calc->projections;
  } else {
    for (size_t i = 0; i < m.tvf->schema.size(); ++i) m.projections.push_back(MakeColumnRef(static_cast<int>(i), m.tvf->schema.field(i).type));
  }
  // Window property of an aggregate input column: 0 start, 1 end, 2 time; -1 for other columns.
  auto window_prop = [&](int col) {
    const Expr& e = *m.projections[static_cast<size_t>(col)];
    return e.kind == ExprKind::kColumnRef && e.column_index >= nw ? e.column_index - nw : -1;
  };
  m.is_window_key.assign(m.projections.size(), false);
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    int p = window_prop(agg.group_keys[i]);
    if (p < 0) continue;
    if (m.key_of_prop[p] >= 0) return std::nullopt;  // the same window column grouped twice
    m.key_of_prop[p] = static_cast<int>(i);
    m.is_window_key[static_cast<size_t>(agg.group_keys[i])] = true;
  }
  if (m.key_of_prop[0] < 0 || m.key_of_prop[1] < 0) return std::nullopt;
  // Nothing but the window keys may read window columns (Flink keeps the TVF otherwise).
  std::vector<bool> used(m.tvf->schema.size(), false);
  for (size_t i = 0; i < m.projections.size(); ++i) {
    if (!m.is_window_key[i]) CollectColumns(*m.projections[i], &used);
  }
  if (m.calc && m.calc->condition) CollectColumns(*m.calc->condition, &used);
  for (size_t i = static_cast<size_t>(nw); i < used.size(); ++i) {
    if (used[i]) return std::nullopt;
  }
  return m;
}

// Flink's condition on every window TVF aggregation (over attached windows too): slicing needs size
// (max size) to be a multiple of slide (step).
Status CheckSlicing(const WindowSpec& w) {
  if (w.kind == WindowKind::kHop && w.size_ms % w.step_ms != 0) {
    return Status::PlanError("HOP table function based aggregate requires size must be an integral multiple of slide, but got size " +
                             std::to_string(w.size_ms) + " ms and slide " + std::to_string(w.step_ms) + " ms");
  }
  if (w.kind == WindowKind::kCumulate && w.size_ms % w.step_ms != 0) {
    return Status::PlanError("CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, but got maxSize " +
                             std::to_string(w.size_ms) + " ms and step " + std::to_string(w.step_ms) + " ms");
  }
  return Status::OK();
}

// A folded aggregation also needs mergeable calls for windows built from several slices or merged
// sessions.
Status CheckFoldable(const WindowSpec& w, const std::vector<AggregateCall>& aggs) {
  RETURN_IF_ERROR(CheckSlicing(w));
  static const char* kNames[] = {"TUMBLE", "HOP", "CUMULATE", "SESSION"};
  const bool merges = w.kind != WindowKind::kTumble;
  for (const auto& a : aggs) {
    if (merges && !a.distinct && !a.function->merge) {
      return Status::NotSupported(a.name + " in a " + kNames[static_cast<int>(w.kind)] +
                                  " window aggregation is not supported by Sluice yet (its partial results cannot be merged)");
    }
  }
  return Status::OK();
}

// The Calc below a folded aggregate: the keys and arguments over the TVF's input (window keys left
// out; `mapping` says where each aggregate input column went), then the time attribute when no
// projection is it already (`time_column` says where it is).
std::shared_ptr<CalcNode> LowerCalc(const FoldMatch& m, std::vector<int>* mapping, int* time_column) {
  const PlanNodePtr& data = m.tvf->inputs[0];
  auto lower = std::make_shared<CalcNode>();
  lower->inputs = {data};
  lower->condition = m.calc ? m.calc->condition : nullptr;
  mapping->assign(m.projections.size(), -1);
  for (size_t i = 0; i < m.projections.size(); ++i) {
    if (m.is_window_key[i]) continue;
    (*mapping)[i] = static_cast<int>(lower->projections.size());
    lower->projections.push_back(m.projections[i]);
    lower->schema.Add(m.exchange->schema.field(i).name, m.exchange->schema.field(i).type);
  }
  const Field& time_field = data->schema.field(static_cast<size_t>(m.tvf->time_column));
  *time_column = -1;
  for (size_t i = 0; i < lower->projections.size(); ++i) {
    const Expr& p = *lower->projections[i];
    if (p.kind == ExprKind::kColumnRef && p.column_index == m.tvf->time_column &&
        p.type.time_attribute() == time_field.type.time_attribute()) {
      *time_column = static_cast<int>(i);
    }
  }
  if (*time_column < 0) {
    *time_column = static_cast<int>(lower->projections.size());
    lower->projections.push_back(MakeColumnRef(m.tvf->time_column, time_field.type));
    std::string name = time_field.name;
    if (lower->schema.IndexOf(name)) name = "$f" + std::to_string(lower->schema.size());
    lower->schema.Add(name, time_field.type);
  }
  return lower;
}

// Adds the aggregate's group keys (other than the window keys, `is_window_key` per group key) and
// calls to `wagg` (input columns through `mapping`, or as they are when it is empty), then
// window_start, window_end [, window_time] from `window_types`. Returns where each group key of
// `agg` is in `wagg`'s output (`window_keys`: the group key index of start, end, time; -1: none).
std::vector<int> AddAggregateColumns(const GroupAggregateNode& agg, const std::vector<bool>& is_window_key,
                                     const std::vector<int>& mapping, const int window_keys[3],
                                     const std::vector<LogicalType>& window_types, WindowAggregateNode* wagg) {
  auto map = [&](int c) { return mapping.empty() || c < 0 ? c : mapping[static_cast<size_t>(c)]; };
  std::vector<int> key_position(agg.group_keys.size(), -1);
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    if (is_window_key[i]) continue;
    key_position[i] = static_cast<int>(wagg->group_keys.size());
    wagg->group_keys.push_back(map(agg.group_keys[i]));
    wagg->schema.Add(agg.schema.field(i).name, agg.schema.field(i).type);
  }
  const size_t nk = agg.group_keys.size();
  for (size_t a = 0; a < agg.aggs.size(); ++a) {
    AggregateCall call = agg.aggs[a];
    for (int& c : call.args) c = map(c);
    call.filter = map(call.filter);
    wagg->aggs.push_back(std::move(call));
    wagg->schema.Add(agg.schema.field(nk + a).name, agg.schema.field(nk + a).type);
  }
  const int first_prop = static_cast<int>(wagg->schema.size());
  for (size_t p = 0; p < window_types.size(); ++p) {
    key_position[static_cast<size_t>(window_keys[p])] = first_prop + static_cast<int>(p);
    wagg->schema.Add(agg.schema.field(static_cast<size_t>(window_keys[p])).name, window_types[p]);
  }
  return key_position;
}

// The aggregate's column order on top of `wagg` (merged into the projection above by the optimizer).
PlanNodePtr RestoreColumnOrder(const GroupAggregateNode& agg, const PlanNodePtr& wagg, const std::vector<int>& key_position) {
  const auto& w = wagg->As<WindowAggregateNode>();
  auto upper = std::make_shared<CalcNode>();
  upper->inputs = {wagg};
  upper->schema = agg.schema;
  for (int from : key_position) upper->projections.push_back(MakeColumnRef(from, w.schema.field(static_cast<size_t>(from)).type));
  for (size_t a = 0; a < agg.aggs.size(); ++a) {
    int from = static_cast<int>(w.group_keys.size() + a);
    upper->projections.push_back(MakeColumnRef(from, w.schema.field(static_cast<size_t>(from)).type));
  }
  return upper;
}

}  // namespace

Result<PlanNodePtr> WindowAggregateRule::FoldTableFunction(const PlanNodePtr& agg_node) {
  const auto& agg = agg_node->As<GroupAggregateNode>();
  std::optional<FoldMatch> m = MatchFold(agg);
  if (!m) return PlanNodePtr();
  const WindowTableFunctionNode& tvf = *m->tvf;
  const WindowSpec& w = tvf.window;
  // Flink assigns sessions per partition key (over the whole input without PARTITION BY), then groups
  // by the other keys within each session. The WindowAggregate merges sessions per group key, so it
  // is planned only when the group keys (besides the window's) are exactly the partition keys; else
  // the plan stays Flink's: the session WindowTableFunction, then a GroupAggregate over its rows.
  // (The legacy GROUP BY k, SESSION(ts, gap) has sessions per group key: that is its meaning.)
  if (w.kind == WindowKind::kSession && !tvf.group_window && !SessionKeysArePartitionKeys(tvf, agg, m->projections, m->is_window_key)) {
    return PlanNodePtr();
  }
  RETURN_IF_ERROR(CheckFoldable(w, agg.aggs));
  std::vector<int> mapping;
  int time_column = -1;
  std::shared_ptr<CalcNode> lower = LowerCalc(*m, &mapping, &time_column);
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {lower};
  ex->schema = lower->schema;
  auto wagg = std::make_shared<WindowAggregateNode>();
  wagg->inputs = {ex};
  wagg->window = w;
  wagg->time_column = time_column;
  wagg->proctime = tvf.proctime;
  wagg->local_time = tvf.local_time;
  wagg->with_window_time = m->key_of_prop[2] >= 0;
  wagg->group_window = tvf.group_window;
  wagg->emit_config = tvf.emit;
  RETURN_IF_ERROR(ApplyWindowEmit(tvf.emit, !tvf.proctime, w.kind == WindowKind::kSession, wagg.get()));
  std::vector<bool> window_key(agg.group_keys.size());
  for (size_t i = 0; i < agg.group_keys.size(); ++i) window_key[i] = m->is_window_key[static_cast<size_t>(agg.group_keys[i])];
  const size_t nw = tvf.inputs[0]->schema.size();
  std::vector<LogicalType> window_types;
  for (size_t p = 0; p < (wagg->with_window_time ? 3 : 2); ++p) window_types.push_back(tvf.schema.field(nw + p).type);
  std::vector<int> key_position = AddAggregateColumns(agg, window_key, mapping, m->key_of_prop, window_types, wagg.get());
  ex->keys = wagg->group_keys;
  return RestoreColumnOrder(agg, wagg, key_position);
}

Result<PlanNodePtr> WindowAggregateRule::OverAttachedWindows(const PlanNodePtr& agg_node) {
  const auto& agg = agg_node->As<GroupAggregateNode>();
  const PlanNodePtr& exchange = agg.inputs[0];
  if (exchange->kind != PlanKind::kExchange) return PlanNodePtr();
  const PlanNodePtr& data = exchange->inputs[0];
  std::optional<WindowColumns> wc = FindWindowColumns(*data);
  // Processing-time windows fold or stay a GroupAggregate (Flink's isValidProcTimeWindow).
  if (!wc || wc->proctime) return PlanNodePtr();
  int window_keys[3] = {-1, -1, -1};  // group key index of window_start, window_end
  std::vector<bool> window_key(agg.group_keys.size(), false);
  std::vector<bool> partition_seen(wc->num_partition_keys, false);
  size_t partition_grouped = 0, other_keys = 0;
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    const size_t c = static_cast<size_t>(agg.group_keys[i]);
    const int p = wc->start[c] ? 0 : wc->end[c] ? 1 : -1;
    if (p >= 0) {
      if (window_keys[p] >= 0) return PlanNodePtr();  // a window column grouped twice
      window_keys[p] = static_cast<int>(i);
      window_key[i] = true;
      continue;
    }
    ++other_keys;
    const int j = wc->partition[c];
    if (j >= 0 && !partition_seen[static_cast<size_t>(j)]) {
      partition_seen[static_cast<size_t>(j)] = true;
      ++partition_grouped;
    }
  }
  if (window_keys[0] < 0 || window_keys[1] < 0) return PlanNodePtr();
  // A session is a window of its partition key: grouped by exactly those keys, or not a window
  // aggregation (Flink's validGroupKeyPartitionKey).
  if (wc->window.kind == WindowKind::kSession && (partition_grouped != wc->num_partition_keys || other_keys != partition_grouped)) {
    return PlanNodePtr();
  }
  RETURN_IF_ERROR(CheckSlicing(wc->window));
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {data};
  ex->schema = data->schema;
  auto wagg = std::make_shared<WindowAggregateNode>();
  wagg->inputs = {ex};
  wagg->window = wc->window;
  wagg->window_start_column = agg.group_keys[static_cast<size_t>(window_keys[0])];
  wagg->time_column = agg.group_keys[static_cast<size_t>(window_keys[1])];
  wagg->local_time = wc->local_time;
  wagg->emit_config = wc->emit;
  RETURN_IF_ERROR(ApplyWindowEmit(wc->emit, /*event_time=*/true, wc->window.kind == WindowKind::kSession, wagg.get()));
  std::vector<LogicalType> window_types;
  for (int p = 0; p < 2; ++p) window_types.push_back(data->schema.field(static_cast<size_t>(agg.group_keys[static_cast<size_t>(window_keys[p])])).type);
  std::vector<int> key_position = AddAggregateColumns(agg, window_key, {}, window_keys, window_types, wagg.get());
  ex->keys = wagg->group_keys;
  return RestoreColumnOrder(agg, wagg, key_position);
}

}  // namespace sluice
