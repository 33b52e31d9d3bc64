// CAST and TRY_CAST between Flink types (see cast.h); CanCast and CommonType are in cast_rules.cc.
#include "function/cast.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/time_util.h"
#include "function/evaluator.h"
#include "function/kernel_util.h"
#include "types/value.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

using fn::FitsPrecision;
using fn::Pow10;
using fn::Rescale;

// ---------------------------------------------------------------------------------------------------
// Row-level conversions

namespace {

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Flink's BinaryStringDataUtil.toLong: optional sign, digits, optionally '.' and digits (dropped).
bool ParseIntegral(std::string_view s, int64_t min, int64_t max, int64_t* out) {
  s = TrimSpaces(s);
  if (s.empty()) return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    ++i;
  }
  if (i >= s.size()) return false;
  __int128 v = 0;
  bool any = false;
  for (; i < s.size() && s[i] != '.'; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
    any = true;
    if (v > static_cast<__int128>(max) + 1) return false;
  }
  bool dot = false;
  if (i < s.size()) {  // '.' then digits only
    dot = true;
    for (++i; i < s.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    }
  }
  // No digit before the '.': Flink's toLong reads ".", "-.5" as 0 (random cases of seed 2020).
  if (!any && !dot) return false;
  if (neg) v = -v;
  if (v < min || v > max) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

bool ParseDouble(std::string_view s, double* out) {
  s = TrimSpaces(s);
  if (!s.empty() && (s.back() == 'd' || s.back() == 'D' || s.back() == 'f' || s.back() == 'F')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) return false;  // "+-1" is no number
  }
  if (s == "Infinity") {
    *out = std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "-Infinity") {
    *out = -std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "NaN") {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (s.empty() || std::isalpha(static_cast<unsigned char>(s.back()))) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

enum class DecimalParse { kOk, kBadText, kOverflow };

// Parses decimal text ("-12.345", "1e3") to an unscaled value of `scale`, rounding HALF_UP.
DecimalParse ParseDecimal(std::string_view s, int precision, int scale, __int128* out) {
  s = TrimSpaces(s);
  if (s.empty()) return DecimalParse::kBadText;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    ++i;
  }
  std::string digits;
  int frac_digits = 0;
  bool seen_dot = false, any = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any = true;
      if (digits.empty() && c == '0') {
        if (seen_dot) ++frac_digits;
        continue;
      }
      digits.push_back(c);
      if (seen_dot) ++frac_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!any && !seen_dot) return DecimalParse::kBadText;  // "." alone is 0, as Flink reads it
  int64_t exp = 0;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return DecimalParse::kBadText;
    if (!ParseIntegral(s.substr(i + 1), -100000, 100000, &exp) || s.substr(i + 1).find('.') != std::string_view::npos) {
      return DecimalParse::kBadText;
    }
  }
  // value = digits * 10^(exp - frac_digits); we want value * 10^scale.
  int64_t shift = exp - frac_digits + scale;
  if (digits.empty()) {
    *out = 0;
    return DecimalParse::kOk;
  }
  if (static_cast<int64_t>(digits.size()) + shift > precision) return DecimalParse::kOverflow;
  if (shift < 0) {
    // Round at the dropped digits.
    int64_t keep = static_cast<int64_t>(digits.size()) + shift;
    bool round_up = keep >= 0 && keep < static_cast<int64_t>(digits.size()) && digits[static_cast<size_t>(keep)] >= '5';
    if (keep <= 0) {
      *out = (keep == 0 && round_up) ? (neg ? -1 : 1) : 0;
      return DecimalParse::kOk;
    }
    digits.resize(static_cast<size_t>(keep));
    __int128 v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    if (round_up) ++v;
    if (!FitsPrecision(v, precision)) return DecimalParse::kOverflow;
    *out = neg ? -v : v;
    return DecimalParse::kOk;
  }
  __int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  v *= Pow10(static_cast<int>(shift));
  if (!FitsPrecision(v, precision)) return DecimalParse::kOverflow;
  *out = neg ? -v : v;
  return DecimalParse::kOk;
}

