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
#include "plan/window.h"
#include "types/insert_conflict.h"
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
  kChangelogNormalize,
  kDropUpdateBefore,
  kMiniBatchAssigner,
  kTemporalJoin,
  kOverAggregate,
  kWindowTableFunction,
  kWindowAggregate,
  kSort,
  kIntervalJoin,
  kWindowRank,
  kWindowDeduplicate,
  kWindowJoin,
  kLookupJoin,
  kExpand,
  kReplicateRows,
  kMatch,
  kHashAggregate,
  kHashJoin,
  kSortMergeJoin,
  kBatchRank,
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
  // Filter push-down (filter_pushdown_rule.h): whether the connector was offered the conjuncts of the
  // Calc above (printed as filter=[...] even when it took none, as Flink does), and the conjuncts it
  // accepted, whose column references are physical column ordinals (of the table's physical schema),
  // so they stay valid when projection push-down changes the scan's columns.
  bool filter_push_down = false;
  std::vector<ExprPtr> filters;
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
  // The table's PRIMARY KEY as column indexes of `schema` (empty when none).
  std::vector<int> primary_key;
  // 'table.exec.sink.upsert-materialize' (set by the engine before trait inference).
  enum class UpsertMaterialize : uint8_t { kNone, kAuto, kForce };
  UpsertMaterialize upsert_materialize_mode = UpsertMaterialize::kAuto;
  // Set by trait inference: whether a SinkUpsertMaterializer runs before the writer, and why.
  bool upsert_materialize = false;
  std::string upsert_materialize_reason;
  // The INSERT's ON CONFLICT clause (set by the binder; types/insert_conflict.h). With kError or
  // kNothing the materializer compacts on watermarks; with kDeduplicate (or none) it keeps every
  // live row per key.
  InsertConflictStrategy conflict_strategy = InsertConflictStrategy::kNone;
  // 'table.exec.sink.require-on-conflict' (set by the engine before trait inference).
  bool require_on_conflict = false;
  // Set by trait inference with a compacting materializer: the input's upsert key (empty when none),
  // which identifies the rows a retraction or update replaces.
  std::vector<int> materialize_upsert_key;
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
//
// With mini-batch and functions that merge, the planner splits it as Flink does into a
// LocalGroupAggregate (per batch, partial accumulators) under the Exchange and a GlobalGroupAggregate
// (merges them into state) over it. Both phases keep the original group_keys/aggs over the original
// input; a single task runs them fused as one mini-batch aggregate (the local phase exists to cut
// shuffle volume, which one task does not have).
struct GroupAggregateNode : PlanNode {
  GroupAggregateNode() : PlanNode(PlanKind::kGroupAggregate) {}
  enum class Phase : uint8_t { kSingle, kLocal, kGlobal };
  Phase phase = Phase::kSingle;
  // The local phase's output column names (keys, then one partial result per call), for EXPLAIN.
  std::vector<std::string> partial_names;
  std::vector<int> group_keys;
  std::vector<AggregateCall> aggs;
  bool input_has_retractions = false;  // set by trait inference
  bool emit_update_before = false;     // set by trait inference
  int64_t state_ttl_ms = -1;           // STATE_TTL hint; -1: 'table.exec.state.ttl'
  // Set by the split of DISTINCT aggregates (plan/split_distinct_aggregate_rule.h): Flink's
  // partialFinalType, the per-bucket partial phase or the final phase over it.
  enum class PartialFinal : uint8_t { kNone, kPartial, kFinal };
  PartialFinal partial_final = PartialFinal::kNone;
  std::string ExplainName() const override {
    return phase == Phase::kLocal ? "LocalGroupAggregate" : phase == Phase::kGlobal ? "GlobalGroupAggregate" : "GroupAggregate";
  }
  std::string ExplainAttributes() const override;

 protected:
  explicit GroupAggregateNode(PlanKind k) : PlanNode(k) {}
};

