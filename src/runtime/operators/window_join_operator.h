// WindowJoinOperator: Flink's WindowJoin (WindowJoinOperator) — an equi-join of two insert-only inputs
// whose rows carry the same event-time windows, on L.window_start = R.window_start AND L.window_end =
// R.window_end [AND keys] [AND residual]. INNER, LEFT, RIGHT and FULL OUTER, and LEFT SEMI / ANTI
// ([NOT] IN / [NOT] EXISTS between the same windows, Flink's SemiAntiJoinOperator); output insert-only.
//
// State: per window (by window_end; with one window spec on both sides the end names the window) the
// rows of each side in arrival order, in the window's per-side arenas, and their groups: a group is a
// join key (the window's KeyIndex gives key ids; group_of_key maps them to groups) or a row with a
// NULL key, which is kept alone: it never matches (the key equality is unknown), an outer side pads
// it. Groups are numbered in the order of their first row (either side); each arena row records its
// group. That state only grows until the window fires, and a group's rows are its arena rows in id
// order, so firing derives the per-group row lists with one counting pass.
//
// Firing: when the combined watermark reaches window_end - 1 ms (a TIMESTAMP_LTZ window's local
// window_end taken as its UTC instant, as Flink's shiftTimeZone), the window's keys are joined in the
// order their first row arrived (either side). Per key, as Flink's join loops: INNER/LEFT/FULL go over
// the left rows in arrival order and, for each, the right rows in arrival order, emitting the pairs the
// residual accepts, then (LEFT/FULL) the left row padded with NULLs when it matched nothing; FULL then
// pads the right rows that matched nothing; RIGHT loops the other way round. SEMI / ANTI go over the
// left rows in arrival order and emit each one once, its left columns only, when some right row of its
// key passes the residual (SEMI) or none does (ANTI; a NULL key matches nothing, so ANTI emits it,
// and NOT IN's `x = y OR x IS NULL OR y IS NULL` is a residual); their candidate pairs are judged a
// batch at a time and a left row's remaining ones skipped once one passed (Flink's loop breaks there),
// so they never hold a group's pairs at once. Then the window's state is
// freed. The +inf watermark at the end of a bounded input fires every pending window.
//
// Late rows: a row whose window already fired (window_end - 1 ms <= watermark) is dropped and
// reported (Operator::ReportLate) on its input, with its rowtime column as its event time.
//
// Checkpoints: a full snapshot writes every window (arenas, keys, group columns). An incremental one
// (state/delta.h, window_firing.h's PutWindowsDelta) lists the windows fired since the base, writes
// each window that existed at the base as its arena tails, new keys and the new tails of its group
// columns (nothing in a window is ever rewritten), and each newer window in full.
//
// Threading: the job's task thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"
#include "runtime/operators/window_firing.h"

namespace sluice {

struct WindowJoinSpec {
  bool left_outer = false;
  bool right_outer = false;
  bool right_driven = false;  // RIGHT OUTER: the right side's rows lead the loops
  // LEFT SEMI / ANTI: each left row once (left columns only) when it has a match / has none.
  bool semi = false;
  bool anti = false;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  int left_window_end = -1;  // input columns holding each side's window_end
  int right_window_end = -1;
  int left_event_time = -1;  // rowtime columns late-row reports carry (-1: none)
  int right_event_time = -1;
  ExprPtr residual;  // over left ++ right; null when none
  bool local_time = false;  // window_end is a local time in the session time zone (TIMESTAMP_LTZ windows)
};

class WindowJoinOperator final : public Operator {
 public:
  WindowJoinOperator(std::string name, std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
                     WindowJoinSpec spec);
  ~WindowJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Windows held in state (for tests).
  size_t num_windows() const { return windows_.size(); }

  // Every open window's rows, keys and groups (a walk of the windows, not of rows).
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  // Always: window state only grows until a window fires (no compaction renumbers it).
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
  struct Groups;
  struct State;
  Status FireUpTo(int64_t watermark);
  Status FireWindow(Window& w);
  // Joins and emits the window's groups [first, end).
  Status JoinGroups(const Window& w, const Groups& groups, size_t first, size_t end);
  // The candidate pairs (left_ids[k], right_ids[k]), k < m, that pass the residual, as indexes k.
  Status PassingPairs(const Chunk& left, const Chunk& right, const uint32_t* left_ids, const uint32_t* right_ids,
                      size_t m, std::vector<uint32_t>* sel);
  // SEMI / ANTI: emits the left rows of groups [first, end) that have a match / have none.
  Status SemiAntiGroups(const Window& w, const Groups& groups, size_t first, size_t end);
  // Reads one window as a full snapshot wrote it, checking it.
  void GetWindow(StateReader* r, Window* win) const;
  // The current state becomes the base of the next delta (after every snapshot and restore).
  void ResetDeltaBase();

  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  std::vector<LogicalType> joined_types_;  // left ++ right: the residual's input
  std::vector<LogicalType> output_types_;  // joined_types_, or the left types (SEMI / ANTI)
  WindowJoinSpec spec_;
  WindowsByEnd<Window> windows_;
  // Ends of the windows that existed at the last snapshot or restore and fired since.
  std::vector<int64_t> fired_since_base_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
