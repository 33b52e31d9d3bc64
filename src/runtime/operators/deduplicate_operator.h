// DeduplicateOperator: Flink's Deduplicate, `ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time) = 1`.
//
// Four variants, each with Flink's changelog (flink-table-runtime operators.deduplicate):
// - proctime, keep first (ORDER BY proctime ASC): +I for the first row of each key, then nothing;
//   insert-only (ProcTimeDeduplicateKeepFirstRowFunction).
// - proctime, keep last (DESC): +I for the first row, then for each later row -U old (when the
//   consumer needs update-before) and +U new; a row equal to the kept one changes nothing
//   (ProcTimeDeduplicateKeepLastRowFunction without state TTL).
// - rowtime, keep first: insert-only by watermark. The row with the smallest rowtime per key waits
//   (ties keep the earlier arrival) and is emitted as +I once the watermark reaches its rowtime; later
//   rows of an emitted key are ignored. A row whose rowtime is below the current watermark is late:
//   dropped and reported with Operator::ReportLate (RowTimeDeduplicateKeepFirstRowFunction).
//   Rows due at the same watermark leave in (rowtime, arrival) order.
// - rowtime, keep last: emits at once; a row whose rowtime is >= the kept row's replaces it (-U/+U),
//   an older one is ignored (RowTimeDeduplicateFunction, which does not consult the watermark).
// Flink requires an insert-only input: a -U, +U or -D row is an error naming the operator.
//
// Mini-batch ('table.exec.mini-batch.enabled', `mini_batch_size` > 0): rows are buffered in a bundle
// (runtime/operators/mini_batch_bundle.h, the group aggregate's bundle) that closes after
// mini_batch_size rows, at every watermark, before a checkpoint's barrier and at the end of input, and
// is applied key by key (keys in order of first appearance) as Flink's KeyedMapBundleOperator with:
// - proctime keep-first (ProcTimeMiniBatchDeduplicateKeepFirstRowFunction): the first row of each key
//   in the bundle, emitted as +I when the key was never seen;
// - proctime keep-last and ChangelogNormalize (ProcTimeMiniBatchDeduplicateKeepLastRowFunction): only
//   the last row (change) of each key in the bundle is applied, as above;
// - rowtime, both (RowTimeMiniBatchDeduplicateFunction, changes not compacted): every row of the key in
//   arrival order, every change emitted. Keep-first then no longer waits for the watermark: the first
//   row is emitted at once (+I) and a later row with a smaller rowtime replaces it (-U/+U; equal
//   rowtimes keep the earlier row); no row is late. Its changelog is therefore updating, as Flink's
//   (RankUtil.outputInsertOnlyInDeduplicate: insert-only only for keep-first without mini-batch).
// - ChangelogNormalize (changelog_input): proctime keep-last over an upsert or CDC changelog keyed by
//   the primary key: +I/+U behave as a new row (first -> +I, later -> -U/+U, equal -> nothing); -U/-D
//   emit -D of the kept row and forget the key (an unknown key changes nothing and is counted in
//   metrics().retractions_without_state), as Flink's ChangelogNormalize. With a filter condition
//   (ChangelogNormalize(..., condition=[...]), Flink's processLastRowOnChangelogWithFilter) only rows
//   that pass are kept: a new key's +I/+U that does not pass (FALSE or NULL) changes nothing; a change
//   of a kept row that differs from it emits -U/+U when it passes, and otherwise -D of the kept row,
//   forgetting the key (a later passing row is +I again, a later delete emits nothing). The condition
//   is evaluated on +I/+U rows only (a delete may be a tombstone carrying its key only).
//
// State: keys in a KeyIndex (state/key_index.h); per key id, flat vectors holding only what the
// variant needs (the kept row's arena id always; rowtime, sequence number and timers for rowtime
// keep-first; an emitted flag for keep-first; the last write time with a state TTL). The kept rows
// live in a RowArena, which is compacted (rows renumbered) when released rows outnumber live ones.
// Processing time needs no clock: arrival order is processing-time order.
//
// Checkpoints: a full snapshot compacts the arena first and writes keys, vectors, arena, TTL queue and
// timers. Deltas (state/delta.h) write the keys added since the last snapshot or restore (its
// base), the slots of older keys written since (a DeltaTracker marks every write, TTL expiry
// included), of the rows appended to the arena only those still kept (released ones, often most,
// come back as copies of another row that nothing reads, so row ids stay the same), the TTL queue's
// popped count and new entries, and the (small, rowtime keep-first only) timer heap whole. A
// compaction between two snapshots renumbers rows, which a delta cannot express directly; instead
// the compaction first records the delta up to that moment as a segment, and restore replays the
// segments with the same (deterministic) compaction between them. Segments outgrowing the state
// make the next checkpoint a full one. Operator::ApplyDelta refuses a delta on any other state than
// its base, and drops the state when a delta fails halfway (DropState).
//
// Threading: the job's task thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"
#include "runtime/operators/mini_batch_bundle.h"

