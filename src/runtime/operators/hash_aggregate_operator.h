// HashAggregateOperator: Flink's batch HashAggregate (one phase) — GROUP BY over a bounded,
// insert-only input that emits each group's final row once, as an insert, at the end of input. No
// update is ever emitted, so nothing downstream (a sink, a sort, another aggregate) folds changes.
//
// State: the group keys in a KeyIndex (state/key_index.h) giving each key a dense id, the key columns
// per id (one row of `key_store_`), and per id the group's accumulator block in one flat array
// (runtime/operators/accumulators.h, the same layout GroupAggregate uses). A global aggregation (no
// GROUP BY) has exactly one result row, also over an empty input (COUNT(*) = 0, SUM NULL), as Flink's
// batch aggregates.
//
// Checkpoints (a bounded job may take them): SnapshotState writes the keys, key columns and blocks.
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"
#include "state/key_index.h"

namespace sluice {

class HashAggregateOperator final : public Operator {
 public:
  HashAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> keys,
                        std::vector<AccumulatorCall> aggs, std::vector<LogicalType> output_types);
  ~HashAggregateOperator() override;
  Status Process(int input, Chunk& chunk) override;

  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  size_t num_groups() const { return index_.size(); }
  // Keys, key columns and accumulator blocks (with the heap non-plain blocks own, walked).
  size_t StateBytes() const override;

 protected:
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  uint8_t* block(uint32_t id) { return blocks_.data() + static_cast<size_t>(id) * stride_; }
  const uint8_t* block(uint32_t id) const { return blocks_.data() + static_cast<size_t>(id) * stride_; }
  // Emits the final rows of groups [begin, end) (an empty global aggregation: its one row).
  Status EmitGroups(size_t begin, size_t end);

  std::vector<LogicalType> input_types_;
  std::vector<int> keys_;
  std::vector<LogicalType> output_types_;
  AccumulatorLayout layout_;
  size_t stride_;
  KeyIndex index_;               // encoded group key -> id
  Chunk key_store_;              // row id: the key columns of group id
  std::vector<uint8_t> blocks_;  // per id: stride_ bytes, the group's accumulator block
  std::vector<std::string> encoded_;
};

}  // namespace sluice
