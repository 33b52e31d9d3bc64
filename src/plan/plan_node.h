// PlanNode: one node of a query plan, from the binder's logical tree to the physical plan EXPLAIN
// prints and the job translator turns into operators.
//
// Nodes use Flink's physical names (TableSourceScan, Calc, WatermarkAssigner, Correlate, Union,
// Values, Sink) so EXPLAIN reads like Flink's. Every node has an output schema and its inputs; the
// planner fills the traits: the changelog mode the node emits (changelog_mode), and the unique keys of
// a changing result (upsert_keys). A node may have several parents when INSERTs of a statement set
// share a sub-plan; the translator builds one operator per node, so shared work runs once.
//
// Threading: built by one thread, then immutable and shared by the job.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "function/expression.h"
#include "types/row_kind.h"
#include "types/schema.h"
#include "types/value.h"

namespace sluice {

struct CatalogTable;

enum class PlanKind : uint8_t {
  kTableSourceScan,
  kValues,
  kCalc,
  kWatermarkAssigner,
  kCorrelate,
  kUnion,
  kSink,
  kExchange,
  kGroupAggregate,
  kDeduplicate,
  kRank,
  kJoin,
};

struct PlanNode;
using PlanNodePtr = std::shared_ptr<PlanNode>;

struct PlanNode {
  explicit PlanNode(PlanKind k) : kind(k) {}
  virtual ~PlanNode() = default;

  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }
  template <typename T>
  T& As() { return static_cast<T&>(*this); }

  const PlanKind kind;
  Schema schema;
  std::vector<PlanNodePtr> inputs;
  // Traits, filled by the planner.
  ChangelogMode changelog_mode = ChangelogMode::InsertOnly();
  std::vector<std::vector<int>> upsert_keys;

  // Flink's operator name ("Calc") and its attribute list ("select=[a, b], where=[(a > 1)]").
  virtual std::string ExplainName() const = 0;
  virtual std::string ExplainAttributes() const = 0;
};

// Reads a table's physical columns (projected) and metadata columns from its connector.
struct TableSourceScanNode : PlanNode {
  TableSourceScanNode() : PlanNode(PlanKind::kTableSourceScan) {}
  std::shared_ptr<const CatalogTable> table;
  std::vector<int> projection;      // physical column ordinals (of physical_schema) read, in output order
  std::vector<int> metadata;        // catalog column indexes of metadata columns read, after them
  std::vector<std::pair<std::string, std::string>> hint_options;  // /*+ OPTIONS(...) */
  // What the connector emits (set when the engine creates the source, before trait inference).
  ChangelogMode source_mode = ChangelogMode::InsertOnly();
  std::string ExplainName() const override { return "TableSourceScan"; }
  std::string ExplainAttributes() const override;
};

// Literal rows (VALUES, INSERT ... VALUES, SELECT without FROM).
struct ValuesNode : PlanNode {
  ValuesNode() : PlanNode(PlanKind::kValues) {}
  std::vector<std::vector<Value>> rows;
  std::string ExplainName() const override { return "Values"; }
  std::string ExplainAttributes() const override;
};

// Projection and filter in one node, as Flink's Calc: output column i is projections[i] evaluated on
// the rows where `condition` (if any) is TRUE.
struct CalcNode : PlanNode {
  CalcNode() : PlanNode(PlanKind::kCalc) {}
  std::vector<ExprPtr> projections;
  ExprPtr condition;  // null: keep every row
  std::string ExplainName() const override { return "Calc"; }
  std::string ExplainAttributes() const override;
};

// Generates watermarks from a rowtime column with the DDL's WATERMARK expression, per source split.
struct WatermarkAssignerNode : PlanNode {
  WatermarkAssignerNode() : PlanNode(PlanKind::kWatermarkAssigner) {}
  int rowtime_index = -1;
  ExprPtr watermark;  // over the input row
  std::string ExplainName() const override { return "WatermarkAssigner"; }
  std::string ExplainAttributes() const override;
};

// CROSS JOIN UNNEST(array) / LEFT JOIN UNNEST(...) ON TRUE: each input row joined with the elements
// of an ARRAY/MAP/MULTISET expression. Output = input columns, then the element columns (a ROW
// element is flattened into its fields; a MAP gives key and value), then the ordinality if asked.
struct CorrelateNode : PlanNode {
  CorrelateNode() : PlanNode(PlanKind::kCorrelate) {}
  ExprPtr collection;       // over the input row
  bool left_outer = false;  // keep input rows whose collection is NULL or empty (NULL-padded)
  bool with_ordinality = false;
  std::string ExplainName() const override { return "Correlate"; }
  std::string ExplainAttributes() const override;
};

