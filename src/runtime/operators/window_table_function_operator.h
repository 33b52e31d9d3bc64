// WindowTableFunctionOperator: Flink's WindowTableFunction — TABLE(TUMBLE|HOP|CUMULATE(...)) used on
// its own. Every input row is emitted once per window that holds it, with window_start, window_end
// and window_time (window_end - 1 ms) appended; HOP and CUMULATE give several rows per input row, in
// the order of Flink's window assigners. It keeps no state and drops nothing (as Flink's aligned
// window table function, lateness matters only to a window aggregate downstream).
//
// Event time reads the rowtime column (a NULL rowtime is an error); processing time reads the
// injected clock once per chunk. For a TIMESTAMP_LTZ attribute (and processing time) windows align
// to the session time zone and window_start/window_end are local TIMESTAMP(3) values, as in Flink.
// The input must be insert-only.
//
// Threading: the job's task thread.
#pragma once

#include <string>
#include <vector>

#include "plan/window.h"
#include "runtime/operator.h"

namespace sluice {

class WindowTableFunctionOperator final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  // `output_types`: the input columns, then window_start, window_end, window_time.
  WindowTableFunctionOperator(std::string name, std::vector<LogicalType> output_types, WindowSpec window,
                              int time_column, bool proctime, bool local_time);
  Status Process(int input, Chunk& chunk) override;

 private:
  std::vector<LogicalType> output_types_;
  WindowSpec window_;
  int time_column_;
  bool proctime_;
  bool local_time_;
  std::vector<std::pair<int64_t, int64_t>> windows_;  // scratch
};

// Shared by the window operators: the row times of `chunk` on the window clock (event time from
// `time_column`, or the clock's time for processing time; shifted into the session time zone when
// `local_time`). Fails on a NULL rowtime, and unless `changes` (an operator that reads -U/+U/-D rows
// by their row time) on a non-insert row, naming `op_name`.
Status WindowRowTimes(const Chunk& chunk, int time_column, bool proctime, bool local_time, const JobContext* ctx,
                      const std::string& op_name, std::vector<int64_t>* times, bool changes = false);

// The UTC instant of a window clock time (undoes the session time zone shift when `local_time`).
int64_t WindowClockToUtc(int64_t t, bool local_time, const JobContext* ctx);
// Whether the window ending at `window_end` (on the window clock) fired at `watermark`: the watermark
// reached its last millisecond (window operators fire and drop late rows by this one rule).
bool WindowFired(int64_t window_end, int64_t watermark, bool local_time, const JobContext* ctx);

}  // namespace sluice
