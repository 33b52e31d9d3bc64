// SinkTimeListener: an optional second interface of a SinkWriter (connectors/connector.h) whose output
// depends on time, such as the filesystem sink's rolling policy and partition commit. The sink operator
// finds it with a dynamic_cast when it opens, hands it the job's processing-time clock before the first
// Write, and calls OnWatermark whenever the sink's combined input watermark advances. The job calls
// OnProcessingTime before every step of its sources (runtime/job.h), also while no row arrives, so a
// listener fires the processing-time timers due by the clock (Flink's ProcessingTimeService timers)
// even for a sink that receives nothing.
//
// Threading: called from the sink's task thread, like the writer itself.
#pragma once

#include <cstdint>

#include "common/status.h"

namespace sluice {

class Clock;

class SinkTimeListener {
 public:
  virtual ~SinkTimeListener() = default;
  // The job's processing-time clock (not owned; it outlives the writer). Not called when the job has none.
  virtual void SetProcessingTimeClock(const Clock* clock) = 0;
  virtual Status OnWatermark(int64_t watermark) = 0;
  // Processing time may have advanced: fire what is due by the clock.
  virtual Status OnProcessingTime() { return Status::OK(); }
};

}  // namespace sluice
