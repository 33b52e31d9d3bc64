#include "runtime/job.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <set>
#include <limits>
#include <numeric>
#include <optional>

#include "catalog/catalog.h"
#include "common/check.h"
#include "common/config.h"
#include "connectors/connector.h"
#include "plan/window_rules.h"
#include "function/scalar_function.h"
#include "common/clock.h"
#include "runtime/checkpoint.h"
#include "runtime/memory_budget.h"
#include "runtime/processing_time_service.h"
#include "runtime/translator.h"
#include "state/state_serde.h"
#include "runtime/operators/sink_operator.h"
#include "runtime/operators/source_operator.h"

namespace sluice {

Job::Job() = default;
Job::~Job() = default;

namespace {

bool ExprCallsCurrentWatermark(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.function && e.function->name == "CURRENT_WATERMARK") return true;
  for (const auto& a : e.args) {
    if (a && ExprCallsCurrentWatermark(*a)) return true;
  }
  return false;
}

// Whether a Calc of the plan reads CURRENT_WATERMARK.
bool CallsCurrentWatermark(const std::vector<PlanNodePtr>& roots) {
  std::vector<const PlanNode*> stack;
  std::set<const PlanNode*> seen;
  for (const auto& r : roots) stack.push_back(r.get());
  while (!stack.empty()) {
    const PlanNode* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->kind == PlanKind::kCalc) {
      const auto& c = n->As<CalcNode>();
      for (const auto& p : c.projections) {
        if (ExprCallsCurrentWatermark(*p)) return true;
      }
      if (c.condition && ExprCallsCurrentWatermark(*c.condition)) return true;
    }
    for (const auto& in : n->inputs) stack.push_back(in.get());
  }
  return false;
}

// The interval of the plan's MiniBatchAssigners in RowTime mode (their greatest common divisor when
// they differ), else 0.
int64_t RowTimeMiniBatchInterval(const std::vector<PlanNodePtr>& roots) {
  std::vector<const PlanNode*> stack;
  std::set<const PlanNode*> seen;
  for (const auto& r : roots) stack.push_back(r.get());
  int64_t interval = 0;
  while (!stack.empty()) {
    const PlanNode* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->kind == PlanKind::kMiniBatchAssigner) {
      const auto& a = n->As<MiniBatchAssignerNode>();
      if (a.mode == MiniBatchAssignerNode::Mode::kRowTime && a.interval_ms > 0) interval = std::gcd(interval, a.interval_ms);
    }
    for (const auto& in : n->inputs) stack.push_back(in.get());
  }
  return interval;
}

}  // namespace

Result<std::unique_ptr<Job>> BuildJob(const std::vector<PlanNodePtr>& roots, JobResources* resources,
                                      const JobContext& ctx) {
  auto job = std::make_unique<Job>();
  job->ctx_ = ctx;
  job->timers_ = std::make_unique<ProcessingTimeService>(ctx.eval ? ctx.eval->clock : nullptr);
  job->ctx_.timers = job->timers_.get();
  // A sink under ON CONFLICT DO ERROR / DO NOTHING compacts at every watermark: with a watermark
  // before every row that advances it, what it compacts together does not depend on the chunk size.
  bool compacting_sink = false;
  for (const auto& r : roots) {
    if (r->kind == PlanKind::kSink && r->As<SinkNode>().upsert_materialize &&
        CompactsOnWatermarks(r->As<SinkNode>().conflict_strategy)) {
      compacting_sink = true;
    }
  }
  job->ctx_.per_row_watermarks = compacting_sink || CallsCurrentWatermark(roots);
  job->ctx_.watermark_interval_ms = RowTimeMiniBatchInterval(roots);
  Translator t(resources, &job->operators_, &job->sources_, &job->sinks_, &ctx);
  for (const auto& r : roots) {
    ASSIGN_OR_RETURN(Operator * op, t.Translate(r));
    (void)op;
  }
  if (resources->late_rows_writer) {
    job->late_rows_ = std::make_unique<LateRowRecorder>(resources->late_rows_table, resources->late_rows_columns,
                                                        resources->late_rows_writer, ctx.chunk_size);
    job->ctx_.late_rows = job->late_rows_.get();
  }
  t.SetUpLateRowReporting(job->late_rows_.get());
  return job;
}

