#include "plan/batch_physical.h"

#include <map>
#include <set>

#include "common/config.h"
#include "function/aggregate/aggregate_function.h"
#include "plan/traits.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

// The batch operators 'table.exec.disabled-operators' leaves to the planner (Flink's OperatorType).
struct EnabledOperators {
  bool shuffle_hash_join = true;
  bool sort_merge_join = true;
};

// As Flink's TableConfigUtils.isOperatorDisabled: comma-separated, trimmed, empty items skipped,
// "HashJoin" standing for both hash joins, any other name one of OperatorType's constants.
Result<EnabledOperators> ParseDisabledOperators(const std::string& value) {
  static const std::set<std::string> kNames = {"NestedLoopJoin", "ShuffleHashJoin", "BroadcastHashJoin", "HashJoin",
                                               "SortMergeJoin",  "HashAgg",         "SortAgg"};
  EnabledOperators on;
  size_t begin = 0;
  while (begin <= value.size()) {
    size_t end = value.find(',', begin);
    if (end == std::string::npos) end = value.size();
    std::string name = value.substr(begin, end - begin);
    const size_t first = name.find_first_not_of(" \t\n\r");
    name = first == std::string::npos ? "" : name.substr(first, name.find_last_not_of(" \t\n\r") - first + 1);
    begin = end + 1;
    if (name.empty()) continue;
    if (!kNames.count(name)) {
      return Status::PlanError("No enum constant org.apache.flink.table.planner.plan.utils.OperatorType." + name +
                               " (in '" + kDisabledOperatorsKey +
                               "'; the names are NestedLoopJoin, ShuffleHashJoin, BroadcastHashJoin, HashJoin, "
                               "SortMergeJoin, HashAgg, SortAgg)");
    }
    if (name == "HashJoin" || name == "ShuffleHashJoin") on.shuffle_hash_join = false;
    if (name == "SortMergeJoin") on.sort_merge_join = false;
  }
  return on;
}

// The batch node of an equi-join, or null when it stays a (streaming) Join. Without statistics
// Flink's batch planner picks a ShuffleHashJoin (a broadcast needs known input sizes); with the hash
// joins disabled a SortMergeJoin, whose keys must be sortable; with both disabled a NestedLoopJoin,
// which Sluice runs as the streaming Join (as it does a join without equi-keys).
PlanNodePtr BatchJoin(const JoinNode& j, const EnabledOperators& on) {
  if (j.left_keys.empty()) return PlanNodePtr();
  if (on.shuffle_hash_join) return std::make_shared<HashJoinNode>(j);
  bool sortable = on.sort_merge_join;
  for (int k : j.left_keys) sortable = sortable && IsSortKeyEncodable(j.inputs[0]->schema.types()[k]);
  if (sortable) return std::make_shared<SortMergeJoinNode>(j);
  return PlanNodePtr();
}

// `node` without the WatermarkAssigner of its single-input chain of Exchanges and Calcs (copies of the
// nodes above it; the originals stay for other parents), or null when the chain has none.
PlanNodePtr WithoutWatermarkAssigner(const PlanNode& node) {
  if (node.kind == PlanKind::kWatermarkAssigner) return node.inputs[0];
  if ((node.kind != PlanKind::kExchange && node.kind != PlanKind::kCalc) || node.inputs.size() != 1) {
    return PlanNodePtr();
  }
  PlanNodePtr below = WithoutWatermarkAssigner(*node.inputs[0]);
  if (!below) return PlanNodePtr();
  PlanNodePtr copy = node.kind == PlanKind::kExchange
                         ? PlanNodePtr(std::make_shared<ExchangeNode>(node.As<ExchangeNode>()))
                         : PlanNodePtr(std::make_shared<CalcNode>(node.As<CalcNode>()));
  copy->inputs[0] = std::move(below);
  return copy;
}

