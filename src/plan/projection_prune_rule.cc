// Column pruning (see projection_prune_rule.h).
#include "plan/projection_prune_rule.h"

#include <map>
#include <optional>
#include <set>

#include "common/check.h"
#include "plan/optimizer.h"
#include "plan/upsert_keys.h"

namespace sluice {

namespace {

using InsertOnlyMemo = std::map<const PlanNode*, bool>;

// Whether `node` surely emits inserts only (decided before trait inference, from what the sources
// emit and what each operator does); false when unsure. Memoized: a plan is a DAG.
bool InsertOnly(const PlanNode& node, InsertOnlyMemo* memo) {
  auto found = memo->find(&node);
  if (found != memo->end()) return found->second;
  bool& result = (*memo)[&node];
  result = true;
  switch (node.kind) {
    case PlanKind::kTableSourceScan: return result = node.As<TableSourceScanNode>().source_mode.IsInsertOnly();
    case PlanKind::kValues: return result;
    case PlanKind::kJoin:
      if (node.As<JoinNode>().join_type != JoinType::kInner) return result = false;
      break;
    case PlanKind::kCalc:
    case PlanKind::kWatermarkAssigner:
    case PlanKind::kCorrelate:
    case PlanKind::kUnion:
    case PlanKind::kExchange:
    case PlanKind::kMiniBatchAssigner:
    case PlanKind::kWindowTableFunction:
    case PlanKind::kIntervalJoin:
    case PlanKind::kOverAggregate: break;
    default: return result = false;
  }
  for (const auto& in : node.inputs) {
    if (!InsertOnly(*in, memo)) return (*memo)[&node] = false;
  }
  return (*memo)[&node] = true;
}

// The columns of `node`'s output that identify its changing rows (a unique key), which a Rank above
// must keep to keep its update strategy: none for an insert-only input; nullopt when unknown (then
// the Rank keeps every column).
std::optional<std::vector<int>> UniqueKeyToKeep(const PlanNode& node, InsertOnlyMemo* memo) {
  if (InsertOnly(node, memo)) return std::vector<int>{};
  switch (node.kind) {
    case PlanKind::kExchange:
    case PlanKind::kMiniBatchAssigner: return UniqueKeyToKeep(*node.inputs[0], memo);
    case PlanKind::kCalc: {
      // The input's key, where the projection passes its columns through.
      std::optional<std::vector<int>> below = UniqueKeyToKeep(*node.inputs[0], memo);
      if (!below) return std::nullopt;
      return KeyThroughCalc(node.As<CalcNode>(), *below);
    }
    case PlanKind::kGroupAggregate: {
      // Output: the group keys first.
      std::vector<int> keys;
      for (size_t i = 0; i < node.As<GroupAggregateNode>().group_keys.size(); ++i) keys.push_back(static_cast<int>(i));
      return keys;
    }
    default: return std::nullopt;
  }
}

struct Pruned {
  PlanNodePtr node;
  std::vector<int> mapping;  // old output index -> new output index, -1 when dropped
};

// Keeps exactly the required columns of `node` (wrapping it in a Calc when it cannot drop them).
Pruned Compact(const Pruned& p, const std::vector<bool>& required) {
  bool already = true;
  int next = 0;
  for (size_t i = 0; i < required.size(); ++i) {
    if (!required[i]) continue;
    if (p.mapping[i] != next) already = false;
    ++next;
  }
  if (already && static_cast<size_t>(next) == p.node->schema.size()) return p;
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {p.node};
  Pruned out;
  out.mapping.assign(required.size(), -1);
  for (size_t i = 0; i < required.size(); ++i) {
    if (!required[i]) continue;
    int from = p.mapping[i];
    out.mapping[i] = static_cast<int>(calc->projections.size());
    const Field& f = p.node->schema.field(static_cast<size_t>(from));
    calc->projections.push_back(MakeColumnRef(from, f.type));
    calc->schema.Add(f.name, f.type);
  }
  out.node = calc;
  return out;
}

// Column pruning over a DAG: every node keeps the union of the columns its parents need.
class Pruner {
 public:
  void Run(std::vector<PlanNodePtr>* roots) {
    for (const auto& r : *roots) Order(r);
    // Parents come after children in order_; walk it backwards to push requirements down.
    for (const auto& r : *roots) required_[r.get()].assign(r->schema.size(), true);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) PushDown(*it);
    for (auto& r : *roots) r = Build(r).node;
  }

