// GroupAggregateOperator: Flink's GroupAggregate — non-windowed GROUP BY with retraction.
//
// Per group key it keeps the aggregate states (fixed-size slots laid out once per group, see
// function/aggregate/aggregate_function.h), the net number of accumulated rows, and for each
// DISTINCT aggregate a count per distinct value. Each input row updates its group and emits at once,
// as Flink's GroupAggFunction without mini-batch: +I for a new group; -U old (when downstream needs
// update-before) and +U new when the result changed; nothing when it did not change; -D when
// retractions empty the group. A retraction for a group with no state is counted (a retraction that
// found its state expired or never seen), never silently dropped from the books.
//
// State layout (keyed state, state/key_index.h): the group keys live in a KeyIndex that gives each
// key a dense id; per id the operator keeps the key's columns (one row of `key_store_`), a live flag
// (one byte), the last access for the state TTL (only with a TTL) and the group's accumulator block
// (one array of fixed-size blocks, runtime/operators/accumulators.h; calls with equal states share
// one). The per-id arrays grow without holding their old and new copies at once (release_copy.h). Ids are never reused: a group that retractions
// emptied or the TTL expired keeps its id with a dead, zeroed block, and comes back under the same id.
//
// Checkpoints: SnapshotState writes everything; SnapshotDelta (incremental checkpoints, state/delta.h)
// writes the keys added since the last snapshot or restore, the meta and accumulator block of every
// group written since (new, updated, emptied or expired: a DeltaTracker marks them), and the open
// mini-batch bundles (whole; see PutScalars) and scalars. Operator::ApplyDelta
// refuses a delta on another base (twice, to a fresh operator, out of order); RestoreDelta also
// refuses one on a state changed since its last snapshot or restore.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/heap_tracker.h"
#include "runtime/operators/accumulators.h"
#include "runtime/operators/mini_batch_bundle.h"
#include "state/delta.h"
#include "state/key_index.h"

namespace sluice {

struct AggregateFunction;

class GroupAggregateOperator final : public Operator {
 public:
  // One aggregate call: function, input columns, DISTINCT, FILTER column (runtime/operators/accumulators.h).
  using Agg = AccumulatorCall;
  // Mini-batch (Flink's 'table.exec.mini-batch.*'): when `mini_batch_size` > 0, input rows are
  // buffered in a bundle and applied per key when it closes, so each key emits at most one change per
  // bundle (Flink's KeyedMapBundleOperator with MiniBatchGroupAggFunction). A bundle closes after
  // `mini_batch_size` rows (CountBundleTrigger), at every watermark (the MiniBatchAssigner upstream cuts
  // the input with them, runtime/operators/mini_batch_assigner_operator.h), at a checkpoint's barrier
  // and at the end of input. `two_phase`: the operator runs a LocalGroupAggregate and its
  // GlobalGroupAggregate (plan/mini_batch_rule.h) with Flink's two bundles: the local bundle counts
  // input rows and emits one partial result per key when it closes; the global bundle counts those
  // partial results to `mini_batch_size` (and closes at the same watermarks, barriers and end). The
  // partial results are kept as the input rows they stand for. The folded result is the same; there
  // are fewer changes. `insert_only_input`: the input never retracts (its changelog mode is insert-only),
  // so DISTINCT calls keep bit masks instead of counts (runtime/operators/accumulators.h).
  GroupAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> keys,
                         std::vector<Agg> aggs, std::vector<LogicalType> output_types, bool emit_update_before,
                         int64_t mini_batch_size = 0, bool two_phase = false, int64_t state_ttl_ms = 0,
                         bool insert_only_input = false);
  ~GroupAggregateOperator() override;
  Status Process(int input, Chunk& chunk) override;
  // Set when only a fold to the final table reads the output (runtime/job.h final_table_input): without
  // mini-batch, the operator then emits one net change per key it changed in a window (up to the end
  // of input or a checkpoint's barrier; one chunk with a state TTL), in the order of the keys' last
  // changes, so the folded table (rows and their order) is the full changelog's, whatever the
  // chunking (runtime/operators/group_aggregate_net.cc).
  void set_net_changes(bool on) { net_changes_ = on; }

  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Ids only grow and every write marks its id, so a delta can always express the change.
  bool CanSnapshotDelta() const override { return true; }
  int64_t retractions_without_state() const { return metrics_.retractions_without_state; }
  size_t num_groups() const { return live_groups_; }
  // Keys, key columns, metas, accumulator blocks and the heap they own (DISTINCT counts, string and
  // list states), the delta tracker and the open mini-batch.
  size_t StateBytes() const override;

