// Operator: one node of a running job's dataflow graph, fed by its inputs and feeding its outputs.
//
// A job is a DAG of operators driven by one task thread (runtime/job.h). Messages travel by direct
// calls in dataflow order: Process(input, chunk) for a chunk of changes, ReceiveWatermark(input, ts)
// for an input's watermark, ReceiveEndOfInput(input) when an input is exhausted. The base class keeps
// one watermark per input and calls OnWatermark only when the minimum over inputs advances (Flink's
// StatusWatermarkValve), and OnInputWatermark before that whenever one input's own watermark advances
// (Flink's processWatermark1/2, where a two-input operator sees each input's watermark); likewise
// OnEndOfInput once every input has ended (after a final watermark of +infinity has been delivered, as
// Flink's end of a bounded input). ReceiveIdle(input, idle) says an
// input's sources went idle (the idle timeout) or came back: idle inputs do not count in the minimum.
// Rows dropped behind the watermark are reported with ReportLate (counted; recorded in the job's
// late-rows table when it has one, runtime/late_rows.h).
//
// Outputs: Emit(chunk) hands the chunk to every downstream operator; with several outputs (a sub-plan
// shared by several INSERTs) all but the last receive a copy (string bytes are shared, not copied).
// A consumer may modify or steal the contents of the chunk it is given, so a producer never reads a
// chunk after emitting it (not even its size): what it needs later, it records before the Emit.
//
// Checkpoints (runtime/checkpoint.h): the job starts a checkpoint by calling StartBarrier on every
// source; a barrier travels the outputs like a watermark. An operator with several inputs waits until
// the barrier arrived on all of them (alignment: no input may deliver data after its barrier until
// then); it then runs PrepareSnapshotPreBarrier (sinks pre-commit there), snapshots its state into
// the job's checkpoint and forwards the barrier. Buffers such as a mini-batch are saved as state, so
// taking a checkpoint never changes what a job emits. One task
// thread drives the whole DAG synchronously and the job injects the barriers between steps, so every
// operator snapshots after exactly the records before the barrier. After the checkpoint is durable,
// the job calls NotifyCheckpointComplete on every operator (sinks commit there). Restore() reads
// back what the snapshot wrote. The base class saves its own part (watermarks, ended and idle
// inputs, metrics) first.
//
// Incremental checkpoints: the base class keeps the snapshot version (every full snapshot and delta
// written or restored advances it; a delta names the version it builds on), so operators keep no
// version of their own: ApplyDelta refuses a delta on the wrong base before anything changes, and
// has_snapshot_base() says whether there is a base at all. A restore that fails once it has started
// changing the operator (a truncated or damaged snapshot or delta, or an error of RestoreState /
// RestoreDelta) rolls back in one place: Restore and ApplyDelta call the operator's DropState() and
// reset the base part and the version, so the operator is left as a new one (its next full snapshot
// equals a fresh operator's) and no further delta applies to it. RestoreState / RestoreDelta
// therefore need no rollback of their own: they may stop at the first error, leaving partial state
// for DropState to clear (it must cope with any such state without leaking or crashing).
// Every operator with checkpointed state overrides DropState (typically: replace its state object by
// a new one, keeping what Open built from the plan) and writes no rollback of its own; one whose
// DropState is still the default (nothing) keeps whatever a failed restore left in its own state.
//
// Watermarks are microseconds since the epoch, like TIMESTAMP values; kMinWatermark means "none yet".
//
// Threading: all calls of one operator come from the job's task thread. An operator's definition is
// the plan node it was built from (immutable); the operator object is that node's running state.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "types/vector.h"

namespace sluice {

constexpr int64_t kMinWatermark = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxWatermark = std::numeric_limits<int64_t>::max();

struct JobContext;  // runtime/job.h
class StateWriter;  // state/state_serde.h
class StateReader;
class JsonRowWriter;  // formats/json/json_format.h

// Counters every operator keeps; the job summary adds them up.
struct OperatorMetrics {
  int64_t rows_in = 0;
  int64_t rows_out = 0;
  int64_t late_rows_dropped = 0;
  // Retractions that found no state to retract from (never seen, or expired by the state TTL).
  int64_t retractions_without_state = 0;
  // Keys whose state the TTL expired.
  int64_t expired_states = 0;
  // Operators that measure their state (OverAggregate): the most bytes it held after any watermark
  // or chunk, and the rows its frames held at that moment; 0 when not measured.
  int64_t peak_state_bytes = 0;
  int64_t state_rows_at_peak = 0;
};

class Operator {
 public:
  Operator(std::string name, int num_inputs);
  virtual ~Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;

