#include "types/value_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/time_util.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  char buf[48];
  int pos = 47;
  buf[pos] = '\0';
  while (u > 0) {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  }
  if (neg) buf[--pos] = '-';
  return std::string(buf + pos);
}

void AppendDecimalText(__int128 unscaled, int scale, std::string* out) {
  std::string digits = Int128ToString(unscaled < 0 ? -unscaled : unscaled);
  if (unscaled < 0) out->push_back('-');
  if (scale <= 0) {
    out->append(digits);
    return;
  }
  if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
  out->append(digits, 0, digits.size() - static_cast<size_t>(scale));
  out->push_back('.');
  out->append(digits, digits.size() - static_cast<size_t>(scale), std::string::npos);
}

namespace {

// Java's algorithm: shortest digits that round-trip, plain notation for 1e-3 <= |d| < 1e7,
// otherwise d.dddE[-]n; always at least one fraction digit.
template <typename T>
void AppendJavaFloating(T d, std::string* out) {
  if (std::isnan(d)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(d)) {
    out->append(d > 0 ? "Infinity" : "-Infinity");
    return;
  }
  if (d == 0) {
    out->append(std::signbit(d) ? "-0.0" : "0.0");
    return;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  // sci looks like "-1.2345e+07"
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : mant) {
    if (c != '.') digits.push_back(c);
  }
  if (neg) out->push_back('-');
  double mag = std::fabs(static_cast<double>(d));
  if (mag >= 1e-3 && mag < 1e7) {
    if (exp >= 0) {
      size_t int_len = static_cast<size_t>(exp) + 1;
      if (digits.size() <= int_len) {
        out->append(digits);
        out->append(int_len - digits.size(), '0');
        out->append(".0");
      } else {
        out->append(digits, 0, int_len);
        out->push_back('.');
        out->append(digits, int_len, std::string::npos);
      }
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-exp - 1), '0');
      out->append(digits);
    }
  } else {
    out->push_back(digits[0]);
    out->push_back('.');
    if (digits.size() > 1) out->append(digits, 1, std::string::npos);
    else out->push_back('0');
    out->push_back('E');
    out->append(std::to_string(exp));
  }
}

void AppendScalar(const LogicalType& t, const Vector& vec, size_t row, std::string* out);

void AppendNested(const LogicalType& t, const Vector& vec, size_t row, std::string* out) {
  if (t.id() == TypeId::kRow) {
    out->push_back('(');
    for (size_t i = 0; i < vec.num_children(); ++i) {
      if (i) out->append(", ");
      AppendVectorText(vec.child(i), row, out);
    }
    out->push_back(')');
    return;
  }
  const ListEntry& e = vec.list_entry(row);
  if (t.id() == TypeId::kMap) {
    out->push_back('{');
    for (uint32_t i = 0; i < e.length; ++i) {
      if (i) out->append(", ");
      AppendVectorText(vec.child(0), e.offset + i, out);
      out->push_back('=');
      AppendVectorText(vec.child(1), e.offset + i, out);
    }
    out->push_back('}');
    return;
  }
  out->push_back('[');
  for (uint32_t i = 0; i < e.length; ++i) {
    if (i) out->append(", ");
    AppendVectorText(vec.child(0), e.offset + i, out);
  }
  out->push_back(']');
}

template <typename T>
void AppendInteger(T v, std::string* out) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, static_cast<size_t>(res.ptr - buf));
}

void AppendScalar(const LogicalType& t, const Vector& vec, size_t row, std::string* out) {
  switch (t.id()) {
    case TypeId::kNull: out->append("NULL"); return;
    case TypeId::kBoolean: out->append(vec.data<uint8_t>()[row] ? "TRUE" : "FALSE"); return;
    case TypeId::kTinyInt: AppendInteger(vec.data<int8_t>()[row], out); return;
    case TypeId::kSmallInt: AppendInteger(vec.data<int16_t>()[row], out); return;
    case TypeId::kInteger: AppendInteger(vec.data<int32_t>()[row], out); return;
    case TypeId::kBigInt: AppendInteger(vec.data<int64_t>()[row], out); return;
    case TypeId::kFloat: AppendJavaFloating(vec.data<float>()[row], out); return;
    case TypeId::kDouble: AppendJavaFloating(vec.data<double>()[row], out); return;
    case TypeId::kDecimal: AppendDecimalText(vec.data<__int128>()[row], t.scale(), out); return;
    case TypeId::kChar:
    case TypeId::kVarChar: out->append(vec.GetString(row)); return;
    case TypeId::kBinary:
    case TypeId::kVarBinary: {
      // Flink prints bytes as a hex literal x'..'.
      static constexpr char kHex[] = "0123456789abcdef";
      std::string_view s = vec.GetString(row);
      out->append("x'");
      for (unsigned char c : s) {
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
      }
      out->push_back('\'');
      return;
    }
    case TypeId::kDate: out->append(FormatDate(vec.data<int32_t>()[row])); return;
    case TypeId::kTime: out->append(FormatTime(vec.data<int32_t>()[row], t.precision())); return;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: AppendTimestamp(vec.data<int64_t>()[row], t.precision(), out); return;
    case TypeId::kIntervalDayTime: {
      // Flink prints INTERVAL DAY TO SECOND as +d hh:mm:ss.fff.
      int64_t ms = vec.data<int64_t>()[row];
      if (ms < 0) {
        out->push_back('-');
        ms = -ms;
      } else {
        out->push_back('+');
      }
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%lld %02lld:%02lld:%02lld.%03lld", static_cast<long long>(ms / kMillisPerDay),
                    static_cast<long long>(ms / 3600000 % 24), static_cast<long long>(ms / 60000 % 60),
                    static_cast<long long>(ms / 1000 % 60), static_cast<long long>(ms % 1000));
      out->append(buf);
      return;
    }
    case TypeId::kIntervalYearMonth: {
      int32_t m = vec.data<int32_t>()[row];
      out->push_back(m < 0 ? '-' : '+');
      if (m < 0) m = -m;
      // Flink's +Y-MM: months in two digits (random query 2032-71: '+1-02').
      out->append(std::to_string(m / 12) + (m % 12 < 10 ? "-0" : "-") + std::to_string(m % 12));
      return;
    }
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kMultiset:
    case TypeId::kRow: AppendNested(t, vec, row, out); return;
  }
}

}  // namespace

void AppendDoubleText(double d, std::string* out) { AppendJavaFloating(d, out); }
void AppendFloatText(float f, std::string* out) { AppendJavaFloating(f, out); }

void AppendVectorText(const Vector& vec, size_t row, std::string* out) {
  if (vec.IsNull(row) || vec.type().id() == TypeId::kNull) {
    out->append("NULL");
    return;
  }
  AppendScalar(vec.type(), vec, row, out);
}

void AppendValueText(const Value& v, std::string* out) {
  Vector vec(v.type(), 0);
  vec.AppendValue(v);
  AppendVectorText(vec, 0, out);
}

}  // namespace sluice
