#include "plan/window.h"

namespace sluice {

namespace {
constexpr int64_t kMicrosPerMs = 1000;
}  // namespace

int64_t WindowStartWithOffset(int64_t ts, int64_t offset, int64_t size) {
  int64_t remainder = (ts - offset) % size;
  return remainder < 0 ? ts - (remainder + size) : ts - remainder;
}

std::string FormatDurationMs(int64_t ms) {
  struct Unit {
    int64_t ms;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}};
  if (ms != 0) {
    for (const Unit& u : kUnits) {
      if (ms % u.ms == 0) return std::to_string(ms / u.ms) + " " + u.name;
    }
  }
  return std::to_string(ms) + " ms";
}

std::string WindowSpec::Explain(const std::string& time_col) const {
  std::string s;
  switch (kind) {
    case WindowKind::kTumble:
      s = "TUMBLE(time_col=[" + time_col + "], size=[" + FormatDurationMs(size_ms) + "]";
      break;
    case WindowKind::kHop:
      s = "HOP(time_col=[" + time_col + "], size=[" + FormatDurationMs(size_ms) + "], slide=[" +
          FormatDurationMs(step_ms) + "]";
      break;
    case WindowKind::kCumulate:
      s = "CUMULATE(time_col=[" + time_col + "], max_size=[" + FormatDurationMs(size_ms) + "], step=[" +
          FormatDurationMs(step_ms) + "]";
      break;
    case WindowKind::kSession: s = "SESSION(time_col=[" + time_col + "], gap=[" + FormatDurationMs(size_ms) + "]"; break;
  }
  if (offset_ms != 0) s += ", offset=[" + FormatDurationMs(offset_ms) + "]";
  return s + ")";
}

void WindowSpec::AssignWindows(int64_t ts, std::vector<std::pair<int64_t, int64_t>>* windows) const {
  windows->clear();
  const int64_t size = size_ms * kMicrosPerMs, offset = offset_ms * kMicrosPerMs, step = step_ms * kMicrosPerMs;
  switch (kind) {
    case WindowKind::kTumble: {
      int64_t start = WindowStartWithOffset(ts, offset, size);
      windows->push_back({start, start + size});
      return;
    }
    case WindowKind::kHop: {
      int64_t last_start = WindowStartWithOffset(ts, offset, step);
      for (int64_t start = last_start; start > ts - size; start -= step) windows->push_back({start, start + size});
      return;
    }
    case WindowKind::kCumulate: {
      int64_t start = WindowStartWithOffset(ts, offset, size);
      int64_t last_end = start + size;
      for (int64_t end = WindowStartWithOffset(ts, offset, step) + step; end <= last_end; end += step) {
        windows->push_back({start, end});
      }
      return;
    }
    case WindowKind::kSession: windows->push_back({ts, ts + size}); return;  // before merging
  }
}

int64_t WindowSpec::SliceMicros() const { return (kind == WindowKind::kTumble ? size_ms : step_ms) * kMicrosPerMs; }

int64_t WindowSpec::SliceEnd(int64_t ts) const {
  const int64_t slice = SliceMicros();
  return WindowStartWithOffset(ts, offset_ms * kMicrosPerMs, slice) + slice;
}

int64_t WindowSpec::WindowStart(int64_t end) const {
  if (kind == WindowKind::kCumulate) return WindowStartWithOffset(end - 1, offset_ms * kMicrosPerMs, size_ms * kMicrosPerMs);
  return end - size_ms * kMicrosPerMs;
}

int64_t WindowSpec::LastWindowEnd(int64_t slice_end) const {
  switch (kind) {
    case WindowKind::kTumble: return slice_end;
    case WindowKind::kHop: return slice_end + (size_ms - step_ms) * kMicrosPerMs;
    case WindowKind::kCumulate: return WindowStart(slice_end) + size_ms * kMicrosPerMs;
    case WindowKind::kSession: return slice_end;
  }
  return slice_end;
}

}  // namespace sluice