  const std::string& name() const { return name_; }
  int num_inputs() const { return static_cast<int>(input_watermarks_.size()); }
  const OperatorMetrics& metrics() const { return metrics_; }

  // Wires `downstream`'s input `input_index` to this operator's output.
  void AddOutput(Operator* downstream, int input_index);

  // For operators that drop late rows: the name late-row reports give this operator (EXPLAIN's name,
  // "#n" appended when the job has several) and each input's column names, which name the fields of
  // a dropped row's JSON text in the late-rows table (runtime/late_rows.h).
  void SetLateRowReporting(std::string label, const std::vector<std::vector<std::string>>& input_columns);
  const std::string& late_row_label() const { return late_label_.empty() ? name_ : late_label_; }

  // Called once before any message.
  virtual Status Open(JobContext* ctx);

  // Checkpointing. kStateless: nothing to save beyond the base part; kSupported: SnapshotState and
  // RestoreState save and restore the operator's state; kUnsupported (default): a job with
  // checkpointing enabled is refused, naming this operator.
  enum class Checkpointing { kStateless, kSupported, kUnsupported };
  virtual Checkpointing checkpointing() const { return Checkpointing::kUnsupported; }
  // The plan digest checkpoints record for this operator (EXPLAIN's name and attributes).
  void set_digest(std::string digest) { digest_ = std::move(digest); }
  const std::string& digest() const { return digest_.empty() ? name_ : digest_; }
  // A source starts checkpoint `id` (sources have no inputs to align).
  Status StartBarrier(int64_t id);
  // The barrier of checkpoint `id` arrived on `input`.
  Status ReceiveBarrier(int input, int64_t id);
  // Writes the base part and the operator's state (what a barrier snapshots).
  Status WriteSnapshot(StateWriter* writer);
  // Restores the base part and the operator's state from what a snapshot wrote.
  Status Restore(StateReader* reader);
  // Incremental checkpoints (state/delta.h). An operator that CanSnapshotDelta() can write its state
  // as a delta on its last snapshot or restore (WriteDelta); a restore reads the full snapshot a chain
  // starts with (Restore) and then applies each delta in order (ApplyDelta). Every snapshot and every
  // restore, full or delta, makes the current state the base of the next delta. Every snapshot
  // carries a version, and a delta names the version it builds on: ApplyDelta refuses a delta on any
  // other state (applied twice, one skipped, or on an operator restored from nothing) before it
  // changes anything. Default: no deltas (every checkpoint writes the operator's full state).
  virtual bool CanSnapshotDelta() const { return false; }
  Status WriteDelta(StateWriter* writer);
  Status ApplyDelta(StateReader* reader);
  // Whether the next barrier writes a delta (the job decides per checkpoint, only when CanSnapshotDelta()).
  void set_snapshot_delta(bool delta) { snapshot_delta_ = delta; }
  // The checkpoint `id` is durable (sinks make their pre-committed output visible).
  virtual Status NotifyCheckpointComplete(int64_t id);
  // A chunk of changes on `input`.
  virtual Status Process(int input, Chunk& chunk) = 0;

  // The bytes this operator's state holds now: what the job's memory budget counts
  // ('taskmanager.memory.process.size', runtime/memory_budget.h). Every operator with state that
  // grows with the data overrides it, adding up its state structures (RowArena and KeyIndex
  // MemoryUsage, vector capacities, per-entry estimates for node-based containers) in time
  // independent of the number of keys and rows, since the job asks after every step. Default: 0.
  virtual size_t StateBytes() const { return 0; }

  Status ReceiveWatermark(int input, int64_t watermark);
  Status ReceiveEndOfInput(int input);
  // The input's sources went idle ('table.exec.source.idle-timeout') or became active again. An idle
  // input does not hold back the combined watermark; once every input is idle, so is this operator's
  // output (Flink's WatermarkStatus and StatusWatermarkValve). A returning input's watermark counts
  // again, but the combined watermark never goes back.
  Status ReceiveIdle(int input, bool idle);

