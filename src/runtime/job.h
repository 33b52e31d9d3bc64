// Job: a running dataflow built from a physical plan, driven to completion by one task thread.
//
// BuildJob translates plan nodes to operators one to one (a node shared by several INSERTs becomes
// one operator with several outputs), except that a TableSourceScan with the Calc of computed
// columns and the WatermarkAssigner above it become one SourceOperator, because watermarks are
// generated per source split (DESIGN.md §6).
//
// Run() drives the sources in a deterministic order: each step advances the source whose next
// watermark is lowest (ties: the first declared) until its watermark passes the next-lowest source's
// (SourceOperatorBase::Step), so a replay yields the same changelog byte for byte and state stays
// small. Before each step it starts a periodic checkpoint when one is due, fires the operators'
// processing-time timers that are due (runtime/processing_time_service.h), lets every sink fire its
// processing-time timers (SinkOperator::OnProcessingTime, rows or not), and lets every source add the
// splits it discovered and re-evaluate idleness (the idle timeout, runtime/operators/source_operator.h);
// an idle source goes only when no other can. It returns when every source is exhausted; then it
// flushes the late-rows table, if any, and takes the final checkpoint when checkpointing.
// After every step it checks the job's state against its memory budget, and an allocation that
// fails anywhere in the job fails it with an error naming the operator (runtime/memory_budget.h).
//
// Threading: a Job runs on the calling thread.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"
#include "runtime/checkpoint.h"
#include "runtime/job_summary.h"
#include "runtime/late_rows.h"
#include "runtime/operator.h"

namespace sluice {

class Configuration;
class TableSource;
class SinkWriter;
struct EvalContext;
class SourceOperatorBase;
class SinkOperator;
class ProcessingTimeService;  // runtime/processing_time_service.h

// Collects the operators' snapshots while a checkpoint's barriers travel the job.
//
// Buffers: an operator's snapshot is written into the buffer its snapshot of the previous checkpoint
// used (TakeBuffer), once that checkpoint is durable, so a large state's snapshot reuses memory that
// is already mapped instead of page-faulting a fresh buffer of hundreds of MB at every checkpoint.
//
// Finished operators: the final checkpoint of a bounded job stores no state for an operator whose
// state nothing reads after the job finished (Flink's fully finished operators, FLIP-147): restoring
// a final checkpoint only completes the sinks' commits. Such an operator skips its snapshot
// (Finished) and is stored with empty state.
class CheckpointCollector {
 public:
  struct Snapshot {
    std::string bytes;
    std::vector<DeferredPart> deferred;  // written on the checkpoint's background thread
    bool delta = false;                  // written by Operator::WriteDelta
  };
  void Put(const Operator* op, std::string bytes, std::vector<DeferredPart> deferred, bool delta) {
    states_[op] = {std::move(bytes), std::move(deferred), delta};
  }
  std::map<const Operator*, Snapshot>& states() { return states_; }

  // A buffer to write `op`'s snapshot into: empty, with the capacity of the one its last snapshot used.
  std::string TakeBuffer(const Operator* op) {
    auto it = spare_.find(op);
    if (it == spare_.end()) return std::string();
    std::string b = std::move(it->second);
    spare_.erase(it);
    b.clear();
    return b;
  }
  void AddSpareBuffer(const Operator* op, std::string buffer) { spare_[op] = std::move(buffer); }
  // Whether `op` writes no state into this checkpoint (a final checkpoint; see above).
  bool Finished(const Operator* op) const { return finished_.count(op) > 0; }
  void SetFinished(const Operator* op) { finished_.insert(op); }

