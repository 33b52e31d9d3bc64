// GeneratorTiming: where the generator sources (datagen, nexmark) read processing time and how they
// wait when they throttle their emit rate ('rows-per-second', nexmark's 'max-emit-speed' = false).
//
// Injected (house rule 7) so that tests drive time with a ManualClock and a sleep function that just
// advances it: a throttled source then never waits on the wall clock in a test. The default is the
// system clock and a real sleep.
//
// Threading: the clock must be safe to read from the reader's thread; sleep is called from it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace sluice {

class Clock;

struct GeneratorTiming {
  std::shared_ptr<const Clock> clock;
  // Blocks the calling reader for about `micros` microseconds (never called with a value <= 0).
  std::function<void(int64_t micros)> sleep_micros;

  // The system clock and std::this_thread::sleep_for.
  static GeneratorTiming System();
};

}  // namespace sluice