std::string Lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// Flink's toBoolean: the words as they are, blanks around them not trimmed (' true ' is no BOOLEAN).
bool ParseBoolean(std::string_view s, bool* out) {
  std::string l = Lower(s);
  if (l == "true" || l == "t" || l == "yes" || l == "y" || l == "1") {
    *out = true;
    return true;
  }
  if (l == "false" || l == "f" || l == "no" || l == "n" || l == "0") {
    *out = false;
    return true;
  }
  return false;
}

// Flink's string-to-DATE cast (DateTimeUtils.parseDate): the text trimmed and cut at its first blank, then
// `y-m-d`, `y-m` (day 1) or `y` (January 1): '2026-08-15 25:00:00' is 2026-08-15, '42' is 0042-01-01,
// an ISO 'T' time no DATE (random case random_cast_edge_texts).
std::optional<int32_t> ParseDateText(std::string_view s) {
  s = TrimSpaces(s);
  s = s.substr(0, s.find(' '));
  if (auto d = ParseDate(s)) return d;
  int64_t parts[2] = {0, 1};
  size_t n = 0, i = 0;
  while (n < 2) {
    size_t start = i;
    int64_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 4) v = v * 10 + (s[i++] - '0');
    if (i == start) return std::nullopt;
    parts[n++] = v;
    if (i == s.size()) break;
    if (s[i++] != '-' || n == 2) return std::nullopt;
  }
  if (parts[1] < 1 || parts[1] > 12 || (n == 1 && parts[0] > 9999)) return std::nullopt;
  return static_cast<int32_t>(DaysFromCivil(parts[0], static_cast<int>(parts[1]), 1));
}

// Flink's string-to-TIMESTAMP cast: `y-m-d[ h:m:s[.fraction]]` with a blank before the time, seconds
// required, no blanks around it, no ISO 'T'; a day past the month's end clamped to it as
// java.time's SMART resolver does ('2026-02-30' is 2026-02-28; random case random_cast_edge_texts).
std::optional<int64_t> ParseTimestampText(std::string_view s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front())) ||
      std::isspace(static_cast<unsigned char>(s.back()))) {
    return std::nullopt;
  }
  const size_t blank = s.find(' ');
  if (blank != std::string_view::npos && std::count(s.begin() + blank, s.end(), ':') != 2) return std::nullopt;
  if (auto ts = ParseTimestamp(s, /*allow_iso=*/false)) return ts;
  // y-m-d with a day of 29 to 31 past the month's end: retried with the month's last day.
  const std::string_view date = s.substr(0, blank);
  const size_t h1 = date.find('-'), h2 = date.rfind('-');
  if (h1 == std::string_view::npos || h2 == h1 || h2 + 1 >= date.size()) return std::nullopt;
  int64_t y = 0, m = 0, d = 0;
  if (!ParseIntegral(date.substr(0, h1), 0, 9999, &y) || !ParseIntegral(date.substr(h1 + 1, h2 - h1 - 1), 1, 12, &m) ||
      !ParseIntegral(date.substr(h2 + 1), 29, 31, &d) || date.find('.') != std::string_view::npos) {
    return std::nullopt;
  }
  const int last = DaysInMonth(y, static_cast<int>(m));
  if (d <= last) return std::nullopt;
  std::string fixed = std::string(date.substr(0, h2 + 1)) + std::to_string(last) + std::string(s.substr(date.size()));
  return ParseTimestamp(fixed, /*allow_iso=*/false);
}

