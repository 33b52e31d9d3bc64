// The state of a RankOperator (runtime/operators/rank_operator.h), shared by its two source files:
// rank_operator.cc (ROW_NUMBER, checkpoints) and rank_operator_ties.cc (RANK, DENSE_RANK).
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "runtime/operators/rank_buffer.h"
#include "runtime/operators/rank_operator.h"
#include "state/delta.h"
#include "state/key_index.h"
#include "state/row_arena.h"

namespace sluice {

// Flink's TopNBuffer for one partition: encoded sort key -> row ids of its ties, in arrival order.
// For the retract strategy it holds every row of the partition; otherwise only the top rows.
struct RankOperator::Partition {
  RankBuffer buffer;
  size_t rows = 0;
};

struct RankOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}

  KeyIndex partition_index;           // encoded partition key -> partition id
  std::vector<Partition> partitions;  // by partition id
  RowArena arena;
  size_t live_rows = 0;
  size_t dead_rows = 0;
  int64_t retractions_not_found = 0;

  // Incremental checkpoints: the partitions written since the last snapshot or restore, the arena's
  // size then, and whether a compaction renumbered the rows since.
  DeltaTracker dirty;
  size_t arena_base = 0;
  bool renumbered = false;

  // Scratch, reused across chunks.
  std::vector<std::string> encoded;
  std::vector<std::string> sort_keys;
  std::vector<uint32_t> partition_of_row;
  std::vector<uint32_t> row_id;
  std::vector<uint32_t> sel;
  // Pending output: row id, kind and rank of each change, in emission order.
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;
  std::vector<int64_t> out_ranks;
};

}  // namespace sluice
