// Window firing shared by the operators that buffer whole windows of rows and emit each window's
// result once the watermark passes it (WindowRank, WindowJoin): the windows held by window_end, the
// per-row lookup of a row's window that tells late rows apart, and the one firing loop.
//
// Windows is a map window_end -> std::unique_ptr<Window> (window_end on the window clock, see
// window_table_function_operator.h); a window fires by WindowFired's rule (the watermark reached its
// last millisecond), earliest first, and its state is dropped once it fired. A row whose window
// already fired is late: the window is gone and its result was emitted, so the row can only be
// reported (Operator::ReportLate), as Flink's window operators drop it.
//
// Threading: the owning operator's task thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "common/status.h"
#include "runtime/operators/window_table_function_operator.h"
#include "types/vector.h"

namespace sluice {

template <typename Window>
using WindowsByEnd = std::map<int64_t, std::unique_ptr<Window>>;

// Fires, earliest first, every window of `windows` that fired at `watermark`: `fire(window)` emits
// its result (a Status), then the window is dropped. kMaxWatermark fires them all.
template <typename Window, typename Fire>
[[nodiscard]] Status FireWindowsUpTo(WindowsByEnd<Window>& windows, int64_t watermark, bool local_time,
                                     const JobContext* ctx, Fire&& fire) {
  while (!windows.empty() && WindowFired(windows.begin()->first, watermark, local_time, ctx)) {
    auto it = windows.begin();
    RETURN_IF_ERROR(fire(*it->second));
    windows.erase(it);
  }
  return Status::OK();
}

// Finds the window of each row of one chunk, in row order. Rows of one window usually come in runs,
// so the firing check and the map lookup happen once per run of equal window_end.
template <typename Window>
class WindowCursor {
 public:
  // `watermark`: the operator's current watermark (it cannot move within a chunk).
  WindowCursor(WindowsByEnd<Window>& windows, int64_t watermark, bool local_time, const JobContext* ctx)
      : windows_(windows), watermark_(watermark), local_time_(local_time), ctx_(ctx) {}

  // Whether the window ending at `end` fired already (the row is late).
  bool Late(int64_t end) {
    if (end != late_checked_end_ || !late_checked_) {
      late_checked_ = true;
      late_checked_end_ = end;
      late_ = WindowFired(end, watermark_, local_time_, ctx_);
    }
    return late_;
  }

  // The window ending at `end`, made by `make()` (a std::unique_ptr<Window>) when it is new.
  template <typename Make>
  Window& Get(int64_t end, Make&& make) {
    if (window_ == nullptr || end != window_end_) {
      std::unique_ptr<Window>& slot = windows_[end];
      if (!slot) slot = make();
      window_ = slot.get();
      window_end_ = end;
    }
    return *window_;
  }

 private:
  WindowsByEnd<Window>& windows_;
  int64_t watermark_;
  bool local_time_;
  const JobContext* ctx_;
  bool late_checked_ = false;
  int64_t late_checked_end_ = 0;
  bool late_ = false;
  Window* window_ = nullptr;
  int64_t window_end_ = 0;
};

// The event time a late-row report gives row `row`: the value of the TIMESTAMP column
// `event_time_column`, or none when there is no such column (-1) or the value is NULL.
inline std::optional<int64_t> RowEventTime(const Chunk& chunk, int event_time_column, size_t row) {
  if (event_time_column < 0) return std::nullopt;
  const Vector& v = chunk.column(static_cast<size_t>(event_time_column));
  if (v.IsNull(row)) return std::nullopt;
  return v.data<int64_t>()[row];
}

}  // namespace sluice