// Batch GROUP BY (Flink's BatchPhysicalHashAggregate, one phase: isMerge=[false]): the same keys and
// calls as the GroupAggregate it replaces (plan/batch_physical.h), over an insert-only input; it
// accumulates every row and emits each group's final row once, as an insert, at the end of input.
struct HashAggregateNode : GroupAggregateNode {
  HashAggregateNode() : GroupAggregateNode(PlanKind::kHashAggregate) {}
  explicit HashAggregateNode(const GroupAggregateNode& g) : GroupAggregateNode(PlanKind::kHashAggregate) {
    schema = g.schema;
    inputs = g.inputs;
    group_keys = g.group_keys;
    aggs = g.aggs;
  }
  std::string ExplainName() const override { return "HashAggregate"; }
  std::string ExplainAttributes() const override { return "isMerge=[false], " + GroupAggregateNode::ExplainAttributes(); }
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
  // 'table.exec.mini-batch.enabled' (plan/mini_batch_rule.h): runs in bundles, and a keep-first
  // dedup is then updating too, as Flink's (RankUtil.outputInsertOnlyInDeduplicate).
  bool mini_batch = false;
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
  // ROW_NUMBER, RANK or DENSE_RANK (a window Top-N runs ROW_NUMBER only, as in Flink).
  std::string rank_function = "ROW_NUMBER";
  bool output_rank_number = true;
  bool input_has_retractions = false;
  bool emit_update_before = false;
  std::string ExplainName() const override { return "Rank"; }
  std::string ExplainAttributes() const override;
};

// Batch Top-N and dedup (Flink's batch Rank, global=[true]): replaces a Rank or a Deduplicate over an
// insert-only input (plan/batch_physical.h). At the end of its input it sorts the rows by partition
// and order keys (ties in arrival order, or, for a keep-last dedup, latest first) and emits the rows
// ranked rank_start..rank_end in each partition once, as inserts, in that order. Output = input
// columns, plus the rank number (BIGINT) when output_rank_number.
struct BatchRankNode : PlanNode {
  BatchRankNode() : PlanNode(PlanKind::kBatchRank) {}
  std::vector<int> partition_keys;
  std::vector<SortKey> order;
  int64_t rank_start = 1;
  int64_t rank_end = -1;                   // -1: no upper bound
  std::string rank_function = "ROW_NUMBER";  // or RANK, DENSE_RANK
  bool output_rank_number = true;
  bool ties_latest_first = false;          // a keep-last dedup: among equal order keys the last row wins
  std::string ExplainName() const override { return "Rank"; }
  std::string ExplainAttributes() const override;
};

// kSemi / kAnti: the LeftSemiJoin / LeftAntiJoin that IN and EXISTS subqueries are planned as.
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kSemi, kAnti };

inline bool IsSemiOrAnti(JoinType t) { return t == JoinType::kSemi || t == JoinType::kAnti; }

// Regular (non-windowed) join with retraction. Output = left columns, then right columns (a semi or
// anti join: the left columns only; its condition still reads left ++ right).
struct JoinNode : PlanNode {
  JoinNode() : PlanNode(PlanKind::kJoin) {}
  JoinType join_type = JoinType::kInner;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  ExprPtr condition;  // the whole ON condition over left ++ right (for EXPLAIN)
  ExprPtr residual;   // the non-equi part, null when none
  // The table names and aliases each side answers to (STATE_TTL hint keys).
  std::vector<std::string> left_names, right_names;
  int64_t left_ttl_ms = -1, right_ttl_ms = -1;  // STATE_TTL hint; -1: 'table.exec.state.ttl'
  // 'table.exec.mini-batch.enabled' (plan/mini_batch_rule.h): EXPLAIN prints miniBatch=[true], as
  // Flink's for every join; all but semi and anti joins run in bundles (Flink's StreamExecJoin).
  bool mini_batch = false;
  std::string ExplainName() const override { return "Join"; }
  std::string ExplainAttributes() const override;

 protected:
  explicit JoinNode(PlanKind k) : PlanNode(k) {}
  // joinType=[...], where=[...], select=[...] (what every join kind prints first).
  std::string JoinAttributes() const;
};

