#include "connectors/datagen/generator_timing.h"

#include <chrono>
#include <thread>

#include "common/clock.h"

namespace sluice {

GeneratorTiming GeneratorTiming::System() {
  GeneratorTiming t;
  t.clock = std::make_shared<SystemClock>();
  t.sleep_micros = [](int64_t micros) { std::this_thread::sleep_for(std::chrono::microseconds(micros)); };
  return t;
}

}  // namespace sluice
