// ProcessingTimeService: the processing-time timers of a job's operators (Flink's
// ProcessingTimeService, the one an operator's getProcessingTimeService() returns).
//
// An operator registers a timer for an instant of processing time with a callback; the job fires
// every timer that is due between its steps (runtime/job.h: before each source step, also while no
// row arrives), in order of their instants (ties: registration order), each once. A callback may
// register further timers (a periodic timer registers its next firing), and those that are already
// due fire in the same round. Processing time is the job's injected clock (common/clock.h), so with a
// ManualClock (sqltest's 'advance' steps, unit tests) timers fire exactly when the test moves the
// clock past them, and results never depend on the wall clock. Timers fire only between steps: an
// operator sees no timer in the middle of a chunk, and a due timer waits for the step that is running.
//
// Timers are not checkpointed. As Flink's processing-time timers of an operator that is not keyed,
// the operator registers what it needs when it opens (a restored operator opens again), and a timer
// whose operator's state was restored fires as registered. A job that has ended fires no timers.
//
// Threading: the job's task thread (registration and firing alike).
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "common/status.h"

namespace sluice {

class Clock;

// What a timer calls when it fires (Flink's ProcessingTimeCallback).
class ProcessingTimeCallback {
 public:
  virtual ~ProcessingTimeCallback() = default;
  // The timer registered for `timestamp_micros` fired; the clock reads at least that now.
  virtual Status OnProcessingTime(int64_t timestamp_micros) = 0;
};

class ProcessingTimeService {
 public:
  // `clock`: the job's processing time; null reads as time 0 (a job without a clock).
  explicit ProcessingTimeService(const Clock* clock) : clock_(clock) {}

  // Microseconds since the epoch, as the job's clock reads now.
  int64_t NowMicros() const;
  // Calls `callback` once the clock reaches `timestamp_micros` (the owner outlives the job's run).
  void RegisterTimer(int64_t timestamp_micros, ProcessingTimeCallback* callback);
  // Fires every timer due now, earliest first; stops at the first error.
  Status FireDueTimers();
  size_t pending() const { return timers_.size(); }

 private:
  struct Timer {
    int64_t timestamp;
    uint64_t sequence;  // registration order, for ties
    ProcessingTimeCallback* callback;
    bool operator>(const Timer& o) const {
      return timestamp != o.timestamp ? timestamp > o.timestamp : sequence > o.sequence;
    }
  };
  const Clock* clock_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  uint64_t next_sequence_ = 0;
};

}  // namespace sluice