// Batch equi-join (Flink's BatchPhysicalHashJoin): the same join as the JoinNode it replaces
// (plan/batch_physical.h), over insert-only inputs; the right side is the build side. It emits every
// joined (and NULL-padded) row once, as an insert, at the end of its inputs.
struct HashJoinNode : JoinNode {
  explicit HashJoinNode(const JoinNode& j, PlanKind k = PlanKind::kHashJoin) : JoinNode(k) {
    schema = j.schema;
    inputs = j.inputs;
    join_type = j.join_type;
    left_keys = j.left_keys;
    right_keys = j.right_keys;
    condition = j.condition;
    residual = j.residual;
    left_names = j.left_names;
    right_names = j.right_names;
  }
  std::string ExplainName() const override { return "HashJoin"; }
  std::string ExplainAttributes() const override { return JoinAttributes() + ", build=[right]"; }
};

// Batch equi-join by sorting both inputs on the join keys and merging them (Flink's
// BatchPhysicalSortMergeJoin), chosen when 'table.exec.disabled-operators' disables the hash joins:
// the same join and output as HashJoinNode, in join-key order.
struct SortMergeJoinNode : HashJoinNode {
  explicit SortMergeJoinNode(const JoinNode& j) : HashJoinNode(j, PlanKind::kSortMergeJoin) {}
  std::string ExplainName() const override { return "SortMergeJoin"; }
  std::string ExplainAttributes() const override { return JoinAttributes(); }
};

// An upsert (or duplicated CDC) source's changelog made exact (Flink's ChangelogNormalize): keeps the
// last row per key; +I/+U of a new key -> +I, of a known key -> (-U old) +U new (nothing when equal);
// -U/-D -> -D of the kept row (nothing for an unknown key). Output = input columns.
// With a `condition` (a filter above it pushed in, changelog_normalize_filter_rule.h) only rows that
// pass are kept: a new key's row that fails is dropped, a change of a kept row that fails emits -D of
// it and forgets the key.
struct ChangelogNormalizeNode : PlanNode {
  ChangelogNormalizeNode() : PlanNode(PlanKind::kChangelogNormalize) {}
  std::vector<int> keys;  // the table's PRIMARY KEY columns
  ExprPtr condition;      // over the input columns; null: every row passes
  bool emit_update_before = false;  // set by trait inference
  std::string ExplainName() const override { return "ChangelogNormalize"; }
  std::string ExplainAttributes() const override;
};

// Drops -U rows from a source that emits them when no consumer needs them (Flink's
// DropUpdateBefore). The planner places one over every source that emits -U and removes it again
// when a consumer turns out to need the before-images.
struct DropUpdateBeforeNode : PlanNode {
  DropUpdateBeforeNode() : PlanNode(PlanKind::kDropUpdateBefore) {}
  std::string ExplainName() const override { return "DropUpdateBefore"; }
  std::string ExplainAttributes() const override { return ""; }
};

// The experimental emit options of Flink's WindowEmitStrategy as set in the session (unset: nullopt).
struct WindowEmitConfig {
  bool late_fire_enabled = false;                 // 'table.exec.emit.late-fire.enabled'
  std::optional<int64_t> late_fire_delay_ms;      // 'table.exec.emit.late-fire.delay'
  std::optional<int64_t> allow_lateness_ms;       // 'table.exec.emit.allow-lateness'
  bool early_fire_enabled = false;                // 'table.exec.emit.early-fire.enabled'
  std::optional<int64_t> early_fire_delay_ms;     // 'table.exec.emit.early-fire.delay'
};

// A window TVF alone: TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(time_col), ...)). TUMBLE,
// HOP and CUMULATE emit each input row at once, once per window holding it; SESSION holds a row in the
// session it opens or merges and emits it when that session fires. Output = input columns,
// window_start, window_end (TIMESTAMP(3)), window_time (window_end - 1 ms, a time attribute of the
// input's kind). The input may be updating (as Flink's StreamPhysicalWindowTableFunction): every row
// keeps its kind, a -U/+U/-D placed in windows by its own row time as an insert is.
struct WindowTableFunctionNode : PlanNode {
  WindowTableFunctionNode() : PlanNode(PlanKind::kWindowTableFunction) {}
  WindowSpec window;
  int time_column = -1;  // the DESCRIPTOR column (input index)
  bool proctime = false;  // processing-time windows (the clock's time), else event time
  bool local_time = false;  // the time attribute is TIMESTAMP_LTZ: windows align to the session time zone
  // Planned for a legacy GROUP BY TUMBLE/HOP/SESSION(ts, ...): window columns w$start, w$end, w$rowtime.
  bool group_window = false;
  std::vector<int> partition_keys;  // SESSION(TABLE t PARTITION BY ...): sessions are per key
  // The session's 'table.exec.emit.*' settings when the TVF was bound; a WindowAggregate planned over
  // it validates and applies them (plan/window_rules.h).
  WindowEmitConfig emit;
  std::string ExplainName() const override { return "WindowTableFunction"; }
  std::string ExplainAttributes() const override;
};