namespace {

int64_t NowMicros(const JobContext& ctx) {
  const Clock* clock = ctx.eval ? ctx.eval->clock : nullptr;
  return clock ? clock->NowMicros() : 0;
}

// After a source's step (and whenever it emits a watermark within one), every other unfinished source
// follows the watermarks of the rest up to its own (SourceOperatorBase::FollowWatermark): a source whose
// next row is far ahead (a table of versions changing a few times a day) would otherwise hold its
// emitted watermark, and with it every operator that reads it with the others, where the others were at
// its last turn. `bound` for a source is the lowest NextWatermark of the others (the lowest and the
// second lowest, so one pass). `stepping`: the source in the middle of its step (it does not follow;
// it stays the running operator), or nullptr.
Status FollowWatermarks(const std::vector<SourceOperatorBase*>& sources, JobContext* ctx,
                        SourceOperatorBase* stepping) {
  int64_t lowest = kMaxWatermark;
  int64_t second = kMaxWatermark;
  size_t lowest_index = sources.size();
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i]->finished()) continue;
    const int64_t w = sources[i]->NextWatermark();
    if (w < lowest) {
      second = lowest;
      lowest = w;
      lowest_index = i;
    } else if (w < second) {
      second = w;
    }
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] == stepping || sources[i]->finished()) continue;
    ctx->running = sources[i];
    RETURN_IF_ERROR(sources[i]->FollowWatermark(i == lowest_index ? second : lowest));
  }
  ctx->running = stepping;
  return Status::OK();
}

// After a checkpoint is durable, on its background thread: the large state buffers it wrote become the
// next checkpoint's snapshot buffers (CheckpointCollector::TakeBuffer). Each is sized to half again
// its state's size and touched here, so the next snapshot, which stalls the job, copies into memory
// that is already mapped rather than page-faulting hundreds of MB on the task thread. Only a buffer
// the next snapshot will likely fill alike is kept (`keep[i]`, decided by TakeCheckpoint): a delta's
// (the next is a delta too), or a full snapshot's when the next is full too (the operator writes no
// deltas, or 'execution.checkpointing.incremental' is off). A full snapshot that starts a chain is
// followed by much smaller deltas, so its buffer is freed rather than held. Once the job waits for
// its final checkpoint (`*ending`), no buffer is needed any more.
void PrefaultBuffers(CheckpointData* data, const std::vector<bool>& keep, const std::atomic<bool>& ending) {
  constexpr size_t kPrefaultAbove = size_t{1} << 20;
  for (size_t i = 0; i < data->operators.size(); ++i) {
    if (ending.load()) return;
    CheckpointData::OperatorState& st = data->operators[i];
    std::string& bytes = st.chain.empty() ? st.bytes : st.chain.back().bytes;
    if (bytes.size() < kPrefaultAbove) continue;
    if (i >= keep.size() || !keep[i]) {
      std::string().swap(bytes);
      continue;
    }
    const size_t target = bytes.size() + bytes.size() / 2;
    if (bytes.capacity() > 2 * target) std::string().swap(bytes);
    bytes.clear();
    bytes.reserve(target);
    bytes.resize(bytes.capacity());  // writes every page once
    bytes.clear();
  }
}

// Per operator, whether the next checkpoint reuses the buffer of its snapshot in `data` (PrefaultBuffers):
// a delta's, or any when the operator writes full snapshots only (`incremental` off, or it has no deltas).
std::vector<bool> BuffersToKeep(const CheckpointData& data, const std::vector<std::unique_ptr<Operator>>& operators,
                                bool incremental) {
  std::vector<bool> keep(operators.size());
  for (size_t i = 0; i < operators.size(); ++i) {
    keep[i] = !data.operators[i].chain.empty() && data.operators[i].chain.back().delta;
    if (!incremental || !operators[i]->CanSnapshotDelta()) keep[i] = true;
  }
  return keep;
}

