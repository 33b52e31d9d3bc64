// WindowAggregateOperator: Flink's WindowAggregate (SlicingWindowOperator with the TUMBLE, HOP and
// CUMULATE slice assigners, and merging SESSION windows) — GROUP BY window_start, window_end[, keys]
// over a window TVF, or the legacy GROUP BY TUMBLE/HOP/SESSION(...) — insert-only output.
//
// State is sliced (plan/window.h): per slice (keyed by its end) and per group key, one accumulator per
// aggregate call (the GroupAggregate functions of function/aggregate: append-only variants, or the
// retracting ones over an updating input, see SetRetracting) and, for each DISTINCT call, the
// distinct argument values seen in that slice (with a count each). A TUMBLE window is one slice; a
// HOP or CUMULATE window merges the accumulators of its slices when it fires (AggregateFunction::merge;
// DISTINCT calls re-aggregate the union of their slices' distinct values), so a row is accumulated
// once however many windows hold it.
//
// Firing: event-time windows fire when the watermark reaches window_end - 1 ms (Flink's
// isWindowFired); processing-time windows once the injected clock has passed window_end (so rows of
// the window's last millisecond still count), checked as chunks and watermarks arrive.
// End of input fires every pending window (the +inf watermark for event time; explicitly for
// processing time). Each window is emitted once as +I rows, then slices no later window needs are
// freed. Output order is deterministic: windows by end (ascending), within a window the keys in the
// order they first appear in the window's slices (earliest slice first, arrival order within a slice).
//
// Late rows: a row whose slice's last window has already fired is dropped and reported with
// Operator::ReportLate. A row whose first windows fired but not its last goes into its slice
// and counts for the windows still open (Flink's SlicingWindowProcessor does the same).
//
// Late firing (Flink's WindowEmitStrategy with 'table.exec.emit.late-fire.enabled' and
// 'table.exec.emit.allow-lateness'; SetLateFiring, event time and sliced windows only): a window still
// fires when the watermark reaches its end - 1 ms, and its result rows are remembered per key. Its slices
// stay until the watermark reaches window_end - 1 ms + lateness for the last window holding them (only
// then is a row late and dropped). A row that falls into a fired, unexpired window updates it: the
// window's result for the row's key is recomputed and, when it changed, emitted as -U (old, only when
// downstream needs before-images) and +U (new), or +I for a key the window did not have — at once
// (delay 0, Flink's ElementTriggers.every) or once `delay` of processing time after the first late row
// of that window and key (Flink's ProcessingTimeTriggers.every, checked as chunks and watermarks
// arrive). Updates still pending when a window expires are emitted then (Flink would drop them).
//
// Early firing (Flink's 'table.exec.emit.early-fire.enabled', SetEarlyFiring; event and processing
// time, sliced windows only): before a window fires, each row updates the window's result for its key
// as a late row does after: emitted (+I first, then -U/+U when it changed) at once (delay 0, Flink's
// ElementTriggers.every) or `delay` of processing time after the first row since the last emission
// (a processing-time timer: ProcessingTimeService, so it fires also while no row arrives). A row's
// windows are visited latest first, as Flink's group window operator assigns them. When the window
// then fires, only keys whose result changed since emit (-U/+U; +I for a key not emitted yet). The
// results emitted per window and key are remembered until the window expires (fires, without late
// firing); rewritten rows are compacted away, so they stay bounded by the window's keys.
// Over an updating input (SetRetracting) a -U/-D row updates the result as a row does; when it leaves
// the key's window without rows, its emitted result goes out as -D (whether or not update-before rows
// are asked for) and is forgotten, so a later row emits +I again; a key never emitted emits nothing.
//
// SESSION windows (not sliced): per group key, its open sessions [first row, last row + gap), each with
// its accumulators. A row opens [ts, ts + gap) and merges every session of its key it touches
// (adjacent ones too, as Flink's TimeWindow.intersects); a row whose own window has fired and touches
// no open session is late. A session fires when time reaches its end - 1 ms; sessions that fire
// together leave by end, then key first-seen order.
//
// State layout (keyed state, state/key_index.h): each slice (keyed by its end) owns a KeyIndex over the
// encoded group keys (ids are per slice, so a freed slice frees its ids with it), the key columns (one
// row of `keys` per id), one flat block of stride_ bytes per id holding the accumulators, and for
// DISTINCT calls the distinct values per id and call.
//
// Checkpoints: SnapshotState writes everything. SnapshotDelta (incremental checkpoints, state/delta.h)
// frames the slices as window_firing.h does for windows: the ends of the slices freed since the last
// snapshot or restore (the base), then every live slice; one of the base as the keys added since
// (KeyIndex::SnapshotSince), their key rows, and the blocks (and distinct values) of the ids written
// since (a DeltaTracker per slice marks them) and of the new ids; one created since the base in full.
// Then the small, watermark-bounded rest in full: the pending window ends, the remembered results and
// timers of late firing, and the SESSION state (SESSION windows are not sliced; their open sessions
// are written whole in every delta).
// RestoreState and RestoreDelta refuse ("Corrupt state of ...") state that reads well but does not fit
// together — times out of range or off the slice grid, a pending window no slice feeds, late-firing
// timers for a window and key no slice holds, SESSION timers that are not exactly one per session,
// sequence numbers a new key or timer could reuse — so nothing after a successful restore can fail
// a check or read out of bounds.
//
// Output columns: the group keys, one per aggregate call, window_start, window_end (TIMESTAMP(3)),
// then window_time (window_end - 1 ms) when `with_window_time`.
//
// Threading: the job's task thread.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "plan/window.h"
#include "runtime/operator.h"
#include "runtime/processing_time_service.h"
#include "runtime/operators/accumulators.h"
#include "runtime/operators/window_firing.h"
#include "state/delta.h"
#include "state/key_index.h"

