// RankOperator: Flink's Rank (streaming Top-N), `ROW_NUMBER() OVER (PARTITION BY p ORDER BY o) <= N`.
//
// Per partition it keeps the rows ranked rank_start..rank_end by `order` (ROW_NUMBER: ties rank in
// arrival order) and emits Flink's changelog for them, choosing the strategy Flink's StreamExecRank
// chooses from the same facts:
// - insert-only input, rank range 1..1: FastTop1Function. A better row replaces the top one with
//   -U old (if update-before is needed) and +U new; ties keep the first row.
// - other insert-only input: AppendOnlyTopNFunction. Without the rank number (and rank_start 1) a row
//   entering the top emits -D for the row it pushes out, then +I for itself. With the rank number,
//   or with an offset (rank_start > 1), each rank whose row changes is updated (-U/+U with the rank),
//   and a rank filled for the first time gets +I; rows leaving the range need no -D.
// - input with retractions: RetractableTopNFunction. It keeps every row of the partition. An
//   accumulate row enters like the append case; a retraction (-U/-D) removes the stored equal row:
//   without the rank number it emits -D for it and +I for the row that moves up into rank_end (so an
//   update of a top row is -D old, +I new, never -U/+U); with the rank number the ranks below shift
//   up with -U/+U pairs and the last rank gets -D.
// Rows outside the range emit nothing. output_rank_number appends the rank as a BIGINT column.
// - RANK and DENSE_RANK (which Flink 2.2 refuses in streaming; rank_operator_ties.cc): every tied row
//   shares its rank (RANK: 1 + the rows ordered before it, DENSE_RANK: 1 + the distinct sort keys
//   before it), so a range holds whole groups of ties. Each row that enters the range emits +I, each
//   that leaves it -D, and with the rank number a row whose rank changes within the range emits -U
//   old rank / +U new rank of itself (a row, not a rank, is the unit of change: ranks are not unique).
//   A retracting input keeps every row of the partition; an insert-only one keeps the rows ranked up
//   to rank_end (ranks only grow there, so rows beyond never come back).
//
// Sort keys are encoded order-preservingly (state/sort_key.h), so the per-partition buffer is an
// ordered map from encoded key to the row ids of its ties in arrival order (Flink's TopNBuffer; a
// chunked sorted vector, runtime/operators/rank_buffer.h, without per-key tree nodes). Rows
// live in a RowArena, compacted when released rows outnumber live ones. Outputs are gathered from
// the arena column by column; a -U/+U pair never splits across output chunks.
//
// State: partition keys map to dense ids through a KeyIndex (state/key_index.h); the buffers are a
// flat vector indexed by partition id. Invariants: every id in a buffer names a live arena row,
// live rows = the rows of all buffers = the arena's unreleased rows.
//
// Checkpoints: a full snapshot writes the arena, the partition keys and every buffer. An incremental
// one (state/delta.h) writes the arena rows appended since the last snapshot or restore, the new
// partitions, and the whole buffer of each partition written since (a DeltaTracker over partition
// ids). Compacting the arena renumbers rows, so after it CanSnapshotDelta() is false until the next
// full snapshot. Operator::ApplyDelta refuses a delta on any other state than its base (twice, out
// of order, to a fresh operator); RestoreDelta also refuses one on a state changed since then.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"

namespace sluice {

class RankOperator final : public Operator {
 public:
  struct SortKey {
    int column;
    bool ascending;
    bool nulls_first;
  };
  // Flink's RankType.
  enum class RankType { kRowNumber, kRank, kDenseRank };
  // "ROW_NUMBER", "RANK" or "DENSE_RANK" (a RankNode's rank_function).
  static RankType RankTypeOf(const std::string& function);
  // Top-N: per partition (`partition_keys`) keep the rows ranked rank_start..rank_end by `order`
  // (ROW_NUMBER semantics). output_rank_number: append the rank (BIGINT) as the last output column.
  // input_has_retractions: the input carries -U/-D (then rows can leave the top and lower rows come
  // back). emit_update_before: downstream needs -U rows. rank_type: how ties rank.
  RankOperator(std::string name, std::vector<LogicalType> types, std::vector<int> partition_keys,
               std::vector<SortKey> order, int64_t rank_start, int64_t rank_end, bool output_rank_number,
               bool input_has_retractions, bool emit_update_before, RankType rank_type = RankType::kRowNumber);
  ~RankOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows held in state, partitions seen, and retractions that matched no stored row (a sign that
  // upstream state and this operator's state disagree; Flink only logs these).
  size_t state_rows() const;
  size_t num_partitions() const;
  int64_t retractions_not_found() const;
  // Partitions, stored rows and the sorted buffers (an estimate per buffered row), delta tracking.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // False until the first snapshot or restore, and after a compaction renumbered the stored rows.
  bool CanSnapshotDelta() const override;

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  struct Partition;
  enum class Strategy { kTop1, kAppendOnly, kRetract, kTies };

  void ProcessTop1(Partition& p, std::string& sort_key, uint32_t id);
  void ProcessAppendOnly(Partition& p, std::string& sort_key, uint32_t id);
  void AccumulateRetractable(Partition& p, std::string& sort_key, uint32_t id);
  void RetractRetractable(Partition& p, const std::string& sort_key, const Chunk& chunk, size_t row);
  bool CanEnter(const Partition& p, const std::string& sort_key) const;
  // RANK and DENSE_RANK (rank_operator_ties.cc).
  void AccumulateTies(Partition& p, std::string& sort_key, uint32_t id);
  void RetractTies(Partition& p, const std::string& sort_key, const Chunk& chunk, size_t row);
  // The changes of a row whose rank goes from old_rank to new_rank (0: not ranked, a new or gone row).
  void ChangeRank(uint32_t id, int64_t old_rank, int64_t new_rank);
  // Insert-only input: forget the rows ranked beyond rank_end.
  void TrimTies(Partition& p);

  void Collect(uint32_t id, RowKind kind, int64_t rank);
  void CollectPlain(uint32_t id, RowKind kind);
  void ReleaseRow(uint32_t id);
  Status Flush();
  void MaybeCompact();
  // The current state becomes the base of the next delta (after every snapshot and restore).
  void ResetDeltaBase();

  std::vector<LogicalType> types_;
  std::vector<int> partition_keys_;
  std::vector<SortKey> order_;
  int64_t rank_start_;
  int64_t rank_end_;
  bool output_rank_number_;
  bool input_has_retractions_;
  bool emit_update_before_;
  RankType rank_type_;
  Strategy strategy_;
  // Flink's "with row number" algorithm also serves an offset (rank_start > 1) without the number.
  bool with_row_number_;
  std::vector<LogicalType> output_types_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
