// HashJoinOperator: Flink's batch HashJoin — an equi-join (INNER, LEFT/RIGHT/FULL OUTER, SEMI, ANTI)
// of two bounded, insert-only inputs that emits its result once, as inserts, at the end of its
// inputs (runtime/operators/batch_join_operator.h: holding, residual, padding, SEMI/ANTI, checkpoints).
//
// The right side (the build side) is hashed on its join keys, and the left side probes it in its
// arrival order: each left row's matches in the right side's arrival order, the residual evaluated
// over the candidate pairs in batches. The outer left rows of a batch that matched nothing follow its
// joined rows, padded with NULLs; unmatched right rows (RIGHT/FULL) come last. Join keys compare with
// SQL equality: a row with a NULL key matches nothing.
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/operators/batch_join_operator.h"

namespace sluice {

class HashJoinOperator final : public BatchJoinOperator {
 public:
  // Input 0 is the left side, 1 the right (build) side; see BatchJoinOperator.
  HashJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                   std::vector<LogicalType> right_types, std::vector<int> left_keys, std::vector<int> right_keys,
                   ExprPtr residual, std::vector<LogicalType> output_types);

 protected:
  Status Join() override;
};

}  // namespace sluice
