// Text <-> typed column values, shared by the json and csv formats (one code path for both).
//
// Parsing follows Flink's json/csv formats: integers and floats may be written as text ("42",
// " 1.5 ", "NaN"), booleans as "true"/"false" (any case), DECIMAL from plain or scientific text
// rounded half-up to the type's scale (a value too wide for the precision becomes NULL, as Flink's
// DecimalData does), DATE "2026-08-15", TIME "05:00:00[.fff]", TIMESTAMP in the SQL form
// "2026-08-15 05:00:00[.fff]" or the ISO-8601 form "2026-08-15T05:00:00[.fff][Z]", TIMESTAMP_LTZ
// likewise with an optional trailing 'Z' (UTC), BYTES as base64.
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "types/logical_type.h"

namespace sluice {

class Vector;

enum class TimestampStandard { kSql, kIso8601 };

// Parses `text` as a value of the scalar type of `vec` and stores it in row `row` (marking it valid,
// or null for an out-of-range DECIMAL). On failure returns false and sets *error to the reason
// ("expected INT, got \"x\""). Nested types are not handled here.
bool ParseTextValue(std::string_view text, TimestampStandard standard, Vector* vec, size_t row, std::string* error);

// Individual parsers (return false on malformed text).
bool ParseIntegerText(std::string_view text, int64_t* out);
bool ParseDoubleText(std::string_view text, double* out);
// Rounds half-up to `scale`; *overflow is set when the value needs more than `precision` digits.
bool ParseDecimalText(std::string_view text, int precision, int scale, __int128* out, bool* overflow);
bool ParseTimestampText(std::string_view text, TimestampStandard standard, bool ltz, int precision, int64_t* micros);
bool DecodeBase64(std::string_view text, std::string* out);
void AppendBase64(std::string_view bytes, std::string* out);

// Java's BigDecimal.toString(): plain unless the scale is negative or the adjusted exponent is below -6
// ("1E-7", "1.2E+2").
void AppendJavaBigDecimalText(__int128 unscaled, int scale, std::string* out);

// How a format writes DECIMAL values (docs/formats.md):
//   kPlain       the type's scale, plain digits: "5.00", "100.00", "0.0000001200";
//   kNormalized  BigDecimal.stripTrailingZeros().toString() (Jackson's normalised decimal node), zero as
//                "0": "5", "1E+2", "0.1", "1.2E-7" (Flink's json by default, and csv with
//                'csv.write-bigdecimal-in-scientific-notation' set to true).
enum class DecimalText { kPlain, kNormalized };
void AppendDecimalValueText(__int128 unscaled, int scale, DecimalText style, std::string* out);

// How many fraction digits TIME and TIMESTAMP text has:
//   kPrecision  the type's precision ("2026-08-15 05:00:00.000" for TIMESTAMP(3)): the jsonl of results;
//   kShortest   Flink's formats (java.time's fraction 0..9 digits): trailing zeros dropped and no '.'
//               for a whole second ("2026-08-15 05:00:00", "2026-08-15 05:00:00.5").
enum class FractionText { kPrecision, kShortest };

// Timestamp text: "2026-08-15 05:00:00.000" (SQL) or "2026-08-15T05:00:00.000" (ISO-8601), the
// fraction per `fraction` and, for TIMESTAMP_LTZ, a trailing 'Z'.
void AppendTimestampText(int64_t micros, int precision, TimestampStandard standard, bool ltz, FractionText fraction,
                         std::string* out);
// TIME text "05:00:00[.fff]" (`millis` of the day), the fraction per `fraction`.
void AppendTimeText(int32_t millis, int precision, FractionText fraction, std::string* out);

// The type's name for messages ("INT", "TIMESTAMP(3)").
std::string TypeNameForMessage(const LogicalType& type);

}  // namespace sluice