// GROUP BY window_start, window_end[, window_time][, keys] over a window TVF (Flink's WindowAggregate):
// insert-only, each window emitted once when the watermark (or processing time) passes its end; rows
// behind the watermark whose windows all fired are dropped and counted (with late firing, see
// allow_lateness_ms, fired windows take late rows and update instead). Output = group keys, one
// column per aggregate call, window_start, window_end, then window_time when `with_window_time`.
struct WindowAggregateNode : PlanNode {
  WindowAggregateNode() : PlanNode(PlanKind::kWindowAggregate) {}
  WindowSpec window;
  int time_column = -1;  // input index of the time attribute
  bool proctime = false;
  bool local_time = false;
  std::vector<int> group_keys;
  std::vector<AggregateCall> aggs;
  bool with_window_time = false;
  // A legacy GROUP BY TUMBLE/HOP/SESSION(ts, ...): Flink's GroupWindowAggregate name and attributes.
  bool group_window = false;
  // Flink's late firing ('table.exec.emit.late-fire.enabled' with 'table.exec.emit.allow-lateness' > 0,
  // event time only): a fired window keeps its state until the watermark passes its end - 1 ms +
  // allow_lateness_ms, and late rows within that update its result (-U/+U), after late_fire_delay_ms of
  // processing time (0: at once). The node is then updating. allow_lateness_ms 0: insert-only.
  int64_t allow_lateness_ms = 0;
  int64_t late_fire_delay_ms = 0;
  // Flink's early firing ('table.exec.emit.early-fire.enabled'): before the window fires, its result
  // per key is emitted (+I, then -U/+U as it changes) on every row (0) or every early_fire_delay_ms of
  // processing time; -1: off. With either firing the node is updating.
  int64_t early_fire_delay_ms = -1;
  // The session's emit options the window was planned with (an aggregation over this one's attached
  // windows applies them too).
  WindowEmitConfig emit_config;
  // Flink's WindowEmitStrategy text for EXPLAIN ("early no delay, late delay 1000 millisecond"); empty: none.
  std::string emit;
  bool Updates() const { return allow_lateness_ms > 0 || early_fire_delay_ms >= 0; }
  bool emit_update_before = false;  // set by trait inference
  // The input updates (-U/+U/-D rows, Flink 1.19+): set by trait inference, which also switches the
  // calls to their retracting variants; the operator then keeps a row count per window and key.
  bool input_has_retractions = false;
  // Over rows that carry their window (Flink's WindowAttachedWindowingStrategy, plan/window_rules.h):
  // the input's window_start column, and time_column is its window_end column. -1: the aggregate
  // assigns windows itself from the time attribute in time_column.
  int window_start_column = -1;
  std::string ExplainName() const override { return group_window ? "GroupWindowAggregate" : "WindowAggregate"; }
  std::string ExplainAttributes() const override;
};

