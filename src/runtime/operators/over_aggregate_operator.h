// OverAggregateOperator: Flink's OverAggregate, `agg(...) OVER (PARTITION BY k ORDER BY time
// {ROWS|RANGE} BETWEEN {n|UNBOUNDED} PRECEDING AND CURRENT ROW)`, insert-only in and out: every input
// row is emitted once with the value of each aggregate over its frame.
//
// Event time: rows wait until the watermark passes them and are then processed in (time, arrival)
// order; rows of one partition with the same time are processed together. RANGE gives every row of a
// time T the aggregate over the rows with time in [T - preceding, T]; ROWS gives each row the aggregate
// over itself and the `preceding` rows before it. Rows that leave a bounded frame are retracted from
// the accumulators (so every aggregate, COUNT(DISTINCT) included, stays exact) and freed.
// Late rows are dropped and reported (Operator::ReportLate): with a ROWS n PRECEDING frame, a row whose
// time is not after its partition's last processed time (as Flink's function); otherwise (RANGE frames,
// unbounded frames) a row whose time is not after the watermark. For RANGE ... PRECEDING this is
// stricter than Flink's per-key check (which also accepts a row behind the watermark when its key has
// not yet processed a later time): it keeps processing in global time order, so a row leaves every
// frame once the processed time passes its time + preceding and is freed then, with its partition when
// that was the partition's last row (bounded state, like Flink's cleanup timers, but exact).
// Processing time: rows are processed as they arrive, one at a time, at the injected clock's time.
//
// State (bounded RANGE frames, the design drill's case): per row in a frame only its time (4 bytes,
// relative to a block base), its partition and, per DISTINCT call, a reference to a pooled
// (partition, value) counter; values of other calls' arguments only for the columns they read. Rows
// waiting for the watermark keep the input columns (they are emitted). Partition keys, accumulator
// states and DISTINCT counters live in paged pools indexed by open-addressing tables of 32-bit ids.
// state_bytes() measures it all (not counting heap memory that MIN/MAX-with-retraction states own).
//
// Checkpoints: SnapshotState writes the pools with their ids and free lists (so restored frames,
// DISTINCT counters and partitions keep their ids), every live partition's key and accumulator states
// (each function's serialize hook, or its raw bytes), the DISTINCT counters, the RANGE frame blocks,
// the ROWS frames with their stored rows, and the rows waiting for the watermark with the
// out-of-order heap. Hash indexes are rebuilt (same capacity). RestoreState checks every count, id
// and cross-reference (frame rows against partitions and counters, counters' counts against the
// rows that reference them) and the orders processing relies on (RANGE frame rows by time, each
// stored ROWS row in one frame at most and oldest first, the pending rows' times against the
// out-of-order heap and the in-order sequence), so corrupt state is refused with an error. Nothing of
// this runs on the processing path.
//
// Incremental checkpoints (state/delta.h): after a snapshot or restore (the base), a delta holds what
// changed since, in O(changed data): the sizes of the base (a delta on a state of other sizes is
// refused); each pool's new size and its free list above the length it kept (free lists are stacks);
// the partitions, DISTINCT counters and DISTINCT values written since (a DeltaTracker per pool: one
// bit test per write on the processing path), each in full (a partition with its key, states and ROWS
// frame); the RANGE frame's blocks popped since, the rows its last base block gained and its new
// blocks; the stored ROWS rows appended since (after a compaction renumbered them, CanSnapshotDelta()
// is false until the next full snapshot); the pending rows' positions, blocks popped and rows
// appended, the out-of-order positions' queue as a DeltaQueue and the out-of-order heap in full (it
// holds only rows that came out of order and still wait). RestoreDelta patches the state in place and
// then reads it back as a full snapshot (RestoreState), so a delta's result passes every check a full
// snapshot does and the hash indexes are rebuilt; a restore therefore costs O(state) per delta.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/accumulators.h"
#include "types/logical_type.h"

namespace sluice {

class OverAggregateOperator final : public Operator {
 public:
  // `preceding`: -1 for UNBOUNDED; ROWS: a row count; RANGE: milliseconds.
  OverAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> partition_keys,
                        int order_column, bool rowtime, bool rows_frame, int64_t preceding,
                        std::vector<AccumulatorCall> calls, std::vector<LogicalType> output_types);
  ~OverAggregateOperator() override;

  Status Process(int input, Chunk& chunk) override;
  // state_bytes() (the figure the job summary's state_peak reports).
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Deltas: none after stored ROWS rows were compacted (renumbered) since the last snapshot.
  bool CanSnapshotDelta() const override;
  // Rows held: waiting for the watermark, or inside a bounded frame.
  size_t state_rows() const;
  // Bytes of state held now. After every watermark and processing-time chunk the operator records
  // the most it held in metrics().peak_state_bytes, with the rows its bounded frames held then
  // (metrics().state_rows_at_peak; rows waiting for the watermark not counted): the job summary's
  // `state_peak=OverAggregate(<bytes>B, rows=<rows>)`.
  size_t state_bytes() const;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* writer) override;
  Status RestoreState(StateReader* reader) override;
  Status SnapshotDelta(StateWriter* writer) override;
  Status RestoreDelta(StateReader* reader) override;
  // Replaces the state by an empty one (after a failed restore).
  void DropState() override;

 private:
  struct State;
  // One ProcessBatch call's steps (over_aggregate_operator.cc).
  struct BatchRun;
  // RestoreState's steps (over_aggregate_snapshot.cc).
  struct StateReadback;
  // Processes the rows of `batch` in order: rows with equal `times` together (event time) or one at a
  // time (processing time), and emits them with their aggregates.
  Status ProcessBatch(const Chunk& batch, const std::vector<int64_t>& times, bool ties_together);
  void MeasureState();
  // A state with no rows, set up for this operator's calls and columns.
  std::unique_ptr<State> NewState() const;
  // Destroys the accumulator states of `s`'s live partitions.
  void DestroyAccumulators(State& s) const;
  // The positions of the rows waiting for the watermark and their out-of-order heap, as full
  // snapshots and deltas both write them.
  static void PutPendingHead(StateWriter* w, const State& s);
  static void GetPendingHead(StateReader* r, State* s);
  // RestoreDelta's steps (over_aggregate_delta.cc): each patches one part of `s` in place from `r`.
  Status PatchPartitions(StateReader* r, State& s) const;
  static Status PatchDistinct(StateReader* r, State& s);
  Status PatchRangeFrame(StateReader* r, State& s) const;
  Status PatchRowsFrames(StateReader* r, State& s) const;
  Status PatchPending(StateReader* r, State& s) const;
  // Reads the patched state back as a full snapshot (RestoreState checks it and replaces state_);
  // fails `r` with what that finds wrong.
  Status ReadBackAfterDelta(StateReader* r);
  // Makes `s` (just snapshotted or restored) the base of the next delta.
  static void ResetDeltaBase(State& s);
  // The sizes of `s`'s base (`at_base`, for a delta) or of `s` now (a delta applies only to a state of
  // its base's sizes).
  static std::vector<uint64_t> BaseSizes(const State& s, bool at_base);

  std::vector<LogicalType> input_types_;
  std::vector<int> partition_keys_;
  int order_column_;
  bool rowtime_;
  bool rows_frame_;
  int64_t preceding_;
  AccumulatorLayout layout_;
  std::vector<LogicalType> output_types_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
