// SortMergeJoinOperator: Flink's batch SortMergeJoin — an equi-join (INNER, LEFT/RIGHT/FULL OUTER,
// SEMI, ANTI) of two bounded, insert-only inputs that emits its result once, as inserts, at the end of
// its inputs (runtime/operators/batch_join_operator.h: holding, residual, padding, SEMI/ANTI,
// checkpoints). The planner picks it over HashJoin when 'table.exec.disabled-operators' disables the
// hash joins (plan/batch_physical.h).
//
// At the end of both inputs each side is sorted on its join keys (an order-preserving encoding,
// state/sort_key.h: ascending SQL order; a stable sort, so equal keys keep their arrival order), and
// the two sorted runs are merged: every key present on both sides joins each of its left rows (in
// arrival order) with each of its right rows (in arrival order), the residual evaluated over the
// candidate pairs in batches of about 4096. Output therefore comes in join-key order. Within a batch,
// the joined rows come first, then its outer rows that matched nothing, padded with NULLs: the left
// ones (LEFT/FULL) in key order, then the right ones (RIGHT/FULL) in key order. Join keys compare with
// SQL equality (-0.0 equals 0.0): a row with a NULL key matches nothing; such rows are padded first.
// SEMI and ANTI joins emit their left rows in arrival order, as HashJoin does.
//
// The sort is in memory (no spilling): the held rows are the operator's state bytes; the sort keys
// and permutations exist only while joining.
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/operators/batch_join_operator.h"

namespace sluice {

class SortMergeJoinOperator final : public BatchJoinOperator {
 public:
  // Input 0 is the left side, 1 the right; see BatchJoinOperator. Every key column's type must be
  // sortable (IsSortKeyEncodable; the planner checks).
  SortMergeJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                        std::vector<LogicalType> right_types, std::vector<int> left_keys,
                        std::vector<int> right_keys, ExprPtr residual, std::vector<LogicalType> output_types);

 protected:
  Status Join() override;

 private:
  // One side sorted: the rows with a NULL key (arrival order), and the others' ids in key order with
  // their encoded keys (keys[id]).
  struct SortedSide {
    std::vector<uint32_t> null_keyed;
    std::vector<uint32_t> order;
    std::vector<std::string> keys;
  };
  static SortedSide Sort(const Chunk& rows, const std::vector<int>& key_columns);
  // Pads the unmatched rows among sorted positions [*begin, end) of `side`, then moves *begin to end.
  Status PadRange(int side, const std::vector<uint32_t>& order, size_t* begin, size_t end);
};

}  // namespace sluice
