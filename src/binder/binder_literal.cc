// Binding of literals and interval literals (binder.h).
#include "binder/binder.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <set>

#include "binder/binder_util.h"
#include "common/config.h"
#include "common/time_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/cast.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "plan/interval_join_rule.h"
#include "types/value_format.h"
#include "sql/unparser.h"

namespace sluice {

using namespace binder_internal;  // NOLINT: the helpers the binder's files share

Result<ExprPtr> Binder::BindLiteral(const ast::Literal& lit) {
  switch (lit.literal_kind) {
    case ast::LiteralKind::kNull: return MakeLiteral(Value::Null(LogicalType::Null()));
    case ast::LiteralKind::kBoolean: return MakeLiteral(Value::Boolean(lit.bool_value).WithType(LogicalType::Boolean().WithNullable(false)));
    case ast::LiteralKind::kUnknown: return MakeLiteral(Value::Null(LogicalType::Boolean()));
    case ast::LiteralKind::kExactNumeric: {
      const std::string& t = lit.text;
      size_t dot = t.find('.');
      std::string digits;
      for (char c : t) {
        if (c != '.') digits.push_back(c);
      }
      size_t first = digits.find_first_not_of('0');
      std::string sig = first == std::string::npos ? "0" : digits.substr(first);
      if (dot == std::string::npos) {
        if (sig.size() <= 18) {
          int64_t v = std::stoll(sig);
          if (v <= 2147483647LL) return MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), v));
          return MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), v));
        }
        if (sig.size() == 19) {
          unsigned long long u = std::stoull(sig);
          if (u <= 9223372036854775807ULL) {
            return MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), static_cast<int64_t>(u)));
          }
        }
      }
      int scale = dot == std::string::npos ? 0 : static_cast<int>(t.size() - dot - 1);
      int precision = std::max<int>(static_cast<int>(sig.size()), scale);
      if (precision == 0) precision = 1;
      if (precision > LogicalType::kMaxDecimalPrecision) return Error(lit.pos, "Numeric literal '" + t + "' out of range");
      __int128 unscaled = 0;
      for (char c : digits) unscaled = unscaled * 10 + (c - '0');
      return MakeLiteral(Value::Decimal(precision, scale, unscaled).WithType(LogicalType::Decimal(precision, scale).WithNullable(false)));
    }
    case ast::LiteralKind::kApproxNumeric: {
      const double d = std::strtod(lit.text.c_str(), nullptr);
      if (std::isinf(d)) return Error(lit.pos, "Numeric literal '" + lit.text + "' out of range");
      return MakeLiteral(Value::Double(d).WithType(LogicalType::Double().WithNullable(false)));
    }
    case ast::LiteralKind::kString: {
      // Flink types a string literal as CHAR(n) NOT NULL (n >= 1; '' is CHAR(0) there, we use VARCHAR(0)).
      int32_t n = static_cast<int32_t>(lit.text.size());
      LogicalType t = n == 0 ? LogicalType::VarChar(0) : LogicalType::Char(n);
      return MakeLiteral(Value::Typed(t.WithNullable(false), lit.text));
    }
    case ast::LiteralKind::kBinary: {
      std::string bytes;
      for (size_t i = 0; i + 1 < lit.text.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(lit.text.substr(i, 2), nullptr, 16)));
      }
      LogicalType t = LogicalType::Binary(static_cast<int32_t>(bytes.size()));
      return MakeLiteral(Value::Typed(t.WithNullable(false), bytes));
    }
    case ast::LiteralKind::kDate: {
      auto d = ParseDate(lit.text);
      if (!d) return Error(lit.pos, "Illegal DATE literal '" + lit.text + "': not in format 'yyyy-MM-dd' (years 0000 to 9999)");
      return MakeLiteral(Value::Int(LogicalType::Date().WithNullable(false), *d));
    }
    case ast::LiteralKind::kTime: {
      auto t = ParseTime(lit.text);
      if (!t) return Error(lit.pos, "Illegal TIME literal '" + lit.text + "': not in format 'HH:mm:ss'");
      return MakeLiteral(Value::Int(LogicalType::Time(0).WithNullable(false), *t));
    }
    case ast::LiteralKind::kTimestamp:
    case ast::LiteralKind::kTimestampLtz: {
      auto ts = ParseTimestamp(lit.text, false);
      if (!ts) return Error(lit.pos, "Illegal TIMESTAMP literal '" + lit.text + "': not in format 'yyyy-MM-dd HH:mm:ss' (years 0000 to 9999)");
      size_t dot = lit.text.find('.');
      int precision = dot == std::string::npos ? 0 : static_cast<int>(lit.text.size() - dot - 1);
      precision = std::min(precision, 9);
      if (lit.literal_kind == ast::LiteralKind::kTimestamp) {
        return MakeLiteral(Value::Int(LogicalType::Timestamp(precision).WithNullable(false), *ts));
      }
      int64_t utc = eval_context_ ? eval_context_->LocalToUtc(*ts) : *ts;
      return MakeLiteral(Value::Int(LogicalType::TimestampLtz(precision).WithNullable(false), utc));
    }
  }
  return Error(lit.pos, "unknown literal");
}

