#include "formats/text_values.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/time_util.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool SetError(const LogicalType& type, std::string_view text, std::string* error) {
  std::string shown(text.substr(0, 50));
  if (text.size() > 50) shown += "...";
  *error = "expected " + TypeNameForMessage(type) + ", got \"" + shown + "\"";
  return false;
}

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

inline int Digits2(const char* p) { return (p[0] - '0') * 10 + (p[1] - '0'); }

int64_t Pow10(int n) {
  int64_t r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

// The fixed-width form "yyyy-MM-dd?HH:mm:ss[.f{1,9}]" that nearly every record uses.
bool FastTimestamp(std::string_view t, char sep, int64_t* micros) {
  if (t.size() < 19) return false;
  const char* p = t.data();
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
    if (!IsDigit(p[i])) return false;
  }
  if (p[4] != '-' || p[7] != '-' || p[10] != sep || p[13] != ':' || p[16] != ':') return false;
  int year = Digits2(p) * 100 + Digits2(p + 2);
  int month = Digits2(p + 5), day = Digits2(p + 8);
  int hour = Digits2(p + 11), minute = Digits2(p + 14), second = Digits2(p + 17);
  if (!IsValidDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return false;
  int64_t frac = 0;
  size_t pos = 19;
  if (pos < t.size()) {
    if (p[pos] != '.') return false;
    ++pos;
    int n = 0;
    while (pos < t.size() && IsDigit(p[pos])) {
      if (n < 6) frac = frac * 10 + (p[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0 || n > 9 || pos != t.size()) return false;
    for (int i = n; i < 6; ++i) frac *= 10;
  }
  *micros = DaysFromCivil(year, month, day) * kMicrosPerDay +
            ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + frac;
  return true;
}

template <typename T>
bool StoreIntegral(std::string_view text, const LogicalType& type, Vector* vec, size_t row, std::string* error) {
  int64_t v;
  if (!ParseIntegerText(text, &v) || v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
    return SetError(type, text, error);
  }
  vec->data<T>()[row] = static_cast<T>(v);
  return true;
}

}  // namespace

std::string TypeNameForMessage(const LogicalType& type) { return type.WithNullable(true).ToString(); }

bool ParseIntegerText(std::string_view text, int64_t* out) {
  text = TrimSpaces(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto res = std::from_chars(text.data(), text.data() + text.size(), *out);
  return res.ec == std::errc() && res.ptr == text.data() + text.size();
}

bool ParseDoubleText(std::string_view text, double* out) {
  text = TrimSpaces(text);
  bool neg = false;
  std::string_view body = text;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    neg = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == "NaN") {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (body == "Infinity") {
    *out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (body.empty() || body.front() == '+' || body.front() == '-') return false;
  auto res = std::from_chars(body.data(), body.data() + body.size(), *out);
  if (res.ec != std::errc() || res.ptr != body.data() + body.size()) {
    // from_chars reports out-of-range for overflow; Java yields infinity / zero there.
    if (res.ec == std::errc::result_out_of_range && res.ptr == body.data() + body.size()) {
      *out = std::strtod(std::string(body).c_str(), nullptr);
    } else {
      return false;
    }
  }
  if (neg) *out = -*out;
  return true;
}

bool ParseDecimalText(std::string_view text, int precision, int scale, __int128* out, bool* overflow) {
  *overflow = false;
  text = TrimSpaces(text);
  size_t i = 0;
  bool neg = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    neg = text[i] == '-';
    ++i;
  }
  std::string digits;
  int frac_len = 0;
  bool seen_point = false, any_digit = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (IsDigit(c)) {
      any_digit = true;
      if (!(digits.empty() && c == '0')) digits.push_back(c);  // drop leading zeros
      if (seen_point) ++frac_len;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return false;
  int64_t exp = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    std::string_view e = text.substr(i);
    if (!e.empty() && e.front() == '+') e.remove_prefix(1);
    if (e.empty() || !ParseIntegerText(e, &exp) || exp > 10000 || exp < -10000) return false;
    i = text.size();
  }
  if (i != text.size()) return false;
  // value = digits * 10^(exp - frac_len); unscaled = value * 10^scale.
  int64_t shift = exp - frac_len + scale;
  int64_t keep = static_cast<int64_t>(digits.size()) + shift;
  __int128 v = 0;
  if (digits.empty() || keep < 0) {
    v = 0;
  } else {
    size_t take = static_cast<size_t>(std::min<int64_t>(keep, static_cast<int64_t>(digits.size())));
    if (keep > 38) {
      *overflow = true;
      return true;
    }
    for (size_t k = 0; k < take; ++k) v = v * 10 + (digits[k] - '0');
    for (int64_t k = static_cast<int64_t>(take); k < keep; ++k) v *= 10;
    if (shift < 0 && take < digits.size() && digits[take] >= '5') v += 1;
  }
  __int128 limit = 1;
  for (int k = 0; k < precision; ++k) limit *= 10;
  if (v >= limit) {
    *overflow = true;
    return true;
  }
  *out = neg ? -v : v;
  return true;
}

bool ParseTimestampText(std::string_view text, TimestampStandard standard, bool ltz, int precision, int64_t* micros) {
  std::string_view t = TrimSpaces(text);
  if ((ltz || standard == TimestampStandard::kIso8601) && !t.empty() && t.back() == 'Z') t.remove_suffix(1);
  const char sep = standard == TimestampStandard::kSql ? ' ' : 'T';
  int64_t v;
  if (!FastTimestamp(t, sep, &v)) {
    // Other shapes (short years, single-digit fields, no seconds): the general parser, after checking
    // the date/time separator of the chosen standard.
    size_t s = t.find_first_of(" T");
    if (s == std::string_view::npos || t[s] != sep) return false;
    auto parsed = ParseTimestamp(t, standard == TimestampStandard::kIso8601);
    if (!parsed) return false;
    v = *parsed;
  }
  if (precision < 6) {
    int64_t unit = Pow10(6 - precision);
    v -= FloorMod(v, unit);
  }
  *micros = v;
  return true;
}

bool ParseTextValue(std::string_view text, TimestampStandard standard, Vector* vec, size_t row, std::string* error) {
  const LogicalType& type = vec->type();
  switch (type.id()) {
    case TypeId::kBoolean: {
      std::string_view t = TrimSpaces(text);
      if (EqualsIgnoreCase(t, "true")) {
        vec->data<uint8_t>()[row] = 1;
      } else if (EqualsIgnoreCase(t, "false")) {
        vec->data<uint8_t>()[row] = 0;
      } else {
        return SetError(type, text, error);
      }
      break;
    }
    case TypeId::kTinyInt:
      if (!StoreIntegral<int8_t>(text, type, vec, row, error)) return false;
      break;
    case TypeId::kSmallInt:
      if (!StoreIntegral<int16_t>(text, type, vec, row, error)) return false;
      break;
    case TypeId::kInteger:
      if (!StoreIntegral<int32_t>(text, type, vec, row, error)) return false;
      break;
    case TypeId::kBigInt:
      if (!StoreIntegral<int64_t>(text, type, vec, row, error)) return false;
      break;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d;
      if (!ParseDoubleText(text, &d)) return SetError(type, text, error);
      if (type.id() == TypeId::kFloat) {
        vec->data<float>()[row] = static_cast<float>(d);
      } else {
        vec->data<double>()[row] = d;
      }
      break;
    }
    case TypeId::kDecimal: {
      __int128 v;
      bool overflow;
      if (!ParseDecimalText(text, type.precision(), type.scale(), &v, &overflow)) return SetError(type, text, error);
      if (overflow) {
        vec->SetNull(row, true);
        return true;
      }
      vec->data<__int128>()[row] = v;
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar: vec->SetString(row, text); break;
    case TypeId::kBinary:
    case TypeId::kVarBinary: {
      std::string bytes;
      if (!DecodeBase64(TrimSpaces(text), &bytes)) {
        *error = "expected " + TypeNameForMessage(type) + " as base64 text";
        return false;
      }
      vec->SetString(row, bytes);
      break;
    }
    case TypeId::kDate: {
      auto d = ParseDate(text);
      if (!d) return SetError(type, text, error);
      vec->data<int32_t>()[row] = *d;
      break;
    }
    case TypeId::kTime: {
      auto t = ParseTime(text);
      if (!t) return SetError(type, text, error);
      int32_t ms = *t;
      if (type.precision() < 3) ms -= ms % static_cast<int32_t>(Pow10(3 - type.precision()));
      vec->data<int32_t>()[row] = ms;
      break;
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      int64_t micros;
      if (!ParseTimestampText(text, standard, type.id() == TypeId::kTimestampLtz, type.precision(), &micros)) {
        return SetError(type, text, error);
      }
      vec->data<int64_t>()[row] = micros;
      break;
    }
    default: *error = "type " + TypeNameForMessage(type) + " cannot be read from text"; return false;
  }
  vec->SetNull(row, false);
  return true;
}

namespace {
constexpr char kBase64Chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Base64Index(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

bool DecodeBase64(std::string_view text, std::string* out) {
  out->clear();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = Base64Index(c);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return bits < 6;
}

void AppendBase64(std::string_view bytes, std::string* out) {
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                 static_cast<uint8_t>(bytes[i + 2]);
    out->push_back(kBase64Chars[(v >> 18) & 63]);
    out->push_back(kBase64Chars[(v >> 12) & 63]);
    out->push_back(kBase64Chars[(v >> 6) & 63]);
    out->push_back(kBase64Chars[v & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest == 1) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out->push_back(kBase64Chars[(v >> 18) & 63]);
    out->push_back(kBase64Chars[(v >> 12) & 63]);
    out->append("==");
  } else if (rest == 2) {
    uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out->push_back(kBase64Chars[(v >> 18) & 63]);
    out->push_back(kBase64Chars[(v >> 12) & 63]);
    out->push_back(kBase64Chars[(v >> 6) & 63]);
    out->push_back('=');
  }
}

void AppendJavaBigDecimalText(__int128 unscaled, int scale, std::string* out) {
  std::string digits = Int128ToString(unscaled < 0 ? -unscaled : unscaled);
  int64_t adjusted = static_cast<int64_t>(digits.size()) - 1 - scale;
  if (scale >= 0 && adjusted >= -6) {
    AppendDecimalText(unscaled, scale, out);
    return;
  }
  if (unscaled < 0) out->push_back('-');
  out->push_back(digits[0]);
  if (digits.size() > 1) {
    out->push_back('.');
    out->append(digits, 1, std::string::npos);
  }
  out->push_back('E');
  if (adjusted >= 0) out->push_back('+');
  out->append(std::to_string(adjusted));
}

void AppendDecimalValueText(__int128 unscaled, int scale, DecimalText style, std::string* out) {
  if (style == DecimalText::kPlain) {
    AppendDecimalText(unscaled, scale, out);
    return;
  }
  if (unscaled == 0) {  // BigDecimal.ZERO, whatever the scale
    out->push_back('0');
    return;
  }
  while (unscaled % 10 == 0) {
    unscaled /= 10;
    --scale;
  }
  AppendJavaBigDecimalText(unscaled, scale, out);
}

namespace {
// Drops the trailing zeros of the fraction that ends `out` (from `start`), and its '.' when none is left.
void TrimFraction(size_t start, std::string* out) {
  size_t dot = out->find('.', start);
  if (dot == std::string::npos) return;
  size_t end = out->find_last_not_of('0');
  if (end == dot) {
    out->resize(dot);
  } else {
    out->resize(end + 1);
  }
}
}  // namespace

void AppendTimestampText(int64_t micros, int precision, TimestampStandard standard, bool ltz, FractionText fraction,
                         std::string* out) {
  size_t start = out->size();
  AppendTimestamp(micros, fraction == FractionText::kShortest ? 6 : precision, out);
  if (fraction == FractionText::kShortest) TrimFraction(start, out);
  if (standard == TimestampStandard::kIso8601) {
    size_t sp = out->find(' ', start);
    if (sp != std::string::npos) (*out)[sp] = 'T';
  }
  if (ltz) out->push_back('Z');
}

void AppendTimeText(int32_t millis, int precision, FractionText fraction, std::string* out) {
  size_t start = out->size();
  out->append(FormatTime(millis, fraction == FractionText::kShortest ? 3 : precision));
  if (fraction == FractionText::kShortest) TrimFraction(start, out);
}

}  // namespace sluice
