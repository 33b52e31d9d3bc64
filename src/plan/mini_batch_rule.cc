#include "plan/mini_batch_rule.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>

#include "function/aggregate/aggregate_function.h"

namespace sluice {

namespace {

void CollectNodes(const PlanNodePtr& n, std::set<const PlanNode*>* seen, std::vector<PlanNodePtr>* out) {
  if (!seen->insert(n.get()).second) return;
  for (const auto& in : n->inputs) CollectNodes(in, seen, out);
  out->push_back(n);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool CanSplit(const GroupAggregateNode& g) {
  if (g.inputs.empty() || g.inputs[0]->kind != PlanKind::kExchange) return false;
  for (const auto& a : g.aggs) {
    if (!a.function || !a.function->merge) return false;
  }
  return true;
}

// Flink's StreamPhysicalRel.requireWatermark: operators whose results wait for the event-time watermark.
bool RequiresWatermark(const PlanNode& n) {
  switch (n.kind) {
    case PlanKind::kWindowAggregate: return !n.As<WindowAggregateNode>().proctime;
    case PlanKind::kWindowTableFunction: return !n.As<WindowTableFunctionNode>().proctime;
    case PlanKind::kWindowRank:
    case PlanKind::kWindowDeduplicate:
    case PlanKind::kWindowJoin:
    case PlanKind::kTemporalJoin: return true;
    case PlanKind::kIntervalJoin: return n.As<IntervalJoinNode>().rowtime;
    case PlanKind::kOverAggregate: return n.As<OverAggregateNode>().rowtime;
    case PlanKind::kMatch: return n.As<MatchNode>().rowtime;
    case PlanKind::kDeduplicate: return n.As<DeduplicateNode>().rowtime;
    case PlanKind::kSort: {
      const auto& s = n.As<SortNode>();
      return s.variant == SortNode::Variant::kTemporalSort && !s.order.empty() &&
             n.inputs[0]->schema.field(static_cast<size_t>(s.order[0].column)).type.time_attribute() ==
                 TimeAttribute::kRowtime;
    }
    default: return false;
  }
}

// The interval a node passes on to its inputs, given its own.
MiniBatchInterval PassedToInputs(const PlanNode& n, const MiniBatchInterval& own) {
  // A legacy GROUP BY TUMBLE/HOP/SESSION (Flink's GroupWindowAggregate) has no mini-batch.
  if (n.kind == PlanKind::kWindowAggregate && n.As<WindowAggregateNode>().group_window) {
    return MiniBatchInterval::NoMiniBatch();
  }
  if (n.kind == PlanKind::kWatermarkAssigner || n.kind == PlanKind::kMiniBatchAssigner) return {};
  if (RequiresWatermark(n)) return MergeMiniBatchIntervals(own, {0, MiniBatchInterval::Mode::kRowTime});
  return own;
}

// Splits `global` (a single-phase aggregate over an Exchange whose calls all merge) into a local phase
// below the Exchange and a global phase above it.
void SplitIntoLocalAndGlobal(GroupAggregateNode* global) {
  const PlanNodePtr exchange = global->inputs[0];
  const PlanNodePtr input = exchange->inputs[0];
  auto local = std::make_shared<GroupAggregateNode>(*global);
  local->phase = GroupAggregateNode::Phase::kLocal;
  local->inputs = {input};
  local->schema = Schema();
  local->partial_names.clear();
  for (int k : global->group_keys) {
    const Field& f = input->schema.field(static_cast<size_t>(k));
    local->schema.Add(f.name, f.type);
    local->partial_names.push_back(f.name);
  }
  for (size_t a = 0; a < global->aggs.size(); ++a) {
    std::string name = Lower(global->aggs[a].name) + "$" + std::to_string(a);
    local->schema.Add(name, global->aggs[a].function->result_type);
    local->partial_names.push_back(name);
  }
  // The local phase emits accumulators, insert-only whatever its input (Flink's
  // StreamPhysicalLocalGroupAggregate: changelogMode=[I]; random query 2020-98). It runs fused with
  // its global phase, which reads the local phase's input and its changes itself.
  local->changelog_mode = ChangelogMode::InsertOnly();
  local->upsert_keys.clear();
  auto new_exchange = std::make_shared<ExchangeNode>(exchange->As<ExchangeNode>());
  new_exchange->changelog_mode = ChangelogMode::InsertOnly();
  new_exchange->upsert_keys.clear();
  new_exchange->inputs = {local};
  new_exchange->schema = local->schema;
  new_exchange->keys.clear();
  for (size_t k = 0; k < global->group_keys.size(); ++k) new_exchange->keys.push_back(static_cast<int>(k));
  global->phase = GroupAggregateNode::Phase::kGlobal;
  global->partial_names = local->partial_names;
  global->inputs = {new_exchange};
}

// What the interval inference decides: each node's mini-batch interval, and the nodes an Exchange
// reads (directly or through Calc, Union, ...).
struct MiniBatchIntervals {
  std::map<const PlanNode*, MiniBatchInterval> interval;
  std::set<const PlanNode*> below_exchange;
};

// The mini-batch interval of every node (Flink's MiniBatchIntervalInferRule): every sink starts with
// (allow-latency, ProcTime), passed down to the inputs; an operator that needs the watermark turns
// it into an event-time interval (RowTime); a WatermarkAssigner passes nothing on (its scan gets no
// assigner). `nodes` lists every node after its inputs.
MiniBatchIntervals InferIntervals(const std::vector<PlanNodePtr>& roots, const std::vector<PlanNodePtr>& nodes,
                                  int64_t interval_ms) {
  MiniBatchIntervals out;
  for (const auto& r : roots) out.interval[r.get()] = {interval_ms, MiniBatchInterval::Mode::kProcTime};
  // Parents before children.
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const PlanNodePtr& n = *it;
    const MiniBatchInterval passed = PassedToInputs(*n, out.interval[n.get()]);
    // A DropUpdateBefore over a changelog scan (below a ChangelogNormalize) passes no Exchange down:
    // Flink 2.2.1 plans no assigner there (tests/flink/cases/mini_batch_normalize_cdc).
    const bool exchange = n->kind == PlanKind::kExchange ||
                          (out.below_exchange.count(n.get()) && n->kind != PlanKind::kDropUpdateBefore);
    for (const auto& in : n->inputs) {
      out.interval[in.get()] = MergeMiniBatchIntervals(out.interval[in.get()], passed);
      if (exchange) out.below_exchange.insert(in.get());
    }
  }
  return out;
}

// A MiniBatchAssigner goes over each source (over its WatermarkAssigner when it has one) with the
// interval it ends up with, except over a scan without watermarks that no Exchange reads (not through a
// DropUpdateBefore either): Flink 2.2.1 plans none there (measured with the differential cases
// tests/flink/cases/mini_batch_*; a plain projection of such a scan gets none). One assigner per source.
void PlaceMiniBatchAssigners(const std::vector<PlanNodePtr>& nodes, MiniBatchIntervals* intervals) {
  std::map<const PlanNode*, PlanNodePtr> assigners;
  auto assigner_for = [&](const PlanNodePtr& source, const MiniBatchInterval& iv) {
    auto& a = assigners[source.get()];
    if (!a) {
      auto node = std::make_shared<MiniBatchAssignerNode>();
      node->interval_ms = iv.interval_ms;
      node->mode = iv.mode == MiniBatchInterval::Mode::kRowTime ? MiniBatchAssignerNode::Mode::kRowTime
                                                                 : MiniBatchAssignerNode::Mode::kProcTime;
      node->inputs = {source};
      node->schema = source->schema;
      node->changelog_mode = source->changelog_mode;
      node->upsert_keys = source->upsert_keys;
      a = node;
    }
    return a;
  };
  for (const auto& n : nodes) {
    if (n->kind == PlanKind::kWatermarkAssigner) continue;
    for (auto& in : n->inputs) {
      const bool source_top = in->kind == PlanKind::kWatermarkAssigner ||
                              (in->kind == PlanKind::kTableSourceScan && intervals->below_exchange.count(in.get()));
      const MiniBatchInterval& iv = intervals->interval[in.get()];
      const bool batched = iv.mode == MiniBatchInterval::Mode::kProcTime || iv.mode == MiniBatchInterval::Mode::kRowTime;
      if (source_top && batched) in = assigner_for(in, iv);
    }
  }
}

}  // namespace

void MarkMiniBatchOperators(const std::vector<PlanNodePtr>& roots) {
  std::set<const PlanNode*> seen;
  std::vector<PlanNodePtr> nodes;
  for (const auto& r : roots) CollectNodes(r, &seen, &nodes);
  for (const auto& n : nodes) {
    if (n->kind == PlanKind::kDeduplicate) n->As<DeduplicateNode>().mini_batch = true;
    // EXPLAIN marks every join (Flink's StreamPhysicalJoin), though semi and anti joins run row by row.
    if (n->kind == PlanKind::kJoin) n->As<JoinNode>().mini_batch = true;
  }
}

void ApplyMiniBatchRules(std::vector<PlanNodePtr>* roots, int64_t interval_ms, bool two_phase) {
  std::set<const PlanNode*> seen;
  std::vector<PlanNodePtr> nodes;
  for (const auto& r : *roots) CollectNodes(r, &seen, &nodes);
  if (two_phase) {
    for (const auto& n : nodes) {
      if (n->kind != PlanKind::kGroupAggregate) continue;
      auto& global = n->As<GroupAggregateNode>();
      if (global.phase == GroupAggregateNode::Phase::kSingle && CanSplit(global)) SplitIntoLocalAndGlobal(&global);
    }
  }
  // The split added nodes: list them again.
  seen.clear();
  nodes.clear();
  for (const auto& r : *roots) CollectNodes(r, &seen, &nodes);
  MiniBatchIntervals intervals = InferIntervals(*roots, nodes, interval_ms);
  PlaceMiniBatchAssigners(nodes, &intervals);
}

MiniBatchInterval MergeMiniBatchIntervals(const MiniBatchInterval& a, const MiniBatchInterval& b) {
  using Mode = MiniBatchInterval::Mode;
  if (a.IsNoMiniBatch() || b.IsNoMiniBatch()) return MiniBatchInterval::NoMiniBatch();
  switch (a.mode) {
    case Mode::kNone: return b;
    case Mode::kRowTime:
      if (b.mode == Mode::kNone) return a;
      if (b.mode == Mode::kRowTime) return {std::gcd(a.interval_ms, b.interval_ms), Mode::kRowTime};
      return a.interval_ms == 0 ? MiniBatchInterval{b.interval_ms, Mode::kRowTime} : a;
    case Mode::kProcTime:
      if (b.mode != Mode::kRowTime) return a;
      return b.interval_ms == 0 ? MiniBatchInterval{a.interval_ms, Mode::kRowTime} : b;
  }
  return a;
}

}  // namespace sluice
