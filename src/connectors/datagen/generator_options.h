// Typed parsing and validation of the WITH options of the generator connectors (datagen, nexmark).
//
// Each parser takes the table name and option key so its error names both, in Flink's terms:
//   Invalid value for option 'events.num' of table 'datagen': 'abc' is not a valid LONG.
// CheckSupportedOptions rejects keys the connector does not know, with a did-you-mean. This is a
// small local helper; a shared option-validation helper for all connectors may replace it.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice::generator_options {

// Rejects the first key of `options` (other than 'connector') that is not in `supported`, naming
// the closest supported key when one is near.
[[nodiscard]] Status CheckSupportedOptions(const std::string& table, const std::string& connector,
                                           const std::map<std::string, std::string>& options,
                                           const std::vector<std::string>& supported);

// The closest candidate by edit distance, or "" when none is close enough to suggest.
std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

// A base-10 integer (surrounding spaces allowed) within [min, max].
Result<int64_t> ParseLong(const std::string& table, const std::string& key, const std::string& value,
                          int64_t min = INT64_MIN, int64_t max = INT64_MAX);
// Flink's INT option: a 32-bit integer within [min, max].
Result<int64_t> ParseInt(const std::string& table, const std::string& key, const std::string& value,
                         int64_t min = INT32_MIN, int64_t max = INT32_MAX);
Result<double> ParseDouble(const std::string& table, const std::string& key, const std::string& value);
// 'true' or 'false', case-insensitive, as Flink's boolean options.
Result<bool> ParseBool(const std::string& table, const std::string& key, const std::string& value);
// Flink's MemorySize: a number with an optional unit (b, bytes, k, kb, kibibytes, m, mb, g, gb,
// t, tb; case-insensitive; 1k = 1024 bytes). A bare number is bytes.
Result<int64_t> ParseMemorySize(const std::string& table, const std::string& key, const std::string& value);
// Flink's Duration: a number with an optional unit (ns, us, ms, s, min, h, d and their long
// spellings). A bare number is milliseconds. Returns milliseconds.
Result<int64_t> ParseDurationMillis(const std::string& table, const std::string& key, const std::string& value);

// "Invalid value for option '<key>' of table '<table>': <reason>".
Status InvalidOption(const std::string& table, const std::string& key, const std::string& reason);

}  // namespace sluice::generator_options
