// TemporalJoinOperator: Flink's event-time temporal join (TemporalRowTimeJoinOperator): each left (probe)
// row joins the version of the right (versioned) side that was in force at the left row's event time.
//
// Input 0 is the left side (rows buffered until the watermark passes them; an updating left side's
// -U/+U/-D rows are joined like inserts and keep their kind, as Flink 2.2's); input 1 the
// versioned side, a changelog keyed by the join key whose rows are versions stamped with their rowtime.
// Per key the versions are kept sorted by time; a later version with the same time replaces the
// earlier one, and a -U/-D version means "no row from this time on" (as Flink's state, a map from
// rowtime to row).
// When the combined watermark advances to W, every buffered left row with time <= W is emitted, in
// (time, arrival) order: [left, version] (the left row's kind) with the latest version whose time <= the left row's time,
// if that version is not a retraction and the residual condition holds; otherwise nothing (INNER) or
// [left, NULLs] (LEFT). Then versions older than the newest one at or before W are dropped (it stays:
// later left rows may still need it). A NULL join key never matches. End of input (W = +inf) flushes
// every buffered row. Output has the left side's kinds (insert-only over an insert-only left side).
//
// State is keyed through the shared keyed-state pieces (state/key_index.h, state/delta.h): a KeyIndex
// gives each join key a dense id, the version lists are per id, and checkpoints can be incremental
// (SnapshotDelta: the new rows, the new keys, and the version lists of the keys written since the
// last snapshot). Compacting an arena renumbers rows: the next checkpoint is then a full snapshot.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"

namespace sluice {

class TemporalJoinOperator final : public Operator {
 public:
  TemporalJoinOperator(std::string name, std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
                       std::vector<int> left_keys, std::vector<int> right_keys, int left_time, int right_time,
                       bool left_outer, ExprPtr residual);
  ~TemporalJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Left rows waiting for the watermark, and versions kept, over all keys.
  size_t buffered_left_rows() const;
  size_t stored_versions() const;
  // Stored rows of both sides, the versions per key, the waiting left rows and delta tracking.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
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
  Status ProcessLeft(const Chunk& chunk);
  Status ProcessRight(const Chunk& chunk);
  // Emits the joined rows for the left rows `left_ids` matched to `right_ids` (kNullRow: no version).
  Status EmitJoined(const std::vector<uint32_t>& left_ids, std::vector<uint32_t>* right_ids);
  // Rebuild an arena with its live rows only (keeping their order), renumbering them.
  void CompactLeft();
  void CompactRight();
  // The pending heap from the left rows still waiting (after a restore or compaction).
  void RebuildPending();
  // After a restore: refuses state that points outside its tables, rebuilds the derived state.
  void ValidateAndDerive(StateReader* r);

  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  std::vector<int> left_keys_;
  std::vector<int> right_keys_;
  int left_time_;
  int right_time_;
  bool left_outer_;
  ExprPtr residual_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
