#include "plan/optimizer.h"

#include <map>
#include <optional>
#include <set>

#include "catalog/catalog.h"
#include "common/check.h"
#include "function/scalar_function.h"
#include "plan/filter_pushdown_rule.h"
#include "plan/interval_join_rule.h"
#include "plan/join_filter_rule.h"
#include "plan/window_join_rule.h"
#include "plan/window_rank_rule.h"
#include "plan/window_rules.h"

namespace sluice {

ExprPtr RemapColumns(const ExprPtr& e, const std::vector<int>& mapping) {
  if (e->kind == ExprKind::kColumnRef) {
    int to = mapping[static_cast<size_t>(e->column_index)];
    SLUICE_CHECK_GE(to, 0);
    if (to == e->column_index) return e;
    return MakeColumnRef(to, e->type);
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  bool changed = false;
  for (auto& a : copy->args) {
    ExprPtr n = RemapColumns(a, mapping);
    changed |= n != a;
    a = n;
  }
  return changed ? ExprPtr(copy) : e;
}

ExprPtr SubstituteColumns(const ExprPtr& e, const std::vector<ExprPtr>& inputs) {
  if (e->kind == ExprKind::kColumnRef) {
    const ExprPtr& in = inputs[static_cast<size_t>(e->column_index)];
    // Keep the outer reference's time attribute view of the type (it is the same column).
    return in;
  }
  if (e->args.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& a : copy->args) a = SubstituteColumns(a, inputs);
  return copy;
}

void CollectColumns(const Expr& e, std::vector<bool>* used) {
  if (e.kind == ExprKind::kColumnRef) {
    (*used)[static_cast<size_t>(e.column_index)] = true;
    return;
  }
  for (const auto& a : e.args) CollectColumns(*a, used);
}

std::vector<ExprPtr> Conjuncts(const ExprPtr& e) {
  if (!e) return {};
  if (e->kind == ExprKind::kAnd) return e->args;
  return {e};
}

// The conjunction of `parts` (null parts skipped), flattened; null when nothing is left.
ExprPtr AndAll(const std::vector<ExprPtr>& parts) {
  std::vector<ExprPtr> args;
  bool nullable = false;
  for (const auto& p : parts) {
    for (const auto& c : Conjuncts(p)) {
      args.push_back(c);
      nullable = nullable || c->type.nullable();
    }
  }
  if (args.empty()) return nullptr;
  if (args.size() == 1) return args[0];
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kAnd;
  e->type = LogicalType::Boolean().WithNullable(nullable);
  e->args = std::move(args);
  return e;
}

namespace {

// Parent counts during the final merge: a Calc with several parents is not merged into them, so the
// work it does stays shared.
const std::map<const PlanNode*, int>* shared_ = nullptr;

bool IsShared(const PlanNode* n) {
  if (shared_ == nullptr) return false;
  auto it = shared_->find(n);
  return it != shared_->end() && it->second > 1;
}

bool IsIdentityCalc(const CalcNode& calc) {
  const PlanNode& in = *calc.inputs[0];
  if (calc.condition || calc.projections.size() != in.schema.size()) return false;
  for (size_t i = 0; i < calc.projections.size(); ++i) {
    const Expr& p = *calc.projections[i];
    if (p.kind != ExprKind::kColumnRef || p.column_index != static_cast<int>(i)) return false;
    if (calc.schema.field(i).name != in.schema.field(i).name) return false;
  }
  return true;
}


}  // namespace

PlanNodePtr CopyWithInputs(const PlanNodePtr& node, std::vector<PlanNodePtr> inputs) {
  if (inputs == node->inputs) return node;
  PlanNodePtr out;
  switch (node->kind) {
    case PlanKind::kTableSourceScan: out = std::make_shared<TableSourceScanNode>(node->As<TableSourceScanNode>()); break;
    case PlanKind::kValues: out = std::make_shared<ValuesNode>(node->As<ValuesNode>()); break;
    case PlanKind::kCalc: out = std::make_shared<CalcNode>(node->As<CalcNode>()); break;
    case PlanKind::kWatermarkAssigner: out = std::make_shared<WatermarkAssignerNode>(node->As<WatermarkAssignerNode>()); break;
    case PlanKind::kCorrelate: out = std::make_shared<CorrelateNode>(node->As<CorrelateNode>()); break;
    case PlanKind::kUnion: out = std::make_shared<UnionNode>(node->As<UnionNode>()); break;
    case PlanKind::kSink: out = std::make_shared<SinkNode>(node->As<SinkNode>()); break;
    case PlanKind::kExchange: out = std::make_shared<ExchangeNode>(node->As<ExchangeNode>()); break;
    case PlanKind::kGroupAggregate: out = std::make_shared<GroupAggregateNode>(node->As<GroupAggregateNode>()); break;
    case PlanKind::kDeduplicate: out = std::make_shared<DeduplicateNode>(node->As<DeduplicateNode>()); break;
    case PlanKind::kRank: out = std::make_shared<RankNode>(node->As<RankNode>()); break;
    case PlanKind::kJoin: out = std::make_shared<JoinNode>(node->As<JoinNode>()); break;
    case PlanKind::kSort: out = std::make_shared<SortNode>(node->As<SortNode>()); break;
    case PlanKind::kWindowTableFunction:
      out = std::make_shared<WindowTableFunctionNode>(node->As<WindowTableFunctionNode>());
      break;
    case PlanKind::kWindowAggregate: out = std::make_shared<WindowAggregateNode>(node->As<WindowAggregateNode>()); break;
    case PlanKind::kChangelogNormalize:
      out = std::make_shared<ChangelogNormalizeNode>(node->As<ChangelogNormalizeNode>());
      break;
    case PlanKind::kDropUpdateBefore: out = std::make_shared<DropUpdateBeforeNode>(node->As<DropUpdateBeforeNode>()); break;
    case PlanKind::kMiniBatchAssigner:
      out = std::make_shared<MiniBatchAssignerNode>(node->As<MiniBatchAssignerNode>());
      break;
    case PlanKind::kTemporalJoin: out = std::make_shared<TemporalJoinNode>(node->As<TemporalJoinNode>()); break;
    case PlanKind::kLookupJoin: out = std::make_shared<LookupJoinNode>(node->As<LookupJoinNode>()); break;
    case PlanKind::kIntervalJoin: out = std::make_shared<IntervalJoinNode>(node->As<IntervalJoinNode>()); break;
    case PlanKind::kOverAggregate: out = std::make_shared<OverAggregateNode>(node->As<OverAggregateNode>()); break;
    case PlanKind::kWindowRank: out = std::make_shared<WindowRankNode>(node->As<WindowRankNode>()); break;
    case PlanKind::kWindowDeduplicate:
      out = std::make_shared<WindowDeduplicateNode>(node->As<WindowDeduplicateNode>());
      break;
    case PlanKind::kWindowJoin: out = std::make_shared<WindowJoinNode>(node->As<WindowJoinNode>()); break;
    case PlanKind::kExpand: out = std::make_shared<ExpandNode>(node->As<ExpandNode>()); break;
    case PlanKind::kReplicateRows: out = std::make_shared<ReplicateRowsNode>(node->As<ReplicateRowsNode>()); break;
    case PlanKind::kMatch: out = std::make_shared<MatchNode>(node->As<MatchNode>()); break;
    case PlanKind::kHashAggregate: out = std::make_shared<HashAggregateNode>(node->As<HashAggregateNode>()); break;
    case PlanKind::kHashJoin: out = std::make_shared<HashJoinNode>(node->As<HashJoinNode>()); break;
    case PlanKind::kSortMergeJoin:
      out = std::make_shared<SortMergeJoinNode>(node->As<SortMergeJoinNode>());
      break;
    case PlanKind::kBatchRank: out = std::make_shared<BatchRankNode>(node->As<BatchRankNode>()); break;
  }
  out->inputs = std::move(inputs);
  return out;
}

namespace {

// Merges Calcs bottom-up and removes pass-through ones (except at the root, whose names matter).
PlanNodePtr MergeCalcs(const PlanNodePtr& node, bool is_root, std::map<const PlanNode*, PlanNodePtr>* memo) {
  auto found = memo->find(node.get());
  if (found != memo->end()) return found->second;
  std::vector<PlanNodePtr> inputs;
  for (const auto& in : node->inputs) inputs.push_back(MergeCalcs(in, false, memo));
  PlanNodePtr out;
  if (node->kind == PlanKind::kCalc) {
    auto calc = std::make_shared<CalcNode>(node->As<CalcNode>());
    calc->inputs = inputs;
    if (inputs[0]->kind == PlanKind::kCalc && !IsShared(node->inputs[0].get())) {
      const auto& below = inputs[0]->As<CalcNode>();
      auto merged = std::make_shared<CalcNode>();
      merged->inputs = below.inputs;
      merged->schema = calc->schema;
      for (const auto& p : calc->projections) merged->projections.push_back(SubstituteColumns(p, below.projections));
      ExprPtr upper = calc->condition ? SubstituteColumns(calc->condition, below.projections) : nullptr;
      merged->condition = AndAll({below.condition, upper});
      calc = merged;
    }
    if (!is_root && IsIdentityCalc(*calc)) {
      out = calc->inputs[0];
    } else {
      out = calc;
    }
  } else {
    out = CopyWithInputs(node, inputs);
  }
  (*memo)[node.get()] = out;
  return out;
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

  void PushDown(const PlanNodePtr& node) {
    std::vector<bool> req = Req(node);
    const size_t n = node->schema.size();
    switch (node->kind) {
      case PlanKind::kTableSourceScan:
      case PlanKind::kValues: return;
      case PlanKind::kCalc: {
        const auto& calc = node->As<CalcNode>();
        auto& in = Req(calc.inputs[0]);
        for (size_t i = 0; i < n; ++i) {
          if (req[i]) CollectColumns(*calc.projections[i], &in);
        }
        if (calc.condition) CollectColumns(*calc.condition, &in);
        return;
      }
      case PlanKind::kWatermarkAssigner: {
        const auto& wm = node->As<WatermarkAssignerNode>();
        auto& in = Req(wm.inputs[0]);
        for (size_t i = 0; i < n; ++i) in[i] = in[i] || req[i];
        in[static_cast<size_t>(wm.rowtime_index)] = true;
        CollectColumns(*wm.watermark, &in);
        return;
      }
      case PlanKind::kCorrelate: {
        const auto& c = node->As<CorrelateNode>();
        auto& in = Req(c.inputs[0]);
        for (size_t i = 0; i < in.size(); ++i) in[i] = in[i] || req[i];
        CollectColumns(*c.collection, &in);
        return;
      }
      case PlanKind::kUnion:
        for (const auto& input : node->inputs) {
          auto& in = Req(input);
          for (size_t i = 0; i < n; ++i) in[i] = in[i] || req[i];
        }
        return;
      case PlanKind::kWindowTableFunction: {
        // The input columns asked for, and the time attribute the windows come from.
        const auto& w = node->As<WindowTableFunctionNode>();
        auto& in = Req(w.inputs[0]);
        for (size_t i = 0; i < in.size(); ++i) in[i] = in[i] || req[i];
        in[static_cast<size_t>(w.time_column)] = true;
        for (int k : w.partition_keys) in[static_cast<size_t>(k)] = true;
        return;
      }
      case PlanKind::kExchange: {
        // Passes its input's columns through; it needs its hash keys.
        const auto& ex = node->As<ExchangeNode>();
        auto& in = Req(ex.inputs[0]);
        for (size_t i = 0; i < n; ++i) in[i] = in[i] || req[i];
        for (int k : ex.keys) in[static_cast<size_t>(k)] = true;
        return;
      }
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
      case PlanKind::kOverAggregate: {
        // Passes its input's columns through, and reads its keys, time column and arguments.
        const auto& o = node->As<OverAggregateNode>();
        auto& in = Req(o.inputs[0]);
        for (size_t i = 0; i < in.size(); ++i) in[i] = in[i] || req[i];
        for (int k : o.partition_keys) in[static_cast<size_t>(k)] = true;
        in[static_cast<size_t>(o.order_column)] = true;
        for (const auto& a : o.aggs) {
          for (int c : a.args) in[static_cast<size_t>(c)] = true;
          if (a.filter >= 0) in[static_cast<size_t>(a.filter)] = true;
        }
        return;
      }
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate: {
        // Pass their input's columns through (a WindowRank may append the rank): they read their keys,
        // order and window columns besides what their consumers read.
        const size_t nin = node->inputs[0]->schema.size();
        auto& in = Req(node->inputs[0]);
        for (size_t i = 0; i < nin; ++i) in[i] = in[i] || req[i];
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
      case PlanKind::kSink:
      case PlanKind::kWindowAggregate:
      case PlanKind::kGroupAggregate:
      case PlanKind::kDeduplicate:
      case PlanKind::kRank:
      case PlanKind::kSort:
      case PlanKind::kChangelogNormalize:
      case PlanKind::kDropUpdateBefore:
      case PlanKind::kMiniBatchAssigner:
      case PlanKind::kExpand:          // the binder's projection below keeps only what the aggregate reads
      case PlanKind::kReplicateRows:   // reads every column it copies
      case PlanKind::kMatch:           // the binder's input keeps only what it reads
      case PlanKind::kHashAggregate:   // batch nodes come after this rule (plan/batch_physical.h)
      case PlanKind::kHashJoin:
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank:
        // Stateful operators (and exchanges, which carry their keys) read every input column; the
        // projection below them already keeps only what they use.
        for (const auto& input : node->inputs) {
          auto& in = Req(input);
          for (size_t i = 0; i < in.size(); ++i) in[i] = true;
        }
        return;
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
  };
  // Temporal and interval joins: a join with one time attribute per side.
  template <typename N>
  Pruned RebuildTimeJoin(const N& j) {
    PrunedJoin pj = PruneJoin(j);
    auto nj = std::make_shared<N>(j);
    nj->inputs = {pj.left.node, pj.right.node};
    nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
    nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
    nj->left_time = pj.left.mapping[static_cast<size_t>(j.left_time)];
    nj->right_time = pj.right.mapping[static_cast<size_t>(j.right_time)];
    nj->residual = pj.Remap(j.residual);
    nj->condition = pj.Remap(j.condition);
    nj->schema = pj.schema;
    Pruned out;
    out.mapping = pj.mapping;
    out.node = nj;
    return out;
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
    const std::vector<bool> required = Req(node);
    Pruned out;
    const size_t n = node->schema.size();
    out.mapping.assign(n, -1);
    switch (node->kind) {
      case PlanKind::kTableSourceScan: {
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
      case PlanKind::kValues: {
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
      case PlanKind::kCalc: {
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
      case PlanKind::kWatermarkAssigner: {
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
      case PlanKind::kCorrelate: {
        const auto& c = node->As<CorrelateNode>();
        Pruned pin = Input(c.inputs[0]);
        size_t nin = c.inputs[0]->schema.size();
        auto nc = std::make_shared<CorrelateNode>(c);
        nc->inputs = {pin.node};
        nc->collection = RemapColumns(c.collection, pin.mapping);
        nc->schema = pin.node->schema;
        for (size_t i = 0; i < nin; ++i) out.mapping[i] = pin.mapping[i];
        for (size_t i = nin; i < n; ++i) {
          out.mapping[i] = static_cast<int>(nc->schema.size());
          nc->schema.Add(c.schema.field(i).name, c.schema.field(i).type);
        }
        out.node = nc;
        return out;
      }
      case PlanKind::kWindowTableFunction: {
        const auto& w = node->As<WindowTableFunctionNode>();
        Pruned pin = Input(w.inputs[0]);
        size_t nin = w.inputs[0]->schema.size();
        auto nw = std::make_shared<WindowTableFunctionNode>(w);
        nw->inputs = {pin.node};
        nw->time_column = pin.mapping[static_cast<size_t>(w.time_column)];
        for (int& k : nw->partition_keys) k = pin.mapping[static_cast<size_t>(k)];
        nw->schema = pin.node->schema;
        for (size_t i = 0; i < nin; ++i) out.mapping[i] = pin.mapping[i];
        for (size_t i = nin; i < n; ++i) {
          out.mapping[i] = static_cast<int>(nw->schema.size());
          nw->schema.Add(w.schema.field(i).name, w.schema.field(i).type);
        }
        out.node = nw;
        return out;
      }
      case PlanKind::kWindowAggregate: {
        std::vector<PlanNodePtr> inputs;
        for (const auto& in : node->inputs) inputs.push_back(Input(in).node);
        out.node = CopyWithInputs(node, std::move(inputs));
        for (size_t i = 0; i < n; ++i) out.mapping[i] = static_cast<int>(i);
        return out;
      }
      case PlanKind::kUnion: {
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
      case PlanKind::kExchange: {
        const auto& ex = node->As<ExchangeNode>();
        Pruned pin = Input(ex.inputs[0]);
        auto ne = std::make_shared<ExchangeNode>(ex);
        ne->inputs = {pin.node};
        ne->schema = pin.node->schema;
        ne->keys.clear();
        for (int k : ex.keys) ne->keys.push_back(pin.mapping[static_cast<size_t>(k)]);
        out.mapping = pin.mapping;
        out.node = ne;
        return out;
      }
      case PlanKind::kOverAggregate: {
        const auto& o = node->As<OverAggregateNode>();
        const size_t nin = o.inputs[0]->schema.size();
        Pruned pin = Input(o.inputs[0]);
        auto no = std::make_shared<OverAggregateNode>(o);
        no->inputs = {pin.node};
        auto at = [&](int c) { return pin.mapping[static_cast<size_t>(c)]; };
        for (int& k : no->partition_keys) k = at(k);
        no->order_column = at(o.order_column);
        for (auto& a : no->aggs) {
          for (int& c : a.args) c = at(c);
          if (a.filter >= 0) a.filter = at(a.filter);
        }
        no->schema = pin.node->schema;
        for (size_t i = 0; i < nin; ++i) out.mapping[i] = pin.mapping[i];
        for (size_t i = nin; i < n; ++i) {
          out.mapping[i] = static_cast<int>(no->schema.size());
          no->schema.Add(o.schema.field(i).name, o.schema.field(i).type);
        }
        out.node = no;
        return out;
      }
      case PlanKind::kTemporalJoin: return RebuildTimeJoin(node->As<TemporalJoinNode>());
      case PlanKind::kLookupJoin: {
        const auto& j = node->As<LookupJoinNode>();
        PrunedJoin pj = PruneJoin(j);
        auto nj = std::make_shared<LookupJoinNode>(j);
        nj->inputs = {pj.left.node, pj.right.node};
        for (auto& k : nj->left_keys) k = RemapColumns(k, pj.left.mapping);
        nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
        nj->residual = pj.Remap(j.residual);
        nj->schema = pj.schema;
        out.mapping = pj.mapping;
        out.node = nj;
        return out;
      }
      case PlanKind::kIntervalJoin: return RebuildTimeJoin(node->As<IntervalJoinNode>());
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate: {
        const size_t nin = node->inputs[0]->schema.size();
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
        copy->inputs = {pin.node};
        copy->schema = pin.node->schema;
        for (size_t i = 0; i < nin; ++i) out.mapping[i] = pin.mapping[i];
        for (size_t i = nin; i < n; ++i) {
          out.mapping[i] = static_cast<int>(copy->schema.size());
          copy->schema.Add(node->schema.field(i).name, node->schema.field(i).type);
        }
        out.node = copy;
        return out;
      }
      case PlanKind::kWindowJoin: {
        const auto& j = node->As<WindowJoinNode>();
        PrunedJoin pj = PruneJoin(j);
        auto nj = std::make_shared<WindowJoinNode>(j);
        nj->inputs = {pj.left.node, pj.right.node};
        nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
        nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
        nj->left_window.window_start = pj.left.mapping[static_cast<size_t>(j.left_window.window_start)];
        nj->left_window.window_end = pj.left.mapping[static_cast<size_t>(j.left_window.window_end)];
        nj->right_window.window_start = pj.right.mapping[static_cast<size_t>(j.right_window.window_start)];
        nj->right_window.window_end = pj.right.mapping[static_cast<size_t>(j.right_window.window_end)];
        nj->residual = pj.Remap(j.residual);
        nj->remaining = pj.Remap(j.remaining);
        nj->schema = pj.schema;
        out.mapping = pj.mapping;
        out.node = nj;
        return out;
      }
      case PlanKind::kJoin: {
        const auto& j = node->As<JoinNode>();
        PrunedJoin pj = PruneJoin(j);
        auto nj = std::make_shared<JoinNode>(j);
        nj->inputs = {pj.left.node, pj.right.node};
        nj->left_keys = PrunedJoin::RemapKeys(j.left_keys, pj.left);
        nj->right_keys = PrunedJoin::RemapKeys(j.right_keys, pj.right);
        nj->residual = pj.Remap(j.residual);
        // The full ON condition is printed by EXPLAIN; its equi-parts are keys (kept), the rest residual.
        nj->condition = pj.Remap(j.condition);
        nj->schema = pj.schema;
        out.mapping = pj.mapping;
        out.node = nj;
        return out;
      }
      case PlanKind::kSink:
      case PlanKind::kGroupAggregate:
      case PlanKind::kDeduplicate:
      case PlanKind::kRank:
      case PlanKind::kSort:
      case PlanKind::kChangelogNormalize:
      case PlanKind::kDropUpdateBefore:
      case PlanKind::kMiniBatchAssigner:
      case PlanKind::kExpand:
      case PlanKind::kMatch:
      case PlanKind::kReplicateRows:
      case PlanKind::kHashAggregate:
      case PlanKind::kHashJoin:
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank: {
        std::vector<PlanNodePtr> inputs;
        for (const auto& in : node->inputs) inputs.push_back(Input(in).node);
        out.node = CopyWithInputs(node, std::move(inputs));
        for (size_t i = 0; i < n; ++i) out.mapping[i] = static_cast<int>(i);
        return out;
      }
    }
    SLUICE_UNREACHABLE();
  }

  std::set<const PlanNode*> visited_;
  std::vector<PlanNodePtr> order_;
  std::map<const PlanNode*, std::vector<bool>> required_;
  std::map<const PlanNode*, Pruned> built_;
};

std::string Digest(const PlanNode& node, std::map<const PlanNode*, std::string>* memo) {
  auto f = memo->find(&node);
  if (f != memo->end()) return f->second;
  std::string d = node.ExplainName() + "(" + node.ExplainAttributes() + ")[";
  for (const auto& fld : node.schema.fields()) d += fld.name + ":" + fld.type.ToString() + ",";
  d += "]{";
  for (const auto& in : node.inputs) d += Digest(*in, memo) + ";";
  d += "}";
  (*memo)[&node] = d;
  return d;
}

PlanNodePtr Dedupe(const PlanNodePtr& node, std::map<std::string, PlanNodePtr>* by_digest,
                   std::map<const PlanNode*, std::string>* digests) {
  for (auto& in : node->inputs) in = Dedupe(in, by_digest, digests);
  digests->erase(node.get());
  std::string d = Digest(*node, digests);
  auto f = by_digest->find(d);
  if (f != by_digest->end()) return f->second;
  (*by_digest)[d] = node;
  return node;
}

}  // namespace

namespace {

// The integer value of a literal, or of a CAST of a literal.
std::optional<int64_t> IntConstant(const Expr& e) {
  const Expr* x = &e;
  if (x->kind == ExprKind::kCast && x->args[0]->kind == ExprKind::kLiteral) x = x->args[0].get();
  if (x->kind != ExprKind::kLiteral || x->literal.is_null() || !x->literal.type().IsIntegral()) return std::nullopt;
  return x->literal.int_value();
}

// Flink's Top-N and deduplication rules: a filter on ROW_NUMBER() bounds the Rank; a Rank of one row
// per key ordered by a time attribute is a Deduplicate.
class RankRules {
 public:
  Result<PlanNodePtr> Apply(const PlanNodePtr& node) {
    auto f = memo_.find(node.get());
    if (f != memo_.end()) return f->second;
    PlanNodePtr out;
    if (node->kind == PlanKind::kCalc && node->inputs[0]->kind == PlanKind::kRank &&
        node->inputs[0]->As<RankNode>().rank_end < 0) {
      // Rewrite the Rank's input first, then bound the Rank by this Calc's filter.
      const PlanNodePtr& rank = node->inputs[0];
      ASSIGN_OR_RETURN(PlanNodePtr rank_input, Apply(rank->inputs[0]));
      PlanNodePtr new_rank = CopyWithInputs(rank, {rank_input});
      PlanNodePtr calc = CopyWithInputs(node, {new_rank});
      ASSIGN_OR_RETURN(out, Bound(calc->As<CalcNode>()));
    } else if (node->kind == PlanKind::kRank && node->As<RankNode>().rank_end < 0) {
      return Status::NotSupported(
          "ROW_NUMBER() OVER (...) without a filter on the row number in the enclosing query is not supported in "
          "streaming mode; Top-N needs e.g. WHERE rn <= 3, deduplication WHERE rn = 1");
    } else {
      std::vector<PlanNodePtr> inputs;
      for (const auto& in : node->inputs) {
        ASSIGN_OR_RETURN(PlanNodePtr x, Apply(in));
        inputs.push_back(x);
      }
      out = CopyWithInputs(node, inputs);
    }
    memo_[node.get()] = out;
    return out;
  }

 private:
  Result<PlanNodePtr> Bound(const CalcNode& calc) {
    const auto& rank = calc.inputs[0]->As<RankNode>();
    const int rn = static_cast<int>(rank.schema.size()) - 1;
    int64_t start = 1, end = -1;
    std::vector<ExprPtr> rest;
    std::vector<ExprPtr> conjuncts;
    if (calc.condition) {
      if (calc.condition->kind == ExprKind::kAnd) conjuncts = calc.condition->args;
      else conjuncts = {calc.condition};
    }
    for (const auto& c : conjuncts) {
      bool used = false;
      // rn BETWEEN a AND b (Calcite expands it into rn >= a AND rn <= b for Flink).
      if (c->kind == ExprKind::kCall && c->function && c->function->name == "BETWEEN" && c->args.size() == 3 &&
          c->args[0]->kind == ExprKind::kColumnRef && c->args[0]->column_index == rn) {
        auto lo = IntConstant(*c->args[1]);
        auto hi = IntConstant(*c->args[2]);
        if (lo && hi) {
          used = true;
          start = std::max(start, *lo);
          end = end < 0 ? *hi : std::min(end, *hi);
        }
      }
      if (!used && c->kind == ExprKind::kCall && c->args.size() == 2) {
        const std::string& op = c->function->name;
        const Expr* a = c->args[0].get();
        const Expr* b = c->args[1].get();
        std::string o = op;
        if (b->kind == ExprKind::kColumnRef && b->column_index == rn) {
          std::swap(a, b);
          if (o == "<") o = ">";
          else if (o == "<=") o = ">=";
          else if (o == ">") o = "<";
          else if (o == ">=") o = "<=";
        }
        auto v = IntConstant(*b);
        if (a->kind == ExprKind::kColumnRef && a->column_index == rn && v) {
          used = true;
          if (o == "<=") end = end < 0 ? *v : std::min(end, *v);
          else if (o == "<") end = end < 0 ? *v - 1 : std::min(end, *v - 1);
          else if (o == "=") {
            start = std::max(start, *v);
            end = end < 0 ? *v : std::min(end, *v);
          } else if (o == ">=") start = std::max(start, *v);
          else if (o == ">") start = std::max(start, *v + 1);
          else used = false;
        }
      }
      if (!used) rest.push_back(c);
    }
    if (end < 0) {
      return Status::NotSupported(
          "ROW_NUMBER() OVER (...) needs an upper bound on the row number in the enclosing query (Top-N: WHERE rn <= N)");
    }
    if (end < start) {
      // A contradictory range (rn < 2 AND rn > 3) selects no rank: no rows, as Flink's empty Values.
      auto none = std::make_shared<ValuesNode>();
      none->schema = calc.schema;
      return PlanNodePtr(none);
    }
    // Is the row number read by the projection or the remaining condition?
    std::vector<bool> used(rank.schema.size(), false);
    for (const auto& p : calc.projections) CollectColumns(*p, &used);
    for (const auto& r : rest) CollectColumns(*r, &used);
    const PlanNodePtr& rank_input = rank.inputs[0];
    PlanNodePtr new_input;
    std::vector<ExprPtr> subst = [&] {
      std::vector<ExprPtr> v;
      for (size_t i = 0; i < rank_input->schema.size(); ++i) v.push_back(MakeColumnRef(static_cast<int>(i), rank_input->schema.field(i).type));
      return v;
    }();
    const Field* time_field = rank.order.size() == 1 ? &rank_input->schema.field(static_cast<size_t>(rank.order[0].column)) : nullptr;
    bool dedup = start == 1 && end == 1 && time_field && time_field->type.time_attribute() != TimeAttribute::kNone &&
                 rank.rank_function == "ROW_NUMBER";
    if (dedup) {
      auto d = std::make_shared<DeduplicateNode>();
      d->inputs = rank.inputs;
      d->schema = rank_input->schema;
      d->keys = rank.partition_keys;
      d->time_column = rank.order[0].column;
      d->keep_last = !rank.order[0].ascending;
      d->rowtime = time_field->type.time_attribute() == TimeAttribute::kRowtime;
      new_input = d;
      subst.push_back(MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), 1)));
    } else {
      auto r = std::make_shared<RankNode>(rank);
      r->rank_start = start;
      r->rank_end = end;
      r->output_rank_number = used[static_cast<size_t>(rn)];
      if (!r->output_rank_number) r->schema = rank_input->schema;
      new_input = r;
      subst.push_back(r->output_rank_number ? MakeColumnRef(rn, LogicalType::BigInt().WithNullable(false))
                                            : MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), 0)));
    }
    auto nc = std::make_shared<CalcNode>();
    nc->inputs = {new_input};
    nc->schema = calc.schema;
    for (const auto& p : calc.projections) nc->projections.push_back(SubstituteColumns(p, subst));
    std::vector<ExprPtr> cond;
    for (const auto& r : rest) cond.push_back(SubstituteColumns(r, subst));
    nc->condition = AndAll(cond);
    return PlanNodePtr(nc);
  }

  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace

Result<std::vector<PlanNodePtr>> OptimizePlans(const std::vector<PlanNodePtr>& roots, const FilterPushDownFn& push_filters) {
  std::map<const PlanNode*, PlanNodePtr> memo;
  std::vector<PlanNodePtr> out;
  for (const auto& r : roots) out.push_back(MergeCalcs(r, true, &memo));
  JoinFilterRule join_filters;
  for (auto& r : out) r = join_filters.Apply(r);
  // After the filter rule, so time bounds written in WHERE over a comma join count too.
  IntervalJoinRule interval_joins;
  for (auto& r : out) r = interval_joins.Apply(r);
  RankRules rank_rules;
  for (auto& r : out) {
    ASSIGN_OR_RETURN(r, rank_rules.Apply(r));
  }
  WindowAggregateRule window_aggregates;
  for (auto& r : out) {
    ASSIGN_OR_RETURN(r, window_aggregates.Apply(r));
  }
  // After the window aggregates, whose windows Top-N, deduplication and joins may follow.
  WindowRankRule window_ranks;
  for (auto& r : out) {
    ASSIGN_OR_RETURN(r, window_ranks.Apply(r));
  }
  WindowJoinRule window_joins;
  for (auto& r : out) {
    ASSIGN_OR_RETURN(r, window_joins.Apply(r));
  }
  // Top-N and deduplication over window joins.
  WindowRankRule ranks_over_joins;
  for (auto& r : out) {
    ASSIGN_OR_RETURN(r, ranks_over_joins.Apply(r));
  }
  // Before sharing, so scans with different pushed filters stay apart (their digests differ).
  ASSIGN_OR_RETURN(out, PushFiltersIntoScans(out, push_filters));
  // Share equal sub-plans first, so pruning keeps the union of what every consumer reads.
  ReuseSubPlans(&out);
  Pruner pruner;
  pruner.Run(&out);
  // Pruning can leave Calc-over-Calc pairs; merge once more (a shared Calc stays shared).
  memo.clear();
  std::map<const PlanNode*, int> parents;
  std::set<const PlanNode*> seen;
  std::vector<const PlanNode*> stack;
  for (const auto& r : out) stack.push_back(r.get());
  while (!stack.empty()) {
    const PlanNode* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& in : n->inputs) {
      parents[in.get()]++;
      stack.push_back(in.get());
    }
  }
  shared_ = &parents;
  for (auto& r : out) r = MergeCalcs(r, true, &memo);
  shared_ = nullptr;
  return out;
}

void ReuseSubPlans(std::vector<PlanNodePtr>* roots) {
  std::map<std::string, PlanNodePtr> by_digest;
  std::map<const PlanNode*, std::string> digests;
  for (auto& r : *roots) {
    // Sinks are never shared; their inputs may be.
    for (auto& in : r->inputs) in = Dedupe(in, &by_digest, &digests);
  }
}

}  // namespace sluice
