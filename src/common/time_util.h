// Calendar arithmetic and Flink's SQL text forms for DATE, TIME and TIMESTAMP values.
//
// Dates are days since 1970-01-01 (proleptic Gregorian), times milliseconds of the day, timestamps
// microseconds since 1970-01-01 00:00:00 (see types/logical_type.h). Formatting follows Flink's SQL
// client and print sink: "2026-08-15", "05:00:00", "2026-08-15 05:00:00.000" with exactly `precision`
// fraction digits. Time zones are not handled here (see function/ for CONVERT_TZ and LTZ rendering).
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice {

constexpr int64_t kMicrosPerMilli = 1000;
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int64_t kMillisPerDay = 86400000;

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

struct CivilTime {
  int hour;
  int minute;
  int second;
  int64_t micros;  // fraction of the second, 0..999999
};

// Howard Hinnant's days_from_civil / civil_from_days.
int64_t DaysFromCivil(int64_t year, int month, int day);
CivilDate CivilFromDays(int64_t days);
bool IsValidDate(int64_t year, int month, int day);
int DaysInMonth(int64_t year, int month);

// Floor division helpers for negative timestamps.
inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// "2026-08-15".
std::string FormatDate(int32_t days);
// "05:00:00" plus `precision` fraction digits from milliseconds of the day.
std::string FormatTime(int32_t millis, int precision);
// "2026-08-15 05:00:00.000" with `precision` (0..9) fraction digits (digits past 6 are zeros).
std::string FormatTimestamp(int64_t micros, int precision);
// Appends FormatTimestamp's text to `out` without a temporary string (for sinks).
void AppendTimestamp(int64_t micros, int precision, std::string* out);
// Appends v in decimal, zero-padded to `width` characters, a minus sign counted in the width (as
// printf's "%0*lld": -12 at width 4 is "-012"); wider values keep every digit. No printf.
void AppendZeroPadded(int64_t v, int width, std::string* out);

// Flink's range of dates and timestamps: years 0000 to 9999 (DateTimeUtils' MIN_EPOCH_MILLS and
// MAX_EPOCH_MILLS: 0000-01-01 00:00:00 and 9999-12-31 23:59:59.999).
constexpr int64_t kMinYear = 0;
constexpr int64_t kMaxYear = 9999;
constexpr int64_t kMinEpochMillis = -62167219200000;
constexpr int64_t kMaxEpochMillis = 253402300799999;

// Parsers for SQL literal and record text. The year has at most four digits and no sign (Flink's
// range above): "10000-01-01" and "-0001-01-01" are not valid values. Accept "2026-08-15", "05:00:00[.fff]",
// "2026-08-15 05:00:00[.ffffff]" and, when iso is true, also "2026-08-15T05:00:00[.fff][Z]".
// Return nullopt when the text is not a valid value.
std::optional<int32_t> ParseDate(std::string_view text);
std::optional<int32_t> ParseTime(std::string_view text);
std::optional<int64_t> ParseTimestamp(std::string_view text, bool allow_iso = true);

}  // namespace sluice