 private:
  void Order(const PlanNodePtr& n) {
    if (!visited_.insert(n.get()).second) return;
    for (const auto& in : n->inputs) Order(in);
    order_.push_back(n);
  }

  std::vector<bool>& Req(const PlanNodePtr& n) {
    auto& r = required_[n.get()];
    if (r.empty()) r.assign(n->schema.size(), false);
    return r;
  }

  // Marks what the inputs of `node` must keep: what its consumers read (`Req(node)`) and what it reads
  // itself.
  void PushDown(const PlanNodePtr& node) {
    std::vector<bool> req = Req(node);
    switch (node->kind) {
      case PlanKind::kTableSourceScan:
      case PlanKind::kValues: return;
      case PlanKind::kCalc: {
        const auto& calc = node->As<CalcNode>();
        auto& in = Req(calc.inputs[0]);
        for (size_t i = 0; i < req.size(); ++i) {
          if (req[i]) CollectColumns(*calc.projections[i], &in);
        }
        if (calc.condition) CollectColumns(*calc.condition, &in);
        return;
      }
      case PlanKind::kWatermarkAssigner: {
        const auto& wm = node->As<WatermarkAssignerNode>();
        auto& in = PassThrough(wm.inputs[0], req);
        in[static_cast<size_t>(wm.rowtime_index)] = true;
        CollectColumns(*wm.watermark, &in);
        return;
      }
      case PlanKind::kCorrelate: {
        // Over an updating input the Correlate keeps every input column, as Flink 2.2.1 plans it (no
        // projection below its Correlate): a ChangelogNormalize below then compares whole rows, so an
        // update of columns the query does not read is still a -U/+U pair (random query 1-19).
        const auto& c = node->As<CorrelateNode>();
        auto& in = PassThrough(c.inputs[0], req);
        if (!InsertOnly(*c.inputs[0], &insert_only_)) in.assign(in.size(), true);
        CollectColumns(*c.collection, &in);
        return;
      }
      case PlanKind::kUnion:
        for (const auto& input : node->inputs) PassThrough(input, req);
        return;
      case PlanKind::kWindowTableFunction: {
        // The input columns asked for, and the time attribute the windows come from.
        const auto& w = node->As<WindowTableFunctionNode>();
        auto& in = PassThrough(w.inputs[0], req);
        in[static_cast<size_t>(w.time_column)] = true;
        for (int k : w.partition_keys) in[static_cast<size_t>(k)] = true;
        return;
      }
      case PlanKind::kExchange: {
        // Passes its input's columns through; it needs its hash keys.
        const auto& ex = node->As<ExchangeNode>();
        auto& in = PassThrough(ex.inputs[0], req);
        for (int k : ex.keys) in[static_cast<size_t>(k)] = true;
        return;
      }
      case PlanKind::kChangelogNormalize:
      case PlanKind::kDropUpdateBefore: {
        // Pass their input's columns through. A ChangelogNormalize needs its key and compares the
        // columns read above it (Flink projects a source's used columns and its primary key below
        // the normalization: an update of other columns only is a repeated row, emitting nothing).
        auto& in = PassThrough(node->inputs[0], req);
        if (node->kind == PlanKind::kChangelogNormalize) {
          const auto& cn = node->As<ChangelogNormalizeNode>();
          for (int k : cn.keys) in[static_cast<size_t>(k)] = true;
          if (cn.condition) CollectColumns(*cn.condition, &in);
        }
        return;
      }
      case PlanKind::kTemporalJoin:
      case PlanKind::kIntervalJoin:
      case PlanKind::kLookupJoin:
      case PlanKind::kJoin:
      case PlanKind::kWindowJoin: PushDownAnyJoin(node, req); return;
      case PlanKind::kOverAggregate: PushDownOverAggregate(node, req); return;
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate:
      case PlanKind::kRank:
      case PlanKind::kDeduplicate: PushDownRanking(node, req); return;
      case PlanKind::kSink:
      case PlanKind::kWindowAggregate:
      case PlanKind::kGroupAggregate:
      case PlanKind::kSort:
      case PlanKind::kMiniBatchAssigner:
      case PlanKind::kExpand:          // the binder's projection below keeps only what the aggregate reads
      case PlanKind::kReplicateRows:   // reads every column it copies
      case PlanKind::kMatch:           // the binder's input keeps only what it reads
      case PlanKind::kHashAggregate:   // batch nodes come after this rule (plan/batch_physical.h)
      case PlanKind::kHashJoin:
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank:
        // Aggregates, sinks and sorts read every input column; the projection below an aggregate
        // already keeps only what it uses.
        ReadAll(node);
        return;
    }
  }

