#include "plan/traits.h"

#include <map>
#include <set>

#include "catalog/catalog.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

namespace {

// What a node can emit, before deciding whether updates carry their before-image: I, U (update),
// D (delete), as Flink's ModifyKindSet.
struct Kinds {
  bool insert = false, update = false, del = false;
  Kinds Union(Kinds o) const { return {insert || o.insert, update || o.update, del || o.del}; }
  bool InsertOnly() const { return !update && !del; }
};

Kinds FromMode(ChangelogMode m) {
  return {m.Contains(RowKind::kInsert), m.Contains(RowKind::kUpdateAfter) || m.Contains(RowKind::kUpdateBefore),
          m.Contains(RowKind::kDelete)};
}

class Inference {
 public:
  void Run(const std::vector<PlanNodePtr>& roots) {
    for (const auto& r : roots) Order(r.get());
    for (PlanNode* n : order_) kinds_[n] = Provide(n);
    // Top-down: which nodes must emit update-before. Parents come later in order_.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) Require(*it);
    for (PlanNode* n : order_) {
      Kinds k = kinds_[n];
      ChangelogMode m;
      if (k.insert) m = m.With(RowKind::kInsert);
      if (k.update) {
        if (needs_ub_[n]) m = m.With(RowKind::kUpdateBefore);
        m = m.With(RowKind::kUpdateAfter);
      }
      if (k.del) m = m.With(RowKind::kDelete);
      // A sink emits nothing (Flink prints NONE); its input's mode is what it consumes.
      if (n->kind == PlanKind::kSink) m = ChangelogMode();
      n->changelog_mode = m;
      Annotate(n);
    }
  }

 private:
  void Order(PlanNode* n) {
    if (!seen_.insert(n).second) return;
    for (const auto& in : n->inputs) Order(in.get());
    order_.push_back(n);
  }

  Kinds In(const PlanNode* n, size_t i = 0) { return kinds_[n->inputs[i].get()]; }

  Kinds Provide(PlanNode* n) {
    switch (n->kind) {
      case PlanKind::kTableSourceScan: return FromMode(n->As<TableSourceScanNode>().source_mode);
      case PlanKind::kValues: return {true, false, false};
      case PlanKind::kCalc:
      case PlanKind::kWatermarkAssigner:
      case PlanKind::kCorrelate:
      case PlanKind::kExchange:
      case PlanKind::kSink: return In(n);
      case PlanKind::kUnion: {
        Kinds k;
        for (size_t i = 0; i < n->inputs.size(); ++i) k = k.Union(In(n, i));
        return k;
      }
      case PlanKind::kGroupAggregate:
        // An aggregate updates its rows; it deletes a group only when retractions empty it.
        return In(n).InsertOnly() ? Kinds{true, true, false} : Kinds{true, true, true};
      case PlanKind::kDeduplicate: {
        const auto& d = n->As<DeduplicateNode>();
        if (!d.keep_last) return {true, false, false};
        return {true, true, true};
      }
      case PlanKind::kRank: return {true, true, true};
      case PlanKind::kJoin: {
        const auto& j = n->As<JoinNode>();
        if (j.join_type == JoinType::kInner) return In(n, 0).Union(In(n, 1));
        return {true, true, true};
      }
    }
    return {true, false, false};
  }

  // Marks the inputs of `n` that must send update-before rows.
  void Require(PlanNode* n) {
    switch (n->kind) {
      case PlanKind::kSink: {
        const auto& s = n->As<SinkNode>();
        if (s.accepted_mode.Contains(RowKind::kUpdateBefore)) needs_ub_[n->inputs[0].get()] = true;
        return;
      }
      case PlanKind::kCalc:
      case PlanKind::kWatermarkAssigner:
      case PlanKind::kCorrelate:
      case PlanKind::kExchange:
      case PlanKind::kUnion:
        // Stateless: pass the parents' requirement through.
        if (needs_ub_[n]) {
          for (const auto& in : n->inputs) needs_ub_[in.get()] = true;
        }
        return;
      case PlanKind::kGroupAggregate:
      case PlanKind::kRank:
      case PlanKind::kJoin:
      case PlanKind::kDeduplicate:
        // Stateful operators retract what they emitted earlier, so they need the before-image.
        for (const auto& in : n->inputs) needs_ub_[in.get()] = true;
        return;
      case PlanKind::kTableSourceScan:
      case PlanKind::kValues: return;
    }
  }

  void Annotate(PlanNode* n) {
    bool ub = needs_ub_[n];
    switch (n->kind) {
      case PlanKind::kGroupAggregate: {
        auto& g = n->As<GroupAggregateNode>();
        g.emit_update_before = ub;
        g.input_has_retractions = !kinds_[n->inputs[0].get()].InsertOnly();
        if (g.input_has_retractions) {
          // Switch to the retracting variants (Flink's SUM_RETRACT, MIN_RETRACT, ...).
          for (auto& a : g.aggs) {
            std::vector<const Value*> constants;
            for (const auto& c : a.arg_constants) constants.push_back(c ? &*c : nullptr);
            auto fn = ResolveAggregate(a.name, a.arg_types, constants, true);
            if (!fn.ok()) {
              status_ = fn.status();
              return;
            }
            a.function = *fn;
          }
        }
        return;
      }
      case PlanKind::kDeduplicate: n->As<DeduplicateNode>().emit_update_before = ub; return;
      case PlanKind::kRank: {
        auto& r = n->As<RankNode>();
        r.emit_update_before = ub;
        r.input_has_retractions = !kinds_[n->inputs[0].get()].InsertOnly();
        return;
      }
      default: return;
    }
  }