// Java's (long) / (int) cast of a double: NaN -> 0, saturating.
template <typename T>
T JavaFloatToIntegral(double d) {
  if (std::isnan(d)) return 0;
  if constexpr (sizeof(T) == 8) {
    if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return static_cast<T>(d);
  } else {
    int32_t i;
    if (d >= 2147483647.0) i = std::numeric_limits<int32_t>::max();
    else if (d <= -2147483648.0) i = std::numeric_limits<int32_t>::min();
    else i = static_cast<int32_t>(d);
    return static_cast<T>(i);
  }
}

std::string QuoteForError(const Vector& in, size_t row) {
  std::string s;
  AppendVectorText(in, row, &s);
  if (in.type().IsStringLike()) return "'" + s + "'";
  return s;
}

// Per-row conversion context: writes row i of `out`, reports failure by returning false.
class Caster {
 public:
  Caster(EvalContext& ctx, const Vector& in, const LogicalType& to, bool is_try, Vector* out)
      : ctx_(ctx), in_(in), from_(in.type()), to_(to), is_try_(is_try), out_(out) {}

  Status Run();

 private:
  // `why` (a sentence ending in '.', e.g. Flink's own message) follows the cast's description.
  Status Fail(size_t i, const std::string& why = std::string()) {
    if (is_try_) {
      out_->SetNull(i, true);
      return Status::OK();
    }
    std::string msg = "Cannot cast " + QuoteForError(in_, i) + " of type " + from_.WithNullable(true).ToString() +
                      " to " + to_.WithNullable(true).ToString();
    msg += why.empty() ? std::string(".") : ": " + why;
    msg += " Use TRY_CAST to get NULL instead.";
    return Status::RuntimeError(msg);
  }

  template <typename F>
  Status ForRows(F f) {
    const size_t n = in_.size();
    const uint8_t* v = in_.validity();
    if (v != nullptr) std::memcpy(out_->mutable_validity(), v, n);
    for (size_t i = 0; i < n; ++i) {
      if (v != nullptr && !v[i]) continue;
      RETURN_IF_ERROR(f(i));
    }
    return Status::OK();
  }

  // Reads row i of a numeric input as the given representation.
  int64_t AsInt(size_t i) const {
    switch (from_.id()) {
      case TypeId::kTinyInt: return in_.data<int8_t>()[i];
      case TypeId::kSmallInt: return in_.data<int16_t>()[i];
      case TypeId::kInteger: return in_.data<int32_t>()[i];
      case TypeId::kBoolean: return in_.data<uint8_t>()[i];
      default: return in_.data<int64_t>()[i];
    }
  }
  double AsDouble(size_t i) const {
    switch (from_.id()) {
      case TypeId::kFloat: return in_.data<float>()[i];
      case TypeId::kDouble: return in_.data<double>()[i];
      case TypeId::kDecimal:
        return static_cast<double>(static_cast<long double>(in_.data<__int128>()[i]) /
                                   static_cast<long double>(Pow10(from_.scale())));
      default: return static_cast<double>(AsInt(i));
    }
  }

  template <typename T>
  void Put(size_t i, T v) {
    out_->data<T>()[i] = v;
  }

  template <typename T>
  Status ToIntegral(int64_t min, int64_t max);
  template <typename T>
  Status ToFloating();
  Status ToDecimal();
  Status ToBoolean();
  Status ToCharacter();
  Status ToBinary();
  Status ToDate();
  Status ToTime();
  Status ToTimestamp(bool ltz);
  Status ToNested();

  EvalContext& ctx_;
  const Vector& in_;
  const LogicalType& from_;
  const LogicalType& to_;
  bool is_try_;
  Vector* out_;
};

