// JoinOperator: Flink's regular (non-windowed) streaming join, StreamingJoinOperator, for INNER, LEFT,
// RIGHT and FULL OUTER joins on equi-keys with an optional residual condition, over append-only or
// updating inputs; and Flink's StreamingSemiAntiJoinOperator for the SEMI and ANTI joins that IN / EXISTS
// subqueries are planned as (see "Semi and anti joins" below).
//
// State per side: the rows seen so far, grouped by join key, in arrival order. Identical rows share one
// entry with a count; rows of an outer side also carry numOfAssociations, the number of rows on the
// other side they currently join with, which decides when their NULL-padded row is emitted (no match),
// retracted (-D when the first match arrives) and re-emitted (+I when the last match goes away).
// +I/+U rows accumulate, -U/-D rows retract one equal stored row (or, when the side has a unique key,
// the row with the same unique key; the planner passes each input's upsert key, Flink's
// JoinInputSideSpec).
//
// Output follows Flink's StreamingJoinOperator.processElement exactly, in kinds and order. For each
// input row, the matching rows of the other side are visited in the order they were stored:
//   accumulate: [-D[null-padded other] if it had no match], +I[joined]    (per matching row)
//               (+I/+U of the input's kind when both sides are inner), or +I[row, nulls] when an
//               outer input row matches nothing;
//   retract:    -D[joined] (-U/-D of the input's kind when the input side is inner),
//               [+I[null-padded other] if this was its last match]        (per matching row),
//               or -D[row, nulls] when an outer input row matches nothing.
// numOfAssociations counts every matching row of the other side, identical rows included, so the
// padded row comes back exactly when the last of them is retracted. (Recent Flink increments it only
// for a row not yet in state, Flink's isAdditionalMatch; we apply that rule only to sides with a
// unique key, where an accumulate message for a stored key replaces the row.)
// Join keys compare with SQL equality: a NULL key never matches (the row is still padded on an outer
// side, and needs no state), unless the key position is null-safe (IS NOT DISTINCT FROM).
//
// Semi and anti joins output the left columns only. The left side is stored as an outer side (with
// numOfAssociations), the right side as an inner one. A left row is emitted with its own kind when it
// has a match (semi) or none (anti). A right accumulate row visits its matching left rows: a left row
// whose count goes 0 -> 1 is emitted with the right row's kind (semi) or as -D (anti); a right
// retraction whose left row's count goes 1 -> 0 emits it with the right row's kind (semi) or as +I
// (anti), once per stored duplicate, as Flink's operator does.
//
// Execution is chunk-wise: keys are encoded for the whole input chunk, candidate pairs of the chunk
// (input row x stored rows of its key) are filtered by the residual condition in batches, and output
// chunks are assembled column-wise from the input chunk and the other side's RowArena. A -U/+U pair is
// never split across output chunks.
//
// State and checkpoints: per side, a pooled list of entries (free entries are reused), one doubly
// linked list of entries per join key (a KeyIndex gives each join key a group id; heads and tails live
// in a flat vector), the rows in a RowArena and, for TTL, a queue of writes. Checkpoints are
// incremental (state/delta.h): after a full snapshot, a delta holds only what changed since the last
// snapshot or restore: new join keys, dirty and new entries and groups (DeltaTrackers), the arena's
// new rows, the changed end of the free list and of the TTL queue. On an append-only side a delta
// costs the new rows plus one dirty entry and group per appended row, never O(all state). The
// identity index of an updating side is not written at all: it is rebuilt from the live entries on
// the first chunk after a restore. Compacting a side (once most of its rows were released) renumbers
// its rows and entries, which a delta cannot express; CanSnapshotDelta() is then false until the next
// full snapshot. A full snapshot compacts a side itself when more than an eighth of it is dead, so a
// checkpoint carries little dead state. A delta applied to any other state than its base (twice, or
// out of order) is refused by Operator::ApplyDelta.
//
// Mini-batch (JoinOptions::mini_batch_size > 0; Flink's MiniBatchStreamingJoinOperator, EXPLAIN
// miniBatch=[true]; not for semi and anti joins, which Flink runs row by row though its EXPLAIN marks
// them too): the rows of both inputs are buffered in one bundle (runtime/operators/mini_batch_bundle.h)
// that closes after mini_batch_size rows of either input, at every watermark of either input (Flink's
// processWatermark1/2; so also at either input's end), before a checkpoint's
// barrier and at the end of input. Each side's bundle is folded first, by the side's input spec
// (Flink's JoinInputSideSpec, plan/traits.h JoinInputSpecName):
//   - no unique key (InputSideHasNoUniqueKeyBundle): an accumulate message (+I/+U) and a retraction
//     (-U/-D) of an equal row cancel out;
//   - a unique key (InputSideHasUniqueKeyBundle; JoinKeyContainsUniqueKeyBundle when the key lies
//     within the join key): per unique key, a later accumulate message replaces an earlier one, a
//     retraction cancels the accumulate message before it, a later retraction replaces an earlier
//     one; what remains is at most a retraction followed by an accumulate message, a pair applied
//     with suppression (Flink's processElementWithSuppress): the retraction leaves the stored row for
//     the accumulate message to replace, and neither NULL-pads nor un-pads the other side's rows, so
//     an outer join's update emits no padded row in between.
// Then the right side's rows are applied, and after them the left side's (a RIGHT join: the left side
// first), grouped by join key (keys in order of first appearance; unique keys within a join key in
// theirs), with the output described above. A left row whose match arrives in the same bundle
// therefore joins at once, without a NULL-padded row first.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"
#include "runtime/operators/mini_batch_bundle.h"

