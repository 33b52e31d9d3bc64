#include "types/value.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "common/check.h"
#include "common/time_util.h"
#include "types/value_format.h"

namespace sluice {

Value Value::Null(LogicalType type) {
  Value v;
  v.type_ = std::move(type);
  return v;
}
Value Value::Boolean(bool b) {
  Value v;
  v.type_ = LogicalType::Boolean();
  v.v_ = b;
  return v;
}
Value Value::Int(LogicalType type, int64_t i) {
  Value v;
  v.type_ = std::move(type);
  v.v_ = i;
  return v;
}
Value Value::Double(double d) {
  Value v;
  v.type_ = LogicalType::Double();
  v.v_ = d;
  return v;
}
Value Value::Float(float f) {
  Value v;
  v.type_ = LogicalType::Float();
  v.v_ = static_cast<double>(f);
  return v;
}
Value Value::Decimal(int precision, int scale, __int128 unscaled) {
  Value v;
  v.type_ = LogicalType::Decimal(precision, scale);
  v.v_ = unscaled;
  return v;
}
Value Value::String(std::string s) {
  Value v;
  v.type_ = LogicalType::String();
  v.v_ = std::move(s);
  return v;
}
Value Value::Typed(LogicalType type, std::string s) {
  Value v;
  v.type_ = std::move(type);
  v.v_ = std::move(s);
  return v;
}
Value Value::List(LogicalType type, std::vector<Value> items) {
  Value v;
  v.type_ = std::move(type);
  v.v_ = std::move(items);
  return v;
}

Value Value::WithType(LogicalType type) const {
  Value v = *this;
  v.type_ = std::move(type);
  return v;
}

std::string Value::ToString() const {
  std::string out;
  AppendValueText(*this, &out);
  return out;
}

int Value::Compare(const Value& o) const {
  if (is_null() || o.is_null()) return is_null() == o.is_null() ? 0 : (is_null() ? -1 : 1);
  if (v_.index() != o.v_.index()) {
    // Mixed numeric payloads (e.g. an INT literal against a DOUBLE column in a test).
    double a = std::holds_alternative<int64_t>(v_) ? static_cast<double>(int_value()) : double_value();
    double b = std::holds_alternative<int64_t>(o.v_) ? static_cast<double>(o.int_value()) : o.double_value();
    return a < b ? -1 : (a > b ? 1 : 0);
  }
  switch (v_.index()) {
    case 1: return static_cast<int>(bool_value()) - static_cast<int>(o.bool_value());
    case 2: return int_value() < o.int_value() ? -1 : (int_value() > o.int_value() ? 1 : 0);
    case 3: {
      double a = double_value(), b = o.double_value();
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) == std::isnan(b) ? 0 : (std::isnan(a) ? 1 : -1);
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    case 4: {
      // Align scales before comparing unscaled decimals.
      __int128 a = decimal_value(), b = o.decimal_value();
      int sa = type_.scale(), sb = o.type_.scale();
      while (sa < sb) { a *= 10; ++sa; }
      while (sb < sa) { b *= 10; ++sb; }
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    case 5: {
      int c = string_value().compare(o.string_value());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case 6: {
      const auto& a = list_value();
      const auto& b = o.list_value();
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        int c = a[i].Compare(b[i]);
        if (c != 0) return c;
      }
      return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
    }
  }
  return 0;
}

bool Value::operator==(const Value& o) const { return Compare(o) == 0; }

}  // namespace sluice
