#include "plan/batch_physical.h"

#include <map>
#include <set>

#include "function/aggregate/aggregate_function.h"
#include "plan/traits.h"

namespace sluice {

namespace {

// The batch node for `node`, or null when it stays as it is.
Result<PlanNodePtr> BatchNode(const PlanNode& node) {
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
      const auto& j = node.As<JoinNode>();
      if (j.left_keys.empty()) return PlanNodePtr();
      return PlanNodePtr(std::make_shared<HashJoinNode>(j));
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
    default: return PlanNodePtr();
  }
}

// Replaces, below and at the inputs of `node`, the nodes that have a batch counterpart. Shared nodes
// are visited once and replaced for every parent (`replaced`). Returns whether anything changed.
// `versioned`: `node` feeds a temporal join's versioned side, whose every version the join keeps (a
// keep-last Deduplicate there must emit each version, not only the final row), so nothing below it is
// replaced.
Status Rewrite(PlanNode* node, bool versioned, std::set<PlanNode*>* seen,
               std::map<const PlanNode*, PlanNodePtr>* replaced, bool* changed) {
  if (!seen->insert(node).second) return Status::OK();
  for (size_t i = 0; i < node->inputs.size(); ++i) {
    auto& in = node->inputs[i];
    const bool keep = versioned || (node->kind == PlanKind::kTemporalJoin && i == 1);
    RETURN_IF_ERROR(Rewrite(in.get(), keep, seen, replaced, changed));
    if (keep) continue;
    auto it = replaced->find(in.get());
    if (it == replaced->end()) {
      ASSIGN_OR_RETURN(PlanNodePtr batch, BatchNode(*in));
      if (!batch) continue;
      it = replaced->emplace(in.get(), std::move(batch)).first;
    }
    in = it->second;
    *changed = true;
  }
  return Status::OK();
}

}  // namespace

Status ApplyBatchPhysicalRules(std::vector<PlanNodePtr>* roots) {
  // Each round rewrites at least one aggregate, so this ends after at most as many rounds as the plan
  // has aggregates (plus the final inference).
  for (;;) {
    RETURN_IF_ERROR(InferChangelogModes(*roots));
    std::set<PlanNode*> seen;
    std::map<const PlanNode*, PlanNodePtr> replaced;
    bool changed = false;
    for (auto& r : *roots) RETURN_IF_ERROR(Rewrite(r.get(), false, &seen, &replaced, &changed));
    if (!changed) return Status::OK();
  }
}

}  // namespace sluice