  // A node that passes its input's columns through (first, in order) keeps what its consumers read of
  // them; returns the input's requirement, for what the node reads besides.
  std::vector<bool>& PassThrough(const PlanNodePtr& input, const std::vector<bool>& req) {
    auto& in = Req(input);
    for (size_t i = 0; i < in.size(); ++i) in[i] = in[i] || req[i];
    return in;
  }

  // The streaming joins: each kind's keys, conditions and time attributes, as PushDownJoin takes them.
  void PushDownAnyJoin(const PlanNodePtr& node, const std::vector<bool>& req) {
    switch (node->kind) {
      case PlanKind::kTemporalJoin: {
        // As a regular join, plus both time attributes.
        const auto& j = node->As<TemporalJoinNode>();
        PushDownJoin(node, req, j.condition, j.residual, j.left_keys, j.right_keys, j.left_time, j.right_time);
        return;
      }
      case PlanKind::kIntervalJoin: {
        const auto& j = node->As<IntervalJoinNode>();
        PushDownJoin(node, req, j.condition, j.residual, j.left_keys, j.right_keys, j.left_time, j.right_time);
        return;
      }
      case PlanKind::kLookupJoin: {
        // As a regular join; the left keys are expressions over the left input.
        const auto& j = node->As<LookupJoinNode>();
        PushDownJoin(node, req, nullptr, j.residual, {}, j.right_keys, -1, -1);
        auto& left = Req(node->inputs[0]);
        for (const auto& k : j.left_keys) CollectColumns(*k, &left);
        return;
      }
      case PlanKind::kJoin: {
        const auto& j = node->As<JoinNode>();
        PushDownJoin(node, req, j.condition, j.residual, j.left_keys, j.right_keys, -1, -1);
        return;
      }
      case PlanKind::kWindowJoin: {
        // A window join also keeps both window columns of each side (EXPLAIN names them).
        const auto& j = node->As<WindowJoinNode>();
        PushDownJoin(node, req, j.remaining, j.residual, j.left_keys, j.right_keys, j.left_window.window_end,
                     j.right_window.window_end);
        Req(node->inputs[0])[static_cast<size_t>(j.left_window.window_start)] = true;
        Req(node->inputs[1])[static_cast<size_t>(j.right_window.window_start)] = true;
        return;
      }
      default: SLUICE_UNREACHABLE();
    }
  }

  void ReadAll(const PlanNodePtr& node) {
    for (const auto& input : node->inputs) {
      auto& in = Req(input);
      for (size_t i = 0; i < in.size(); ++i) in[i] = true;
    }
  }

  void PushDownOverAggregate(const PlanNodePtr& node, const std::vector<bool>& req) {
    // Passes its input's columns through, and reads its keys, time column and arguments.
    const auto& o = node->As<OverAggregateNode>();
    auto& in = PassThrough(o.inputs[0], req);
    for (int k : o.partition_keys) in[static_cast<size_t>(k)] = true;
    if (o.order_column >= 0) in[static_cast<size_t>(o.order_column)] = true;
    for (const auto& k : o.order) in[static_cast<size_t>(k.column)] = true;
    for (const auto& a : o.aggs) {
      for (int c : a.args) in[static_cast<size_t>(c)] = true;
      if (a.filter >= 0) in[static_cast<size_t>(a.filter)] = true;
    }
  }