// The unfinished source whose turn it is: the lowest NextWatermark (ties: the first declared), or
// sources.size() when every source finished. It emits until its watermark passes `*bound`, the lowest
// NextWatermark of the other unfinished sources (kMaxWatermark without one), that of source
// `*bound_index` (sources.size() without one).
size_t NextSource(const std::vector<SourceOperatorBase*>& sources, int64_t* bound, size_t* bound_index) {
  size_t next = sources.size();
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i]->finished()) continue;
    if (next == sources.size() || sources[i]->NextWatermark() < sources[next]->NextWatermark()) next = i;
  }
  *bound = kMaxWatermark;
  *bound_index = sources.size();
  for (size_t i = 0; i < sources.size(); ++i) {
    if (i == next || sources[i]->finished()) continue;
    if (sources[i]->NextWatermark() < *bound) {
      *bound = sources[i]->NextWatermark();
      *bound_index = i;
    }
  }
  return next;
}

// How a checkpoint records one operator's snapshot `snap` (its bytes are moved out): nothing for a
// finished operator; a state file (a delta on `chain`, the files of its last durable checkpoint, or a
// full snapshot) when it is a delta, has deferred parts or reaches `memory_threshold_bytes`; else the
// bytes inline in _metadata.
CheckpointData::OperatorState OperatorStateOf(std::string digest, CheckpointCollector::Snapshot* snap, bool finished,
                                              const std::vector<CheckpointData::StateFile>& chain,
                                              int64_t memory_threshold_bytes) {
  CheckpointData::OperatorState st;
  st.digest = std::move(digest);
  if (snap->delta) {
    SLUICE_CHECK(!chain.empty());
    st.chain = chain;
  }
  if (finished) {
    SLUICE_CHECK(snap->bytes.empty() && snap->deferred.empty() && !snap->delta);
  } else if (snap->delta || !snap->deferred.empty() ||
             static_cast<int64_t>(snap->bytes.size()) >= memory_threshold_bytes) {
    CheckpointData::StateFile f;
    f.delta = snap->delta;
    f.bytes = std::move(snap->bytes);
    f.deferred = std::move(snap->deferred);
    st.chain.push_back(std::move(f));
  } else {
    st.bytes = std::move(snap->bytes);
  }
  return st;
}

}  // namespace

Status Job::CheckCheckpointable() const {
  for (const auto& op : operators_) {
    if (op->checkpointing() == Operator::Checkpointing::kUnsupported) {
      return Status::NotSupported("Checkpointing ('state.checkpoints.dir') is not supported by Sluice yet for the "
                                  "operator " + op->digest() + "; run this job without checkpoints");
    }
  }
  return Status::OK();
}

Status Job::RoundTripState() {
  for (const auto& op : operators_) {
    if (op->checkpointing() == Operator::Checkpointing::kUnsupported) return Status::OK();
  }
  roundtrip_chains_.resize(operators_.size());
  for (size_t i = 0; i < operators_.size(); ++i) {
    Operator* op = operators_[i].get();
    // Sources and sinks restore by re-reading and committing, which an in-place restore must not do.
    if (op->num_inputs() == 0 || dynamic_cast<SinkOperator*>(op) != nullptr) continue;
    // As checkpoints do: a full snapshot, then deltas on it (when the operator can write them), and a
    // restore of the whole chain, as a restart would read it.
    std::vector<std::string>& chain = roundtrip_chains_[i];
    const bool delta = !chain.empty() && chain.size() < kRoundTripChainLength && op->CanSnapshotDelta();
    StateWriter w;
    RETURN_IF_ERROR(delta ? op->WriteDelta(&w) : op->WriteSnapshot(&w));
    if (!delta) chain.clear();
    chain.push_back(w.Release());
    StateReader r(chain[0], op->digest());
    RETURN_IF_ERROR(op->Restore(&r));
    for (size_t k = 1; k < chain.size(); ++k) {
      StateReader d(chain[k], op->digest() + " (delta " + std::to_string(k) + ")");
      RETURN_IF_ERROR(op->ApplyDelta(&d));
    }
  }
  return Status::OK();
}