 protected:
  // The watermark of `input` alone advanced to `watermark` (also to kMaxWatermark at its end), before
  // the combined watermark is recomputed. Default: nothing.
  virtual Status OnInputWatermark(int input, int64_t watermark);
  // The combined input watermark advanced to `watermark`. Default: forward it.
  virtual Status OnWatermark(int64_t watermark);
  // Every input has ended. Default: forward end of input.
  virtual Status OnEndOfInput();
  // Before the snapshot of checkpoint `id`: emit what must not stay buffered (Flink's
  // prepareSnapshotPreBarrier). Default: nothing.
  virtual Status PrepareSnapshotPreBarrier(int64_t id);
  // Writes / reads the operator's own state (after the base part). Defaults: nothing.
  virtual Status SnapshotState(StateWriter* writer);
  virtual Status RestoreState(StateReader* reader);
  // The delta of the operator's own state since its last snapshot or restore, and its application
  // onto the restored state (only called when CanSnapshotDelta() said yes). Defaults: an error.
  virtual Status SnapshotDelta(StateWriter* writer);
  virtual Status RestoreDelta(StateReader* reader);
  // Drops the operator's own state, as it was when the operator was constructed and opened (what
  // Open built from the plan stays). Called when a Restore or ApplyDelta failed, whatever
  // RestoreState / RestoreDelta had changed by then (see the file comment). Default: nothing.
  virtual void DropState();
  // Whether a snapshot was written or restored (and no restore failed since): a state a delta can
  // build on.
  bool has_snapshot_base() const { return snapshot_version_ != 0; }

  Status Emit(Chunk& chunk);
  // Emits +I rows of joined pairs (joins that pair stored rows): output columns `types` are the
  // columns of `left` gathered at `left_sel` followed by those of `right` at `right_sel` (kNullRow:
  // NULLs, for outer-join padding), in chunks of at most the job's chunk size.
  Status EmitJoinedRows(const std::vector<LogicalType>& types, const Chunk& left, const std::vector<uint32_t>& left_sel,
                        const Chunk& right, const std::vector<uint32_t>& right_sel);
  Status EmitWatermark(int64_t watermark);
  Status EmitEndOfInput();
  // Forwards this operator's idleness (sources call it; other operators derive it from their inputs).
  Status EmitIdle(bool idle);
  int64_t current_watermark() const { return current_watermark_; }

  // Row `row` of `chunk`, which arrived on `input`, is behind the watermark and is dropped: counts it
  // (metrics().late_rows_dropped) and, when the job routes late rows to a table, records it there
  // with the current watermark and `event_time` (the row's time attribute, if known). Every
  // operator that drops late rows calls this, never counts on its own (DESIGN.md §6).
  void ReportLate(const Chunk& chunk, size_t row, std::optional<int64_t> event_time = std::nullopt, int input = 0);

  JobContext* ctx_ = nullptr;
  OperatorMetrics metrics_;

 private:
  struct Output {
    Operator* op;
    int input;
  };
  // Marks `o`'s operator as the one running (JobContext::running) for a call into it; Returned()
  // marks this one again once the call returned. An exception leaves the innermost operator marked,
  // so the job's out-of-memory guard can name it.
  void Entering(const Output& o) const;
  void Returned() const;
  std::string name_;
  std::vector<Output> outputs_;
  std::vector<int64_t> input_watermarks_;
  std::vector<bool> input_ended_;
  std::vector<bool> input_idle_;
  bool emitted_idle_ = false;
  int64_t current_watermark_ = kMinWatermark;
  int64_t emitted_watermark_ = kMinWatermark;
  // The minimum watermark over active inputs and how many active inputs hold it, as of the last scan;
  // at_min_ == 0 means unknown (scan again).
  int64_t min_active_ = kMinWatermark;
  size_t at_min_ = 0;
  int ended_inputs_ = 0;
  // Checkpoint alignment: the barrier being aligned and the inputs that delivered it.
  int64_t barrier_id_ = -1;
  std::vector<bool> input_blocked_;
  int barriers_received_ = 0;
  std::string digest_;
  bool snapshot_delta_ = false;
  // The version of the last snapshot written or restored (0: none), which the next delta builds on.
  uint64_t snapshot_version_ = 0;
  Status SnapshotAndForward(int64_t id);
  void WriteBase(StateWriter* w) const;
  void RestoreBase(StateReader* r);
  // A restore failed after it began to change the operator: DropState, the base part as a new
  // operator's, no snapshot version. Returns `error`.
  Status RollBack(Status error);
  // The minimum over the watermarks of inputs that are not idle advanced: OnWatermark.
  Status AdvanceCombinedWatermark();
  std::string late_label_;
  std::vector<std::shared_ptr<const JsonRowWriter>> late_row_json_;  // per input
};

}  // namespace sluice
