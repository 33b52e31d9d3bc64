// Clock: where processing time comes from. Injected everywhere (house rule 7), so tests drive
// processing time by hand (ManualClock) and results never depend on the wall clock.
//
// Threading: SystemClock is thread-safe; ManualClock is advanced by the thread that owns the test.
#pragma once

#include <atomic>
#include <cstdint>

namespace sluice {

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since 1970-01-01 00:00:00 UTC.
  virtual int64_t NowMicros() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMicros() const override;
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_micros = 0) : now_(start_micros) {}
  int64_t NowMicros() const override { return now_.load(std::memory_order_relaxed); }
  void Set(int64_t micros) { now_.store(micros, std::memory_order_relaxed); }
  void Advance(int64_t micros) { now_.fetch_add(micros, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace sluice
