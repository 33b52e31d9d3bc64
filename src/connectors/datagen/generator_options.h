// Typed option reads the generator connectors (datagen, nexmark) need beyond OptionReader's
// (formats/format.h): integers within a range and doubles. Errors use OptionReader::InvalidValue, so
// they read "Invalid value for option 'events.num' of table 'datagen': ...". Also the parsing of
// their checkpoint positions (SourceSplit::CheckpointPosition): a tag and unsigned integers.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace sluice {

class OptionReader;

// The integer value of `key` (or `fallback` when absent), which must lie in [min, max].
Result<int64_t> GetIntInRange(const OptionReader& reader, const std::string& key, int64_t fallback, int64_t min,
                              int64_t max);
// The floating-point value of `key` (or `fallback` when absent).
Result<double> GetDouble(const OptionReader& reader, const std::string& key, double fallback);

// Parses a checkpoint position "<tag> <v0> <v1> ..." with exactly `count` unsigned decimal values
// into `out`. A position that does not match fails with "corrupt checkpoint position '...' of
// <split_id> (expected '<expected>')".
Status ParseGeneratorPosition(std::string_view text, std::string_view tag, size_t count, uint64_t* out,
                              const std::string& split_id, std::string_view expected);

}  // namespace sluice