namespace sluice {

struct AggregateFunction;

class WindowAggregateOperator final : public Operator, public ProcessingTimeCallback {
 public:
  // One aggregate call: function, input columns, DISTINCT, FILTER column (runtime/operators/accumulators.h).
  using Agg = AccumulatorCall;
  WindowAggregateOperator(std::string name, std::vector<LogicalType> input_types, std::vector<int> keys,
                          std::vector<Agg> aggs, std::vector<LogicalType> output_types, WindowSpec window,
                          int time_column, bool proctime, bool local_time, bool with_window_time);
  ~WindowAggregateOperator() override;
  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  // Scheduled early or late updates that came due (runtime/processing_time_service.h).
  Status OnProcessingTime(int64_t timestamp_micros) override;

  // Slices held in state (for tests).
  size_t num_slices() const { return slices_.size(); }

  // Over an updating input (Flink 1.19+): -U/-D rows retract from the windows of their own row time
  // (late ones are dropped like late inserts), and the last call of `aggs` is a hidden COUNT(*) (the
  // retracting variant, as Flink's count1$): a window's key whose count is 0 is not emitted (Flink's
  // WindowIsEmptySupplier). DISTINCT values are then counted per slice (a value counts while its
  // count over the window's slices is > 0). With early or late firing (the legacy group window only,
  // as Flink), a retraction updates the key's emitted result like a row does, and one that empties
  // the key's window emits -D of that result (Flink's AggregateWindowOperator with recordCountIsZero).
  void SetRetracting();

  // Turns on late firing (see above): rows up to `lateness_ms` behind a window's end update it, after
  // `delay_ms` of processing time (0: at once); -U rows only when `emit_update_before`.
  void SetLateFiring(int64_t lateness_ms, int64_t delay_ms, bool emit_update_before);

  // Turns on early firing (see above): windows emit their result per key before they fire, on every
  // row (`delay_ms` 0) or `delay_ms` of processing time after a change; -U rows only when `emit_update_before`.
  void SetEarlyFiring(int64_t delay_ms, bool emit_update_before);

  // Over rows that carry their window (Flink's WindowAttachedWindowingStrategy; event time only):
  // `time_column` is the rows' window_end column, `window_start_column` their window_start. A row
  // belongs to that one window only, whose end - 1 ms is the row's time. TUMBLE, HOP and CUMULATE:
  // each window is then a slice of its own (slices of 1 ms; one window of a kind ends at a given
  // time), its start the window's own (WindowSpec::WindowStart). SESSION:
  // a row falls into the session [window_start, window_end) of its key; rows of one session carry
  // the same bounds, so nothing merges.
  void SetAttachedWindows(int window_start_column);