  // WindowRank, WindowDeduplicate, Rank and Deduplicate.
  void PushDownRanking(const PlanNodePtr& node, const std::vector<bool>& req) {
    switch (node->kind) {
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate: {
        // Pass their input's columns through (a WindowRank may append the rank): they read their keys,
        // order and window columns besides what their consumers read.
        auto& in = PassThrough(node->inputs[0], req);
        std::vector<int> read;
        if (node->kind == PlanKind::kWindowRank) {
          const auto& r = node->As<WindowRankNode>();
          read = r.partition_keys;
          for (const auto& k : r.order) read.push_back(k.column);
          read.push_back(r.window.window_start);
          read.push_back(r.window.window_end);
        } else {
          const auto& d = node->As<WindowDeduplicateNode>();
          read = d.partition_keys;
          read.push_back(d.order_key);
          read.push_back(d.window.window_start);
          read.push_back(d.window.window_end);
        }
        for (int c : read) in[static_cast<size_t>(c)] = true;
        return;
      }
      case PlanKind::kRank:
      case PlanKind::kDeduplicate: {
        // Pass their input's columns through (a Rank may append the row number): they read their keys,
        // order and time columns besides what their consumers read.
        std::vector<int> read;
        if (node->kind == PlanKind::kRank) {
          const auto& r = node->As<RankNode>();
          std::optional<std::vector<int>> unique = UniqueKeyToKeep(*r.inputs[0], &insert_only_);
          if (!unique) {
            ReadAll(node);
            return;
          }
          read = r.partition_keys;
          for (const auto& k : r.order) read.push_back(k.column);
          read.insert(read.end(), unique->begin(), unique->end());
        } else {
          const auto& d = node->As<DeduplicateNode>();
          read = d.keys;
          if (d.time_column >= 0) read.push_back(d.time_column);
        }
        auto& in = PassThrough(node->inputs[0], req);
        for (int c : read) in[static_cast<size_t>(c)] = true;
        return;
      }
      default: SLUICE_UNREACHABLE();
    }
  }

  // Joins keep what their consumers read, their keys, what their condition and residual read and
  // their time attributes (-1: none), so a join stores only the columns it needs
  // (Flink pushes projections below joins the same way).
  void PushDownJoin(const PlanNodePtr& node, const std::vector<bool>& req, const ExprPtr& condition, const ExprPtr& residual,
                    const std::vector<int>& left_keys, const std::vector<int>& right_keys, int left_time, int right_time) {
    const size_t nl = node->inputs[0]->schema.size();
    std::vector<bool> combined = req;
    combined.resize(nl + node->inputs[1]->schema.size(), false);  // a semi/anti join outputs the left side
    if (condition) CollectColumns(*condition, &combined);
    if (residual) CollectColumns(*residual, &combined);
    auto& left = Req(node->inputs[0]);
    auto& right = Req(node->inputs[1]);
    for (size_t i = 0; i < combined.size(); ++i) {
      if (!combined[i]) continue;
      if (i < nl) left[i] = true;
      else right[i - nl] = true;
    }
    for (int k : left_keys) left[static_cast<size_t>(k)] = true;
    for (int k : right_keys) right[static_cast<size_t>(k)] = true;
    if (left_time >= 0) left[static_cast<size_t>(left_time)] = true;
    if (right_time >= 0) right[static_cast<size_t>(right_time)] = true;
  }

