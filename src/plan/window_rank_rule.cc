#include "plan/window_rank_rule.h"

#include "common/check.h"
#include "plan/optimizer.h"
#include "plan/plan_rewrite.h"

namespace sluice {

namespace {

std::string Names(const PlanNode& input, const std::vector<int>& columns) {
  std::string s;
  for (int c : columns) s += (s.empty() ? "" : ", ") + input.schema.field(static_cast<size_t>(c)).name;
  return s;
}

// A node whose output columns are its input's (the first n of them) with the same window properties.
bool PassesWindowThrough(PlanKind kind) {
  return kind == PlanKind::kExchange || kind == PlanKind::kWindowRank || kind == PlanKind::kWindowDeduplicate;
}

}  // namespace

std::string AttachedWindow::Explain(const PlanNode& input) const {
  // WindowSpec::Explain names the time column; an attached window names its window columns instead.
  std::string s = window.Explain("");
  const std::string from = "time_col=[]";
  const std::string to = "win_start=[" + input.schema.field(static_cast<size_t>(window_start)).name + "], win_end=[" +
                         input.schema.field(static_cast<size_t>(window_end)).name + "]";
  auto at = s.find(from);
  if (at != std::string::npos) s.replace(at, from.size(), to);
  if (window.kind == WindowKind::kSession && !session_keys.empty()) s.insert(s.size() - 1, ", partition keys=[" + session_keys + "]");
  return s;
}

AttachedWindow MakeAttachedWindow(const WindowColumns& wc, int start, int end) {
  AttachedWindow window;
  window.window = wc.window;
  window.window_start = start;
  window.window_end = end;
  window.local_time = wc.local_time;
  window.session_keys = wc.session_keys;
  return window;
}

std::string WindowRankNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::string order_text;
  for (const auto& k : order) {
    order_text += (order_text.empty() ? "" : ", ") + in.schema.field(static_cast<size_t>(k.column)).name +
                  (k.ascending ? " ASC" : " DESC");
  }
  std::string select;
  for (const auto& n : schema.names()) select += (select.empty() ? "" : ", ") + n;
  return "window=[" + window.Explain(in) + "], rankType=[ROW_NUMBER], rankRange=[rankStart=" + std::to_string(rank_start) +
         ", rankEnd=" + std::to_string(rank_end) + "], partitionBy=[" + Names(in, partition_keys) + "], orderBy=[" +
         order_text + "], select=[" + select + "]";
}

std::string WindowDeduplicateNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  return "window=[" + window.Explain(in) + "], keep=[" + (keep_last ? "LastRow" : "FirstRow") + "], partitionKeys=[" +
         Names(in, partition_keys) + "], orderKey=[" + in.schema.field(static_cast<size_t>(order_key)).name +
         "], order=[ROWTIME]";
}