// ORDER BY / LIMIT / OFFSET (Flink's Sort), planned per runtime mode as Flink's physical rules do:
// - kTemporalSort (streaming, ORDER BY <time attribute> ASC [, ...] without LIMIT/OFFSET): rows leave
//   in order as the watermark passes them (event time) or as they arrive (processing time).
// - kSortLimit (streaming, ORDER BY ... with LIMIT and/or OFFSET): an updating Top-N over the whole
//   input (no partition key, no rank number), run by the Rank operator.
// - kLimit (streaming, LIMIT/OFFSET without ORDER BY): the first rows; insert-only over append-only
//   input, a retracting Top-N (in arrival order) over updating input.
// - kBatchSort (batch mode, any of them): the whole input is folded, then emitted sorted at its end;
//   EXPLAIN names it Sort, SortLimit or Limit as Flink's batch plans do.
// Output = input columns.
struct SortNode : PlanNode {
  enum class Variant : uint8_t { kTemporalSort, kSortLimit, kLimit, kBatchSort };
  SortNode() : PlanNode(PlanKind::kSort) {}
  Variant variant = Variant::kBatchSort;
  std::vector<SortKey> order;
  int64_t offset = 0;
  int64_t fetch = -1;  // -1: no LIMIT
  bool input_has_retractions = false;  // set by trait inference
  bool emit_update_before = false;     // set by trait inference
  std::string ExplainName() const override;
  std::string ExplainAttributes() const override;
};

// Event-time temporal join (Flink's TemporalJoin, `JOIN versioned FOR SYSTEM_TIME AS OF l.rowtime ON
// l.k = v.k`): each left row joins the version of the right (versioned) side in force at its event time,
// once the watermark passes it. Output = left columns, then right columns; insert-only.
struct TemporalJoinNode : PlanNode {
  TemporalJoinNode() : PlanNode(PlanKind::kTemporalJoin) {}
  bool left_outer = false;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  int left_time = -1;   // the left rowtime column (FOR SYSTEM_TIME AS OF)
  int right_time = -1;  // the versioned side's rowtime column
  ExprPtr condition;    // the whole ON condition over left ++ right (for EXPLAIN)
  ExprPtr residual;     // the non-equi part, null when none
  std::string right_name;  // the versioned table or view, for messages
  std::string ExplainName() const override { return "TemporalJoin"; }
  std::string ExplainAttributes() const override;
};

// Interval join (Flink's IntervalJoin): an equi-join of two insert-only inputs whose condition bounds
// one side's time attribute by the other's: a left row at l and a right row at r match when
// lower_ms <= l - r <= upper_ms (Flink's leftLowerBound/leftUpperBound, in ms) and the residual holds.
// State per side expires as time passes (plan/interval_join_rule.h, runtime/operators/
// interval_join_operator.h); outer rows that never matched are emitted padded once they expire.
// Output = left columns, then right columns; insert-only.
struct IntervalJoinNode : PlanNode {
  IntervalJoinNode() : PlanNode(PlanKind::kIntervalJoin) {}
  JoinType join_type = JoinType::kInner;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  bool rowtime = true;   // event time (else processing time)
  int64_t lower_ms = 0;  // leftLowerBound
  int64_t upper_ms = 0;  // leftUpperBound
  int left_time = -1;    // the time attribute of each input (its column index there)
  int right_time = -1;
  ExprPtr condition;  // the whole ON condition over left ++ right (for EXPLAIN)
  ExprPtr residual;   // what is neither key nor time bound, null when none
  std::string ExplainName() const override { return "IntervalJoin"; }
  std::string ExplainAttributes() const override;
};

// OVER aggregation (Flink's OverAggregate): `agg(...) OVER (PARTITION BY k ORDER BY time ROWS|RANGE
// BETWEEN ... PRECEDING AND CURRENT ROW)`; every OVER call of a SELECT shares one window. Output = input
// columns, then one column per call; insert-only.
// One end of a batch OVER frame: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or
// UNBOUNDED FOLLOWING. `offset` is n: ROWS a row count; RANGE a distance in the order key's physical
// unit (integers as they are, DECIMAL unscaled at the key's scale, TIMESTAMP microseconds, DOUBLE).
struct OverFrameBound {
  enum class Kind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  long double offset = 0;
};

// A batch OVER call's frame (Flink's window group frame): ROWS or RANGE between two bounds.
struct OverFrame {
  bool rows = false;
  OverFrameBound start, end;
};

