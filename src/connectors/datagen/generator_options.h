// Typed option reads the generator connectors (datagen, nexmark) need beyond OptionReader's
// (formats/format.h): integers within a range and doubles. Errors use OptionReader::InvalidValue, so
// they read "Invalid value for option 'events.num' of table 'datagen': ...".
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace sluice {

class OptionReader;

// The integer value of `key` (or `fallback` when absent), which must lie in [min, max].
Result<int64_t> GetIntInRange(const OptionReader& reader, const std::string& key, int64_t fallback, int64_t min,
                              int64_t max);
// The floating-point value of `key` (or `fallback` when absent).
Result<double> GetDouble(const OptionReader& reader, const std::string& key, double fallback);

}  // namespace sluice