Status Job::TakeCheckpoint(bool final) {
  const auto called = std::chrono::steady_clock::now();
  // One checkpoint at a time (Flink's max-concurrent-checkpoints = 1): the previous one completes first.
  // Except at the end of a bounded job when only one checkpoint is retained: the final checkpoint
  // would delete the one being written as soon as it completes, so that one is abandoned instead of
  // waited for. Its sinks' committables wait for the final checkpoint (PendingCommits); a crash
  // before that restores the checkpoint before it, as a crash during its write would.
  bool abandon = false;
  if (final) {
    ending_->store(true);
    abandon = pending_checkpoint_.valid() && ctx_.checkpoints.num_retained <= 1;
    if (abandon) {
      storage_->Abort(pending_checkpoint_id_);
      pending_abort_ = Abort::kAbandoned;
    }
  } else {
    last_trigger_micros_ = NowMicros(ctx_);
  }
  RETURN_IF_ERROR(CompletePendingCheckpoint(/*wait=*/true, /*help=*/!abandon));
  auto started = std::chrono::steady_clock::now();
  CheckpointCollector collector;
  for (auto& [op, buffer] : spare_buffers_) collector.AddSpareBuffer(op, std::move(buffer));
  spare_buffers_.clear();
  if (final) {
    // Only the sinks' pre-committed files matter once the job finished (restoring a final checkpoint
    // only commits them): every other operator is stored as finished, with no state.
    for (const auto& op : operators_) {
      if (dynamic_cast<SinkOperator*>(op.get()) == nullptr) collector.SetFinished(op.get());
    }
  }
  ctx_.checkpoint = &collector;
  const int64_t id = last_checkpoint_id_ + 1;
  // Incremental checkpoints: an operator whose chain is short writes a delta on it when it can.
  chains_.resize(operators_.size());
  // The round-trip test mode's chains build on each operator's last snapshot, which this checkpoint
  // replaces (it writes full snapshots in that mode): they start over.
  roundtrip_chains_.clear();
  for (size_t i = 0; i < operators_.size(); ++i) {
    const StateChain& c = chains_[i];
    operators_[i]->set_snapshot_delta(ctx_.checkpoints.incremental && !ctx_.checkpoint_roundtrip && !c.files.empty() &&
                                      c.files.size() <= kMaxChainDeltas &&
                                      c.delta_bytes <= kMaxDeltaBytesRatio * c.base_bytes);
  }
  for (SourceOperatorBase* s : sources_) RETURN_IF_ERROR(s->StartBarrier(id));
  ctx_.checkpoint = nullptr;
  auto data = std::make_shared<CheckpointData>();
  data->id = id;
  data->timestamp_micros = NowMicros(ctx_);
  data->final = final;
  for (size_t i = 0; i < operators_.size(); ++i) {
    auto it = collector.states().find(operators_[i].get());
    SLUICE_CHECK(it != collector.states().end());  // every operator descends from a source
    CheckpointCollector::Snapshot& snap = it->second;
    if (snap.delta) ++checkpoint_stats_.delta_states;
    data->operators.push_back(OperatorStateOf(operators_[i]->digest(), &snap, collector.Finished(operators_[i].get()),
                                              chains_[i].files, ctx_.checkpoints.memory_threshold_bytes));
  }
  // The late-rows table pre-commits after every operator snapshotted (each reported its late rows
  // before passing the barrier on); its state follows the operators'.
  if (late_rows_) {
    ASSIGN_OR_RETURN(std::string bytes, late_rows_->Snapshot(id));
    data->operators.push_back({LateRowsDigest(), std::move(bytes), {}});
  }
  last_checkpoint_id_ = id;
  // The synchronous part ends here; encoding, compression, writing and fsync run on a background
  // thread while the job goes on (Flink's asynchronous snapshot phase). The sinks commit once the
  // checkpoint is durable (CompletePendingCheckpoint).
  const double sync_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  checkpoint_stats_.sync_seconds += sync_secs;
  checkpoint_stats_.max_sync_seconds = std::max(checkpoint_stats_.max_sync_seconds, sync_secs);
  CheckpointStorage* storage = storage_.get();
  const std::vector<bool> keep = BuffersToKeep(*data, operators_, ctx_.checkpoints.incremental);
  std::shared_ptr<std::atomic<bool>> ending = ending_;
  storage->StartWrite();
  pending_checkpoint_ = std::async(std::launch::async, [storage, data, keep, ending]() -> Result<int64_t> {
    Result<int64_t> written = storage->Write(data.get());
    if (written.ok()) PrefaultBuffers(data.get(), keep, *ending);
    return written;
  });
  pending_data_ = data;
  pending_checkpoint_id_ = id;
  pending_checkpoint_started_ = started;
  if (final) {
    RETURN_IF_ERROR(CompletePendingCheckpoint(/*wait=*/true));
    checkpoint_stats_.final_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - called).count();
  }
  return Status::OK();
}