struct OverAggregateNode : PlanNode {
  OverAggregateNode() : PlanNode(PlanKind::kOverAggregate) {}
  std::vector<int> partition_keys;
  int order_column = -1;  // the time attribute (-1 in batch mode: `order` holds the keys)
  bool rowtime = true;    // event time (else processing time)
  bool rows_frame = false;  // ROWS (else RANGE)
  int64_t preceding = -1;   // -1: UNBOUNDED; ROWS: rows; RANGE: milliseconds
  std::vector<AggregateCall> aggs;
  // Batch mode (Flink's BatchPhysicalOverAggregate, runtime/operators/batch_over_aggregate_operator.h):
  // the input arrives sorted by partition keys then `order` (a Sort below); each call of `aggs` is
  // evaluated over its own frame (frames[i]).
  bool batch = false;
  std::vector<SortKey> order;
  std::vector<OverFrame> frames;
  std::string ExplainName() const override { return "OverAggregate"; }
  std::string ExplainAttributes() const override;
};

// Where a node's rows carry their window (Flink's WindowAttachedWindowingStrategy): the window_start
// and window_end columns of an input, and the window they come from. Set by plan/window_rank_rule.h.
struct AttachedWindow {
  WindowSpec window;
  int window_start = -1;  // input column
  int window_end = -1;    // input column
  // The time attribute is TIMESTAMP_LTZ: window bounds are local times in the session time zone.
  bool local_time = false;
  // A SESSION window's PARTITION BY column names, as Flink's summary lists them ("" when none).
  std::string session_keys;
  // Flink's summary: "TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])", "SESSION(
  // win_start=[window_start], win_end=[window_end], gap=[1 min], partition keys=[k])".
  std::string Explain(const PlanNode& input) const;
};

// Window Top-N (Flink's WindowRank): ROW_NUMBER() OVER (PARTITION BY window_start, window_end[, keys]
// ORDER BY ...) filtered to rank_start..rank_end, over rows that carry their event-time window. Each
// window's top rows are emitted once, as +I, when the watermark passes the window's end
// (runtime/operators/window_rank_operator.h). partition_keys are the keys besides the window columns.
// Output = input columns, plus the row number when output_rank_number.
struct WindowRankNode : PlanNode {
  WindowRankNode() : PlanNode(PlanKind::kWindowRank) {}
  AttachedWindow window;
  std::vector<int> partition_keys;
  std::vector<SortKey> order;
  int64_t rank_start = 1;
  int64_t rank_end = 1;
  bool output_rank_number = true;
  std::string ExplainName() const override { return "WindowRank"; }
  std::string ExplainAttributes() const override;
};

// Window deduplication (Flink's WindowDeduplicate): ROW_NUMBER() OVER (PARTITION BY window_start,
// window_end[, keys] ORDER BY rowtime ASC|DESC) = 1 — the first or last row per window and key, emitted
// once when the window closes. Output = input columns.
struct WindowDeduplicateNode : PlanNode {
  WindowDeduplicateNode() : PlanNode(PlanKind::kWindowDeduplicate) {}
  AttachedWindow window;
  std::vector<int> partition_keys;  // besides the window columns
  int order_key = -1;               // the rowtime column
  bool keep_last = false;
  std::string ExplainName() const override { return "WindowDeduplicate"; }
  std::string ExplainAttributes() const override;
};

// Window join (Flink's WindowJoin): a join of two inputs carrying the same event-time windows, on
// L.window_start = R.window_start AND L.window_end = R.window_end [AND keys ...]. Each window's rows
// are joined once the watermark passes its end, then its state is dropped; insert-only output.
// left_keys/right_keys are the equi-keys besides the window columns; `remaining` is the rest of the
// condition (key equalities and residual, as Flink prints it). Output = left columns, right columns.
struct WindowJoinNode : PlanNode {
  WindowJoinNode() : PlanNode(PlanKind::kWindowJoin) {}
  JoinType join_type = JoinType::kInner;
  AttachedWindow left_window, right_window;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  ExprPtr remaining;  // over left ++ right, null when none (EXPLAIN's where)
  ExprPtr residual;   // the non-key part of `remaining`, null when none
  std::string ExplainName() const override { return "WindowJoin"; }
  std::string ExplainAttributes() const override;
};