template <typename T>
Status Caster::ToIntegral(int64_t min, int64_t max) {
  const TypeId f = from_.id();
  if (from_.IsIntegral() || f == TypeId::kBoolean) {
    return ForRows([&](size_t i) {
      Put<T>(i, static_cast<T>(AsInt(i)));
      return Status::OK();
    });
  }
  if (from_.IsApproximate()) {
    return ForRows([&](size_t i) {
      Put<T>(i, JavaFloatToIntegral<T>(AsDouble(i)));
      return Status::OK();
    });
  }
  if (f == TypeId::kDecimal) {
    const __int128 p = Pow10(from_.scale());
    return ForRows([&](size_t i) {
      __int128 v = in_.data<__int128>()[i] / p;
      Put<T>(i, static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v)))));
      return Status::OK();
    });
  }
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      int64_t v;
      if (!ParseIntegral(in_.GetString(i), min, max, &v)) return Fail(i);
      Put<T>(i, static_cast<T>(v));
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
}

template <typename T>
Status Caster::ToFloating() {
  if (from_.IsNumeric() || from_.id() == TypeId::kBoolean) {
    if (from_.IsIntegral() || from_.id() == TypeId::kBoolean) {
      return ForRows([&](size_t i) {
        Put<T>(i, static_cast<T>(AsInt(i)));
        return Status::OK();
      });
    }
    return ForRows([&](size_t i) {
      Put<T>(i, static_cast<T>(AsDouble(i)));
      return Status::OK();
    });
  }
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      double d;
      if (!ParseDouble(in_.GetString(i), &d)) return Fail(i);
      Put<T>(i, static_cast<T>(d));
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
}