struct UnionNode : PlanNode {
  UnionNode() : PlanNode(PlanKind::kUnion) {}
  std::string ExplainName() const override { return "Union"; }
  std::string ExplainAttributes() const override;
};

// Writes its input to a catalog table, or collects it as a SELECT result (table == null).
struct SinkNode : PlanNode {
  SinkNode() : PlanNode(PlanKind::kSink) {}
  std::shared_ptr<const CatalogTable> table;  // null for a SELECT's result
  std::vector<std::pair<std::string, std::string>> hint_options;
  // What the sink can store (set when the engine creates the sink, before validation).
  ChangelogMode accepted_mode = ChangelogMode::All();
  std::string ExplainName() const override { return "Sink"; }
  std::string ExplainAttributes() const override;
};

// Redistributes rows by a hash of key columns (or to a single task). Sluice runs every operator on one
// task, so it moves nothing; it is kept so EXPLAIN shows the plan Flink users know, and so parallel
// execution has its cut points.
struct ExchangeNode : PlanNode {
  ExchangeNode() : PlanNode(PlanKind::kExchange) {}
  std::vector<int> keys;  // empty: single
  std::string ExplainName() const override { return "Exchange"; }
  std::string ExplainAttributes() const override;
};

struct AggregateFunction;

// One aggregate call of a GroupAggregate: FUNCTION([DISTINCT] args) [FILTER (WHERE filter)].
struct AggregateCall {
  std::string name;                                   // upper-case SQL name
  std::shared_ptr<const AggregateFunction> function;  // resolved (retracting variant when needed)
  std::vector<int> args;                              // input columns
  std::vector<Value> constant_args;                   // literal arguments (LISTAGG separator), after args
  // Every argument's type and, for literal arguments, its value (for re-resolution with retraction).
  std::vector<LogicalType> arg_types;
  std::vector<std::optional<Value>> arg_constants;
  bool distinct = false;
  int filter = -1;                                    // input BOOLEAN column, -1 when none
  std::string output_name;
  // Flink's EXPLAIN name ("COUNT", "SUM_RETRACT", ...).
  std::string explain_name() const;
};

// Non-windowed GROUP BY aggregation with retraction (Flink's GroupAggregate): output = group keys,
// then one column per aggregate call.
struct GroupAggregateNode : PlanNode {
  GroupAggregateNode() : PlanNode(PlanKind::kGroupAggregate) {}
  std::vector<int> group_keys;
  std::vector<AggregateCall> aggs;
  bool input_has_retractions = false;  // set by trait inference
  bool emit_update_before = false;     // set by trait inference
  std::string ExplainName() const override { return "GroupAggregate"; }
  std::string ExplainAttributes() const override;
};

struct SortKey {
  int column;
  bool ascending = true;
  bool nulls_first = true;
};

// ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time) = 1: keep the first or last row per key.
struct DeduplicateNode : PlanNode {
  DeduplicateNode() : PlanNode(PlanKind::kDeduplicate) {}
  std::vector<int> keys;
  int time_column = -1;
  bool keep_last = false;
  bool rowtime = false;
  bool emit_update_before = false;
  std::string ExplainName() const override { return "Deduplicate"; }
  std::string ExplainAttributes() const override;
};

// Top-N: ROW_NUMBER() OVER (PARTITION BY keys ORDER BY ...) filtered to rank_start..rank_end.
// Output = input columns, plus the row number when output_rank_number.
struct RankNode : PlanNode {
  RankNode() : PlanNode(PlanKind::kRank) {}
  std::vector<int> partition_keys;
  std::vector<SortKey> order;
  int64_t rank_start = 1;
  int64_t rank_end = -1;  // -1 until a filter on the row number bounds it
  bool output_rank_number = true;
  bool input_has_retractions = false;
  bool emit_update_before = false;
  std::string ExplainName() const override { return "Rank"; }
  std::string ExplainAttributes() const override;
};

enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull };

// Regular (non-windowed) join with retraction. Output = left columns, then right columns.
struct JoinNode : PlanNode {
  JoinNode() : PlanNode(PlanKind::kJoin) {}
  JoinType join_type = JoinType::kInner;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  ExprPtr condition;  // the whole ON condition over left ++ right (for EXPLAIN)
  ExprPtr residual;   // the non-equi part, null when none
  std::string ExplainName() const override { return "Join"; }
  std::string ExplainAttributes() const override;
};

// Column names of a node's output, for printing expressions over it.
std::vector<std::string> ColumnNames(const PlanNode& node);

}  // namespace sluice