// Processing-time temporal join against a bounded table (Flink's LookupJoin with a full cache:
// `JOIN t FOR SYSTEM_TIME AS OF l.proctime [AS] s ON <equalities on t's columns> [AND ...]`). Input 0 is
// the probe side (insert-only); input 1 is the lookup table's scan, read to its end into memory when
// the job opens (runtime/operators/lookup_join_operator.h). EXPLAIN prints input 0 only, as Flink's
// LookupJoin reads its table through the connector. Each probe row joins every table row whose key
// columns equal its key expressions (NULL never matches) and for which the residual holds; LEFT pads
// rows without a match. Output = left columns, then the table's columns; insert-only.
struct LookupJoinNode : PlanNode {
  LookupJoinNode() : PlanNode(PlanKind::kLookupJoin) {}
  bool left_outer = false;
  std::vector<ExprPtr> left_keys;  // over the left input, each of the type of its right key column
  std::vector<int> right_keys;     // the lookup table's key columns (of input 1)
  ExprPtr residual;                // over left ++ right, null when none
  std::string table_name;          // Flink's "default_catalog.default_database.t"
  // Set by ResolveNonDeterministicUpdates (ndu_rule.h) over an updating input: Flink materializes the
  // joined rows per input row so a retraction repeats them. Sluice's table never changes once loaded,
  // so a retraction's lookup finds the same rows and the operator needs no extra state for it.
  bool upsert_materialize = false;
  std::string ExplainName() const override { return "LookupJoin"; }
  std::string ExplainAttributes() const override;
};

// Flink's Expand, below the GroupAggregate of GROUPING SETS / ROLLUP / CUBE: each input row becomes
// one row per grouping set, in order (all of a row's copies before the next row's, as Flink emits them),
// with the group keys the set leaves out set to NULL and the set's id appended as $e (BIGINT NOT NULL;
// bit i, from the highest, is set when the i-th group key is not in the set, as Calcite numbers them).
// The RowKind of the input row is kept. Output = input columns (nullable where some set nulls them),
// then $e. plan/expand_node.cc prints it as Flink does.
struct ExpandNode : PlanNode {
  ExpandNode() : PlanNode(PlanKind::kExpand) {}
  // keep[p][c]: whether grouping set p keeps input column c (else NULL); one entry per input column.
  std::vector<std::vector<bool>> keep;
  std::vector<int64_t> expand_ids;  // $e of each grouping set
  std::string ExplainName() const override { return "Expand"; }
  std::string ExplainAttributes() const override;
};

// Correlate with Flink's ReplicateRows table function (the plans of INTERSECT ALL and EXCEPT ALL):
// an input row [n, c1, ..., ck] (n BIGINT) is joined with n copies of (c1, ..., ck), each with the input
// row's RowKind; n <= 0 gives no row. Output = input columns, then c1..ck again (Flink's correlate row
// type); a Calc above keeps the copies.
struct ReplicateRowsNode : PlanNode {
  ReplicateRowsNode() : PlanNode(PlanKind::kReplicateRows) {}
  std::string ExplainName() const override { return "Correlate"; }
  std::string ExplainAttributes() const override;
};

// A value a MATCH_RECOGNIZE condition or measure reads from the rows of a (partial) match: column
// `column` of the FIRST/LAST row mapped to `variable` at `offset` (kNav), an aggregate of that column
// over the rows mapped to `variable` (kAggregate), the rowtime of the match's last row
// (kMatchRowtime), or the current processing time (kMatchProctime, MATCH_PROCTIME()). variable -1 is
// Flink's default variable * (every row of the match); -2 - i is SUBSET i, which, as in Flink 2.2,
// reads no row (Flink looks rows up by the subset's name, to which no row is mapped). In a DEFINE
// condition of variable V, the row being classified counts as the last row of V and of *.
struct MatchSlot {
  enum class Kind : uint8_t { kNav, kAggregate, kMatchRowtime, kMatchProctime };
  Kind kind = Kind::kNav;
  int variable = -1;
  bool first = false;   // kNav: FIRST (else LAST)
  int64_t offset = 0;   // kNav: rows from the first / last
  int column = -1;      // the input column read; -1 for COUNT(*)
  std::shared_ptr<const AggregateFunction> function;  // kAggregate
  LogicalType type;
  std::string text;     // EXPLAIN's form ("PREV(A.price, 0)", "SUM(A.price)")
};

