// MiniBatchAssignerOperator: Flink's MiniBatchAssigner, which cuts its input into mini-batches with
// watermarks; the mini-batch operators downstream close their bundle at every watermark they receive
// (runtime/operators/group_aggregate_operator.h). Rows pass through unchanged.
//
// - kRowTime (Flink's RowTimeMiniBatchAssginerOperator): the input's watermarks are forwarded only when
//   they reach the end of an event-time interval: with interval I (ms), the first forwarded watermark is
//   the first one >= I - 1 ms, then the first one >= the end (n * I - 1 ms) of the next interval after
//   the last forwarded one. Watermarks before 1970 count as 0 (Flink starts its watermark at 0). The
//   final watermark (+infinity) is always forwarded.
// - kProcTime (Flink's ProcTimeMiniBatchAssignerOperator): a watermark of processing time, the start
//   of the current interval (now - now % I), whenever a row arrives in a later interval than the last
//   one, and from a processing-time timer (runtime/processing_time_service.h) at every interval's end
//   when no row arrives: registered at open for now + I, then for the end of each interval it
//   fired in. The input's own watermarks are dropped, except the final one, after which the timer
//   emits nothing.
// Watermarks are microseconds (runtime/operator.h); the interval arithmetic is in milliseconds as
// Flink's, on the watermark rounded down to a millisecond.
//
// Checkpoints: the current and next watermark (kRowTime) or the current interval (kProcTime).
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <string>

#include "plan/plan_node.h"
#include "runtime/operator.h"
#include "runtime/processing_time_service.h"

namespace sluice {

class MiniBatchAssignerOperator final : public Operator, public ProcessingTimeCallback {
 public:
  using Mode = MiniBatchAssignerNode::Mode;
  MiniBatchAssignerOperator(std::string name, int64_t interval_ms, Mode mode);
  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;
  Status OnProcessingTime(int64_t timestamp_micros) override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  // Forwards the current watermark and moves the next one to the end of the following interval.
  Status Advance();
  // kProcTime: emits the start of the clock's interval as the watermark when it is later than the
  // last one emitted; `*interval_start` receives it (ms).
  Status EmitProcTimeWatermark(int64_t* interval_start);

  const int64_t interval_ms_;
  const Mode mode_;
  int64_t current_ms_ = 0;  // kRowTime: the largest watermark seen; kProcTime: the current interval's start
  int64_t next_ms_;         // kRowTime: the watermark that is forwarded next
  bool ended_ = false;      // the final watermark was forwarded
};

}  // namespace sluice