  std::set<PlanNode*> seen_;
  std::vector<PlanNode*> order_;
  std::map<PlanNode*, Kinds> kinds_;
  std::map<PlanNode*, bool> needs_ub_;

 public:
  Status status_;
};

// The deepest node on the path down from `node` that first emits a change of a kind in `kinds`.
const PlanNode* Producer(const PlanNode* node, ChangelogMode kinds) {
  for (const auto& in : node->inputs) {
    ChangelogMode m = in->changelog_mode;
    bool has = false;
    for (RowKind k : {RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) has |= kinds.Contains(k) && m.Contains(k);
    if (has) return Producer(in.get(), kinds);
  }
  return node;
}

// The unique key of a changing result, as column names, when the planner knows it.
std::vector<std::string> UpsertKey(const PlanNode* node) {
  switch (node->kind) {
    case PlanKind::kGroupAggregate: {
      std::vector<std::string> k;
      for (size_t i = 0; i < node->As<GroupAggregateNode>().group_keys.size(); ++i) k.push_back(node->schema.field(i).name);
      return k;
    }
    case PlanKind::kDeduplicate: {
      std::vector<std::string> k;
      for (int c : node->As<DeduplicateNode>().keys) k.push_back(node->schema.field(static_cast<size_t>(c)).name);
      return k;
    }
    case PlanKind::kRank: {
      std::vector<std::string> k;
      for (int c : node->As<RankNode>().partition_keys) k.push_back(node->schema.field(static_cast<size_t>(c)).name);
      if (node->As<RankNode>().output_rank_number) k.push_back(node->schema.fields().back().name);
      return k;
    }
    case PlanKind::kCalc: {
      // A key survives a projection that keeps its columns by reference (same names).
      std::vector<std::string> below = UpsertKey(node->inputs[0].get());
      const auto& calc = node->As<CalcNode>();
      std::vector<std::string> out;
      for (const auto& name : below) {
        auto idx = node->inputs[0]->schema.IndexOf(name);
        bool found = false;
        for (size_t i = 0; idx && i < calc.projections.size(); ++i) {
          const Expr& p = *calc.projections[i];
          if (p.kind == ExprKind::kColumnRef && p.column_index == static_cast<int>(*idx)) {
            out.push_back(node->schema.field(i).name);
            found = true;
            break;
          }
        }
        if (!found) return {};
      }
      return out;
    }
    case PlanKind::kExchange:
    case PlanKind::kWatermarkAssigner: return UpsertKey(node->inputs[0].get());
    default: return {};
  }
}

std::string JoinStrings(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

std::vector<std::string> UpsertKeyNames(const PlanNode& node) { return UpsertKey(&node); }

bool StateGrowsWithKeys(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kGroupAggregate:
    case PlanKind::kDeduplicate:
    case PlanKind::kRank:
    case PlanKind::kJoin: return true;
    default: return false;
  }
}

Status InferChangelogModes(const std::vector<PlanNodePtr>& roots) {
  Inference inf;
  inf.Run(roots);
  return inf.status_;
}

Status ValidateSinks(const std::vector<PlanNodePtr>& roots) {
  for (const auto& r : roots) {
    if (r->kind != PlanKind::kSink) continue;
    const auto& sink = r->As<SinkNode>();
    ChangelogMode in = sink.inputs[0]->changelog_mode;
    bool updates = (in.Contains(RowKind::kUpdateAfter) || in.Contains(RowKind::kUpdateBefore)) &&
                   !sink.accepted_mode.Contains(RowKind::kUpdateAfter);
    bool deletes = in.Contains(RowKind::kDelete) && !sink.accepted_mode.Contains(RowKind::kDelete);
    if (!updates && !deletes) continue;
    std::string what = updates && deletes ? "update and delete changes" : (updates ? "update changes" : "delete changes");
    const PlanNode* producer = Producer(&sink, in);
    std::string name = sink.table ? sink.table->path.FullName() : "collect";
    std::string msg = "Table sink '" + name + "' doesn't support consuming " + what + " which is produced by node " +
                      producer->ExplainName() + "(" + producer->ExplainAttributes() + ")";
    std::vector<std::string> key = UpsertKey(sink.inputs[0].get());
    msg += "\nSluice: the query emits [" + in.ToString() + "] but '" + (sink.table ? sink.table->connector() : std::string("?")) +
           "' only stores [" + sink.accepted_mode.ToString() + "]. ";
    if (!key.empty()) {
      msg += "Write it to a sink that upserts by key instead, with PRIMARY KEY (" + JoinStrings(key) +
             ") NOT ENFORCED (the query's unique key), e.g. 'upsert-kafka', or to 'print'.";
    } else {
      msg += "Write it to a sink that accepts a changelog instead, e.g. 'print', or make the query append-only.";
    }
    return Status::PlanError(msg);
  }
  return Status::OK();
}

}  // namespace sluice