  // Every open slice's keys and accumulator blocks (a walk of the slices, not of keys), sessions and
  // remembered results by estimate; DISTINCT value sets by their vectors only.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Slice ids only grow while a slice lives and every write marks its id, so a delta can always
  // express the change.
  bool CanSnapshotDelta() const override { return true; }

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  // Drops every slice, session and remembered result (before a restore, and after one that failed).
  void DropState() override;
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;

 private:
  struct DistinctValues {
    // Encoded value -> rows accumulated minus rows retracted (always 1 over an insert-only input).
    std::unordered_map<std::string, int64_t> seen;
    Chunk values;  // the call's argument columns, one row per distinct value (in order of first sight)
  };
  // One group's accumulators as AppendResult reads them: the block of function states and, when any
  // call is DISTINCT, the distinct values per call (else null).
  struct Part {
    const uint8_t* states;
    const DistinctValues* distinct;
  };
  // A session's accumulators (SESSION windows).
  struct Entry {
    std::unique_ptr<uint8_t[]> states;
    std::vector<DistinctValues> distinct;  // per aggregate call when any call is DISTINCT, else empty
  };
  struct Slice {
    explicit Slice(const WindowAggregateOperator* op);
    ~Slice();  // destroys the accumulators (FreeSlice)
    Slice(const Slice&) = delete;
    Slice& operator=(const Slice&) = delete;

    const WindowAggregateOperator* owner;
    KeyIndex index;               // encoded group key -> id
    Chunk keys;                   // row id: the key columns of group id
    std::vector<uint8_t> blocks;  // per id: stride_ bytes, the group's accumulators (all initialized)
    std::vector<DistinctValues> distinct;  // per id and call (id * calls + call) when any call is DISTINCT
    DeltaTracker dirty;           // ids whose accumulators changed since the last snapshot or restore
    bool in_base = false;         // the slice existed at the last snapshot or restore
  };

  // SESSION windows: per key, its open sessions by start, each with its accumulators.
  struct Session {
    int64_t end;
    int64_t timer_end;  // the end its pending timer was set for (<= end; moved on when it fires)
    Entry acc;
  };
  struct SessionKey {
    Chunk key;      // the key columns (one row)
    uint64_t seq;   // first-seen order, for a deterministic output order
    std::map<int64_t, Session> sessions;  // disjoint, by start
  };