// The batch node for `node`, or null when it stays as it is.
Result<PlanNodePtr> BatchNode(const PlanNode& node, const EnabledOperators& on) {
  for (const auto& in : node.inputs) {
    if (!in->changelog_mode.IsInsertOnly()) return PlanNodePtr();
  }
  switch (node.kind) {
    case PlanKind::kGroupAggregate: {
      const auto& g = node.As<GroupAggregateNode>();
      if (g.phase != GroupAggregateNode::Phase::kSingle) return PlanNodePtr();
      auto h = std::make_shared<HashAggregateNode>(g);
      // Trait inference switched calls over an updating input to their retracting variants; over this
      // insert-only input the plain functions run (COUNT, not COUNT_RETRACT).
      for (auto& a : h->aggs) {
        std::vector<const Value*> constants;
        for (const auto& c : a.arg_constants) constants.push_back(c ? &*c : nullptr);
        ASSIGN_OR_RETURN(a.function, ResolveAggregate(a.name, a.arg_types, constants, false));
      }
      return PlanNodePtr(h);
    }
    case PlanKind::kJoin: {
      // An equi-join (Flink plans a join without equi-keys as a NestedLoopJoin; that stays streaming).
      return BatchJoin(node.As<JoinNode>(), on);
    }
    case PlanKind::kRank: {
      const auto& r = node.As<RankNode>();
      auto b = std::make_shared<BatchRankNode>();
      b->schema = r.schema;
      b->inputs = r.inputs;
      b->partition_keys = r.partition_keys;
      b->order = r.order;
      b->rank_start = r.rank_start;
      b->rank_end = r.rank_end;
      b->rank_function = r.rank_function;
      b->output_rank_number = r.output_rank_number;
      return PlanNodePtr(b);
    }
    case PlanKind::kDeduplicate: {
      // ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time [DESC]) = 1: a top-1 per key, as Flink's
      // batch planner plans it (it has no Deduplicate).
      const auto& d = node.As<DeduplicateNode>();
      auto b = std::make_shared<BatchRankNode>();
      b->schema = d.schema;
      b->inputs = d.inputs;
      b->partition_keys = d.keys;
      b->order = {SortKey{d.time_column, !d.keep_last, !d.keep_last}};
      b->rank_start = 1;
      b->rank_end = 1;
      b->output_rank_number = false;
      b->ties_latest_first = d.keep_last;
      return PlanNodePtr(b);
    }
    case PlanKind::kMatch: {
      // Flink's BatchPhysicalMatch: no watermarks in batch (its plan has no WatermarkAssigner); the
      // operator matches each partition's rows in time order once the input ended
      // (runtime/operators/match_operator.h).
      const auto& m = node.As<MatchNode>();
      if (!m.rowtime) return PlanNodePtr();
      PlanNodePtr input = WithoutWatermarkAssigner(*m.inputs[0]);
      if (!input) return PlanNodePtr();
      auto b = std::make_shared<MatchNode>(m);
      b->inputs[0] = std::move(input);
      return PlanNodePtr(b);
    }
    default: return PlanNodePtr();
  }
}

// Replaces, below and at the inputs of `node`, the nodes that have a batch counterpart. Shared nodes
// are visited once and replaced for every parent (`replaced`). Returns whether anything changed.
// `versioned`: `node` feeds a temporal join's versioned side, whose every version the join keeps (a
// keep-last Deduplicate there must emit each version, not only the final row), so nothing below it is
// replaced.
Status Rewrite(PlanNode* node, bool versioned, const EnabledOperators& on, std::set<PlanNode*>* seen,
               std::map<const PlanNode*, PlanNodePtr>* replaced, bool* changed) {
  if (!seen->insert(node).second) return Status::OK();
  for (size_t i = 0; i < node->inputs.size(); ++i) {
    auto& in = node->inputs[i];
    const bool keep = versioned || (node->kind == PlanKind::kTemporalJoin && i == 1);
    RETURN_IF_ERROR(Rewrite(in.get(), keep, on, seen, replaced, changed));
    if (keep) continue;
    auto it = replaced->find(in.get());
    if (it == replaced->end()) {
      ASSIGN_OR_RETURN(PlanNodePtr batch, BatchNode(*in, on));
      if (!batch) continue;
      it = replaced->emplace(in.get(), std::move(batch)).first;
    }
    in = it->second;
    *changed = true;
  }
  return Status::OK();
}