namespace {

// The window columns of a node whose column i is column from[i] of its input (-1: computed), the
// input's being `below`: its window when a start and an end column remain (and, with
// `all_partition_keys`, every PARTITION BY key of a SESSION window), else nullopt.
std::optional<WindowColumns> Remap(const WindowColumns& below, const std::vector<int>& from, bool all_partition_keys) {
  WindowColumns out;
  const size_t n = from.size();
  out.start.assign(n, false);
  out.end.assign(n, false);
  out.partition.assign(n, -1);
  bool any_start = false, any_end = false;
  size_t partitions = 0;
  for (size_t i = 0; i < n; ++i) {
    if (from[i] < 0) continue;
    const auto c = static_cast<size_t>(from[i]);
    out.start[i] = below.start[c];
    out.end[i] = below.end[c];
    out.partition[i] = below.partition[c];
    any_start |= out.start[i];
    any_end |= out.end[i];
    partitions += out.partition[i] >= 0;
  }
  if (!any_start || !any_end) return std::nullopt;
  if (all_partition_keys && partitions != below.num_partition_keys) return std::nullopt;
  out.num_partition_keys = below.num_partition_keys;
  out.session_keys = below.session_keys;
  out.window = below.window;
  out.proctime = below.proctime;
  out.local_time = below.local_time;
  out.emit = below.emit;
  return out;
}

// A WindowColumns for `n` output columns with no window column yet.
WindowColumns NoWindowColumns(size_t n) {
  WindowColumns out;
  out.start.assign(n, false);
  out.end.assign(n, false);
  out.partition.assign(n, -1);
  return out;
}

// The window columns of a node with `n` output columns whose columns `start` and `start + 1` are
// window_start and window_end of `window`.
WindowColumns WindowColumnsAt(size_t n, size_t start, const WindowSpec& window, bool proctime, bool local_time,
                              const WindowEmitConfig& emit) {
  WindowColumns out = NoWindowColumns(n);
  out.emit = emit;
  out.window = window;
  out.proctime = proctime;
  out.local_time = local_time;
  out.start[start] = true;
  out.end[start + 1] = true;
  return out;
}

// A window TVF appends window_start and window_end to its input's columns; a SESSION window's
// PARTITION BY columns are its partition keys.
std::optional<WindowColumns> WindowTableFunctionColumns(const WindowTableFunctionNode& w) {
  if (w.group_window) return std::nullopt;
  WindowColumns out =
      WindowColumnsAt(w.schema.size(), w.inputs[0]->schema.size(), w.window, w.proctime, w.local_time, w.emit);
  for (size_t j = 0; j < w.partition_keys.size(); ++j) {
    const size_t k = static_cast<size_t>(w.partition_keys[j]);
    out.partition[k] = static_cast<int>(j);
    out.session_keys += (j == 0 ? "" : ", ") + w.inputs[0]->schema.field(k).name;
  }
  out.num_partition_keys = w.partition_keys.size();
  return out;
}

// A window aggregation emits window_start and window_end after its group keys and aggregates.
std::optional<WindowColumns> WindowAggregateColumns(const WindowAggregateNode& w) {
  if (w.group_window) return std::nullopt;
  WindowColumns out = WindowColumnsAt(w.schema.size(), w.group_keys.size() + w.aggs.size(), w.window, w.proctime,
                                      w.local_time, w.emit_config);
  if (w.window.kind == WindowKind::kSession) {
    // A SESSION aggregation is grouped by exactly its window's partition keys (plan/window_rules.h).
    for (size_t j = 0; j < w.group_keys.size(); ++j) {
      out.partition[j] = static_cast<int>(j);
      out.session_keys += (j == 0 ? "" : ", ") + w.schema.field(j).name;
    }
    out.num_partition_keys = w.group_keys.size();
  }
  return out;
}

// Per output column of a Calc, GroupAggregate or Expand, the input column it passes through (-1:
// computed), for Remap.
std::vector<int> PassedColumns(const PlanNode& node) {
  std::vector<int> from(node.schema.size(), -1);
  switch (node.kind) {
    case PlanKind::kCalc: {
      const auto& calc = node.As<CalcNode>();
      for (size_t i = 0; i < calc.projections.size(); ++i) {
        const Expr& p = *calc.projections[i];
        if (p.kind == ExprKind::kColumnRef) from[i] = p.column_index;
      }
      return from;
    }
    case PlanKind::kGroupAggregate: {
      const auto& agg = node.As<GroupAggregateNode>();
      for (size_t i = 0; i < agg.group_keys.size(); ++i) from[i] = agg.group_keys[i];
      return from;
    }
    case PlanKind::kExpand: {
      // A column every grouping set keeps.
      const auto& e = node.As<ExpandNode>();
      for (size_t c = 0; c < node.inputs[0]->schema.size(); ++c) {
        bool kept = true;
        for (const auto& set : e.keep) kept = kept && set[c];
        if (kept) from[c] = static_cast<int>(c);
      }
      return from;
    }
    default: SLUICE_UNREACHABLE();
  }
}

// A window join of two windowed inputs keeps both sides' window columns (not of SESSION windows).
std::optional<WindowColumns> WindowJoinColumns(const PlanNode& node) {
  auto left = FindWindowColumns(*node.inputs[0]);
  auto right = FindWindowColumns(*node.inputs[1]);
  if (!left || !right || left->window.kind == WindowKind::kSession) return std::nullopt;
  const size_t n = node.schema.size();
  WindowColumns out = NoWindowColumns(n);
  const size_t nl = node.inputs[0]->schema.size();
  for (size_t i = 0; i < n; ++i) {
    out.start[i] = i < nl ? left->start[i] : right->start[i - nl];
    out.end[i] = i < nl ? left->end[i] : right->end[i - nl];
  }
  out.window = left->window;
  out.proctime = left->proctime;
  out.local_time = left->local_time;
  out.emit = left->emit;
  return out;
}

}  // namespace