 protected:
  Status OnEndOfInput() override;
  // Mini-batch: closes the open bundles, then forwards the watermark.
  Status OnWatermark(int64_t watermark) override;
  Status PrepareSnapshotPreBarrier(int64_t id) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  // Drops every group and key, every accumulator block whatever its meta says (also after a restore
  // that failed halfway) and the scalars.
  void DropState() override;

 private:
  // Per key id, as checkpoints write it. `live` is 0 for a key whose group retractions emptied or the
  // TTL expired (its block is then zeroed). Plain 8-byte fields, so a column of them is checkpointed as
  // raw bytes. In memory the fields live apart (live_, last_access_): a byte per group without a TTL.
  struct GroupMeta {
    int64_t last_access;  // processing time of the last row (state TTL)
    int64_t live;
  };
  // The checkpointed meta of `id` (without a TTL its last access reads as now), and its restore.
  GroupMeta MetaOf(size_t id) const {
    return GroupMeta{state_ttl_micros_ > 0 ? last_access_[id] : now_micros_, live_[id]};
  }
  void SetMeta(size_t id, const GroupMeta& m) {
    live_[id] = static_cast<uint8_t>(m.live);
    if (state_ttl_micros_ > 0) last_access_[id] = m.last_access;
  }
  // Writes the metas of ids [begin, end) as a column of GroupMeta (their count, then their bytes).
  void PutMetas(StateWriter* w, size_t begin, size_t end) const;
  // Resizes the per-id metas to n ids (new ones dead).
  void ResizeMetas(size_t n) {
    live_.resize(n, 0);
    if (state_ttl_micros_ > 0) last_access_.resize(n, 0);
  }
  static constexpr uint32_t kNoGroup = KeyIndex::kNotFound;

  // Cache hints for ProcessRows' DISTINCT lookups (group_aggregate_operator.cc).
  void PrefetchDistinct(const Chunk& chunk) const;
  uint8_t* block(uint32_t id) { return blocks_.data() + static_cast<size_t>(id) * stride_; }
  const uint8_t* block(uint32_t id) const { return blocks_.data() + static_cast<size_t>(id) * stride_; }
  // The id of the live group of `key`, or kNoGroup (an expired group is dropped here). Touches it.
  uint32_t Lookup(const std::string& key);
  // Starts a group for `key` (row `row` of `chunk` holds its key columns): a new id, or the dead id
  // the key had before.
  uint32_t NewGroup(const std::string& key, const Chunk& chunk, size_t row);
  // Drops the group's state; its id stays, dead.
  void DropGroup(uint32_t id);
  void SweepExpired();
  Status ProcessRows(Chunk& chunk);
  // Net changes (set_net_changes, runtime/operators/group_aggregate_net.cc): applies the rows and notes
  // per key its result before the window (the rows since the last FlushNet) and its last change; with
  // a state TTL it flushes after every chunk.
  Status ProcessRowsNet(Chunk& chunk);
  // Emits the window's net changes: -D of the keys gone, then +I/-U/+U in the order of last changes.
  Status FlushNet();
  // Moves the results the window's keys still reference to the front of net_results_, with room after.
  void CompactNetResults();
  // Closes the (local) bundle: applies it, or with two phases moves its partial results into the
  // global bundle, closing that one whenever it reaches the size.
  Status CloseBundle();
  // Closes every open bundle (watermark, barrier, end of input).
  Status FinishBundles();
  // Applies a bundle's rows, one change per key.
  Status ApplyBundle(Chunk rows);
  // Appends the current result of group `id` (block `b`) to `out` with `kind`.
  void AppendResult(uint32_t id, const uint8_t* b, RowKind kind, Chunk* out);
  // Writes the group's current result over the existing row `row` of `out`.
  void WriteResult(uint32_t id, Chunk* out, size_t row);
  bool SameResult(const Chunk& a, size_t ra, const Chunk& b, size_t rb) const;
  // Checkpoints: the blocks of ids `dirty` and [first_new, size) (SnapshotState: first_new = 0).
  void PutBlocks(StateWriter* w, const std::vector<uint32_t>& dirty, size_t first_new) const;
  void GetBlocks(StateReader* r, size_t base, size_t size);
  void PutScalars(StateWriter* w) const;
  void GetScalars(StateReader* r);
  // After a snapshot or restore: the current state is the base of the next delta.
  void ResetDeltaBase();