Status Caster::ToDecimal() {
  const int p = to_.precision(), s = to_.scale();
  const TypeId f = from_.id();
  if (from_.IsIntegral() || f == TypeId::kBoolean) {
    const __int128 unit = Pow10(s), max = fn::MaxUnscaled(p);
    return ForRows([&](size_t i) {
      __int128 v = static_cast<__int128>(AsInt(i)) * unit;
      if (v > max || v < -max) {
        out_->SetNull(i, true);
      } else {
        Put<__int128>(i, v);
      }
      return Status::OK();
    });
  }
  if (f == TypeId::kDecimal) {
    const int fs = from_.scale();
    const __int128 max = fn::MaxUnscaled(p);
    return ForRows([&](size_t i) {
      __int128 v;
      if (!Rescale(in_.data<__int128>()[i], fs, s, &v) || v > max || v < -max) {
        out_->SetNull(i, true);
      } else {
        Put<__int128>(i, v);
      }
      return Status::OK();
    });
  }
  if (from_.IsApproximate()) {
    // As Java's BigDecimal.valueOf(double): the shortest decimal text of the double, then rounded; NULL
    // when it does not fit (as Flink 2.2), but NaN and infinities fail the job with Java's message.
    std::string text;
    return ForRows([&](size_t i) {
      double d = AsDouble(i);
      if (!std::isfinite(d)) {
        return Fail(i, std::string("Character ") + (std::isnan(d) ? 'N' : 'I') +
                           " is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.");
      }
      text.clear();
      if (f == TypeId::kFloat) {
        AppendFloatText(static_cast<float>(d), &text);
      } else {
        AppendDoubleText(d, &text);
      }
      __int128 v;
      if (ParseDecimal(text, p, s, &v) != DecimalParse::kOk) {
        out_->SetNull(i, true);
      } else {
        Put<__int128>(i, v);
      }
      return Status::OK();
    });
  }
  if (from_.IsCharacterString()) {
    // A string too long for the DECIMAL fails the job as in Flink 2.2 (its json and csv formats' NULL on
    // overflow is formats/text_values.cc's rule, not this one).
    return ForRows([&](size_t i) {
      __int128 v;
      switch (ParseDecimal(in_.GetString(i), p, s, &v)) {
        case DecimalParse::kOk: Put<__int128>(i, v); break;
        case DecimalParse::kOverflow:
          return Fail(i, "For input string: '" + std::string(in_.GetString(i)) + "'. Overflow.");
        case DecimalParse::kBadText: return Fail(i);
      }
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
}

Status Caster::ToBoolean() {
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      bool b;
      if (!ParseBoolean(in_.GetString(i), &b)) return Fail(i);
      Put<uint8_t>(i, b ? 1 : 0);
      return Status::OK();
    });
  }
  if (from_.IsIntegral() || from_.id() == TypeId::kBoolean) {
    return ForRows([&](size_t i) {
      Put<uint8_t>(i, AsInt(i) != 0 ? 1 : 0);
      return Status::OK();
    });
  }
  if (from_.IsNumeric()) {
    return ForRows([&](size_t i) {
      bool nz = from_.id() == TypeId::kDecimal ? in_.data<__int128>()[i] != 0 : AsDouble(i) != 0;
      Put<uint8_t>(i, nz ? 1 : 0);
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to BOOLEAN is not supported");
}

Status Caster::ToCharacter() {
  const bool is_char = to_.id() == TypeId::kChar;
  const size_t limit = static_cast<size_t>(to_.length());
  const bool unlimited = to_.length() == LogicalType::kMaxVarCharLength;
  std::string buf;
  // Fits `s` to the target length: truncate to `limit` characters; CHAR pads with spaces.
  auto emit = [&](size_t i, std::string_view s, bool owned) {
    if (!unlimited) {
      size_t bytes = fn::Utf8PrefixBytes(s, limit);
      if (bytes < s.size()) s = s.substr(0, bytes);
      if (is_char) {
        size_t chars = fn::Utf8Length(s);
        if (chars < limit) {
          std::string padded(s);
          padded.append(limit - chars, ' ');
          out_->SetString(i, padded);
          return;
        }
      }
    }
    if (owned) {
      out_->SetString(i, s);
    } else {
      out_->SetStringView(i, s);
    }
  };
  if (from_.IsStringLike()) {
    out_->ShareHeapsWith(in_);
    return ForRows([&](size_t i) {
      emit(i, in_.GetString(i), false);
      return Status::OK();
    });
  }
  if (from_.id() == TypeId::kBoolean) {
    return ForRows([&](size_t i) {
      emit(i, in_.data<uint8_t>()[i] ? "TRUE" : "FALSE", true);
      return Status::OK();
    });
  }
  if (from_.id() == TypeId::kTimestampLtz) {
    return ForRows([&](size_t i) {
      buf.clear();
      AppendTimestamp(ctx_.UtcToLocal(in_.data<int64_t>()[i]), from_.precision(), &buf);
      emit(i, buf, true);
      return Status::OK();
    });
  }
  return ForRows([&](size_t i) {
    buf.clear();
    AppendVectorText(in_, i, &buf);
    emit(i, buf, true);
    return Status::OK();
  });
}

Status Caster::ToBinary() {
  const bool fixed = to_.id() == TypeId::kBinary;
  const size_t limit = static_cast<size_t>(to_.length());
  out_->ShareHeapsWith(in_);
  return ForRows([&](size_t i) {
    std::string_view s = in_.GetString(i);
    if (s.size() > limit) s = s.substr(0, limit);
    if (fixed && s.size() < limit) {
      std::string padded(s);
      padded.append(limit - s.size(), '\0');
      out_->SetString(i, padded);
    } else {
      out_->SetStringView(i, s);
    }
    return Status::OK();
  });
}

Status Caster::ToDate() {
  const TypeId f = from_.id();
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      if (auto d = ParseDateText(in_.GetString(i))) {
        Put<int32_t>(i, *d);
        return Status::OK();
      }
      return Fail(i);
    });
  }
  if (from_.IsTimestamp()) {
    const bool ltz = f == TypeId::kTimestampLtz;
    return ForRows([&](size_t i) {
      int64_t ts = in_.data<int64_t>()[i];
      if (ltz) ts = ctx_.UtcToLocal(ts);
      Put<int32_t>(i, static_cast<int32_t>(FloorDiv(ts, kMicrosPerDay)));
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to DATE is not supported");
}

Status Caster::ToTime() {
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      std::string_view s = in_.GetString(i);
      // A TIME text only: Flink reads no date or timestamp text as a TIME, and an hour alone as that
      // hour ('1' is 01:00:00; random_cast_edge_texts).
      if (auto t = ParseTime(s)) {
        Put<int32_t>(i, *t);
        return Status::OK();
      }
      int64_t hour = 0;
      const std::string_view h = TrimSpaces(s);
      if (!h.empty() && h.size() <= 2 && std::all_of(h.begin(), h.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
          ParseIntegral(h, 0, 23, &hour)) {
        Put<int32_t>(i, static_cast<int32_t>(hour * 3600000));
        return Status::OK();
      }
      return Fail(i);
    });
  }
  if (from_.IsTimestamp()) {
    const bool ltz = from_.id() == TypeId::kTimestampLtz;
    return ForRows([&](size_t i) {
      int64_t ts = in_.data<int64_t>()[i];
      if (ltz) ts = ctx_.UtcToLocal(ts);
      Put<int32_t>(i, static_cast<int32_t>(FloorMod(ts, kMicrosPerDay) / kMicrosPerMilli));
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to TIME is not supported");
}

Status Caster::ToTimestamp(bool ltz) {
  // Precision: truncate the fraction to the target's digits (TIMESTAMP(3) keeps milliseconds).
  const int p = std::min(to_.precision(), 6);
  const int64_t unit = static_cast<int64_t>(Pow10(6 - p));
  auto trunc = [unit](int64_t v) { return unit == 1 ? v : FloorDiv(v, unit) * unit; };
  const TypeId f = from_.id();
  if (from_.IsCharacterString()) {
    return ForRows([&](size_t i) {
      auto ts = ParseTimestampText(in_.GetString(i));
      if (!ts) return Fail(i);
      int64_t v = ltz ? ctx_.LocalToUtc(*ts) : *ts;
      Put<int64_t>(i, trunc(v));
      return Status::OK();
    });
  }
  if (f == TypeId::kDate) {
    return ForRows([&](size_t i) {
      int64_t v = static_cast<int64_t>(in_.data<int32_t>()[i]) * kMicrosPerDay;
      Put<int64_t>(i, ltz ? ctx_.LocalToUtc(v) : v);
      return Status::OK();
    });
  }
  if (f == TypeId::kTime) {
    // Flink: TIME to TIMESTAMP takes the date 1970-01-01.
    return ForRows([&](size_t i) {
      int64_t v = static_cast<int64_t>(in_.data<int32_t>()[i]) * kMicrosPerMilli;
      Put<int64_t>(i, ltz ? ctx_.LocalToUtc(v) : v);
      return Status::OK();
    });
  }
  if (from_.IsTimestamp()) {
    const bool from_ltz = f == TypeId::kTimestampLtz;
    return ForRows([&](size_t i) {
      int64_t v = in_.data<int64_t>()[i];
      if (from_ltz && !ltz) v = ctx_.UtcToLocal(v);
      if (!from_ltz && ltz) v = ctx_.LocalToUtc(v);
      Put<int64_t>(i, trunc(v));
      return Status::OK();
    });
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
}

Status Caster::ToNested() {
  const size_t n = in_.size();
  if (const uint8_t* v = in_.validity()) std::memcpy(out_->mutable_validity(), v, n);
  if (to_.id() == TypeId::kRow) {
    if (from_.id() != TypeId::kRow || from_.num_children() != to_.num_children()) {
      return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
    }
    for (size_t c = 0; c < to_.num_children(); ++c) {
      Vector child;
      RETURN_IF_ERROR(CastVector(ctx_, in_.child(c), to_.child(c), is_try_, &child));
      out_->child(c) = std::move(child);
    }
    return Status::OK();
  }
  if (from_.id() != to_.id()) {
    return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
  }
  std::memcpy(out_->raw_data(), in_.raw_data(), n * sizeof(ListEntry));
  for (size_t c = 0; c < to_.num_children(); ++c) {
    Vector child;
    RETURN_IF_ERROR(CastVector(ctx_, in_.child(c), to_.child(c), is_try_, &child));
    out_->child(c) = std::move(child);
  }
  return Status::OK();
}

Status Caster::Run() {
  const TypeId t = to_.id();
  switch (t) {
    case TypeId::kTinyInt: return ToIntegral<int8_t>(-128, 127);
    case TypeId::kSmallInt: return ToIntegral<int16_t>(-32768, 32767);
    case TypeId::kInteger: return ToIntegral<int32_t>(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    case TypeId::kBigInt: return ToIntegral<int64_t>(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    case TypeId::kFloat: return ToFloating<float>();
    case TypeId::kDouble: return ToFloating<double>();
    case TypeId::kDecimal: return ToDecimal();
    case TypeId::kBoolean: return ToBoolean();
    case TypeId::kChar:
    case TypeId::kVarChar: return ToCharacter();
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      if (!from_.IsStringLike()) break;
      return ToBinary();
    case TypeId::kDate: return ToDate();
    case TypeId::kTime: return ToTime();
    case TypeId::kTimestamp: return ToTimestamp(false);
    case TypeId::kTimestampLtz: return ToTimestamp(true);
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
      if (from_.id() != t) break;
      return ForRows([&](size_t i) {
        fn::CopyRow(in_, i, out_, i);
        return Status::OK();
      });
    case TypeId::kArray:
    case TypeId::kMultiset:
    case TypeId::kMap:
    case TypeId::kRow: return ToNested();
    case TypeId::kNull: break;
  }
  return Status::NotSupported("CAST from " + from_.ToString() + " to " + to_.ToString() + " is not supported");
}

}  // namespace

Status CastVector(EvalContext& ctx, const Vector& in, const LogicalType& to, bool is_try, Vector* out) {
  const size_t n = in.size();
  *out = Vector(to, n);
  if (in.type().id() == TypeId::kNull) {
    if (n > 0) fn::SetAllNull(out, n);
    return Status::OK();
  }
  if (n == 0) return Status::OK();
  const LogicalType& from = in.type();
  // Same physical representation and no value change: share the input's data.
  bool same = from.EqualsIgnoringNullability(to) ||
              (from.id() == TypeId::kVarChar && to.id() == TypeId::kVarChar && to.length() >= from.length()) ||
              (from.id() == TypeId::kVarBinary && to.id() == TypeId::kVarBinary && to.length() >= from.length()) ||
              (from.id() == TypeId::kChar && to.id() == TypeId::kVarChar && to.length() >= from.length()) ||
              (from.IsTimestamp() && from.id() == to.id() && to.precision() >= from.precision()) ||
              (from.id() == TypeId::kTime && to.id() == TypeId::kTime);
  if (same && !from.IsNested()) {
    size_t w = to.PhysicalWidth();
    if (w) std::memcpy(out->raw_data(), in.raw_data(), n * w);
    if (const uint8_t* v = in.validity()) std::memcpy(out->mutable_validity(), v, n);
    if (to.IsStringLike()) out->ShareHeapsWith(in);
    return Status::OK();
  }
  if (same) {
    *out = Vector(to, 0);
    out->AppendFrom(in, nullptr, 0, n);
    return Status::OK();
  }
  Caster c(ctx, in, to, is_try, out);
  return c.Run();
}

Result<Value> CastValue(EvalContext& ctx, const Value& v, const LogicalType& to, bool is_try) {
  if (v.is_null()) return Value::Null(to);
  Vector in(v.type(), 0);
  in.AppendValue(v);
  Vector out;
  RETURN_IF_ERROR(CastVector(ctx, in, to, is_try, &out));
  return out.GetValue(0);
}

}  // namespace sluice