namespace sluice {

class ExprEvaluator;

class DeduplicateOperator final : public Operator {
 public:
  // Rows are `types` wide; `keys` are the PARTITION BY columns; `time_column` the ORDER BY time
  // attribute column. keep_last: ORDER BY ... DESC (keep the last row) vs ASC (keep the first).
  // rowtime: the order is an event-time attribute (else processing time = arrival order).
  // emit_update_before: downstream needs -U rows.
  DeduplicateOperator(std::string name, std::vector<LogicalType> types, std::vector<int> keys, int time_column,
                      bool keep_last, bool rowtime, bool emit_update_before, bool changelog_input = false,
                      int64_t state_ttl_ms = 0, int64_t mini_batch_size = 0, ExprPtr filter_condition = nullptr);
  ~DeduplicateOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  // Keys, per-key columns, stored rows, TTL queue, timers, delta tracking and compaction segments.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // False until the first snapshot or restore, and when the deltas recorded at compactions since
  // the last one outgrew the state (the next checkpoint is then a full one).
  bool CanSnapshotDelta() const override;

  // Keys seen so far, and rows held in state (kept rows, or rows waiting for the watermark).
  size_t num_keys() const;
  size_t state_rows() const;

 protected:
  // Mini-batch: closes the open bundle first.
  Status OnWatermark(int64_t watermark) override;
  Status PrepareSnapshotPreBarrier(int64_t id) override;
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  Status CheckInput(const Chunk& chunk) const;
  // Applies `chunk` (input rows, or a closed bundle's rows in the order its function applies them).
  Status ProcessChunk(Chunk& chunk);
  // Mini-batch: applies the bundle's rows (see the file comment); FinishBundle when it holds any.
  Status CloseBundle();
  Status FinishBundle();
  Status ProcessKeepFirstProctime(Chunk& chunk);
  Status ProcessKeepLast(Chunk& chunk);
  // ChangelogNormalize with a condition: state_->passes[i] = whether +I/+U row i passes it.
  Status EvaluateCondition(const Chunk& chunk);
  Status ProcessKeepFirstRowtime(const Chunk& chunk);
  Status EmitGathered();
  void MaybeCompact();
  // Renumbers the kept rows densely, keeping their arena order (RowArena::Retain), and forgets
  // released ones; `renumbered`, when set, is told each kept row's old and new id.
  void Compact(State& s, const std::function<void(uint32_t, uint32_t)>& renumbered = nullptr) const;
  // Checkpoint pieces (see the file comment): the state after the last snapshot or restore becomes
  // the base of the next delta; a segment is the delta from the base to now.
  void ResetDeltaBase(State& s) const;
  void WriteSegment(const State& s, StateWriter* w) const;
  // A segment in two parts: all but the rows (returning the ids of the rows it needs, ascending), then
  // rows `ids` of the arena and the rest (a compaction renumbers the rows in between).
  std::vector<uint32_t> WriteSegmentHead(const State& s, StateWriter* w) const;
  void WriteSegmentRows(const State& s, const std::vector<uint32_t>& ids, StateWriter* w) const;
  void ResetSegments(State& s) const;
  void ApplySegment(State& s, StateReader* r) const;
  // Grows the per-key vectors the variant uses to the number of keys.
  void ResizeColumns(State& s) const;
  // Checks what a restore read: columns as long as the key index, kept rows inside the arena (and,
  // from tail_first on, only on rows a delta restored as kept: (*tail_kept)[id - tail_first]) and
  // counted by live_rows, TTL entries and timers naming known keys.
  void Validate(const State& s, StateReader* r, size_t tail_first = 0,
                const std::vector<uint8_t>* tail_kept = nullptr) const;
  // Records a write of key k's state: marks it for the next delta and, with a state TTL, as written
  // now. ExpireKeys drops the keys whose TTL passed.
  void Touch(uint32_t k);
  void ExpireKeys();

  std::vector<LogicalType> types_;
  std::vector<int> keys_;
  int time_column_;
  // Also set for rowtime keep-first in mini-batch, which keeps its row as keep-last does (with
  // keep_earliest_: a smaller rowtime replaces it).
  bool keep_last_;
  bool keep_earliest_;
  bool rowtime_;
  bool emit_update_before_;
  bool changelog_input_;
  ExprPtr condition_;
  std::unique_ptr<ExprEvaluator> condition_eval_;
  int64_t ttl_micros_;
  int64_t now_micros_ = 0;
  std::unique_ptr<State> state_;
  MiniBatchBundle bundle_;
};

}  // namespace sluice
