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

// Column names of a node's output, for printing expressions over it.
std::vector<std::string> ColumnNames(const PlanNode& node);

}  // namespace sluice
