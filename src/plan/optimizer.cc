#include "plan/optimizer.h"

#include <map>
#include <optional>
#include <set>

#include "catalog/catalog.h"
#include "common/check.h"
#include "function/scalar_function.h"
#include "plan/changelog_normalize_filter_rule.h"
#include "plan/filter_pushdown_rule.h"
#include "plan/interval_join_rule.h"
#include "plan/join_filter_rule.h"
#include "plan/projection_prune_rule.h"
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

// The row numbers a filter selects: [start, end], end -1 while unbounded.
struct RowNumberRange {
  int64_t start = 1, end = -1;
  void AtLeast(int64_t v) { start = std::max(start, v); }
  void AtMost(int64_t v) { end = end < 0 ? v : std::min(end, v); }
};

// Narrows `range` by conjunct `c` when it compares the row number (column `rn`) with a constant (=, <,
// <=, >, >= with the row number on either side, or BETWEEN); false when `c` is another condition.
bool NarrowRowNumberRange(const Expr& c, int rn, RowNumberRange* range) {
  // rn BETWEEN a AND b (Calcite expands it into rn >= a AND rn <= b for Flink).
  if (c.kind == ExprKind::kCall && c.function && c.function->name == "BETWEEN" && c.args.size() == 3 &&
      c.args[0]->kind == ExprKind::kColumnRef && c.args[0]->column_index == rn) {
    auto lo = IntConstant(*c.args[1]);
    auto hi = IntConstant(*c.args[2]);
    if (!lo || !hi) return false;
    range->AtLeast(*lo);
    range->AtMost(*hi);
    return true;
  }
  if (c.kind != ExprKind::kCall || c.args.size() != 2) return false;
  const Expr* a = c.args[0].get();
  const Expr* b = c.args[1].get();
  std::string o = c.function->name;
  if (b->kind == ExprKind::kColumnRef && b->column_index == rn) {
    std::swap(a, b);
    if (o == "<") o = ">";
    else if (o == "<=") o = ">=";
    else if (o == ">") o = "<";
    else if (o == ">=") o = "<=";
  }
  auto v = IntConstant(*b);
  if (a->kind != ExprKind::kColumnRef || a->column_index != rn || !v) return false;
  if (o == "<=") range->AtMost(*v);
  else if (o == "<") range->AtMost(*v - 1);
  else if (o == "=") {
    range->AtLeast(*v);
    range->AtMost(*v);
  } else if (o == ">=") range->AtLeast(*v);
  else if (o == ">") range->AtLeast(*v + 1);
  else return false;
  return true;
}

