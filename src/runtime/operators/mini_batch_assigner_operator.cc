#include "runtime/operators/mini_batch_assigner_operator.h"

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0); }

// The start of the interval holding `ms` (Flink's getMiniBatchStart).
int64_t IntervalStart(int64_t ms, int64_t interval) { return ms - (ms % interval + interval) % interval; }

}  // namespace

MiniBatchAssignerOperator::MiniBatchAssignerOperator(std::string name, int64_t interval_ms, Mode mode)
    : Operator(std::move(name), 1), interval_ms_(interval_ms > 0 ? interval_ms : 1), mode_(mode) {
  next_ms_ = IntervalStart(0, interval_ms_) + interval_ms_ - 1;
}

Status MiniBatchAssignerOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (mode_ == Mode::kProcTime && ctx->timers != nullptr) {
    const int64_t now_ms = FloorDiv(ctx->timers->NowMicros(), 1000);
    ctx->timers->RegisterTimer((now_ms + interval_ms_) * 1000, this);
  }
  return Status::OK();
}

Status MiniBatchAssignerOperator::EmitProcTimeWatermark(int64_t* interval_start) {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  const int64_t now_ms = FloorDiv(clock ? clock->NowMicros() : 0, 1000);
  *interval_start = IntervalStart(now_ms, interval_ms_);
  if (*interval_start <= current_ms_) return Status::OK();
  current_ms_ = *interval_start;
  return EmitWatermark(current_ms_ * 1000);
}

Status MiniBatchAssignerOperator::Process(int, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  if (mode_ == Mode::kProcTime && !ended_) {
    int64_t interval_start = 0;
    RETURN_IF_ERROR(EmitProcTimeWatermark(&interval_start));
  }
  return Emit(chunk);
}

Status MiniBatchAssignerOperator::OnProcessingTime(int64_t) {
  // After the final watermark the job is ending: nothing more to cut, and no further timer.
  if (ended_) return Status::OK();
  int64_t interval_start = 0;
  RETURN_IF_ERROR(EmitProcTimeWatermark(&interval_start));
  ctx_->timers->RegisterTimer((interval_start + interval_ms_) * 1000, this);
  return Status::OK();
}

Status MiniBatchAssignerOperator::OnWatermark(int64_t watermark) {
  if (ended_) return Status::OK();
  if (watermark == kMaxWatermark) {
    ended_ = true;
    return EmitWatermark(watermark);
  }
  if (mode_ == Mode::kProcTime) return Status::OK();
  current_ms_ = std::max(current_ms_, FloorDiv(watermark, 1000));
  if (current_ms_ >= next_ms_) return Advance();
  return Status::OK();
}

Status MiniBatchAssignerOperator::Advance() {
  const int64_t end = IntervalStart(current_ms_, interval_ms_) + interval_ms_ - 1;
  next_ms_ = end > current_ms_ ? end : end + interval_ms_;
  // The watermark as received (microseconds), which is at least current_ms_.
  return EmitWatermark(current_watermark());
}

Status MiniBatchAssignerOperator::SnapshotState(StateWriter* w) {
  w->PutTag("mini-batch-assigner");
  w->PutI64(current_ms_);
  w->PutI64(next_ms_);
  w->PutBool(ended_);
  return Status::OK();
}

Status MiniBatchAssignerOperator::RestoreState(StateReader* r) {
  r->ExpectTag("mini-batch-assigner");
  current_ms_ = r->GetI64();
  next_ms_ = r->GetI64();
  ended_ = r->GetBool();
  return r->status();
}

void MiniBatchAssignerOperator::DropState() {
  current_ms_ = 0;
  next_ms_ = IntervalStart(0, interval_ms_) + interval_ms_ - 1;
  ended_ = false;
}

}  // namespace sluice