  // A join's pruned inputs, the mapping of its output columns and its new schema; `expr_mapping` maps
  // the columns its conditions read (left ++ right; the output's too, except for a semi/anti join,
  // whose output is the left columns).
  struct PrunedJoin {
    Pruned left, right;
    std::vector<int> mapping;
    std::vector<int> expr_mapping;
    Schema schema;
    ExprPtr Remap(const ExprPtr& e) const { return e ? RemapColumns(e, expr_mapping) : nullptr; }
    static std::vector<int> RemapKeys(const std::vector<int>& keys, const Pruned& side) {
      std::vector<int> out;
      for (int k : keys) out.push_back(side.mapping[static_cast<size_t>(k)]);
      return out;
    }
    // A copy of join `j` over the pruned inputs, its residual remapped and its schema set; the caller
    // remaps what else the node kind holds.
    template <typename N>
    std::shared_ptr<N> Copy(const N& j) const {
      auto nj = std::make_shared<N>(j);
      nj->inputs = {left.node, right.node};
      nj->residual = Remap(j.residual);
      nj->schema = schema;
      return nj;
    }
    Pruned Result(PlanNodePtr node) const {
      Pruned out;
      out.mapping = mapping;
      out.node = std::move(node);
      return out;
    }
  };
  // Temporal and interval joins: a join with one time attribute per side.
  template <typename N>
  Pruned RebuildTimeJoin(const N& j) {
    PrunedJoin pj = PruneJoin(j);
    auto nj = pj.Copy(j);
    nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
    nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
    nj->left_time = pj.left.mapping[static_cast<size_t>(j.left_time)];
    nj->right_time = pj.right.mapping[static_cast<size_t>(j.right_time)];
    nj->condition = pj.Remap(j.condition);
    return pj.Result(nj);
  }

  PrunedJoin PruneJoin(const PlanNode& j) {
    PrunedJoin out;
    const size_t nl = j.inputs[0]->schema.size();
    const size_t n = j.schema.size();
    out.left = Input(j.inputs[0]);
    out.right = Input(j.inputs[1]);
    const int new_nl = static_cast<int>(out.left.node->schema.size());
    const size_t nr = j.inputs[1]->schema.size();
    out.expr_mapping.assign(nl + nr, -1);
    for (size_t i = 0; i < nl + nr; ++i) {
      if (i < nl) out.expr_mapping[i] = out.left.mapping[i];
      else if (out.right.mapping[i - nl] >= 0) out.expr_mapping[i] = new_nl + out.right.mapping[i - nl];
    }
    out.mapping.assign(out.expr_mapping.begin(), out.expr_mapping.begin() + static_cast<std::ptrdiff_t>(n));
    for (size_t i = 0; i < n; ++i) {
      if (out.mapping[i] >= 0) out.schema.Add(j.schema.field(i).name, j.schema.field(i).type);
    }
    return out;
  }

  // The pruned node with exactly its required columns (in order), or with extra columns that the
  // mapping places (scans and correlates may keep more than asked).
  Pruned Build(const PlanNodePtr& node) {
    auto found = built_.find(node.get());
    if (found != built_.end()) return found->second;
    Pruned out = BuildNode(node);
    built_[node.get()] = out;
    return out;
  }

  Pruned Input(const PlanNodePtr& node) { return Compact(Build(node), Req(node)); }

