#include "runtime/operator.h"

#include <algorithm>

#include "common/check.h"
#include "formats/json/json_format.h"
#include "runtime/job.h"
#include "runtime/late_rows.h"
#include "state/state_serde.h"

namespace sluice {

Operator::Operator(std::string name, int num_inputs)
    : name_(std::move(name)),
      input_watermarks_(static_cast<size_t>(num_inputs), kMinWatermark),
      input_ended_(static_cast<size_t>(num_inputs), false),
      input_idle_(static_cast<size_t>(num_inputs), false),
      input_blocked_(static_cast<size_t>(num_inputs), false) {}

void Operator::AddOutput(Operator* downstream, int input_index) { outputs_.push_back({downstream, input_index}); }

void Operator::SetLateRowReporting(std::string label, const std::vector<std::vector<std::string>>& input_columns) {
  late_label_ = std::move(label);
  late_row_json_.clear();
  for (const auto& names : input_columns) late_row_json_.push_back(std::make_shared<const JsonRowWriter>(names));
}

void Operator::ReportLate(const Chunk& chunk, size_t row, std::optional<int64_t> event_time, int input) {
  ++metrics_.late_rows_dropped;
  LateRowRecorder* recorder = ctx_ ? ctx_->late_rows : nullptr;
  if (recorder == nullptr) return;
  const auto in = static_cast<size_t>(input);
  if (in >= late_row_json_.size() || !late_row_json_[in]) {
    // Reporting was not set up with column names: Flink's default field names f0, f1, ...
    std::vector<std::string> names;
    for (size_t c = 0; c < chunk.num_columns(); ++c) names.push_back("f" + std::to_string(c));
    if (late_row_json_.size() <= in) late_row_json_.resize(in + 1);
    late_row_json_[in] = std::make_shared<const JsonRowWriter>(std::move(names));
  }
  std::string json;
  Status s = late_row_json_[in]->Append(chunk, row, &json);
  // A row the json format cannot write (a MAP with a NULL key) is still recorded, with the reason.
  if (!s.ok()) {
    json = "{\"error\":";
    AppendJsonString(s.message(), &json);
    json += "}";
  }
  recorder->Record(late_row_label(), current_watermark_, std::move(json), event_time);
}

Status Operator::Open(JobContext* ctx) {
  ctx_ = ctx;
  return Status::OK();
}

Status Operator::ReceiveWatermark(int input, int64_t watermark) {
  SLUICE_CHECK_LT(input, num_inputs());
  const auto in = static_cast<size_t>(input);
  int64_t& w = input_watermarks_[in];
  if (watermark <= w) return Status::OK();
  const int64_t old = w;
  w = watermark;
  RETURN_IF_ERROR(OnInputWatermark(input, watermark));
  // The minimum moves only when the last active input sitting on it moves on; checking that instead of
  // scanning every input keeps a Union of thousands of inputs linear.
  if (at_min_ > 0 && !input_idle_[in]) {
    if (old != min_active_) return Status::OK();
    if (--at_min_ > 0) return Status::OK();
  }
  return AdvanceCombinedWatermark();
}

Status Operator::AdvanceCombinedWatermark() {
  int64_t combined = kMaxWatermark;
  size_t at_min = 0;
  for (size_t i = 0; i < input_watermarks_.size(); ++i) {
    if (input_idle_[i]) continue;
    if (input_watermarks_[i] < combined) {
      combined = input_watermarks_[i];
      at_min = 0;
    }
    if (input_watermarks_[i] == combined) ++at_min;
  }
  min_active_ = combined;
  at_min_ = at_min;
  if (at_min == 0 || combined <= current_watermark_) return Status::OK();
  current_watermark_ = combined;
  return OnWatermark(combined);
}

Status Operator::ReceiveIdle(int input, bool idle) {
  SLUICE_CHECK_LT(input, num_inputs());
  const auto in = static_cast<size_t>(input);
  if (input_ended_[in] || input_idle_[in] == idle) return Status::OK();
  input_idle_[in] = idle;
  at_min_ = 0;  // the set of active inputs changed: rescan
  const bool all_idle = std::all_of(input_idle_.begin(), input_idle_.end(), [](bool b) { return b; });
  if (!idle) return all_idle == emitted_idle_ ? Status::OK() : EmitIdle(false);
  // The other inputs alone may now pass the watermark on; then the output goes idle with them.
  RETURN_IF_ERROR(AdvanceCombinedWatermark());
  return all_idle ? EmitIdle(true) : Status::OK();
}

Status Operator::EmitIdle(bool idle) {
  if (idle == emitted_idle_) return Status::OK();
  emitted_idle_ = idle;
  for (const auto& o : outputs_) {
    Entering(o);
    RETURN_IF_ERROR(o.op->ReceiveIdle(o.input, idle));
    Returned();
  }
  return Status::OK();
}

Status Operator::ReceiveEndOfInput(int input) {
  SLUICE_CHECK_LT(input, num_inputs());
  if (input_ended_[static_cast<size_t>(input)]) return Status::OK();
  if (input_idle_[static_cast<size_t>(input)]) RETURN_IF_ERROR(ReceiveIdle(input, false));
  // A finished input no longer holds the watermark back.
  RETURN_IF_ERROR(ReceiveWatermark(input, kMaxWatermark));
  input_ended_[static_cast<size_t>(input)] = true;
  if (++ended_inputs_ < num_inputs()) return Status::OK();
  return OnEndOfInput();
}

void Operator::Entering(const Output& o) const {
  if (ctx_ != nullptr) ctx_->running = o.op;
}

void Operator::Returned() const {
  if (ctx_ != nullptr) ctx_->running = this;
}

Status Operator::OnInputWatermark(int, int64_t) { return Status::OK(); }

Status Operator::OnWatermark(int64_t watermark) { return EmitWatermark(watermark); }

Status Operator::OnEndOfInput() { return EmitEndOfInput(); }

Status Operator::Emit(Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  for (const auto& o : outputs_) {
    SLUICE_CHECK(!o.op->input_blocked_[static_cast<size_t>(o.input)]);  // no data after a checkpoint barrier
  }
  metrics_.rows_out += static_cast<int64_t>(chunk.size());
  for (size_t i = 0; i + 1 < outputs_.size(); ++i) {
    Chunk copy = chunk;
    Entering(outputs_[i]);
    RETURN_IF_ERROR(outputs_[i].op->Process(outputs_[i].input, copy));
    Returned();
  }
  if (!outputs_.empty()) {
    Entering(outputs_.back());
    RETURN_IF_ERROR(outputs_.back().op->Process(outputs_.back().input, chunk));
    Returned();
  }
  return Status::OK();
}

Status Operator::EmitJoinedRows(const std::vector<LogicalType>& types, const Chunk& left,
                                const std::vector<uint32_t>& left_sel, const Chunk& right,
                                const std::vector<uint32_t>& right_sel) {
  SLUICE_CHECK_EQ(left_sel.size(), right_sel.size());
  const size_t total = left_sel.size();
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  const size_t nl = left.num_columns();
  for (size_t begin = 0; begin < total; begin += chunk_size) {
    const size_t m = std::min(chunk_size, total - begin);
    Chunk out(types);
    for (size_t c = 0; c < nl; ++c) AppendSelectedOrNull(&out.column(c), left.column(c), left_sel.data() + begin, m);
    for (size_t c = 0; c < right.num_columns(); ++c) {
      AppendSelectedOrNull(&out.column(nl + c), right.column(c), right_sel.data() + begin, m);
    }
    out.kind_vector().assign(m, RowKind::kInsert);
    RETURN_IF_ERROR(Emit(out));
  }
  return Status::OK();
}

Status Operator::EmitWatermark(int64_t watermark) {
  if (watermark <= emitted_watermark_) return Status::OK();
  emitted_watermark_ = watermark;
  for (const auto& o : outputs_) {
    Entering(o);
    RETURN_IF_ERROR(o.op->ReceiveWatermark(o.input, watermark));
    Returned();
  }
  return Status::OK();
}

Status Operator::EmitEndOfInput() {
  for (const auto& o : outputs_) {
    Entering(o);
    RETURN_IF_ERROR(o.op->ReceiveEndOfInput(o.input));
    Returned();
  }
  return Status::OK();
}

Status Operator::PrepareSnapshotPreBarrier(int64_t) { return Status::OK(); }
Status Operator::SnapshotState(StateWriter*) { return Status::OK(); }
Status Operator::RestoreState(StateReader*) { return Status::OK(); }
Status Operator::SnapshotDelta(StateWriter*) {
  return Status::Internal("operator " + digest() + " cannot write an incremental snapshot");
}
Status Operator::RestoreDelta(StateReader*) {
  return Status::Internal("operator " + digest() + " cannot apply an incremental snapshot");
}
void Operator::DropState() {}
Status Operator::NotifyCheckpointComplete(int64_t) { return Status::OK(); }

Status Operator::StartBarrier(int64_t id) {
  SLUICE_CHECK_EQ(num_inputs(), 0);
  return SnapshotAndForward(id);
}

Status Operator::ReceiveBarrier(int input, int64_t id) {
  SLUICE_CHECK_LT(input, num_inputs());
  const auto in = static_cast<size_t>(input);
  if (barrier_id_ != id) {
    SLUICE_CHECK_EQ(barriers_received_, 0);  // the previous checkpoint aligned
    barrier_id_ = id;
  }
  SLUICE_CHECK(!input_blocked_[in]);  // one barrier per checkpoint and input
  input_blocked_[in] = true;
  if (++barriers_received_ < num_inputs()) return Status::OK();
  barriers_received_ = 0;
  std::fill(input_blocked_.begin(), input_blocked_.end(), false);
  return SnapshotAndForward(id);
}

Status Operator::SnapshotAndForward(int64_t id) {
  RETURN_IF_ERROR(PrepareSnapshotPreBarrier(id));
  SLUICE_CHECK(ctx_ != nullptr && ctx_->checkpoint != nullptr);  // a barrier needs a checkpoint in progress
  StateWriter w(ctx_->checkpoint->TakeBuffer(this));
  // Large row runs are written by the checkpoint's background thread (RowArena, DeferredBytes).
  w.AllowDeferred();
  const bool delta = snapshot_delta_ && CanSnapshotDelta() && !ctx_->checkpoint->Finished(this);
  if (!ctx_->checkpoint->Finished(this)) RETURN_IF_ERROR(delta ? WriteDelta(&w) : WriteSnapshot(&w));
  std::vector<DeferredPart> deferred;
  std::string bytes = w.Release(&deferred);
  ctx_->checkpoint->Put(this, std::move(bytes), std::move(deferred), delta);
  for (const auto& o : outputs_) {
    Entering(o);
    RETURN_IF_ERROR(o.op->ReceiveBarrier(o.input, id));
    Returned();
  }
  return Status::OK();
}

void Operator::WriteBase(StateWriter* wp) const {
  StateWriter& w = *wp;
  w.PutTag("operator");
  w.PutVarint(input_watermarks_.size());
  for (size_t i = 0; i < input_watermarks_.size(); ++i) {
    w.PutI64(input_watermarks_[i]);
    w.PutBool(input_ended_[i]);
    w.PutBool(input_idle_[i]);
  }
  w.PutI64(current_watermark_);
  w.PutI64(emitted_watermark_);
  w.PutBool(emitted_idle_);
  w.PutI64(metrics_.rows_in);
  w.PutI64(metrics_.rows_out);
  w.PutI64(metrics_.late_rows_dropped);
  w.PutI64(metrics_.retractions_without_state);
  w.PutI64(metrics_.expired_states);
}

void Operator::RestoreBase(StateReader* r) {
  r->ExpectTag("operator");
  size_t n = r->GetCount(10);
  if (r->ok() && n != input_watermarks_.size()) {
    r->Fail("state for " + std::to_string(n) + " inputs, the operator has " + std::to_string(input_watermarks_.size()));
  }
  ended_inputs_ = 0;
  for (size_t i = 0; i < n && r->ok(); ++i) {
    input_watermarks_[i] = r->GetI64();
    input_ended_[i] = r->GetBool();
    input_idle_[i] = r->GetBool();
    if (input_ended_[i]) ++ended_inputs_;
  }
  at_min_ = 0;
  current_watermark_ = r->GetI64();
  emitted_watermark_ = r->GetI64();
  emitted_idle_ = r->GetBool();
  metrics_.rows_in = r->GetI64();
  metrics_.rows_out = r->GetI64();
  metrics_.late_rows_dropped = r->GetI64();
  metrics_.retractions_without_state = r->GetI64();
  metrics_.expired_states = r->GetI64();
}

Status Operator::WriteSnapshot(StateWriter* w) {
  WriteBase(w);
  w->PutU64(++snapshot_version_);
  return SnapshotState(w);
}

Status Operator::WriteDelta(StateWriter* w) {
  // The versions come first, so ApplyDelta refuses a delta on the wrong base before reading anything.
  w->PutTag("delta");
  w->PutU64(snapshot_version_);
  w->PutU64(++snapshot_version_);
  WriteBase(w);
  return SnapshotDelta(w);
}

Status Operator::RollBack(Status error) {
  DropState();
  std::fill(input_watermarks_.begin(), input_watermarks_.end(), kMinWatermark);
  std::fill(input_ended_.begin(), input_ended_.end(), false);
  std::fill(input_idle_.begin(), input_idle_.end(), false);
  at_min_ = 0;
  ended_inputs_ = 0;
  current_watermark_ = kMinWatermark;
  emitted_watermark_ = kMinWatermark;
  emitted_idle_ = false;
  metrics_ = OperatorMetrics{};
  snapshot_version_ = 0;
  return error;
}

Status Operator::Restore(StateReader* r) {
  RestoreBase(r);
  const uint64_t version = r->GetU64();
  if (r->ok() && version == 0) r->Fail("a state snapshot without a version");
  Status st = r->status();
  if (st.ok()) st = RestoreState(r);
  if (st.ok()) st = r->Finish();
  if (!st.ok()) return RollBack(std::move(st));
  snapshot_version_ = version;
  return Status::OK();
}

Status Operator::ApplyDelta(StateReader* r) {
  r->ExpectTag("delta");
  const uint64_t base = r->GetU64();
  const uint64_t version = r->GetU64();
  if (r->ok() && (snapshot_version_ == 0 || base != snapshot_version_)) {
    r->Fail("a state delta on snapshot " + std::to_string(base) + " applied to " +
            (snapshot_version_ == 0 ? std::string("an operator restored from nothing")
                                    : "snapshot " + std::to_string(snapshot_version_)));
  }
  RETURN_IF_ERROR(r->status());  // refused before anything changed
  RestoreBase(r);
  Status st = r->status();
  if (st.ok()) st = RestoreDelta(r);
  if (st.ok()) st = r->Finish();
  if (!st.ok()) return RollBack(std::move(st));
  snapshot_version_ = version;
  return Status::OK();
}

}  // namespace sluice
