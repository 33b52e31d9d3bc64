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
// Checkpoints: window state is bounded by the watermark, so each window owns its own id spaces
// (a KeyIndex, a RowArena, per-id vectors) and frees them when it fires. An incremental snapshot
// (state/delta.h) of such an operator lists the windows of its base that fired since, then every
// live window: one that existed at the base as a delta on it, a new one in full.
//
// Threading: the owning operator's task thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

template <typename Window>
using WindowsByEnd = std::map<int64_t, std::unique_ptr<Window>>;

// Fires, earliest first, every window of `windows` that fired at `watermark`: `fire(window_end,
// window)` emits its result (a Status), then the window is dropped. kMaxWatermark fires them all.
template <typename Window, typename Fire>
[[nodiscard]] Status FireWindowsUpTo(WindowsByEnd<Window>& windows, int64_t watermark, bool local_time,
                                     const JobContext* ctx, Fire&& fire) {
  while (!windows.empty() && WindowFired(windows.begin()->first, watermark, local_time, ctx)) {
    auto it = windows.begin();
    RETURN_IF_ERROR(fire(it->first, *it->second));
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

// Reads a window end from a snapshot, refusing one outside TIMESTAMP's range (with room for the
// firing test's arithmetic), so a damaged snapshot cannot make WindowFired overflow.
inline int64_t GetWindowEnd(StateReader* r) {
  constexpr int64_t kMaxMagnitude = int64_t{1} << 60;  // about 36,000 years in microseconds
  const int64_t end = r->GetI64();
  if (r->ok() && (end > kMaxMagnitude || end < -kMaxMagnitude)) r->Fail("a window end out of range");
  return end;
}

// Full snapshots of the windows (the framing both window operators share): their count, then each
// window's end and what `put(window)` writes. GetWindows reads them back into `windows` (emptied
// first), each into a window made by `make()` with `get(window)`, refusing ends out of order.
template <typename Window, typename Put>
void PutWindows(StateWriter* w, const WindowsByEnd<Window>& windows, Put&& put) {
  w->PutVarint(windows.size());
  for (const auto& [end, win] : windows) {
    w->PutI64(end);
    put(*win);
  }
}

template <typename Window, typename Make, typename Get>
void GetWindows(StateReader* r, WindowsByEnd<Window>& windows, Make&& make, Get&& get) {
  windows.clear();
  const size_t n = r->GetCount(9);
  int64_t prev = 0;
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (r->ok() && i > 0 && end <= prev) r->Fail("windows out of order");
    prev = end;
    std::unique_ptr<Window> win = make();
    get(*win);
    windows.emplace(end, std::move(win));
  }
}

// Incremental snapshots of the windows (the framing both window operators share): the ends of the
// base's windows that fired since (`fired`), then every live window by end with its mode: kWindowDelta
// when `as_delta(window)` (it existed at the base and its delta can express what changed; written by
// `put_delta(window)`), else kWindowFull (written by `put_full(window)`, as in a full snapshot).
enum WindowDeltaMode : uint8_t { kWindowDelta = 0, kWindowFull = 1 };

template <typename Window, typename AsDelta, typename PutDelta, typename PutFull>
void PutWindowsDelta(StateWriter* w, const WindowsByEnd<Window>& windows, const std::vector<int64_t>& fired,
                     AsDelta&& as_delta, PutDelta&& put_delta, PutFull&& put_full) {
  w->PutVarint(fired.size());
  for (int64_t end : fired) w->PutI64(end);
  w->PutVarint(windows.size());
  for (const auto& [end, win] : windows) {
    w->PutI64(end);
    const bool delta = as_delta(*win);
    w->PutU8(delta ? kWindowDelta : kWindowFull);
    if (delta) {
      put_delta(*win);
    } else {
      put_full(*win);
    }
  }
}

// Applies what PutWindowsDelta wrote onto `windows` (the restored base): drops the fired windows,
// applies each kWindowDelta with `apply_delta(window)` onto the window of the same end, and reads each
// kWindowFull into a window made by `make()` with `get_full(window)` (replacing the base's, if any).
// Refuses (through the reader) a fired or delta window the base does not hold, windows out of order,
// and a base window the delta does not name. On an error the windows are partly updated: the caller
// drops them.
template <typename Window, typename Make, typename ApplyDelta, typename GetFull>
void ApplyWindowsDelta(StateReader* r, WindowsByEnd<Window>& windows, Make&& make, ApplyDelta&& apply_delta,
                       GetFull&& get_full) {
  const size_t nfired = r->GetCount(8);
  for (size_t i = 0; i < nfired && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    auto it = windows.find(end);
    if (r->ok() && it == windows.end()) {
      r->Fail("a window delta frees a window ending at " + std::to_string(end) + " that the restored state does not hold");
    }
    if (r->ok()) windows.erase(it);
  }
  const size_t n = r->GetCount(9);
  int64_t prev = 0;
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    const uint8_t mode = r->GetU8();
    if (!r->ok()) break;
    if (i > 0 && end <= prev) {
      r->Fail("window delta windows out of order");
      break;
    }
    prev = end;
    if (mode == kWindowDelta) {
      auto it = windows.find(end);
      if (it == windows.end()) {
        r->Fail("a window delta changes a window ending at " + std::to_string(end) + " that the restored state does not hold");
        break;
      }
      apply_delta(*it->second);
    } else if (mode == kWindowFull) {
      std::unique_ptr<Window> win = make();
      get_full(*win);
      if (r->ok()) windows[end] = std::move(win);
    } else {
      r->Fail("unknown window delta mode " + std::to_string(mode));
    }
  }
  if (r->ok() && windows.size() != n) {
    r->Fail("a window delta names " + std::to_string(n) + " windows but the restored state holds " +
            std::to_string(windows.size()));
  }
}

}  // namespace sluice
