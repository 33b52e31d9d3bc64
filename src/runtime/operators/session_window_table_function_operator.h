// SessionWindowTableFunctionOperator: Flink's WindowTableFunction for TABLE(SESSION(TABLE t [PARTITION
// BY k...], DESCRIPTOR(ts), gap)) in event time — the unaligned window table function. Rows wait in
// state per partition key (one key without PARTITION BY: the sessions span all rows) in sessions
// [first rowtime, last rowtime + gap); a row whose window [ts, ts + gap) touches or overlaps pending
// sessions merges them (Flink's TimeWindow.intersects: start <= other end and end >= other start).
// When the watermark reaches a session's last millisecond the session fires: its rows leave, in
// arrival order, with window_start, window_end and window_time (window_end - 1 ms) appended.
// A row whose own window already fired and that merges with no pending session is late: dropped and
// reported (Operator::ReportLate). At end of input every session fires.
//
// Processing time (`proctime`): a row's window starts at its processing time (the time attribute's
// value), and a session fires once the clock has passed its end (checked as chunks and watermarks
// arrive; the clock's current millisecond may still receive rows); no row is late. As Sluice's other
// processing-time windows, the end of input fires the rest (docs/flink_differences.md).
//
// Every row keeps its RowKind, as Flink's UnalignedWindowTableFunctionOperator: over an updating
// input a -U, +U or -D opens and merges sessions by its own row time exactly as an insert does (a
// retraction never shrinks or splits a session) and leaves with its kind when its session fires, so a
// -U and its +U may name different sessions, and one behind the watermark is late like any row.
//
// State: the waiting rows (with their kinds) in a RowArena (compacted when released rows outnumber
// waiting ones) and per key the sessions by start, each with its end and its rows' ids; sessions
// ordered by end for firing.
// Checkpoints write the waiting rows (kinds included) in arrival order, then each session's bounds and
// its rows' positions among them, so sessions merged after a restore keep their rows' arrival order.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "runtime/operator.h"
#include "state/row_arena.h"

namespace sluice {

class SessionWindowTableFunctionOperator final : public Operator {
 public:
  // `output_types`: the input columns, then window_start, window_end, window_time. `gap_ms`: the
  // session gap; `partition_keys`: input columns (empty: one session sequence over all rows);
  // `proctime`: the time column is a processing-time attribute.
  SessionWindowTableFunctionOperator(std::string name, std::vector<LogicalType> output_types, int64_t gap_ms,
                                     int time_column, bool local_time, std::vector<int> partition_keys,
                                     bool proctime = false);
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  Status Process(int input, Chunk& chunk) override;
  size_t StateBytes() const override;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  struct Session {
    int64_t end = 0;
    std::vector<uint32_t> ids;  // arena rows, in arrival order
  };
  using Sessions = std::map<int64_t, Session>;  // by start
  // Adds row `id` with window [ts, ts + gap) to `key`'s sessions; false when it is late.
  bool Assign(const std::string& key, int64_t ts, uint32_t id);
  // Fires every session the watermark (on the window clock's terms) has passed.
  Status FireUpTo(int64_t watermark, bool all);
  // Rebuilds the arena with the waiting rows only, renumbering the sessions' ids in arrival order.
  void Compact();
  // Every waiting row's id, ascending: arrival order (ids grow with arrival, renumbering keeps it).
  std::vector<uint32_t> WaitingRows() const;
  // Processing time: the instant up to which sessions may fire (the clock's previous millisecond).
  int64_t ProcessingProgress() const;

  std::vector<LogicalType> input_types_;
  std::vector<LogicalType> output_types_;
  int64_t gap_us_;
  int time_column_;
  bool local_time_;
  std::vector<int> partition_keys_;
  bool proctime_;
  RowArena arena_;
  std::unordered_map<std::string, Sessions> sessions_;
  std::set<std::tuple<int64_t, std::string, int64_t>> by_end_;  // (end, key, start)
  std::vector<std::string> keys_;  // scratch
};

}  // namespace sluice
