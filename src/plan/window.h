// WindowSpec: a window TVF's shape (TUMBLE, HOP, CUMULATE with size, slide/step and offset), and the
// window arithmetic every window operator shares, with Flink's semantics
// (TimeWindow.getWindowStartWithOffset and the TUMBLE/HOP/CUMULATE window and slice assigners).
//
// Times are microseconds on the window's own clock: event time as stored in the rowtime column
// (a TIMESTAMP_LTZ rowtime and processing time are first shifted into the session time zone, as Flink
// aligns windows of TIMESTAMP_LTZ attributes to local wall-clock time). Durations are milliseconds,
// as Flink's interval literals.
//
// Slicing (Flink's SliceAssigners): each timestamp falls into exactly one slice, and every window is
// a run of whole slices. TUMBLE: a slice is its window. HOP: slices are `slide` long (the planner
// requires size to be a multiple of slide), a window is size/slide slices. CUMULATE: slices are
// `step` long, the window ending at slice end e starts at the max-size window start holding e - 1.
// Every slice end is also the end of a window, so windows fire at slice ends.
//
// SESSION windows are not aligned: a row at ts opens [ts, ts + gap), which merges with every session
// of its key it touches (Flink's TimeWindow.intersects, so adjacent sessions merge too). The slicing
// functions below do not apply to them.
//
// Threading: immutable values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

enum class WindowKind : uint8_t { kTumble, kHop, kCumulate, kSession };

struct WindowSpec {
  WindowKind kind = WindowKind::kTumble;
  int64_t size_ms = 0;    // TUMBLE/HOP size; CUMULATE max size; SESSION gap
  int64_t step_ms = 0;    // HOP slide; CUMULATE step; 0 for TUMBLE
  int64_t offset_ms = 0;  // shifts the window grid (Flink's optional OFFSET argument)

  // Flink's summary, e.g. "TUMBLE(time_col=[ts], size=[1 h])", "HOP(time_col=[ts], size=[1 h],
  // slide=[5 min])", "CUMULATE(time_col=[ts], max_size=[1 d], step=[1 h], offset=[8 h])",
  // "SESSION(time_col=[ts], gap=[5 min])".
  std::string Explain(const std::string& time_col) const;

  // The windows [start, end) holding `ts`, in Flink's assigner order (HOP: latest start first;
  // CUMULATE: earliest end first).
  void AssignWindows(int64_t ts, std::vector<std::pair<int64_t, int64_t>>* windows) const;

  // Slicing (see above).
  int64_t SliceEnd(int64_t ts) const;
  // The start of the window that ends at slice end `end`.
  int64_t WindowStart(int64_t end) const;
  // The end of the last window that holds the slice ending at `slice_end`.
  int64_t LastWindowEnd(int64_t slice_end) const;
  // The distance between consecutive slice (and window) ends.
  int64_t SliceMicros() const;
};

// Flink's TimeWindow.getWindowStartWithOffset on microseconds.
int64_t WindowStartWithOffset(int64_t ts, int64_t offset, int64_t size);

// A duration as Flink prints it in window summaries: the largest unit that divides it exactly
// ("1 h", "15 min", "90 s", "1500 ms", "1 d").
std::string FormatDurationMs(int64_t ms);

}  // namespace sluice