  std::vector<LogicalType> input_types_;
  std::vector<int> keys_;
  std::vector<Agg> aggs_;
  std::vector<LogicalType> output_types_;
  bool emit_update_before_;
  AccumulatorLayout layout_;       // the aggregate calls' states, FILTER and DISTINCT
  size_t stride_;                  // bytes per id in blocks_ (layout_.block_bytes())
  KeyIndex index_;                 // encoded group key -> id
  Chunk key_store_;                // row id: the key columns of group id
  std::vector<uint8_t> live_;      // per id: 1 while its group is live (GroupMeta::live)
  std::vector<int64_t> last_access_;  // per id, with a state TTL only: GroupMeta::last_access
  std::vector<uint8_t> blocks_;    // per id: stride_ bytes, the group's accumulator block
  size_t live_groups_ = 0;
  DeltaTracker dirty_;             // ids whose meta or block changed since the last snapshot
  std::vector<std::string> encoded_;
  std::vector<size_t> out_widths_;  // physical width of each output column
  // 'table.exec.state.ttl' on processing time: a group not touched for this long is forgotten (its next
  // row starts it afresh, a retraction for it is counted). 0 disables.
  int64_t state_ttl_micros_;
  int64_t last_sweep_micros_ = 0;
  int64_t now_micros_ = 0;
  int64_t mini_batch_size_;
  bool two_phase_;
  MiniBatchBundle bundle_;         // buffered input rows of the current (local) bundle
  Chunk global_batch_;             // two phases: the input rows of the global bundle's partial results
  int64_t global_count_ = 0;       // two phases: partial results in the global bundle
  mutable HeapTracker heap_;       // the heap of the blocks (non-plain layouts only)
  // Net changes: per key changed in the window, whether its group was live before the window (its
  // result then is row `prev` of net_before_), the row of net_results_ with its current result, and
  // the window's input row number of its last change the full changelog would emit as +I/+U (-1: none).
  struct NetKey {
    uint32_t id;
    bool existed;
    uint32_t prev;
    uint32_t cur;
    int64_t last;
  };
  bool net_changes_ = false;
  std::vector<uint32_t> net_slot_;  // per id: its index in net_keys_, or kNoGroup
  std::vector<NetKey> net_keys_;
  Chunk net_before_;                // the aggregate columns of the results before the window
  Chunk net_results_;               // the aggregate columns of current results (and discarded ones)
  uint32_t net_nbefore_ = 0;        // rows used in net_before_
  uint32_t net_nresults_ = 0;       // rows used in net_results_
  int64_t net_rows_ = 0;            // input rows in the window
};

}  // namespace sluice
