// NonTimeOverAggregateOperator: Flink 2.2's OverAggregate ordered by a column that is not a time
// attribute (its NonTimeRowsUnboundedPrecedingFunction / NonTimeRangeUnboundedPrecedingFunction):
// `agg(...) OVER (PARTITION BY k ORDER BY c [ROWS|RANGE] BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`.
//
// Every partition keeps its rows ordered by c (ascending, NULLs first; rows with equal c in arrival
// order). A row's result is the aggregate over the rows before it and itself (ROWS), or over every row
// whose c is not greater than its own (RANGE: rows with equal c share one result). A row that arrives
// after the rows it precedes changes their results, so the output updates:
// - +I (or +U for a +U input row): the new row with its result. With RANGE, the rows of equal c that
//   were there before come first, each as -U (old result) / +U (new result).
// - Then every later row whose result changed, in order, as -U / +U. As Flink, this stops at the
//   first later row (or RANGE group) whose result did not change; Flink counts a SUM over a nullable
//   column as COUNT and $SUM0 (Calcite's rewrite), so a row whose SUM argument is not NULL never stops it.
// - A -U / -D input row removes the first stored row equal to it (among those of its c): -D with its
//   last result, then the later rows' updates as above. A retraction of a row that is not there is
//   skipped and counted (metrics().retractions_without_state), as Flink's numOfIdsNotFound.
// -U rows are emitted only when `emit_update_before` (a consumer needs them); Flink's plan prints
// [I,UA,D] for a SELECT.
//
// Cost: a row that sorts after every row of its partition (in-order input) costs O(log n) and one
// accumulation into the partition's running state; any other row, or a retraction, re-accumulates the
// partition (O(n)), as Flink's function walks its sorted list. Rows are kept in a RowArena (columnar,
// no boxed values); each partition keeps its rows' encoded ORDER BY values (state/sort_key.h), their
// arena ids and one accumulator block over all its rows.
//
// Checkpoints: the rows of every partition in order (RowArena::SnapshotRows) and each partition's
// row count. A restore re-derives the partition keys, the ORDER BY encodings and the accumulators
// from the rows, refusing a snapshot whose rows are out of order or whose partitions repeat. The
// arena is compacted (released rows dropped) when they outnumber the live ones.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"
#include "types/logical_type.h"

namespace sluice {

class NonTimeOverAggregateOperator final : public Operator {
 public:
  // Output = input columns, then one column per call (`output_types`).
  NonTimeOverAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> partition_keys,
                               int order_column, bool rows_frame, std::vector<AccumulatorCall> calls,
                               std::vector<LogicalType> output_types, bool emit_update_before);
  ~NonTimeOverAggregateOperator() override;

  Status Process(int input, Chunk& chunk) override;
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Rows held in state.
  size_t state_rows() const;

 protected:
  Status SnapshotState(StateWriter* writer) override;
  Status RestoreState(StateReader* reader) override;
  void DropState() override;

 private:
  struct Partition;
  struct State;
  Status ProcessRow(const Chunk& chunk, size_t row, const std::string& key, Chunk* out);
  // Re-accumulates partition `p` with its row at `pos` just inserted (`inserted`) or about to be
  // removed, emitting that row's change and the later rows' updates to `out`; leaves `p`'s running
  // state over its rows after the change.
  void Recompute(Partition& p, size_t pos, bool inserted, RowKind kind, bool sum_count_changes, Chunk* out);
  // Appends stored row `id` with the results in `block` as `kind`.
  void AppendResult(uint32_t id, const uint8_t* block, RowKind kind, Chunk* out) const;
  // Whether the results in two blocks are equal.
  bool SameResults(const uint8_t* a, const uint8_t* b);
  // Whether the row's arguments to a SUM over a nullable column or to an AVG are not all NULL (the
  // count in Flink's accumulator changes with it).
  bool ChangesSumCount(const Chunk& chunk, size_t row) const;
  // Drops the released rows from the arena (renumbering the stored ids).
  void Compact();

  std::vector<LogicalType> input_types_;
  std::vector<int> partition_keys_;
  int order_column_;
  bool rows_frame_;
  AccumulatorLayout layout_;
  std::vector<LogicalType> output_types_;
  bool emit_update_before_;
  std::vector<int> sum_count_args_;  // see ChangesSumCount
  Chunk compare_;                    // two rows of results, for SameResults
  std::unique_ptr<State> state_;
};

}  // namespace sluice