Status Job::CompletePendingCheckpoint(bool wait, bool help) {
  if (!pending_checkpoint_.valid()) return Status::OK();
  // 'execution.checkpointing.timeout': a write still running then is abandoned and fails (a timeout
  // beyond a century is a century, so the deadline cannot overflow the clock).
  constexpr int64_t kCenturyMillis = int64_t{100} * 365 * 24 * 3600 * 1000;
  const auto deadline = pending_checkpoint_started_ +
                        std::chrono::milliseconds(std::min(ctx_.checkpoints.timeout_ms, kCenturyMillis));
  if (wait) {
    // A task thread that has to wait compresses part of the state files meanwhile (both cores work).
    if (help) storage_->HelpWrite(deadline);
    if (pending_checkpoint_.wait_until(deadline) != std::future_status::ready && pending_abort_ == Abort::kNone) {
      storage_->Abort(pending_checkpoint_id_);
      pending_abort_ = Abort::kExpired;
    }
  } else if (pending_checkpoint_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    if (std::chrono::steady_clock::now() < deadline) return Status::OK();
    storage_->Abort(pending_checkpoint_id_);
    pending_abort_ = Abort::kExpired;
  }
  Result<int64_t> bytes = pending_checkpoint_.get();
  const Abort abort = std::exchange(pending_abort_, Abort::kNone);
  if (!bytes.ok()) {
    // Nothing of the checkpoint is durable. The operators' next snapshots are full ones, since a
    // delta would build on state that was never written; the sinks' committables wait for the next
    // checkpoint (PendingCommits).
    const bool final = pending_data_->final;
    pending_data_.reset();
    chains_.clear();
    const bool aborted = bytes.status().code() == StatusCode::kAborted;
    if (aborted && abort == Abort::kAbandoned) {  // TakeCheckpoint(final)
      ++checkpoint_stats_.aborted;
      return Status::OK();
    }
    const std::string what = "Checkpoint " + std::to_string(pending_checkpoint_id_);
    const Status cause = aborted ? Status::IOError(what + " expired before completing ('execution.checkpointing.timeout' = " +
                                                   std::to_string(ctx_.checkpoints.timeout_ms) + " ms)")
                                 : bytes.status().WithContext(what + " failed");
    ++checkpoint_stats_.failed;
    if (final) return cause;
    if (++consecutive_failures_ > ctx_.checkpoints.tolerable_failed) {
      return Status::IOError(cause.message() + "; that is " + std::to_string(consecutive_failures_) +
                             " failed checkpoint(s) in a row, more than 'execution.checkpointing.tolerable-failed-"
                             "checkpoints' = " + std::to_string(ctx_.checkpoints.tolerable_failed) + " allows");
    }
    // Noted for the job's end (the first 100, so a long job's notes stay bounded; failed=N counts all).
    if (checkpoint_notes_.size() < 100) {
      checkpoint_notes_.push_back(cause.message() + "; the job went on ('execution.checkpointing.tolerable-failed-"
                                  "checkpoints' = " + std::to_string(ctx_.checkpoints.tolerable_failed) + ")");
    }
    last_checkpoint_micros_ = NowMicros(ctx_);
    return Status::OK();
  }
  consecutive_failures_ = 0;
  UpdateChains(*pending_data_);
  // The written states' buffers serve the next checkpoint's snapshots (CheckpointCollector::TakeBuffer).
  for (size_t i = 0; i < operators_.size() && i < pending_data_->operators.size(); ++i) {
    CheckpointData::OperatorState& st = pending_data_->operators[i];
    std::string& bytes = st.chain.empty() ? st.bytes : st.chain.back().bytes;
    if (bytes.capacity() > 0) spare_buffers_[operators_[i].get()] = std::move(bytes);
  }
  pending_data_.reset();
  Failpoint("checkpoint.before-commit");
  for (const auto& op : operators_) RETURN_IF_ERROR(op->NotifyCheckpointComplete(pending_checkpoint_id_));
  if (late_rows_) RETURN_IF_ERROR(late_rows_->NotifyCheckpointComplete(pending_checkpoint_id_));
  Failpoint("checkpoint.after-commit");
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - pending_checkpoint_started_).count();
  ++checkpoint_stats_.taken;
  checkpoint_stats_.last_bytes = *bytes;
  checkpoint_stats_.total_bytes += *bytes;
  checkpoint_stats_.total_seconds += secs;
  checkpoint_stats_.max_seconds = std::max(checkpoint_stats_.max_seconds, secs);
  // 'execution.checkpointing.min-pause' counts from here.
  last_checkpoint_micros_ = NowMicros(ctx_);
  return Status::OK();
}

