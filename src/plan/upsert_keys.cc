#include "plan/upsert_keys.h"

#include <algorithm>

#include "catalog/catalog.h"

namespace sluice {

namespace {

std::vector<int> UpsertKeyColumns(const PlanNode* node);

// The first `n` columns: the grouping keys an aggregate emits first.
std::vector<int> LeadingColumns(size_t n) {
  std::vector<int> k;
  for (size_t i = 0; i < n; ++i) k.push_back(static_cast<int>(i));
  return k;
}

// One row per group key and window (window_start, window_end follow the aggregates).
std::vector<int> WindowAggregateKey(const WindowAggregateNode& w) {
  std::vector<int> k = LeadingColumns(w.group_keys.size());
  const int start = static_cast<int>(w.group_keys.size() + w.aggs.size());
  k.push_back(start);
  k.push_back(start + 1);
  return k;
}

// Flink's unique keys of a Rank (FlinkRelMdUniqueKeys.getRankUniqueKeys, with the input's keys
// filtered to those containing the partition key as FlinkRelMdUpsertKeys does): a top-1 by
// ROW_NUMBER keeps one row per partition, so the partition key is unique; otherwise the
// partition key plus the row number is, when the row number is output; else only an input key
// that contains the partition key stays unique (several rows share a partition key).
std::vector<int> RankKey(const RankNode& r) {
  const bool row_number = r.rank_function == "ROW_NUMBER";
  // (Without a partition key a top-1 has at most one row; Sluice's keys cannot say "no columns",
  // so there the row number, always 1, stands for that key when it is output.)
  const bool top1 = row_number && r.rank_start == 1 && r.rank_end == 1;
  if (top1 && !(r.partition_keys.empty() && r.output_rank_number)) return r.partition_keys;
  if (row_number && r.output_rank_number) {
    std::vector<int> k = r.partition_keys;
    k.push_back(static_cast<int>(r.schema.size()) - 1);
    return k;
  }
  std::vector<int> below = UpsertKeyColumns(r.inputs[0].get());
  if (below.empty()) return {};
  for (int p : r.partition_keys) {
    if (std::find(below.begin(), below.end(), p) == below.end()) return {};
  }
  return below;
}

// A declared PRIMARY KEY, when the scan reads all of its columns.
std::vector<int> SourceKey(const TableSourceScanNode& scan) {
  std::vector<int> k;
  for (const auto& name : scan.table->primary_key) {
    auto idx = scan.schema.IndexOf(name);
    if (!idx) return {};
    k.push_back(static_cast<int>(*idx));
  }
  return k;
}

// A key survives a projection that keeps its columns by reference.
std::vector<int> CalcKey(const CalcNode& calc) {
  return KeyThroughCalc(calc, UpsertKeyColumns(calc.inputs[0].get())).value_or(std::vector<int>{});
}

// Each row of one side matches at most one row of the other when the other side is unique on
// its join keys; then the first side's key stays a key (of an inner join, or of the side an
// outer join preserves). An inner join of two keyed sides is keyed by both keys together.
std::vector<int> JoinKey(const JoinNode& j) {
  // A semi/anti join passes a subset of its left rows.
  if (IsSemiOrAnti(j.join_type)) return UpsertKeyColumns(j.inputs[0].get());
  const int left_width = static_cast<int>(j.inputs[0]->schema.size());
  std::vector<int> left = UpsertKeyColumns(j.inputs[0].get());
  std::vector<int> right = UpsertKeyColumns(j.inputs[1].get());
  for (int& c : right) c += left_width;
  const bool right_unique = UniqueOnColumns(*j.inputs[1], j.right_keys);
  const bool left_unique = UniqueOnColumns(*j.inputs[0], j.left_keys);
  if (!left.empty() && right_unique && (j.join_type == JoinType::kInner || j.join_type == JoinType::kLeft)) return left;
  if (!right.empty() && left_unique && (j.join_type == JoinType::kInner || j.join_type == JoinType::kRight)) return right;
  if (j.join_type == JoinType::kInner && !left.empty() && !right.empty()) {
    left.insert(left.end(), right.begin(), right.end());
    return left;
  }
  return {};
}

// The unique key of a node's result (column indexes), when the planner knows one: the columns no two
// live rows share. Empty when unknown.
std::vector<int> UpsertKeyColumns(const PlanNode* node) {
  switch (node->kind) {
    case PlanKind::kGroupAggregate:
    case PlanKind::kHashAggregate: return LeadingColumns(node->As<GroupAggregateNode>().group_keys.size());
    case PlanKind::kDeduplicate: return node->As<DeduplicateNode>().keys;
    case PlanKind::kWindowAggregate: return WindowAggregateKey(node->As<WindowAggregateNode>());
    case PlanKind::kChangelogNormalize: return node->As<ChangelogNormalizeNode>().keys;
    case PlanKind::kRank: return RankKey(node->As<RankNode>());
    case PlanKind::kTableSourceScan: return SourceKey(node->As<TableSourceScanNode>());
    case PlanKind::kCalc: return CalcKey(node->As<CalcNode>());
    case PlanKind::kJoin: return JoinKey(node->As<JoinNode>());
    case PlanKind::kSort:  // a subset of the input's rows keeps its keys (Flink's upsert keys of a Sort)
    case PlanKind::kExchange:
    case PlanKind::kDropUpdateBefore:
    case PlanKind::kMiniBatchAssigner:
    case PlanKind::kWatermarkAssigner: return UpsertKeyColumns(node->inputs[0].get());
    default: return {};
  }
}

// True when `node` has at most one row at a time: a global aggregation (no GROUP BY; Flink's unique key
// of an Aggregate with an empty group set is the empty key), under projections and filters.
bool AtMostOneRow(const PlanNode* node) {
  while (node->kind == PlanKind::kCalc || node->kind == PlanKind::kExchange) node = node->inputs[0].get();
  if (node->kind != PlanKind::kGroupAggregate) return false;
  const auto& g = node->As<GroupAggregateNode>();
  return g.group_keys.empty() && g.phase != GroupAggregateNode::Phase::kLocal;
}

}  // namespace

std::vector<std::string> UpsertKeyNames(const PlanNode& node) {
  std::vector<std::string> names;
  for (int c : UpsertKeyColumns(&node)) names.push_back(node.schema.field(static_cast<size_t>(c)).name);
  return names;
}

std::vector<int> UpsertKeyIndexes(const PlanNode& node) { return UpsertKeyColumns(&node); }

std::optional<std::vector<int>> KeyThroughCalc(const CalcNode& calc, const std::vector<int>& key) {
  std::vector<int> out;
  for (int col : key) {
    int found = -1;
    for (size_t i = 0; i < calc.projections.size() && found < 0; ++i) {
      const Expr& p = *calc.projections[i];
      if (p.kind == ExprKind::kColumnRef && p.column_index == col) found = static_cast<int>(i);
    }
    if (found < 0) return std::nullopt;
    out.push_back(found);
  }
  return out;
}

bool UniqueOnColumns(const PlanNode& node, const std::vector<int>& columns) {
  std::vector<int> key = UpsertKeyColumns(&node);
  if (key.empty()) return false;
  for (int k : key) {
    if (std::find(columns.begin(), columns.end(), k) == columns.end()) return false;
  }
  return true;
}

std::vector<int> JoinInputUniqueKey(const JoinNode& join, int side) {
  return UpsertKeyColumns(join.inputs[static_cast<size_t>(side)].get());
}

std::string JoinInputSpecName(const JoinNode& join, int side) {
  const std::vector<int> key = JoinInputUniqueKey(join, side);
  // The empty key lies within any join keys.
  if (key.empty()) return AtMostOneRow(join.inputs[static_cast<size_t>(side)].get()) ? "JoinKeyContainsUniqueKey" : "NoUniqueKey";
  return UniqueOnColumns(*join.inputs[static_cast<size_t>(side)], side == 0 ? join.left_keys : join.right_keys)
             ? "JoinKeyContainsUniqueKey"
             : "HasUniqueKey";
}

}  // namespace sluice