std::optional<WindowColumns> FindWindowColumns(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kWindowTableFunction: return WindowTableFunctionColumns(node.As<WindowTableFunctionNode>());
    case PlanKind::kWindowAggregate: return WindowAggregateColumns(node.As<WindowAggregateNode>());
    case PlanKind::kWindowJoin: return WindowJoinColumns(node);
    // A regular aggregation grouped by both window columns keeps them as window columns (Flink's
    // FlinkRelMdWindowProperties: a SESSION TVF grouped by other keys than its partition keys), so a
    // window Top-N over it is a WindowRank, which refuses its updates as Flink does (random query
    // 2014-16). GROUPING SETS over window TVF rows: a column every grouping set keeps stays a window
    // column (Flink's window properties through Expand), so the aggregation over it is a window
    // aggregation (random query 2014-180). Through both, a SESSION window's partition keys must all be
    // kept; a Calc may drop them.
    case PlanKind::kCalc:
    case PlanKind::kGroupAggregate:
    case PlanKind::kExpand: {
      auto below = FindWindowColumns(*node.inputs[0]);
      if (!below) return std::nullopt;
      return Remap(*below, PassedColumns(node), /*all_partition_keys=*/node.kind != PlanKind::kCalc);
    }
    default: break;
  }
  if (!PassesWindowThrough(node.kind)) return std::nullopt;
  auto below = FindWindowColumns(*node.inputs[0]);
  if (!below) return std::nullopt;
  const size_t n = node.schema.size();
  below->start.resize(n, false);
  below->end.resize(n, false);
  below->partition.resize(n, -1);
  return below;
}

Result<PlanNodePtr> WindowRankRule::Apply(const PlanNodePtr& node) {
  auto rule = [this](const PlanNode&, const PlanNodePtr& out) -> Result<PlanNodePtr> {
    if (out->kind != PlanKind::kRank && out->kind != PlanKind::kDeduplicate) return out;
    ASSIGN_OR_RETURN(PlanNodePtr rewritten, Rewrite(out));
    return rewritten ? rewritten : out;
  };
  return RewriteBottomUp(node, rule, &memo_);
}

Result<PlanNodePtr> WindowRankRule::Rewrite(const PlanNodePtr& node) {
  const bool dedup = node->kind == PlanKind::kDeduplicate;
  const std::vector<int>& keys = dedup ? node->As<DeduplicateNode>().keys : node->As<RankNode>().partition_keys;
  const PlanNodePtr& exchange = node->inputs[0];
  const PlanNodePtr data = exchange->kind == PlanKind::kExchange ? exchange->inputs[0] : exchange;
  auto wc = FindWindowColumns(*data);
  if (!wc) return PlanNodePtr();
  int start = -1, end = -1;
  for (int k : keys) {
    if (start < 0 && wc->start[static_cast<size_t>(k)]) start = k;
    else if (end < 0 && wc->end[static_cast<size_t>(k)]) end = k;
  }
  if (start < 0 || end < 0) return PlanNodePtr();
  if (wc->proctime) {
    return Status::PlanError(dedup ? "Processing time Window Deduplication is not supported yet."
                                   : "Processing time Window TopN is not supported yet.");
  }
  std::vector<int> rest;
  for (int k : keys) {
    if (k != start && k != end) rest.push_back(k);
  }
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {data};
  ex->schema = data->schema;
  ex->keys = rest;
  const AttachedWindow window = MakeAttachedWindow(*wc, start, end);
  if (dedup) {
    const auto& d = node->As<DeduplicateNode>();
    if (!d.rowtime) {
      return Status::NotSupported(
          "Window deduplication ordered by a processing-time attribute is not supported by Sluice yet (order by the "
          "rowtime attribute)");
    }
    auto w = std::make_shared<WindowDeduplicateNode>();
    w->inputs = {ex};
    w->schema = d.schema;
    w->window = window;
    w->partition_keys = rest;
    w->order_key = d.time_column;
    w->keep_last = d.keep_last;
    return PlanNodePtr(w);
  }
  const auto& r = node->As<RankNode>();
  if (r.rank_function != "ROW_NUMBER") {
    return Status::PlanError(r.rank_function + "() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.");
  }
  auto w = std::make_shared<WindowRankNode>();
  w->inputs = {ex};
  w->schema = r.schema;
  w->window = window;
  w->partition_keys = rest;
  w->order = r.order;
  w->rank_start = r.rank_start;
  w->rank_end = r.rank_end;
  w->output_rank_number = r.output_rank_number;
  return PlanNodePtr(w);
}

}  // namespace sluice