  Pruned BuildNode(const PlanNodePtr& node) {
    switch (node->kind) {
      case PlanKind::kTableSourceScan: return BuildScan(node);
      case PlanKind::kValues: return BuildValues(node);
      case PlanKind::kCalc: return BuildCalc(node);
      case PlanKind::kWatermarkAssigner: return BuildWatermarkAssigner(node);
      case PlanKind::kCorrelate: {
        const auto& c = node->As<CorrelateNode>();
        Pruned pin = Input(c.inputs[0]);
        auto nc = std::make_shared<CorrelateNode>(c);
        nc->collection = RemapColumns(c.collection, pin.mapping);
        return AppendOwnColumns(*node, pin, nc);
      }
      case PlanKind::kWindowTableFunction: {
        const auto& w = node->As<WindowTableFunctionNode>();
        Pruned pin = Input(w.inputs[0]);
        auto nw = std::make_shared<WindowTableFunctionNode>(w);
        nw->time_column = pin.mapping[static_cast<size_t>(w.time_column)];
        for (int& k : nw->partition_keys) k = pin.mapping[static_cast<size_t>(k)];
        return AppendOwnColumns(*node, pin, nw);
      }
      case PlanKind::kUnion: return BuildUnion(node);
      case PlanKind::kExchange: {
        const auto& ex = node->As<ExchangeNode>();
        Pruned pin = Input(ex.inputs[0]);
        auto ne = std::make_shared<ExchangeNode>(ex);
        for (int& k : ne->keys) k = pin.mapping[static_cast<size_t>(k)];
        return PassOver(pin, ne);
      }
      case PlanKind::kChangelogNormalize: {
        const auto& cn = node->As<ChangelogNormalizeNode>();
        Pruned pin = Input(cn.inputs[0]);
        auto nn = std::make_shared<ChangelogNormalizeNode>(cn);
        for (int& k : nn->keys) k = pin.mapping[static_cast<size_t>(k)];
        if (cn.condition) nn->condition = RemapColumns(cn.condition, pin.mapping);
        return PassOver(pin, nn);
      }
      case PlanKind::kDropUpdateBefore: {
        Pruned pin = Input(node->inputs[0]);
        return PassOver(pin, CopyWithInputs(node, {pin.node}));
      }
      case PlanKind::kOverAggregate: return BuildOverAggregate(node);
      case PlanKind::kTemporalJoin: return RebuildTimeJoin(node->As<TemporalJoinNode>());
      case PlanKind::kLookupJoin: return BuildLookupJoin(node);
      case PlanKind::kIntervalJoin: return RebuildTimeJoin(node->As<IntervalJoinNode>());
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate: return BuildWindowRanking(node);
      case PlanKind::kWindowJoin: return BuildWindowJoin(node);
      case PlanKind::kJoin: return BuildJoin(node);
      case PlanKind::kRank:
      case PlanKind::kDeduplicate: return BuildRanking(node);
      case PlanKind::kWindowAggregate:
      case PlanKind::kSink:
      case PlanKind::kGroupAggregate:
      case PlanKind::kSort:
      case PlanKind::kMiniBatchAssigner:
      case PlanKind::kExpand:
      case PlanKind::kMatch:
      case PlanKind::kReplicateRows:
      case PlanKind::kHashAggregate:
      case PlanKind::kHashJoin:
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank: return BuildKeepingAll(node);
    }
    SLUICE_UNREACHABLE();
  }

  // A node that reads every input column and keeps its own: copied over its pruned inputs.
  Pruned BuildKeepingAll(const PlanNodePtr& node) {
    std::vector<PlanNodePtr> inputs;
    for (const auto& in : node->inputs) inputs.push_back(Input(in).node);
    Pruned out;
    out.node = CopyWithInputs(node, std::move(inputs));
    for (size_t i = 0; i < node->schema.size(); ++i) out.mapping.push_back(static_cast<int>(i));
    return out;
  }

  // `copy` (a copy of a node that passes its input's columns through unchanged, its own fields already
  // remapped) over the pruned input `pin`: its columns and their mapping are the input's.
  static Pruned PassOver(const Pruned& pin, const PlanNodePtr& copy) {
    copy->inputs = {pin.node};
    copy->schema = pin.node->schema;
    Pruned out;
    out.mapping = pin.mapping;
    out.node = copy;
    return out;
  }

  // `copy` (a copy of `orig`, its own fields already remapped) over the pruned input `pin`: the input's
  // columns pass through, and the columns `orig` appends to them follow.
  static Pruned AppendOwnColumns(const PlanNode& orig, const Pruned& pin, const PlanNodePtr& copy) {
    const size_t nin = orig.inputs[0]->schema.size();
    const size_t n = orig.schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    copy->inputs = {pin.node};
    copy->schema = pin.node->schema;
    for (size_t i = 0; i < nin; ++i) out.mapping[i] = pin.mapping[i];
    for (size_t i = nin; i < n; ++i) {
      out.mapping[i] = static_cast<int>(copy->schema.size());
      copy->schema.Add(orig.schema.field(i).name, orig.schema.field(i).type);
    }
    out.node = copy;
    return out;
  }

  Pruned BuildScan(const PlanNodePtr& node) {
    const std::vector<bool> required = Req(node);
    const size_t n = node->schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    const auto& orig = node->As<TableSourceScanNode>();
    auto scan = std::make_shared<TableSourceScanNode>(orig);
    scan->projection.clear();
    scan->metadata.clear();
    scan->schema = Schema();
    size_t np = orig.projection.size();
    // A scan reads at least one column (COUNT(*) needs the row count, and connectors take an empty
    // projection to mean "every column"); the Calc above drops it.
    bool none = true;
    for (size_t i = 0; i < n; ++i) none &= !required[i];
    for (size_t i = 0; i < n; ++i) {
      if (!required[i] && !(none && i == 0)) continue;
      out.mapping[i] = static_cast<int>(scan->schema.size());
      if (i < np) scan->projection.push_back(orig.projection[i]);
      else scan->metadata.push_back(orig.metadata[i - np]);
      scan->schema.Add(node->schema.field(i).name, node->schema.field(i).type);
    }
    out.node = scan;
    return out;
  }

