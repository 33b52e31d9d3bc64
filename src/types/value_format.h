// Flink's text form of SQL values, shared by the print sink, the CLI and Value::ToString.
//
// Booleans print TRUE/FALSE, doubles like Java's Double.toString (1.0, 1.5E10), DECIMAL with exactly
// its scale, DATE/TIME/TIMESTAMP in SQL form with the type's precision, TIMESTAMP_LTZ in the session
// time zone when the caller has converted it (here: UTC), ARRAY as [a, b], MAP as {k=v}, ROW as
// (a, b), NULL as NULL. Strings are written raw (no quotes).
//
// Threading: pure functions.
#pragma once

#include <cstdint>
#include <string>

namespace sluice {

class Value;
class Vector;

void AppendValueText(const Value& v, std::string* out);
// The same text for row `row` of `vec`, without boxing scalar types.
void AppendVectorText(const Vector& vec, size_t row, std::string* out);

// Java's Double.toString / Float.toString spelling.
void AppendDoubleText(double d, std::string* out);
void AppendFloatText(float f, std::string* out);
// An unscaled DECIMAL as text with exactly `scale` fraction digits ("-12.50").
void AppendDecimalText(__int128 unscaled, int scale, std::string* out);
std::string Int128ToString(__int128 v);

}  // namespace sluice
