// WindowRankOperator: Flink's WindowRank (window Top-N) and WindowDeduplicate over rows that carry
// their event-time window in a window_end column (a window TVF's, a window aggregation's or a window
// join's output). Insert-only in, insert-only out.
//
// Per window (by window_end) and partition key it keeps only the rows that can still rank 1..rank_end
// by `order` (sort keys encoded order-preservingly, state/sort_key.h); a row that cannot is never
// stored, a row pushed below rank_end is released. Ties rank in arrival order (ROW_NUMBER), except
// with `later_ties_first`, where a later row ranks before the equal rows already kept: window
// deduplication keeping the last row orders by rowtime DESC with it (Flink's keep-last replaces on
// rowtime >= kept), keeping the first orders by rowtime ASC without it (replaces on < only).
//
// Firing: when the watermark reaches window_end - 1 ms (Flink's isWindowFired; a TIMESTAMP_LTZ window's
// local window_end is first turned into its UTC instant, as Flink's shiftTimeZone), the window's rows
// ranked rank_start..rank_end leave as +I (with the rank as a BIGINT last column when
// output_rank_number), then the window's state is freed. Windows fire in window_end order; within a
// window, partitions in the order their first row arrived, each partition's rows by rank. The +inf
// watermark at the end of a bounded input fires every pending window.
//
// Late rows: a row whose window already fired (window_end - 1 ms <= watermark) is dropped and
// reported with Operator::ReportLate, with the row's rowtime column as its event time.
//
// State, per window: a KeyIndex over the encoded partition keys (partition ids in first-arrival
// order), a RowArena of the stored rows and, per arena row, its partition or kReleased once it was
// pushed out of the top. That is the whole checkpointed state; each partition's top list (row ids,
// best first) and each row's encoded sort key are derived from it (rebuilt on restore by inserting
// the kept rows in arrival order, which reproduces the tie order). A window's arena is compacted
// (kept rows copied in id order) once released rows outnumber kept ones by far.
//
// Checkpoints: a full snapshot writes every window. An incremental one (state/delta.h,
// window_firing.h's PutWindowsDelta) lists the windows fired since the base and writes each window
// that existed at the base as its arena tail, its new partition keys and the delta of its per-row
// partition column (rows released since: a DeltaTracker over row ids; the new rows' partitions);
// newer windows, and windows compacted since the base (their rows were renumbered), go in full.
//
// Threading: the job's task thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/operator.h"
#include "runtime/operators/window_firing.h"

namespace sluice {

struct WindowRankSpec {
  struct SortKey {
    int column;
    bool ascending;
    bool nulls_first;
  };
  int window_end = -1;  // input column holding the row's window_end (TIMESTAMP(3))
  std::vector<int> partition_keys;  // besides the window
  std::vector<SortKey> order;
  int64_t rank_start = 1;
  int64_t rank_end = 1;
  bool output_rank_number = false;
  bool later_ties_first = false;
  int event_time_column = -1;  // the rowtime column late-row reports carry (-1: none)
  bool local_time = false;     // window_end is a local time in the session time zone (TIMESTAMP_LTZ windows)
};

class WindowRankOperator final : public Operator {
 public:
  WindowRankOperator(std::string name, std::vector<LogicalType> input_types, WindowRankSpec spec);
  ~WindowRankOperator() override;

  Status Process(int input, Chunk& chunk) override;

  // Windows held in state, and rows kept over all of them (for tests).
  size_t num_windows() const;
  size_t kept_rows() const;

  // Every open window's rows, partitions, tops and sort keys (a walk of the windows, not of rows).
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Always: a window compacted since the base goes into the delta in full.
  bool CanSnapshotDelta() const override { return true; }

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;

 private:
  struct Window;
  Status FireUpTo(int64_t watermark);
  Status FireWindow(Window& w);
  // Where a row with sort key `key` enters `top` (the partition's kept rows, best first).
  std::vector<uint32_t>::iterator EntryPosition(const Window& w, std::vector<uint32_t>& top, std::string_view key) const;
  // Reads one window as a full snapshot wrote it.
  void GetWindow(StateReader* r, Window* win) const;
  // Checks a restored window's rows and rebuilds what is derived from them (sort keys of the rows
  // from sort_keyed on, top lists).
  void Derive(StateReader* r, Window* win) const;
  void Compact(Window& w) const;
  // The current state becomes the base of the next delta (after every snapshot and restore).
  void ResetDeltaBase();

  std::vector<LogicalType> input_types_;
  std::vector<LogicalType> output_types_;
  WindowRankSpec spec_;
  WindowsByEnd<Window> windows_;
  // Ends of the windows that existed at the last snapshot or restore and fired since.
  std::vector<int64_t> fired_since_base_;
  // Scratch reused across chunks.
  std::vector<std::string> encoded_;
  std::string sort_key_;
};

}  // namespace sluice