Result<ExprPtr> Binder::BindInterval(const ast::IntervalLiteral& lit) {
  using U = ast::TimeUnit;
  std::string text = lit.text;
  bool negative = lit.negative;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    if (text[0] == '-') negative = !negative;
    text = text.substr(1);
  }
  auto bad = [&]() { return Error(lit.pos, "Illegal interval literal '" + lit.text + "'"); };
  auto too_large = [&]() { return Error(lit.pos, "Interval literal '" + lit.text + "' out of range"); };
  // Adds the decimal digits `digits` times `mult` to *total; false when they are not digits or the
  // sum does not fit in 64 bits (*overflow says which).
  bool overflow = false;
  auto add = [&](std::string_view digits, int64_t mult, int64_t* total) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || digits[0] == '-' || end != digits.data() + digits.size()) return false;
    overflow = ec == std::errc::result_out_of_range || __builtin_mul_overflow(n, mult, &n) ||
               __builtin_add_overflow(*total, n, total);
    return ec == std::errc() && !overflow;
  };
  U start = lit.start_unit;
  U end = lit.end_unit.value_or(start);
  if (start == U::kYear || start == U::kMonth) {
    int64_t months = 0;
    if (start == U::kYear && end == U::kMonth) {
      size_t dash = text.find('-');
      if (dash == std::string::npos) return bad();
      if (!add(std::string_view(text).substr(0, dash), 12, &months) ||
          !add(std::string_view(text).substr(dash + 1), 1, &months)) {
        return overflow ? too_large() : bad();
      }
    } else {
      if (!add(text, start == U::kYear ? 12 : 1, &months)) return overflow ? too_large() : bad();
    }
    if (negative) months = -months;
    return MakeLiteral(Value::Int(LogicalType::IntervalYearMonth().WithNullable(false), months));
  }
  // Day-time: parse "d hh:mm:ss.fff" shapes by the units given.
  static const int64_t kMs[] = {0, 0, 0, 0, 86400000, 3600000, 60000, 1000};
  auto unit_ms = [&](U u) -> int64_t {
    switch (u) {
      case U::kDay: return kMs[4];
      case U::kHour: return kMs[5];
      case U::kMinute: return kMs[6];
      case U::kSecond: return kMs[7];
      default: return -1;
    }
  };
  if (unit_ms(start) < 0 || unit_ms(end) < 0) return bad();
  std::vector<U> units;
  for (U u : {U::kDay, U::kHour, U::kMinute, U::kSecond}) {
    if (unit_ms(u) <= unit_ms(start) && unit_ms(u) >= unit_ms(end)) units.push_back(u);
  }
  // Split text into numeric fields by ' ' and ':'; the last may carry a fraction.
  std::vector<std::string> fields;
  std::string cur;
  for (char c : text) {
    if (c == ' ' || c == ':') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  fields.push_back(cur);
  if (fields.size() != units.size()) return bad();
  int64_t ms = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (f.empty()) return bad();
    size_t dot = f.find('.');
    if (dot != std::string::npos && units[i] != U::kSecond) return bad();
    std::string whole = f.substr(0, dot);
    if (!add(whole.empty() ? "0" : whole, unit_ms(units[i]), &ms)) return overflow ? too_large() : bad();
    if (dot != std::string::npos) {
      std::string frac = f.substr(dot + 1, 3);
      while (frac.size() < 3) frac.push_back('0');
      if (!add(frac, 1, &ms)) return overflow ? too_large() : bad();
    }
  }
  if (negative) ms = -ms;
  return MakeLiteral(Value::Int(LogicalType::IntervalDayTime().WithNullable(false), ms));
}

}  // namespace sluice