// What Flink's batch planner refuses although Sluice's streaming operators could run it, in Flink's
// words: a window TVF over processing time or a SESSION window TVF (BatchPhysicalWindowTableFunction
// and its window aggregate rules), an ORDER BY with OFFSET and no LIMIT (BatchPhysicalSortLimit: its
// limit end would be Long.MAX_VALUE), and a legacy GROUP BY SESSION window (GROUP BY TUMBLE/HOP is a batch window aggregate in Flink).
Status CheckBatchSupported(const PlanNode& node, std::set<const PlanNode*>* seen) {
  if (!seen->insert(&node).second) return Status::OK();
  const WindowSpec* window = nullptr;
  bool proctime = false;
  if (node.kind == PlanKind::kWindowTableFunction && !node.As<WindowTableFunctionNode>().group_window) {
    window = &node.As<WindowTableFunctionNode>().window;
    proctime = node.As<WindowTableFunctionNode>().proctime;
  } else if (node.kind == PlanKind::kWindowAggregate && !node.As<WindowAggregateNode>().group_window) {
    window = &node.As<WindowAggregateNode>().window;
    proctime = node.As<WindowAggregateNode>().proctime;
  }
  if (window && proctime) return Status::PlanError("Processing time Window TableFunction is not supported yet.");
  if (window && window->kind == WindowKind::kSession) {
    return Status::PlanError("Unaligned windows like session are not supported in batch mode yet.");
  }
  // A legacy GROUP BY SESSION(ts, gap) window: Flink's batch window aggregate rules take tumbling and
  // sliding group windows only (w$ is Flink's alias of the window; the gap in ms).
  const WindowSpec* group_window = nullptr;
  int group_time = -1;  // the input column of the window's time attribute
  if (node.kind == PlanKind::kWindowTableFunction && node.As<WindowTableFunctionNode>().group_window) {
    group_window = &node.As<WindowTableFunctionNode>().window;
    group_time = node.As<WindowTableFunctionNode>().time_column;
  } else if (node.kind == PlanKind::kWindowAggregate && node.As<WindowAggregateNode>().group_window &&
             node.As<WindowAggregateNode>().window_start_column < 0) {
    group_window = &node.As<WindowAggregateNode>().window;
    group_time = node.As<WindowAggregateNode>().time_column;
  }
  if (group_window && group_window->kind == WindowKind::kSession && group_time >= 0 && !node.inputs.empty()) {
    return Status::PlanError("Window SessionGroupWindow('w$, " + node.inputs[0]->schema.field(group_time).name + ", " +
                             std::to_string(group_window->size_ms) +
                             ") is not supported right now. (batch mode: Flink's batch planner has no session group "
                             "window)");
  }
  if (node.kind == PlanKind::kSort) {
    const auto& sort = node.As<SortNode>();
    if (!sort.order.empty() && sort.fetch < 0 && sort.offset > 0) {
      return Status::PlanError("Not support limitEnd is max value now! (batch mode: an ORDER BY with OFFSET needs a "
                               "LIMIT, as in Flink's batch planner)");
    }
  }
  for (const auto& in : node.inputs) RETURN_IF_ERROR(CheckBatchSupported(*in, seen));
  return Status::OK();
}

}  // namespace

Status ApplyBatchPhysicalRules(const Configuration& config, std::vector<PlanNodePtr>* roots) {
  ASSIGN_OR_RETURN(const EnabledOperators on, ParseDisabledOperators(config.GetString(kDisabledOperatorsKey)));
  std::set<const PlanNode*> checked;
  for (const auto& r : *roots) RETURN_IF_ERROR(CheckBatchSupported(*r, &checked));
  // Each round rewrites at least one aggregate, so this ends after at most as many rounds as the plan
  // has aggregates (plus the final inference).
  for (;;) {
    RETURN_IF_ERROR(InferChangelogModes(*roots));
    std::set<PlanNode*> seen;
    std::map<const PlanNode*, PlanNodePtr> replaced;
    bool changed = false;
    for (auto& r : *roots) RETURN_IF_ERROR(Rewrite(r.get(), false, on, &seen, &replaced, &changed));
    if (!changed) return Status::OK();
  }
}

}  // namespace sluice