namespace sluice {

class ExprEvaluator;

enum class JoinKind { kInner, kLeft, kRight, kFull, kSemi, kAnti };

// Optional facts the planner knows about the join (Flink's JoinInputSideSpec and filterNullKeys).
struct JoinOptions {
  // Whether downstream needs -U rows. When false, -U rows are not emitted (the downstream is keyed on
  // an upsert key and takes +U alone).
  bool emit_update_before = true;
  // A unique key of each input (column indexes of that input), empty when unknown. With a unique key,
  // an accumulate message replaces the stored row of the same key (upsert input) and a retraction
  // removes it, whatever its other columns.
  std::vector<int> left_unique_key;
  std::vector<int> right_unique_key;
  // Per join key position: true when the key compares with IS NOT DISTINCT FROM (NULL matches NULL).
  // Empty means SQL equality for every key.
  std::vector<bool> null_safe_keys;
  // State time-to-live per side in milliseconds of processing time ('table.exec.state.ttl', or the
  // STATE_TTL hint); 0 keeps rows forever. A stored row expires `ttl` after it was last written (stored,
  // counted again, or its association count changed), as Flink's OnCreateAndWrite state TTL; an expired
  // row is never matched again, and is counted in metrics().expired_states.
  int64_t left_ttl_ms = 0;
  int64_t right_ttl_ms = 0;
  // Event-time retention (set by the planner for inner joins of insert-only inputs; -1: none): the
  // condition requires left.column(left_bound_column) - x >= left_bound_micros, where x is a column of
  // the right input whose value, on every row that input still sends, exceeds the right input's
  // current watermark (a window aggregation's window_end). A left row whose value v has v -
  // left_bound_micros <= that watermark (or is NULL) can therefore never join again and is dropped
  // when the right input's watermark advances; likewise right rows against the left input's watermark.
  // Rows arriving behind the bound still join the stored rows of the other side, as before. Flink keeps
  // such rows until its state TTL; the output is the same (docs/performance.md).
  int left_bound_column = -1;
  int64_t left_bound_micros = 0;
  int right_bound_column = -1;
  int64_t right_bound_micros = 0;
  // 'table.exec.mini-batch.size' when the join runs in mini-batch, else 0 (see the file comment).
  int64_t mini_batch_size = 0;
};

class JoinOperator final : public Operator {
 public:
  // Input 0 is the left side, 1 the right. Output columns: all left columns, then all right columns
  // (semi and anti joins: the left columns only).
  // `left_keys[i]` = `right_keys[i]` are the equi-join keys (may be empty: every row matches every row,
  // subject to `residual`). `residual`: an optional BOOLEAN Expr over the concatenated left++right row
  // (column i < left_types.size() is left column i).
  JoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
               std::vector<int> left_keys, std::vector<int> right_keys, ExprPtr residual, JoinOptions options = {});
  ~JoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Retractions that found no equal row in state (upstream inconsistency, or expired state); Flink
  // still emits their joined retractions, and so do we, but counts them here.
  int64_t retractions_without_state() const { return retractions_without_state_; }
  // Rows currently stored for side `input` (counting duplicates).
  int64_t stored_rows(int input) const;
  // Approximate bytes held by the state of both sides (the identity index by entries, an estimate).
  size_t StateBytes() const override;

 public:
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  bool CanSnapshotDelta() const override;

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;
  // Mini-batch: closes the open bundle first (join_operator_bundle.cc): at a watermark of either input
  // (and so at either input's end), as Flink's MiniBatchStreamingJoinOperator in processWatermark1/2,
  // and before the combined watermark (which an idle input can move) is forwarded.
  Status OnInputWatermark(int input, int64_t watermark) override;
  Status OnWatermark(int64_t watermark) override;
  Status PrepareSnapshotPreBarrier(int64_t id) override;
  Status OnEndOfInput() override;

 private:
  struct Side;

  // Applies a chunk of input `input` (an arriving chunk, or a closed bundle's folded rows).
  Status ProcessInput(int input, Chunk& chunk);
  // Mini-batch (join_operator_bundle.cc): applies the bundle; FinishBundle when it holds any rows.
  // FoldBundle: one side's bundle rows after Flink's folding for the side's input spec, grouped by join
  // key; `suppress` marks the rows of suppressed pairs (empty when the side has no unique key).
  Status CloseBundle();
  Status FinishBundle();
  Chunk FoldBundle(int input, const Chunk& rows, std::vector<uint8_t>* suppress);
  std::vector<uint32_t> FoldNoUniqueKeyBundle(const Side& side, const Chunk& rows);
  std::vector<uint32_t> FoldUniqueKeyBundle(const Side& side, const Chunk& rows, std::vector<uint8_t>* suppress);