// Flink's Top-N and deduplication rules: a filter on ROW_NUMBER() bounds the Rank; a Rank of one row
// per key ordered by a time attribute is a Deduplicate.
class RankRules {
 public:
  explicit RankRules(bool batch) : batch_(batch) {}
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
    } else if (node->kind == PlanKind::kRank && node->As<RankNode>().rank_end < 0 && !batch_) {
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
  // The Calc over an unbounded Rank, with the Rank bounded by the Calc's filter on the row number (the
  // conjuncts that bound it are dropped), or empty Values when that filter selects no row number.
  Result<PlanNodePtr> Bound(const CalcNode& calc) {
    const auto& rank = calc.inputs[0]->As<RankNode>();
    const int rn = static_cast<int>(rank.schema.size()) - 1;
    RowNumberRange range;
    std::vector<ExprPtr> rest;
    for (const auto& c : Conjuncts(calc.condition)) {
      if (!NarrowRowNumberRange(*c, rn, &range)) rest.push_back(c);
    }
    if (range.end < 0 && !batch_) {
      return Status::NotSupported(
          "ROW_NUMBER() OVER (...) needs an upper bound on the row number in the enclosing query (Top-N: WHERE rn <= N)");
    }
    if (range.end >= 0 && range.end < range.start) {
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
    std::vector<ExprPtr> subst;
    for (size_t i = 0; i < rank_input->schema.size(); ++i) {
      subst.push_back(MakeColumnRef(static_cast<int>(i), rank_input->schema.field(i).type));
    }
    PlanNodePtr new_input = BoundedRank(rank, range, used[static_cast<size_t>(rn)], &subst);
    auto nc = std::make_shared<CalcNode>();
    nc->inputs = {new_input};
    nc->schema = calc.schema;
    for (const auto& p : calc.projections) nc->projections.push_back(SubstituteColumns(p, subst));
    std::vector<ExprPtr> cond;
    for (const auto& r : rest) cond.push_back(SubstituteColumns(r, subst));
    nc->condition = AndAll(cond);
    return PlanNodePtr(nc);
  }

  // `rank` limited to the row numbers in `range`: a Deduplicate when it keeps the first row per key by a
  // time attribute (Flink's StreamPhysicalDeduplicate), else a Rank that outputs its row number when
  // `rn_read`. Appends to `subst` (the input's columns) what stands for the row number above it.
  static PlanNodePtr BoundedRank(const RankNode& rank, RowNumberRange range, bool rn_read, std::vector<ExprPtr>* subst) {
    const int rn = static_cast<int>(rank.schema.size()) - 1;
    const PlanNodePtr& rank_input = rank.inputs[0];
    const Field* time_field = rank.order.size() == 1 ? &rank_input->schema.field(static_cast<size_t>(rank.order[0].column)) : nullptr;
    bool dedup = range.start == 1 && range.end == 1 && time_field &&
                 time_field->type.time_attribute() != TimeAttribute::kNone && rank.rank_function == "ROW_NUMBER";
    if (dedup) {
      auto d = std::make_shared<DeduplicateNode>();
      d->inputs = rank.inputs;
      d->schema = rank_input->schema;
      d->keys = rank.partition_keys;
      d->time_column = rank.order[0].column;
      d->keep_last = !rank.order[0].ascending;
      d->rowtime = time_field->type.time_attribute() == TimeAttribute::kRowtime;
      subst->push_back(MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), 1)));
      return d;
    }
    auto r = std::make_shared<RankNode>(rank);
    r->rank_start = range.start;
    r->rank_end = range.end;
    r->output_rank_number = rn_read;
    if (!r->output_rank_number) r->schema = rank_input->schema;
    subst->push_back(r->output_rank_number ? MakeColumnRef(rn, LogicalType::BigInt().WithNullable(false))
                                           : MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), 0)));
    return r;
  }

  bool batch_;
  std::map<const PlanNode*, PlanNodePtr> memo_;
};

}  // namespace

Result<std::vector<PlanNodePtr>> OptimizePlans(const std::vector<PlanNodePtr>& roots, const FilterPushDownFn& push_filters,
                                               bool batch) {
  std::map<const PlanNode*, PlanNodePtr> memo;
  std::vector<PlanNodePtr> out;
  for (const auto& r : roots) out.push_back(MergeCalcs(r, true, &memo));
  JoinFilterRule join_filters;
  for (auto& r : out) r = join_filters.Apply(r);
  // After the filter rule, so time bounds written in WHERE over a comma join count too.
  IntervalJoinRule interval_joins;
  for (auto& r : out) r = interval_joins.Apply(r);
  RankRules rank_rules(batch);
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
  // A filter over a ChangelogNormalize moves into it (its key-only part below its Exchange).
  ChangelogNormalizeFilterRule normalize_filters(CountParents(out));
  for (auto& r : out) r = normalize_filters.Apply(r);
  // Before sharing, so scans with different pushed filters stay apart (their digests differ).
  ASSIGN_OR_RETURN(out, PushFiltersIntoScans(out, push_filters));
  // Share equal sub-plans first, so pruning keeps the union of what every consumer reads.
  ReuseSubPlans(&out);
  PruneColumns(&out);
  // Pruning can leave Calc-over-Calc pairs; merge once more (a shared Calc stays shared).
  memo.clear();
  const std::map<const PlanNode*, int> parents = CountParents(out);
  shared_ = &parents;
  for (auto& r : out) r = MergeCalcs(r, true, &memo);
  shared_ = nullptr;
  return out;
}

std::map<const PlanNode*, int> CountParents(const std::vector<PlanNodePtr>& roots) {
  std::map<const PlanNode*, int> parents;
  std::set<const PlanNode*> seen;
  std::vector<const PlanNode*> stack;
  for (const auto& r : roots) stack.push_back(r.get());
  while (!stack.empty()) {
    const PlanNode* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& in : n->inputs) {
      parents[in.get()]++;
      stack.push_back(in.get());
    }
  }
  return parents;
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