void Job::UpdateChains(const CheckpointData& data) {
  chains_.assign(operators_.size(), StateChain());
  for (size_t i = 0; i < operators_.size() && i < data.operators.size(); ++i) {
    StateChain& c = chains_[i];
    for (const auto& f : data.operators[i].chain) {
      CheckpointData::StateFile ref;  // the file without its bytes
      ref.name = f.name;
      ref.delta = f.delta;
      ref.raw_size = f.raw_size;
      ref.file_size = f.file_size;
      ref.checksum = f.checksum;
      (f.delta ? c.delta_bytes : c.base_bytes) += f.raw_size;
      c.files.push_back(std::move(ref));
    }
  }
}

Status Job::RestoreFrom(const CheckpointData& data, bool keep_chains, bool* finished) {
  const std::string where = "Cannot restore checkpoint chk-" + std::to_string(data.id) + ": ";
  // A job with a late-rows table has one more entry, after its operators' (TakeCheckpoint).
  const size_t expected = operators_.size() + (late_rows_ ? 1 : 0);
  const bool checkpoint_has_late_rows =
      data.operators.size() > operators_.size() && data.operators[operators_.size()].digest.rfind("LateRowsTable(", 0) == 0;
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (i >= data.operators.size()) {
      return Status::InvalidArgument(where + "the job's operator #" + std::to_string(i + 1) + " " +
                                     operators_[i]->digest() +
                                     " has no state in the checkpoint (the script changed since it was taken)");
    }
    if (data.operators[i].digest != operators_[i]->digest()) {
      return Status::InvalidArgument(where + "the job's operator #" + std::to_string(i + 1) + " " +
                                     operators_[i]->digest() + " does not match the checkpoint's " +
                                     data.operators[i].digest +
                                     " (the script changed since it was taken); use a new 'state.checkpoints.dir' "
                                     "to start afresh");
    }
  }
  if (late_rows_ && !checkpoint_has_late_rows) {
    return Status::InvalidArgument(where + "the job writes late rows to table '" + late_rows_->table_name() +
                                   "' ('sluice.exec.late-rows.table'), which the checkpoint has no state for (the "
                                   "script changed since it was taken); use a new 'state.checkpoints.dir' to start "
                                   "afresh");
  }
  if (late_rows_ && data.operators[operators_.size()].digest != LateRowsDigest()) {
    return Status::InvalidArgument(where + "the job's late-rows table " + LateRowsDigest() +
                                   " does not match the checkpoint's " + data.operators[operators_.size()].digest +
                                   " (the script changed since it was taken); use a new 'state.checkpoints.dir' to "
                                   "start afresh");
  }
  if (data.operators.size() > expected) {
    return Status::InvalidArgument(where + "the checkpoint has state for " +
                                   (checkpoint_has_late_rows && !late_rows_
                                        ? std::string("a late-rows table ")
                                        : "operator #" + std::to_string(expected + 1) + " ") +
                                   data.operators[checkpoint_has_late_rows && !late_rows_ ? operators_.size() : expected]
                                       .digest +
                                   ", which the job no longer has");
  }
  for (size_t i = 0; i < operators_.size(); ++i) {
    const CheckpointData::OperatorState& st = data.operators[i];
    // A final checkpoint stores the operators that finished without state (TakeCheckpoint); nothing
    // runs after restoring it but the sinks' commits.
    if (data.final && st.chain.empty() && st.bytes.empty()) continue;
    const std::string what = "operator #" + std::to_string(i + 1) + " " + operators_[i]->digest();
    // A chain: the full snapshot, then each delta on it in order.
    StateReader r(st.chain.empty() ? std::string_view(st.bytes) : std::string_view(st.chain[0].bytes),
                  st.chain.empty() ? what : what + " (state file " + st.chain[0].name + ")");
    RETURN_IF_ERROR(operators_[i]->Restore(&r).WithContext(where.substr(0, where.size() - 2)));
    for (size_t k = 1; k < st.chain.size(); ++k) {
      StateReader d(st.chain[k].bytes, what + " (state file " + st.chain[k].name + ")");
      RETURN_IF_ERROR(operators_[i]->ApplyDelta(&d).WithContext(where.substr(0, where.size() - 2)));
    }
    Failpoint("restore.during");
  }
  if (keep_chains) {
    UpdateChains(data);
  } else {
    chains_.clear();
  }
  if (late_rows_) {
    RETURN_IF_ERROR(late_rows_->Restore(data.operators[operators_.size()].bytes, LateRowsDigest())
                        .WithContext(where.substr(0, where.size() - 2)));
  }
  last_checkpoint_id_ = data.id;
  last_checkpoint_micros_ = NowMicros(ctx_);
  checkpoint_stats_.restored_from = data.id;
  *finished = data.final;
  return Status::OK();
}