  Pruned BuildValues(const PlanNodePtr& node) {
    const std::vector<bool> required = Req(node);
    const size_t n = node->schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    auto v = std::make_shared<ValuesNode>();
    const auto& orig = node->As<ValuesNode>();
    for (size_t i = 0; i < n; ++i) {
      if (!required[i]) continue;
      out.mapping[i] = static_cast<int>(v->schema.size());
      v->schema.Add(node->schema.field(i).name, node->schema.field(i).type);
    }
    for (const auto& row : orig.rows) {
      std::vector<Value> r;
      for (size_t i = 0; i < n; ++i) {
        if (required[i]) r.push_back(row[i]);
      }
      v->rows.push_back(std::move(r));
    }
    out.node = v;
    return out;
  }

  Pruned BuildCalc(const PlanNodePtr& node) {
    const std::vector<bool> required = Req(node);
    const size_t n = node->schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    const auto& calc = node->As<CalcNode>();
    Pruned pin = Input(calc.inputs[0]);
    auto nc = std::make_shared<CalcNode>();
    nc->inputs = {pin.node};
    if (calc.condition) nc->condition = RemapColumns(calc.condition, pin.mapping);
    for (size_t i = 0; i < n; ++i) {
      if (!required[i]) continue;
      out.mapping[i] = static_cast<int>(nc->projections.size());
      nc->projections.push_back(RemapColumns(calc.projections[i], pin.mapping));
      nc->schema.Add(calc.schema.field(i).name, calc.schema.field(i).type);
    }
    out.node = nc;
    return out;
  }

  Pruned BuildWatermarkAssigner(const PlanNodePtr& node) {
    const size_t n = node->schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    const auto& wm = node->As<WatermarkAssignerNode>();
    Pruned pin = Input(wm.inputs[0]);
    const auto& in_req = Req(wm.inputs[0]);
    auto nw = std::make_shared<WatermarkAssignerNode>(wm);
    nw->inputs = {pin.node};
    nw->rowtime_index = pin.mapping[static_cast<size_t>(wm.rowtime_index)];
    nw->watermark = RemapColumns(wm.watermark, pin.mapping);
    nw->schema = Schema();
    for (size_t i = 0; i < n; ++i) {
      if (!in_req[i]) continue;
      out.mapping[i] = pin.mapping[i];
      nw->schema.Add(wm.schema.field(i).name, wm.schema.field(i).type);
    }
    out.node = nw;
    return out;
  }

  Pruned BuildUnion(const PlanNodePtr& node) {
    const std::vector<bool> required = Req(node);
    const size_t n = node->schema.size();
    Pruned out;
    out.mapping.assign(n, -1);
    auto u = std::make_shared<UnionNode>();
    for (const auto& in : node->inputs) {
      // Every input must produce exactly the union's required columns, in order.
      Pruned p = Build(in);
      u->inputs.push_back(Compact(p, required).node);
    }
    for (size_t i = 0; i < n; ++i) {
      if (!required[i]) continue;
      out.mapping[i] = static_cast<int>(u->schema.size());
      u->schema.Add(node->schema.field(i).name, node->schema.field(i).type);
    }
    out.node = u;
    return out;
  }

  Pruned BuildOverAggregate(const PlanNodePtr& node) {
    const auto& o = node->As<OverAggregateNode>();
    Pruned pin = Input(o.inputs[0]);
    auto no = std::make_shared<OverAggregateNode>(o);
    auto at = [&](int c) { return pin.mapping[static_cast<size_t>(c)]; };
    for (int& k : no->partition_keys) k = at(k);
    if (o.order_column >= 0) no->order_column = at(o.order_column);
    for (auto& k : no->order) k.column = at(k.column);
    for (auto& a : no->aggs) {
      for (int& c : a.args) c = at(c);
      if (a.filter >= 0) a.filter = at(a.filter);
    }
    return AppendOwnColumns(*node, pin, no);
  }