  Slice& SliceFor(int64_t slice_end);
  // The id of row `row`'s group (encoded_[row]) in `slice`, adding it (key row, initialized block) when new.
  uint32_t GroupFor(Slice& slice, const Chunk& chunk, size_t row);
  uint8_t* Block(Slice& s, uint32_t id) const { return s.blocks.data() + static_cast<size_t>(id) * stride_; }
  const uint8_t* Block(const Slice& s, uint32_t id) const {
    return s.blocks.data() + static_cast<size_t>(id) * stride_;
  }
  Part PartOf(const Slice& s, uint32_t id) const {
    return {Block(s, id), has_distinct_ ? &s.distinct[static_cast<size_t>(id) * aggs_.size()] : nullptr};
  }
  // Grows the slice to `size` ids, initializing the new blocks (and distinct values).
  void GrowSlice(Slice& s, size_t size) const;
  void InitStates(uint8_t* states) const;
  void DestroyStates(uint8_t* states) const;
  void InitDistinct(DistinctValues* distinct) const;
  Entry NewEntry() const;
  // Checkpoints: one group's function states, and its distinct values.
  void PutStates(const uint8_t* states, StateWriter* w) const;
  void GetStates(uint8_t* states, StateReader* r) const;
  void PutDistinct(const DistinctValues* distinct, StateWriter* w) const;
  void GetDistinct(DistinctValues* distinct, StateReader* r) const;
  void WriteEntry(const Entry& e, StateWriter* w) const;
  Entry ReadEntry(StateReader* r) const;
  // A slice's blocks (and distinct values) of ids `dirty` and [first_new, size).
  void PutBlocks(const Slice& s, const std::vector<uint32_t>& dirty, size_t first_new, StateWriter* w) const;
  // Reads them: ids `dirty` (below `base`, the ids the slice holds) are overwritten, and the slice
  // grows to `size` ids.
  void GetBlocks(Slice& s, const std::vector<uint32_t>& dirty, size_t base, size_t size, StateReader* r) const;
  void PutSlice(const Slice& s, StateWriter* w) const;
  void GetSlice(Slice& s, StateReader* r) const;
  // The state beside the slices (pending ends, SESSION windows, late firing), written whole.
  void PutScalars(StateWriter* w) const;
  void GetScalars(StateReader* r);
  void GetSessions(StateReader* r);        // GetScalars' parts
  void GetFiredWindows(StateReader* r);
  // Empties what PutScalars writes (the SESSION state, pending ends, late-firing results and timers).
  void ClearScalars();
  // After a restore: refuses (through the reader) state whose parts do not fit together, so every
  // later code path finds what it relies on (see Validate in the .cc). O(slices + the watermark-bounded
  // rest); never reads a slice's keys or blocks.
  void Validate(StateReader* r) const;
  void ValidateStateKind(StateReader* r) const;  // Validate's parts
  void ValidateSliceGrid(StateReader* r) const;
  void ValidateLateTimers(StateReader* r) const;
  void ValidateSessions(StateReader* r) const;
  // Whether `end` is a slice end (and so a window end) of this operator's slice grid.
  bool OnSliceGrid(int64_t end) const { return window_.SliceEnd(end - 1) == end; }
  // After a snapshot or restore: the current state is the base of the next delta.
  void ResetDeltaBase();
  // Frees the earliest slice (remembering its end for the next delta when the base held it).
  void EraseFirstSlice();
  std::unique_ptr<Slice> NewSlice() const;
  // Folds `src`'s accumulators (and distinct values) into `dst`, then frees `src`'s.
  void MergeInto(Entry& dst, Entry& src) const;
  void DestroyEntry(Entry& e) const;
  void Accumulate(uint8_t* states, DistinctValues* distinct, const Chunk& chunk, size_t row);
  // Feeds a DISTINCT call's values that count over `parts` (each once) into `state`.
  void AccumulateDistinct(size_t a, const Part* parts, size_t num_parts, uint8_t* state) const;
  Status ProcessSessions(const Chunk& chunk);
  Status FireSessions(int64_t progress, bool all);
  // Appends one result row: the key (row `key_row` of `keys`), the aggregates over `parts` (the
  // accumulators of the window's slices, merged when several), and the window columns. Over an
  // updating input, appends nothing (and returns false) when the key's row count there is 0.
  bool AppendResult(const Chunk& keys, size_t key_row, const Part* parts, size_t num_parts, int64_t start,
                    int64_t end, uint8_t* scratch, Chunk* out) const;
  bool Fired(int64_t window_end, int64_t progress) const;
  // Whether a window's state has expired at `progress`: it fired and its allowed lateness passed.
  bool Expired(int64_t window_end, int64_t progress) const;
  // Whether windows emit updates (early or late firing).
  bool Updates() const { return lateness_us_ > 0 || early_delay_us_ >= 0; }
  // Early and late firing: a row of key `key` went into the slice ending at `slice_end`; updates (or
  // schedules updates of) every window holding that slice that has not fired (early firing) or has
  // fired and not expired (late firing), latest window first.
  void FireForRow(int64_t slice_end, std::string_view key, int64_t progress, Chunk* out);
  // Schedules an update of window `end` for `key` `delay_us` from now, unless one is pending.
  void Schedule(int64_t end, std::string_view key, int64_t delay_us);
  // Registers a processing-time timer for the earliest scheduled update, unless one is registered.
  void ArmTimer();
  // Recomputes window `end`'s result for `key` and emits the change against the remembered one.
  void RefireKey(int64_t end, const std::string& key, Chunk* out);
  // Emits row `row` of `fresh` (window `end`'s result for `key`) as a change against the result
  // remembered for them (nothing when equal, -U/+U, or +I for a new key) and remembers it.
  void EmitChange(int64_t end, std::string_view key, const Chunk& fresh, size_t row, Chunk* out);
  // Over an updating input, a key of window `end` whose rows were all retracted: -D of the result it
  // emitted (and it is forgotten), nothing when it emitted none.
  void EmitDelete(int64_t end, std::string_view key, Chunk* out);
  // Fires the scheduled late updates that are due, and those of windows expired at `progress` (all
  // of them when `all`).
  Status FlushLateTimers(int64_t progress, bool all, Chunk* out);
  // Frees the remembered results and the slices of windows expired at `progress` (all when `all`).
  void FreeExpired(int64_t progress, bool all);
  void FireDueLateTimers(int64_t now, Chunk* out);
  int64_t NowMicros() const;
  // Processing time as firing progress: windows close once the clock is past their end.
  int64_t ProcessingProgress() const;
  // Fires every pending window whose end `progress` reached (all of them when `all`).
  Status FireUpTo(int64_t progress, bool all);
  void FireWindow(int64_t end, Chunk* out);
  // The window_start emitted for the window ending at `end`.
  int64_t WindowStartOf(int64_t end) const;
  // The event time a late-row report gives row `row` (times_ filled for its chunk).
  int64_t LateEventTime(const Chunk& chunk, size_t row) const;
  void FreeSlice(Slice& slice) const;
  Status EmitIfFull(Chunk* out, bool force);

