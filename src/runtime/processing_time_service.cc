#include "runtime/processing_time_service.h"

#include "common/clock.h"

namespace sluice {

int64_t ProcessingTimeService::NowMicros() const { return clock_ != nullptr ? clock_->NowMicros() : 0; }

void ProcessingTimeService::RegisterTimer(int64_t timestamp_micros, ProcessingTimeCallback* callback) {
  timers_.push(Timer{timestamp_micros, next_sequence_++, callback});
}

Status ProcessingTimeService::FireDueTimers() {
  const int64_t now = NowMicros();
  while (!timers_.empty() && timers_.top().timestamp <= now) {
    const Timer t = timers_.top();
    timers_.pop();
    RETURN_IF_ERROR(t.callback->OnProcessingTime(t.timestamp));
  }
  return Status::OK();
}

}  // namespace sluice