 private:
  std::map<const Operator*, Snapshot> states_;
  std::map<const Operator*, std::string> spare_;
  std::set<const Operator*> finished_;
};

// Checkpointing of a job (issue 5): 'execution.checkpointing.interval', 'state.checkpoints.dir',
// 'state.checkpoints.num-retained', 'execution.savepoint.path'. Disabled when interval_ms is 0 and
// no directory is set.
struct CheckpointConfig {
  int64_t interval_ms = 0;      // between the starts of two checkpoints
  int64_t min_pause_ms = 0;     // 'execution.checkpointing.min-pause': from the end of one to the next's start
  int64_t timeout_ms = 600000;  // 'execution.checkpointing.timeout'
  int64_t tolerable_failed = 0; // 'execution.checkpointing.tolerable-failed-checkpoints', in a row
  std::string job_dir;      // <state.checkpoints.dir>/<job name>; empty: no checkpoints kept
  int num_retained = 1;
  std::string restore_path; // 'execution.savepoint.path': restore from this checkpoint first
  bool incremental = true;   // 'execution.checkpointing.incremental'
  // 'state.storage.fs.memory-threshold': smaller states stay in _metadata, larger go to shared files.
  int64_t memory_threshold_bytes = 20 * 1024;
  bool enabled() const { return !job_dir.empty(); }
};

struct JobContext {
  // The job's name in messages ('pipeline.name', else job-<n>).
  std::string job_name;
  EvalContext* eval = nullptr;
  const Configuration* config = nullptr;
  size_t chunk_size = 1024;
  // Where operators record the late rows they drop; null unless the job has a late-rows table.
  LateRowRecorder* late_rows = nullptr;
  // Sources emit a watermark before every row it advances (not once per chunk), so CURRENT_WATERMARK
  // reads the same value whatever the chunk size. Set when a query calls CURRENT_WATERMARK.
  bool per_row_watermarks = false;
  // Sources also emit their watermark before the first row after it reaches the end of an interval of
  // this many milliseconds (n * interval - 1 ms), so a MiniBatchAssigner(mode=[RowTime]) forwards the
  // same watermarks whatever the chunk size (as if every row carried its watermark). Set from the
  // plan's RowTime MiniBatchAssigners (their interval); 0: none.
  int64_t watermark_interval_ms = 0;
  // The checkpoint in progress (between the barriers' start and the last snapshot); else null.
  CheckpointCollector* checkpoint = nullptr;
  CheckpointConfig checkpoints;
  // 'sluice.exec.checkpoint-roundtrip': snapshot and restore the stateful operators after every step.
  bool checkpoint_roundtrip = false;
  // 'taskmanager.memory.process.size': the most bytes the job's state may hold; 0: no budget
  // (runtime/memory_budget.h).
  int64_t memory_budget_bytes = 0;
  // A query whose result is only folded to its final table (the CLI's `--mode table`, a .test `final`):
  // the plan node whose changes go straight to that fold, so it may send one net change per key per
  // chunk instead of every change (the folded table, rows and order, is the same). Null otherwise.
  const PlanNode* final_table_input = nullptr;
  // The operator whose code runs now (the base class marks each operator it calls, runtime/operator.h);
  // after an exception, the one it escaped from. Null between steps.
  const Operator* running = nullptr;
  // The job's processing-time timers (runtime/processing_time_service.h), fired between steps.
  ProcessingTimeService* timers = nullptr;
};

// Connectors the engine created while planning, keyed by the plan node they serve.
struct JobResources {
  std::map<const PlanNode*, std::shared_ptr<TableSource>> sources;
  std::map<const PlanNode*, std::shared_ptr<SinkWriter>> sinks;
  std::map<const PlanNode*, std::string> sink_names;  // for the summary
  // The late-rows table ('sluice.exec.late-rows.table'), when set and the job can drop late rows.
  std::shared_ptr<SinkWriter> late_rows_writer;
  std::string late_rows_table;
  std::vector<LateRowsColumn> late_rows_columns;
};

class Job {
 public:
  Job();
  ~Job();
  // Runs the job to its end. An std::bad_alloc inside becomes an error (runtime/memory_budget.h).
  Result<JobSummary> Run();
  // After Run: the job's summary, also when it failed once it had started running steps (with
  // `failed` set); empty when it failed before (opening its operators, restoring a checkpoint).
  const std::optional<JobSummary>& summary() const { return summary_; }