Result<JobSummary> Job::Run() {
  const auto start = std::chrono::steady_clock::now();
  RssMeter rss;
  const Status status = GuardOutOfMemory(ctx_, operators_, [&] { return RunToEnd(&rss); });
  ctx_.running = nullptr;
  if (!status.ok() && !started_) return status;
  JobSummary summary = Summarize();
  summary.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.peak_rss_bytes = rss.PeakGrowthBytes();
  summary.failed = !status.ok();
  summary_ = summary;
  if (!status.ok()) return status;
  return summary;
}

int64_t Job::CheckpointBufferBytes() const {
  int64_t bytes = 0;
  for (const auto& [op, buffer] : spare_buffers_) bytes += static_cast<int64_t>(buffer.capacity());
  if (pending_data_) {
    for (const auto& st : pending_data_->operators) {
      bytes += static_cast<int64_t>(st.bytes.capacity());
      for (const auto& f : st.chain) bytes += static_cast<int64_t>(f.bytes.capacity());
    }
  }
  return bytes;
}

Status Job::RunToEnd(RssMeter* rss) {
  for (auto& op : operators_) RETURN_IF_ERROR(op->Open(&ctx_));
  bool finished = false;
  const CheckpointConfig& cc = ctx_.checkpoints;
  if (cc.enabled() || !cc.restore_path.empty()) {
    RETURN_IF_ERROR(CheckCheckpointable());
    if (late_rows_ && cc.enabled()) late_rows_->EnableTwoPhaseCommit();
    std::optional<CheckpointData> restore;
    bool restored_from_storage = false;
    if (!cc.restore_path.empty()) {
      ASSIGN_OR_RETURN(CheckpointData d, CheckpointStorage::ReadPath(cc.restore_path));
      restore = std::move(d);
    }
    if (cc.enabled()) {
      storage_ = std::make_unique<CheckpointStorage>(cc.job_dir, cc.num_retained);
      if (!restore) {
        std::vector<std::string> notes;
        ASSIGN_OR_RETURN(restore, storage_->Latest(&notes));
        restored_from_storage = restore.has_value();
        for (const auto& n : notes) checkpoint_notes_.push_back(n);
      }
    }
    if (restore) {
      RETURN_IF_ERROR(RestoreFrom(*restore, restored_from_storage, &finished));
    } else {
      for (SinkOperator* s : sinks_) RETURN_IF_ERROR(s->StartAfresh());
      if (late_rows_) RETURN_IF_ERROR(late_rows_->StartAfresh());
    }
    last_checkpoint_micros_ = last_trigger_micros_ = NowMicros(ctx_);
  }
  if (finished) {
    // The job had ended and its final checkpoint is durable: only the sinks' commits may be missing.
    for (const auto& op : operators_) RETURN_IF_ERROR(op->NotifyCheckpointComplete(last_checkpoint_id_));
    if (late_rows_) RETURN_IF_ERROR(late_rows_->NotifyCheckpointComplete(last_checkpoint_id_));
  }
  started_ = true;
  if (sources_.size() > 1) {
    for (SourceOperatorBase* s : sources_) {
      s->SetWatermarkListener([this, s] { return FollowWatermarks(sources_, &ctx_, s); });
    }
  }
  // The RSS is sampled every kRssSampleSteps steps (a /proc read; RssMeter).
  constexpr int64_t kRssSampleSteps = 16;
  int64_t steps = 0;
  while (!finished) {
    if (storage_ && cc.interval_ms > 0) {
      RETURN_IF_ERROR(CompletePendingCheckpoint(/*wait=*/false));
      // As Flink's periodic trigger: every interval from the previous start, one at a time, and not
      // before the min-pause since the previous one ended.
      const int64_t now = NowMicros(ctx_);
      if (!pending_checkpoint_.valid() && now - last_trigger_micros_ >= cc.interval_ms * 1000 &&
          now - last_checkpoint_micros_ >= cc.min_pause_ms * 1000) {
        RETURN_IF_ERROR(TakeCheckpoint(false));
      }
    }
    // Operators' processing-time timers that are due fire, and sinks fire theirs (the filesystem
    // sink's rolling check), rows or not.
    RETURN_IF_ERROR(timers_->FireDueTimers());
    for (SinkOperator* s : sinks_) RETURN_IF_ERROR(s->OnProcessingTime());
    // Idle sources and splits (the idle timeout) first stop holding back the watermark.
    for (SourceOperatorBase* s : sources_) {
      if (s->finished()) continue;
      RETURN_IF_ERROR(s->DiscoverSplits());
      RETURN_IF_ERROR(s->UpdateIdleness());
    }
    // The source with the lowest watermark goes next (ties: the first declared); it emits until its
    // watermark passes the next-lowest source's.
    int64_t bound;
    size_t bound_index;
    const size_t next = NextSource(sources_, &bound, &bound_index);
    if (next == sources_.size()) break;
    ctx_.running = sources_[next];
    RETURN_IF_ERROR(sources_[next]->Step(bound, bound_index < next));
    ctx_.running = nullptr;
    if (sources_.size() > 1) RETURN_IF_ERROR(FollowWatermarks(sources_, &ctx_, nullptr));
    if (ctx_.checkpoint_roundtrip) RETURN_IF_ERROR(RoundTripState());
    // The checkpoint buffers are added up only when a budget is set (every step otherwise walks them).
    if (ctx_.memory_budget_bytes > 0) RETURN_IF_ERROR(CheckMemoryBudget(ctx_, operators_, CheckpointBufferBytes()));
    if (++steps % kRssSampleSteps == 0) rss->Sample();
  }
  if (late_rows_ && !finished) RETURN_IF_ERROR(late_rows_->Finish());
  // A bounded job ends with a final checkpoint, which commits the sinks' last output.
  if (storage_ && !finished) RETURN_IF_ERROR(TakeCheckpoint(true));
  return Status::OK();
}

