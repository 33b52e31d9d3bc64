// Sort operators for ORDER BY / LIMIT / OFFSET.
//
// TemporalSortOperator: Flink's TemporalSort, the streaming ORDER BY whose first key is a time
// attribute in ascending order.
// - Event time (RowTimeSortOperator): rows wait in state until the watermark reaches their rowtime,
//   then leave in (rowtime, remaining ORDER BY keys, arrival) order. A row whose rowtime is at or
//   below the largest rowtime already emitted is late: it could no longer be emitted in order, so it
//   is dropped and reported with Operator::ReportLate (Flink drops it too, against the same
//   bound). A row with a NULL rowtime has no place in the order and is dropped and counted as well.
//   Rows behind the watermark but after the last emitted rowtime still sort correctly and leave at
//   the next watermark.
// - Processing time (ProcTimeSortOperator): Sluice's processing time advances with every row
//   (arrival order is processing-time order, no clock is read), so every row is alone at its instant
//   and leaves at once; the remaining ORDER BY keys never reorder anything.
// The input must be insert-only (the planner guarantees it); output is insert-only.
//
// SortOperator: a bounded Sort (batch mode): Flink's Sort, SortLimit and Limit of batch execution.
// It folds its input (+I/+U add a row, -U/-D remove the most recent equal row), and when the input
// ends emits the rows in ORDER BY order (ties in arrival order; no ORDER BY keeps arrival order),
// skipping `offset` rows and emitting at most `fetch` (-1: all), as +I. Watermarks are held back
// until the end, since every row leaves then. A Limit (no ORDER BY) over insert-only input keeps
// only its first offset + fetch rows.
//
// Both keep rows in a RowArena and order them by order-preserving encoded keys (state/sort_key.h).
// Both checkpoint their rows (SnapshotState/RestoreState), so a batch job with an ORDER BY can run
// with 'state.checkpoints.dir' and resume from its last checkpoint.
//
// Checkpoints. Row ids are arrival order, so ties (equal encoded keys) are ordered by id, and every
// index (the temporal sort's waiting map, the sort's retraction index) is rebuilt on restore from
// the stored rows; no encoded key is written. Full snapshots write the whole arena (every slot, so
// ids stay valid) and which slots hold rows: the temporal sort a waiting flag per row, the sort its
// released ids. Incremental checkpoints (state/delta.h; SnapshotDelta, synchronous cost O(changes)):
// - TemporalSort: the rows appended since the last snapshot or restore (RowArena::SnapshotTail),
//   how many of the base's waiting rows left since (rows leave in key order, so they are the first
//   ones of the base's order), the waiting flags of the appended rows, and the scalars. The
//   watermark compacts the arena (renumbering rows) once released rows outnumber waiting ones; after
//   that CanSnapshotDelta() is false until the next full snapshot.
// - Sort: the rows appended since, the ids of the rows its retractions released since (base rows
//   and new ones), and the live row count. A full snapshot first compacts the arena when more than
//   an eighth of it is released (the sort keeps ids otherwise), so ids never change in between.
// Operator::ApplyDelta refuses a delta on another base; RestoreDelta also refuses one on a state
// changed since its last snapshot or restore, and bounds-checks everything; a failure halfway
// leaves partial state that DropState clears.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"

namespace sluice {

// One ORDER BY key: an input column, its direction and where its NULLs go.
struct SortSpec {
  int column;
  bool ascending;
  bool nulls_first;
};

class TemporalSortOperator final : public Operator {
 public:
  // order[0] is the time attribute (ascending); `rowtime` says event time (else processing time).
  TemporalSortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order, bool rowtime);
  ~TemporalSortOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows waiting for the watermark.
  size_t state_rows() const;
  // Stored rows and the waiting rows' ordering (an estimate per waiting row).
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // False until the first snapshot or restore, and after a compaction renumbered the stored rows.
  bool CanSnapshotDelta() const override;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  void MaybeCompact();
  // The current state becomes the base of the next delta.
  void ResetDeltaBase();
  // After a restore: the waiting rows agree with the arena and the scalars.
  void CheckRestored(StateReader* r) const;
  // Restores: adds the rows from `begin` on whose waiting flag is set to the waiting map.
  void AddWaitingRows(size_t begin, StateReader* r);

  std::vector<LogicalType> types_;
  std::vector<SortSpec> order_;
  bool rowtime_;
  std::unique_ptr<State> state_;
};

class SortOperator final : public Operator {
 public:
  // `order` may be empty (LIMIT without ORDER BY); fetch -1 means no limit. input_has_retractions:
  // the input carries -U/-D rows to fold.
  SortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order, int64_t offset,
               int64_t fetch, bool input_has_retractions);
  ~SortOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows held (folded input so far).
  size_t state_rows() const;
  // Stored rows, their live flags and, when folding retractions, the copies per row (an estimate).
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // True once there is a base (a snapshot or restore): the sort never renumbers rows in between.
  bool CanSnapshotDelta() const override;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;
  // The arena (compacted first when more than an eighth of it is released) and its released ids; a
  // restore rebuilds the retraction index from the rows themselves.
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  // The current state becomes the base of the next delta.
  void ResetDeltaBase();
  // Renumbers the live rows 0.. in arrival order, dropping the released slots.
  void Compact();
  // After a restore: the counts agree, the Limit holds no more than it keeps, and the retraction
  // index is rebuilt from the rows.
  void FinishRestore(StateReader* r);

  std::vector<LogicalType> types_;
  std::vector<SortSpec> order_;
  int64_t offset_;
  int64_t fetch_;
  bool input_has_retractions_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
