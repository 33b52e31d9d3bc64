// BatchRankOperator: Flink's batch Rank (global) — Top-N and dedup over a bounded, insert-only input:
// ROW_NUMBER / RANK / DENSE_RANK() OVER (PARTITION BY p ORDER BY o) filtered to a rank range. The rows
// are held to the end of input, then sorted by (partition keys, order keys, arrival) — arrival
// descending for a keep-last dedup — and each partition's rows ranked rank_start..rank_end are emitted
// once, as inserts, in that order; the rank number (BIGINT) follows the input columns when asked.
// Nothing is ever retracted (a streaming Rank updates its top as rows arrive).
//
// Checkpoints (a bounded job may take them): the rows held so far.
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/operator.h"

namespace sluice {

class BatchRankOperator final : public Operator {
 public:
  enum class RankFunction { kRowNumber, kRank, kDenseRank };
  struct Options {
    std::vector<int> partition_keys;
    std::vector<int> order_columns;
    std::vector<bool> ascending, nulls_first;  // per order column
    int64_t rank_start = 1;
    int64_t rank_end = -1;  // -1: no upper bound
    RankFunction function = RankFunction::kRowNumber;
    bool output_rank_number = true;
    bool ties_latest_first = false;
  };
  BatchRankOperator(std::string name, std::vector<LogicalType> input_types, std::vector<LogicalType> output_types,
                    Options options);
  Status Process(int input, Chunk& chunk) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  size_t StateBytes() const override { return rows_.MemoryUsage(); }

 protected:
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override { rows_ = Chunk(input_types_); }

 private:
  // Emits rows `ids` of rows_ with their rank numbers.
  Status EmitRows(const std::vector<uint32_t>& ids, const std::vector<int64_t>& ranks);

  std::vector<LogicalType> input_types_, output_types_;
  Options o_;
  Chunk rows_;
};

}  // namespace sluice
