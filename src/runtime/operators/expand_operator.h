// ExpandOperator: Flink's Expand below the GroupAggregate of GROUPING SETS / ROLLUP / CUBE (plan node
// ExpandNode in plan/plan_node.h). Each input row becomes one row per grouping set, the row's copies
// next to each other in set order (as Flink emits them), with the columns the set leaves out NULL and
// the set's id appended as $e; every copy keeps the input row's RowKind.
//
// Columnar: one gather per column over a chunk (a selection vector repeating each row once per set),
// then the dropped columns' null bits; no per-row calls.
//
// Threading: the job's task thread. Stateless.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/operator.h"
#include "types/schema.h"

namespace sluice {

class ExpandOperator final : public Operator {
 public:
  // keep[p][c]: whether grouping set p keeps input column c; expand_ids[p]: its $e value; `output`:
  // the node's schema (input columns, then $e).
  ExpandOperator(std::string name, std::vector<std::vector<bool>> keep, std::vector<int64_t> expand_ids, Schema output);
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  Status Process(int input, Chunk& chunk) override;

 private:
  std::vector<std::vector<bool>> keep_;
  std::vector<int64_t> expand_ids_;
  Schema output_;
};

}  // namespace sluice