JobSummary Job::Summarize() const {
  JobSummary summary;
  summary.checkpoints = checkpoint_stats_;
  summary.notes = checkpoint_notes_;
  for (SourceOperatorBase* s : sources_) {
    if (dynamic_cast<ValuesOperator*>(s) != nullptr) continue;
    summary.sources.push_back({s->table_name(), s->rows_read(), s->records_skipped(), s->summary_fields()});
  }
  for (SinkOperator* s : sinks_) summary.sinks.push_back(s->stats());
  if (late_rows_) {
    summary.late_rows_table = late_rows_->table_name();
    summary.late_rows_recorded = late_rows_->rows_recorded();
  }
  for (const auto& op : operators_) {
    if (op->metrics().late_rows_dropped > 0) {
      summary.late_rows_per_operator.push_back({op->late_row_label(), op->metrics().late_rows_dropped});
    }
    summary.late_rows_dropped += op->metrics().late_rows_dropped;
    summary.retractions_without_state += op->metrics().retractions_without_state;
    summary.expired_states += op->metrics().expired_states;
    if (op->metrics().peak_state_bytes > 0) {
      summary.state_per_operator.push_back(
          {op->late_row_label(), op->metrics().peak_state_bytes, op->metrics().state_rows_at_peak});
    }
  }
  return summary;
}

}  // namespace sluice