  std::vector<LogicalType> input_types_;
  std::vector<int> keys_;
  std::vector<Agg> aggs_;
  std::vector<LogicalType> output_types_;
  std::vector<LogicalType> key_types_;
  WindowSpec window_;
  // Attached TUMBLE/HOP/CUMULATE windows: the window as declared (window_ then slices one window
  // each); its WindowStart gives the emitted window_start.
  WindowSpec attached_window_;
  int window_start_column_ = -1;  // attached windows (SetAttachedWindows), else -1
  int time_column_;
  bool proctime_;
  bool local_time_;
  bool with_window_time_;
  bool has_distinct_ = false;
  bool retracting_ = false;      // SetRetracting: the input updates; aggs_.back() is the row counter
  size_t visible_aggs_ = 0;      // the calls with an output column (all but the row counter)
  bool plain_ = true;            // no call serializes its state: blocks are checkpointed as raw bytes
  std::vector<size_t> offsets_;  // state slot offset per aggregate
  size_t state_bytes_ = 0;
  size_t stride_ = 0;            // bytes per id in a slice's blocks (state_bytes_ rounded to the alignment)
  std::vector<std::vector<LogicalType>> distinct_types_;  // per DISTINCT call: its argument types
  WindowsByEnd<Slice> slices_;  // by slice end
  std::vector<int64_t> freed_since_base_;  // ends of base slices freed since the last snapshot or restore
  std::set<int64_t> pending_ends_;   // window ends that hold rows and have not fired
  std::vector<std::string> encoded_;
  std::vector<int64_t> times_;
  // SESSION state: keys with open sessions, and the sessions waiting to fire as (end, key seq, start).
  std::unordered_map<std::string, SessionKey> session_keys_;
  std::unordered_map<uint64_t, std::string> session_key_of_seq_;
  std::set<std::tuple<int64_t, uint64_t, int64_t>> session_timers_;
  uint64_t next_session_seq_ = 0;
  std::vector<std::map<int64_t, Session>::iterator> touched_sessions_;  // scratch
  // Late firing: the allowed lateness and delay (microseconds; lateness 0: off), and per window that
  // emitted results and has not expired, the result row last emitted per key (early and late firing;
  // rows replaced are compacted away when they outnumber the live ones).
  int64_t lateness_us_ = 0;
  int64_t late_delay_us_ = 0;
  int64_t early_delay_us_ = -1;  // early firing's delay (-1: off)
  std::set<int64_t> armed_;      // instants of processing-time timers registered and not fired yet
  bool emit_update_before_ = false;
  struct FiredWindow {
    Chunk results;
    std::unordered_map<std::string, uint32_t> index;  // encoded key -> row of `results`
  };
  std::map<int64_t, FiredWindow> fired_;  // by window end
  // Scheduled early and late updates (delay > 0) by (due time, sequence), and the (window end, key)
  // pairs they hold.
  std::map<std::pair<int64_t, uint64_t>, std::pair<int64_t, std::string>> late_timers_;
  std::set<std::pair<int64_t, std::string>> late_pending_;
  uint64_t next_late_seq_ = 0;
};

}  // namespace sluice