  // Collects the matches (after the residual) of rows [begin, *end) of `chunk`, choosing *end so the
  // slice's candidate pairs stay bounded.
  Status CollectMatches(int input, const Chunk& chunk, size_t begin, size_t* end);
  // Applies rows [begin, end) to state in order and queues their output (one of the three below per
  // row, with the row's matches [m, m_end) among the other side's entries).
  Status ProcessSlice(int input, const Chunk& chunk, size_t begin, size_t end);
  // An accumulate message (+I/+U) / a retraction (-U/-D) of an inner or outer join, as Flink's
  // StreamingJoinOperator.processElement. `suppress` (the two halves of a suppressed pair of a
  // unique-key bundle): the retraction leaves the row in state for the accumulate message to replace,
  // and neither emits or retracts the other side's NULL-padded rows.
  Status ProcessAccumulate(int input, const Chunk& chunk, size_t i, const uint32_t* m, const uint32_t* m_end,
                           bool suppress);
  Status ProcessRetract(int input, const Chunk& chunk, size_t i, const uint32_t* m, const uint32_t* m_end,
                        bool suppress);
  // Semi/anti joins: output and state for input row i.
  Status ProcessSemiAntiRow(int input, const Chunk& chunk, size_t i, const uint32_t* m, const uint32_t* m_end);
  // Stores row i of the slice's chunk in side `input` with `assoc` associations (Flink's addRecord; an
  // outer side's count, else -1); RetractRecord removes one stored row equal to it (retractRecord).
  void AddRecord(int input, size_t i, int64_t assoc);
  void RetractRecord(int input, size_t i);
  // Queues one output row (input_row / other_row are kNoRow for the NULL-padded side), flushing a full
  // output chunk first unless that would split an update.
  Status QueueOutput(int input, const Chunk& chunk, RowKind kind, uint32_t input_row, uint32_t other_row);
  Status FlushOutput(int input, const Chunk& chunk);
  // Drops the rows of side `s` whose time-to-live passed by `now` (processing time, micros).
  void ExpireRows(int s, int64_t now);
  // Event-time bound: drops the rows of side `s` (in arrival order, up to the first one still needed)
  // whose deadline the other input's `watermark` reached, then compacts the side when due.
  void DropBoundRows(int s, int64_t watermark);
  // Removes stored entry e of side `s` (its row, its group link, its identity); key and identity are
  // scratch buffers.
  void DropEntry(int s, uint32_t e, std::string* key, std::string* identity);

  JoinKind kind_;
  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  std::vector<LogicalType> out_types_;  // left_types_ ++ right_types_ (the residual's input)
  bool semi_anti_ = false;              // kSemi or kAnti: the output is the left columns
  ExprPtr residual_;
  JoinOptions options_;
  std::unique_ptr<Side> sides_[2];
  std::unique_ptr<ExprEvaluator> residual_eval_;
  size_t chunk_size_ = 1024;
  int64_t retractions_without_state_ = 0;
  int64_t now_micros_ = 0;  // processing time of the chunk being processed (state TTL)

  // Per input chunk (reused buffers).
  std::vector<std::string> keys_;        // encoded join key per row
  std::vector<std::string> identities_;  // encoded row identity per row (when the side is indexed)
  std::vector<uint8_t> key_matchable_;   // 0 when a non-null-safe key column is NULL
  // Matches of the rows of the current slice: entries of the other side, per row in [offsets_[i],
  // offsets_[i+1]).
  std::vector<uint32_t> match_entries_;
  std::vector<uint32_t> match_offsets_;
  std::vector<uint32_t> cand_rows_;
  std::vector<uint32_t> cand_entries_;
  std::vector<uint32_t> cand_other_rows_;
  std::vector<uint32_t> sel_;
  // Rows of the input chunk to append to the input side's arena at the end of the slice.
  std::vector<uint32_t> pending_store_;
  uint32_t first_new_row_ = 0;  // the arena id the slice's first stored row gets
  // Mini-batch: per row of the chunk being applied, whether it is half of a suppressed pair (empty:
  // none is).
  std::vector<uint8_t> suppress_;
  // Output being assembled: kind, input chunk row and other-side arena row per output row (kNoRow =
  // NULL padding).
  std::vector<RowKind> out_kinds_;
  std::vector<uint32_t> out_input_rows_;
  std::vector<uint32_t> out_other_rows_;
  RowKind last_kind_ = RowKind::kInsert;  // kind of the last queued output row
  MiniBatchBundle bundle_;                // mini-batch: both inputs' buffered rows
};

}  // namespace sluice