 private:
  friend Result<std::unique_ptr<Job>> BuildJob(const std::vector<PlanNodePtr>& roots, JobResources* resources,
                                               const JobContext& ctx);
  JobContext ctx_;
  std::vector<std::unique_ptr<Operator>> operators_;
  std::vector<SourceOperatorBase*> sources_;
  std::vector<SinkOperator*> sinks_;
  std::unique_ptr<LateRowRecorder> late_rows_;
  std::unique_ptr<ProcessingTimeService> timers_;
  std::optional<JobSummary> summary_;
  bool started_ = false;  // the job began running steps (a failure from then on has a summary)
  // Opens, restores and runs the job until every source is exhausted.
  Status RunToEnd(RssMeter* rss);
  JobSummary Summarize() const;
  // The snapshot buffers the job holds (kept for the next checkpoint, or being written): they count
  // against the memory budget.
  int64_t CheckpointBufferBytes() const;
  // Checkpointing.
  Status CheckCheckpointable() const;
  // Writes each stateful operator's snapshot and restores it in place (checkpoint_roundtrip).
  Status RoundTripState();
  // checkpoint_roundtrip: per operator, the snapshot chain restored after every step (a full snapshot
  // and up to kRoundTripChainLength - 1 deltas).
  static constexpr size_t kRoundTripChainLength = 4;
  std::vector<std::vector<std::string>> roundtrip_chains_;
  // Starts checkpoint (synchronous snapshot; the write runs in the background). A final checkpoint
  // is waited for.
  Status TakeCheckpoint(bool final);
  // When the background write finished (or at once when `wait`): notifies the operators (sinks
  // commit). With `help`, a task thread that waits compresses frames of the write
  // (CheckpointStorage::HelpWrite). A checkpoint that was abandoned (CheckpointStorage::Abort)
  // completes nothing and is counted.
  Status CompletePendingCheckpoint(bool wait, bool help = true);
  // Restores the job from checkpoint `data`; sets *finished when it was the final checkpoint.
  // keep_chains: the checkpoint is in this job's storage, so its shared state files can start the
  // next checkpoints' chains (else the next checkpoint writes every state in full).
  Status RestoreFrom(const CheckpointData& data, bool keep_chains, bool* finished);
  // Incremental checkpoints, per operator: the shared state files of its last durable checkpoint (a
  // full snapshot, then deltas; no bytes), on which the next checkpoint may write a delta.
  struct StateChain {
    std::vector<CheckpointData::StateFile> files;
    uint64_t base_bytes = 0;   // the full snapshot's size
    uint64_t delta_bytes = 0;  // the deltas' total size
  };
  std::vector<StateChain> chains_;
  // A chain grows by deltas until it has this many, or its deltas outweigh the full snapshot this
  // many times; then the next checkpoint writes the operator's state in full (restore time and
  // storage stay bounded, as compaction bounds RocksDB's incremental checkpoints). The ratio only
  // cuts chains whose deltas rewrite much of the state (the same keys updated again and again): a
  // state that grows at a steady rate adds about one base per checkpoint and reaches the count first.
  static constexpr size_t kMaxChainDeltas = 20;
  static constexpr uint64_t kMaxDeltaBytesRatio = 20;
  void UpdateChains(const CheckpointData& data);
  // The checkpoint entry of the late-rows table, after the operators': "LateRowsTable(<table>)".
  std::string LateRowsDigest() const { return "LateRowsTable(" + late_rows_->table_name() + ")"; }
  std::unique_ptr<class CheckpointStorage> storage_;
  int64_t last_checkpoint_id_ = 0;
  int64_t last_checkpoint_micros_ = 0;  // when the last checkpoint ended (or the job started), job clock
  int64_t last_trigger_micros_ = 0;     // when the last checkpoint started (or the job started)
  int64_t consecutive_failures_ = 0;    // checkpoints failed in a row
  // Why the pending checkpoint was aborted (CheckpointStorage::Abort), if it was.
  enum class Abort : uint8_t { kNone, kAbandoned, kExpired } pending_abort_ = Abort::kNone;
  JobSummary::CheckpointStats checkpoint_stats_;
  std::future<Result<int64_t>> pending_checkpoint_;  // the checkpoint being written, if any
  std::shared_ptr<CheckpointData> pending_data_;
  // Set when the final checkpoint starts: the background thread stops preparing buffers for later ones.
  std::shared_ptr<std::atomic<bool>> ending_ = std::make_shared<std::atomic<bool>>(false);
  int64_t pending_checkpoint_id_ = 0;
  std::chrono::steady_clock::time_point pending_checkpoint_started_;
  std::vector<std::string> checkpoint_notes_;  // corrupt checkpoints skipped at restore, failed checkpoints
  // The snapshot buffers of the last durable checkpoint, per operator, for the next one to reuse
  // (CheckpointCollector::TakeBuffer).
  std::map<const Operator*, std::string> spare_buffers_;
};

Result<std::unique_ptr<Job>> BuildJob(const std::vector<PlanNodePtr>& roots, JobResources* resources,
                                      const JobContext& ctx);

}  // namespace sluice
