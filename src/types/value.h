// Value: one boxed SQL value with its type, for literals, per-key state and tests.
//
// Hot paths work on Vectors (vector.h); Value is the slow, convenient form used where a single value
// is handled at a time (constant folding, the .test runner, keyed state, VALUES). The payload follows
// the physical layout of logical_type.h, widened: every integral, date, time, timestamp and interval
// type is held as int64_t; FLOAT and DOUBLE as double; DECIMAL as its unscaled __int128;
// CHAR/VARCHAR/BINARY as std::string; ARRAY/MULTISET and ROW as a list of Values; MAP as a flat list
// key0, value0, key1, value1, ...
//
// Threading: a plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "types/logical_type.h"

namespace sluice {

class Value {
 public:
  Value() = default;  // NULL of the NULL type
  static Value Null(LogicalType type);
  static Value Boolean(bool v);
  static Value Int(LogicalType type, int64_t v);  // any type held as int64_t
  static Value BigInt(int64_t v) { return Int(LogicalType::BigInt(), v); }
  static Value Integer(int32_t v) { return Int(LogicalType::Integer(), v); }
  static Value Double(double v);
  static Value Float(float v);
  static Value Decimal(int precision, int scale, __int128 unscaled);
  static Value String(std::string v);  // STRING
  static Value Typed(LogicalType type, std::string v);  // CHAR/VARCHAR/BINARY/VARBINARY
  static Value List(LogicalType type, std::vector<Value> items);  // ARRAY, MULTISET, ROW, MAP

  const LogicalType& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool bool_value() const { return std::get<bool>(v_); }
  int64_t int_value() const { return std::get<int64_t>(v_); }
  double double_value() const { return std::get<double>(v_); }
  __int128 decimal_value() const { return std::get<__int128>(v_); }
  const std::string& string_value() const { return std::get<std::string>(v_); }
  const std::vector<Value>& list_value() const { return std::get<std::vector<Value>>(v_); }

  // Same value with another type label (no conversion); used after a cast has converted the payload.
  Value WithType(LogicalType type) const;

  // Flink's string form, as its print sink and SQL client show it: 1, 1.5, abc, 2026-08-15 05:00:00.000,
  // [1, 2], {k=v}, (a, 1) for ROW in print, NULL shown as "<NULL>" by callers that want it.
  std::string ToString() const;

  // Total order for sorting and tests: NULL first, then by payload; types are assumed comparable.
  int Compare(const Value& other) const;
  bool operator==(const Value& other) const;
  bool operator!=(const Value& other) const { return !(*this == other); }

 private:
  LogicalType type_;
  std::variant<std::monostate, bool, int64_t, double, __int128, std::string, std::vector<Value>> v_;
};

}  // namespace sluice