  // WindowRank and WindowDeduplicate.
  Pruned BuildWindowRanking(const PlanNodePtr& node) {
    Pruned pin = Input(node->inputs[0]);
    auto at = [&](int c) { return pin.mapping[static_cast<size_t>(c)]; };
    PlanNodePtr copy;
    AttachedWindow* window;
    if (node->kind == PlanKind::kWindowRank) {
      auto r = std::make_shared<WindowRankNode>(node->As<WindowRankNode>());
      for (int& k : r->partition_keys) k = at(k);
      for (auto& k : r->order) k.column = at(k.column);
      window = &r->window;
      copy = r;
    } else {
      auto d = std::make_shared<WindowDeduplicateNode>(node->As<WindowDeduplicateNode>());
      for (int& k : d->partition_keys) k = at(k);
      d->order_key = at(d->order_key);
      window = &d->window;
      copy = d;
    }
    window->window_start = at(window->window_start);
    window->window_end = at(window->window_end);
    return AppendOwnColumns(*node, pin, copy);
  }

  // Rank and Deduplicate.
  Pruned BuildRanking(const PlanNodePtr& node) {
    Pruned pin = Input(node->inputs[0]);
    auto at = [&](int c) { return pin.mapping[static_cast<size_t>(c)]; };
    PlanNodePtr copy;
    if (node->kind == PlanKind::kRank) {
      auto r = std::make_shared<RankNode>(node->As<RankNode>());
      for (int& k : r->partition_keys) k = at(k);
      for (auto& k : r->order) k.column = at(k.column);
      copy = r;
    } else {
      auto d = std::make_shared<DeduplicateNode>(node->As<DeduplicateNode>());
      for (int& k : d->keys) k = at(k);
      if (d->time_column >= 0) d->time_column = at(d->time_column);
      copy = d;
    }
    return AppendOwnColumns(*node, pin, copy);
  }

  Pruned BuildLookupJoin(const PlanNodePtr& node) {
    const auto& j = node->As<LookupJoinNode>();
    PrunedJoin pj = PruneJoin(j);
    auto nj = pj.Copy(j);
    for (auto& k : nj->left_keys) k = RemapColumns(k, pj.left.mapping);
    nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
    return pj.Result(nj);
  }

  Pruned BuildWindowJoin(const PlanNodePtr& node) {
    const auto& j = node->As<WindowJoinNode>();
    PrunedJoin pj = PruneJoin(j);
    auto nj = pj.Copy(j);
    nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
    nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
    nj->left_window.window_start = pj.left.mapping[static_cast<size_t>(j.left_window.window_start)];
    nj->left_window.window_end = pj.left.mapping[static_cast<size_t>(j.left_window.window_end)];
    nj->right_window.window_start = pj.right.mapping[static_cast<size_t>(j.right_window.window_start)];
    nj->right_window.window_end = pj.right.mapping[static_cast<size_t>(j.right_window.window_end)];
    nj->remaining = pj.Remap(j.remaining);
    return pj.Result(nj);
  }

  Pruned BuildJoin(const PlanNodePtr& node) {
    const auto& j = node->As<JoinNode>();
    PrunedJoin pj = PruneJoin(j);
    auto nj = pj.Copy(j);
    nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
    nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
    // The full ON condition is printed by EXPLAIN; its equi-parts are keys (kept), the rest residual.
    nj->condition = pj.Remap(j.condition);
    return pj.Result(nj);
  }

  std::set<const PlanNode*> visited_;
  std::vector<PlanNodePtr> order_;
  std::map<const PlanNode*, std::vector<bool>> required_;
  std::map<const PlanNode*, Pruned> built_;
  InsertOnlyMemo insert_only_;
};

}  // namespace

void PruneColumns(std::vector<PlanNodePtr>* roots) {
  Pruner pruner;
  pruner.Run(roots);
}

}  // namespace sluice
