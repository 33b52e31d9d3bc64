// ReplicateRowsOperator: the Correlate with Flink's ReplicateRows table function that ends the plans of
// INTERSECT ALL and EXCEPT ALL (plan node ReplicateRowsNode in plan/plan_node.h). An input row
// [n, c1, ..., ck] is emitted n times as [n, c1, ..., ck, c1, ..., ck] (Flink's correlate row type: the
// input, then the function's columns), each copy with the input row's RowKind; n <= 0 or NULL emits
// nothing. A -U/+U pair of the aggregate below therefore becomes n -U rows and then m +U rows, as in
// Flink.
//
// Columnar: one gather per column over a chunk (a selection vector repeating each row n times).
//
// Threading: the job's task thread. Stateless.
#pragma once

#include "runtime/operator.h"
#include "types/schema.h"

namespace sluice {

class ReplicateRowsOperator final : public Operator {
 public:
  ReplicateRowsOperator(std::string name, Schema output) : Operator(std::move(name), 1), output_(std::move(output)) {}
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  Status Process(int input, Chunk& chunk) override;

 private:
  Schema output_;
};

}  // namespace sluice