// A DEFINE condition or a MEASURE: `expr` over the slot columns (column i is slots[i]).
struct MatchExpr {
  std::vector<MatchSlot> slots;
  ExprPtr expr;
  std::string Explain() const;
};

// One variable of a pattern with its quantifier (Flink's CEP runs a sequence of variables only).
// greedy: a greedy quantifier with a choice (not ?, not {n}): the next variable takes a row only when
// this one's condition rejects it.
struct MatchStage {
  int64_t min = 1;
  int64_t max = 1;  // -1: no bound
  bool greedy = false;
  bool reluctant = false;
};

// One instruction of a pattern compiled for the SQL standard's row pattern semantics (a pattern with
// alternation, a quantified group or a reluctant ?, which Flink's CEP refuses; runtime/operators/
// match_program.h runs it): kLabel maps the current row to variable `a` when its DEFINE holds and
// goes on with the next row at the next instruction; kSplit continues at `a` and, less preferred, at
// `b`; kJump continues at `a`; kDone completes a match.
struct MatchInstr {
  enum class Op : uint8_t { kLabel, kSplit, kJump, kDone };
  Op op = Op::kDone;
  int a = -1;
  int b = -1;
};

// MATCH_RECOGNIZE (Flink's Match): per partition, rows in time order are matched against the pattern
// (runtime/operators/match_operator.h); each match gives ONE ROW PER MATCH: the partition keys, then
// the measures. Insert-only in and out. A pattern Flink's CEP runs (a sequence of distinct variables
// with quantifiers) is a list of stages, variable i being stage i, matched with Flink's semantics (an
// NFA over the stages); any other pattern is `program` (stages empty, variables in order of first
// appearance, `pattern_text` as Calcite prints it), matched with the SQL standard's semantics.
struct MatchNode : PlanNode {
  MatchNode() : PlanNode(PlanKind::kMatch) {}
  enum class Skip : uint8_t { kPastLastRow, kToNextRow, kToFirst, kToLast };
  std::vector<int> partition_keys;
  std::vector<SortKey> order;  // order[0]: the time attribute
  bool rowtime = true;
  std::vector<std::string> variables;
  std::vector<MatchStage> stages;
  std::vector<MatchInstr> program;
  std::string pattern_text;
  std::vector<std::optional<MatchExpr>> define;  // per variable; none: TRUE
  std::vector<MatchExpr> measures;               // output columns after the partition keys
  Skip skip = Skip::kPastLastRow;
  int skip_variable = -1;
  int64_t within_ms = -1;  // WITHIN; -1 when absent
  std::vector<std::pair<std::string, std::vector<std::string>>> subsets;  // SUBSET, for EXPLAIN
  std::string ExplainName() const override { return "Match"; }
  std::string ExplainAttributes() const override;
};

// Flink's MiniBatchAssigner over a source when mini-batch is on (plan/mini_batch_rule.h): it cuts the
// input into mini-batches with watermarks, and the mini-batch operators downstream close their bundle
// at every watermark (runtime/operators/mini_batch_assigner_operator.h). kProcTime: watermarks of
// processing time, one per `interval_ms` passed (the input's own watermarks are dropped); kRowTime:
// the input's watermarks, forwarded only when they cross an `interval_ms` boundary.
struct MiniBatchAssignerNode : PlanNode {
  MiniBatchAssignerNode() : PlanNode(PlanKind::kMiniBatchAssigner) {}
  enum class Mode : uint8_t { kProcTime, kRowTime };
  int64_t interval_ms = 0;
  Mode mode = Mode::kProcTime;
  std::string ExplainName() const override { return "MiniBatchAssigner"; }
  std::string ExplainAttributes() const override {
    return "interval=[" + std::to_string(interval_ms) + "ms], mode=[" +
           (mode == Mode::kRowTime ? "RowTime" : "ProcTime") + "]";
  }
};

// Column names of a node's output, for printing expressions over it.
std::vector<std::string> ColumnNames(const PlanNode& node);

// One aggregate call as Flink's EXPLAIN prints it: "COUNT(DISTINCT c) FILTER $f2 AS uv".
std::string ExplainAggregateCall(const PlanNode& input, const AggregateCall& call);

}  // namespace sluice
