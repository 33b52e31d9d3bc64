#include "common/time_util.h"

#include <cctype>

namespace sluice {

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilDate CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{y + (m <= 2), m, d};
}

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2) {
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return leap ? 29 : 28;
  }
  return kDays[month - 1];
}

bool IsValidDate(int64_t year, int month, int day) {
  return month >= 1 && month <= 12 && day >= 1 && day <= DaysInMonth(year, month);
}

namespace {

// Two decimal digits of 0 <= v < 100 at p.
inline void PutTwoDigits(int64_t v, char* p) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
}

void AppendDate(int64_t days, std::string* out) {
  CivilDate c = CivilFromDays(days);
  if (c.year >= 0 && c.year <= 9999) {
    // The common case as one append of "yyyy-MM-dd".
    char b[10];
    PutTwoDigits(c.year / 100, b);
    PutTwoDigits(c.year % 100, b + 2);
    b[4] = '-';
    PutTwoDigits(c.month, b + 5);
    b[7] = '-';
    PutTwoDigits(c.day, b + 8);
    out->append(b, sizeof(b));
    return;
  }
  AppendZeroPadded(c.year, 4, out);
  out->push_back('-');
  AppendZeroPadded(c.month, 2, out);
  out->push_back('-');
  AppendZeroPadded(c.day, 2, out);
}

void AppendClock(int64_t micros_of_day, int precision, std::string* out) {
  if (micros_of_day >= 0 && micros_of_day < kMicrosPerDay && precision <= 9) {
    // The common case as one append of "HH:mm:ss[.fraction]".
    char b[18];
    const int64_t secs = micros_of_day / kMicrosPerSecond;
    int64_t frac = micros_of_day % kMicrosPerSecond;
    PutTwoDigits(secs / 3600, b);
    b[2] = ':';
    PutTwoDigits((secs / 60) % 60, b + 3);
    b[5] = ':';
    PutTwoDigits(secs % 60, b + 6);
    size_t n = 8;
    if (precision > 0) {
      b[n++] = '.';
      for (int i = 5; i >= 0; --i) {
        if (i < precision) b[9 + i] = static_cast<char>('0' + frac % 10);
        frac /= 10;
      }
      for (int i = 6; i < precision; ++i) b[9 + i] = '0';
      n += static_cast<size_t>(precision);
    }
    out->append(b, n);
    return;
  }
  int64_t secs = micros_of_day / kMicrosPerSecond;
  int64_t frac = micros_of_day % kMicrosPerSecond;
  AppendZeroPadded(secs / 3600, 2, out);
  out->push_back(':');
  AppendZeroPadded((secs / 60) % 60, 2, out);
  out->push_back(':');
  AppendZeroPadded(secs % 60, 2, out);
  if (precision > 0) {
    out->push_back('.');
    char digits[10];
    int64_t f = frac;
    for (int i = 5; i >= 0; --i) {
      digits[i] = static_cast<char>('0' + f % 10);
      f /= 10;
    }
    for (int i = 0; i < precision; ++i) out->push_back(i < 6 ? digits[i] : '0');
  }
}

// Parses up to `max` digits at text[*pos]; returns -1 when there is none.
int64_t ParseNumber(std::string_view text, size_t* pos, int min_digits, int max_digits) {
  int64_t v = 0;
  int n = 0;
  while (*pos < text.size() && n < max_digits && std::isdigit(static_cast<unsigned char>(text[*pos]))) {
    v = v * 10 + (text[*pos] - '0');
    ++*pos;
    ++n;
  }
  return n >= min_digits ? v : -1;
}

bool ParseDatePart(std::string_view t, size_t* pos, int64_t* days) {
  int64_t y = ParseNumber(t, pos, 1, 4);
  if (y < kMinYear || y > kMaxYear || *pos >= t.size() || t[*pos] != '-') return false;
  ++*pos;
  int64_t m = ParseNumber(t, pos, 1, 2);
  if (m < 0 || *pos >= t.size() || t[*pos] != '-') return false;
  ++*pos;
  int64_t d = ParseNumber(t, pos, 1, 2);
  if (d < 0) return false;
  if (!IsValidDate(y, static_cast<int>(m), static_cast<int>(d))) return false;
  *days = DaysFromCivil(y, static_cast<int>(m), static_cast<int>(d));
  return true;
}

bool ParseTimePart(std::string_view t, size_t* pos, int64_t* micros) {
  int64_t h = ParseNumber(t, pos, 1, 2);
  if (h < 0 || h > 23 || *pos >= t.size() || t[*pos] != ':') return false;
  ++*pos;
  int64_t mi = ParseNumber(t, pos, 1, 2);
  if (mi < 0 || mi > 59) return false;
  int64_t s = 0;
  if (*pos < t.size() && t[*pos] == ':') {
    ++*pos;
    s = ParseNumber(t, pos, 1, 2);
    if (s < 0 || s > 59) return false;
  }
  int64_t frac = 0;
  if (*pos < t.size() && t[*pos] == '.') {
    ++*pos;
    int digits = 0;
    while (*pos < t.size() && std::isdigit(static_cast<unsigned char>(t[*pos]))) {
      if (digits < 6) frac = frac * 10 + (t[*pos] - '0');
      ++digits;
      ++*pos;
    }
    if (digits == 0) return false;
    for (int i = digits; i < 6; ++i) frac *= 10;
  }
  *micros = ((h * 60 + mi) * 60 + s) * kMicrosPerSecond + frac;
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

void AppendZeroPadded(int64_t v, int width, std::string* out) {
  char buf[24];
  const bool negative = v < 0;
  uint64_t u = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char* end = buf + sizeof(buf);
  char* p = end;
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  const int digits = static_cast<int>(end - p);
  if (negative) out->push_back('-');
  for (int i = digits + (negative ? 1 : 0); i < width; ++i) out->push_back('0');
  out->append(p, static_cast<size_t>(digits));
}

std::string FormatDate(int32_t days) {
  std::string out;
  AppendDate(days, &out);
  return out;
}

std::string FormatTime(int32_t millis, int precision) {
  std::string out;
  AppendClock(static_cast<int64_t>(millis) * kMicrosPerMilli, precision, &out);
  return out;
}

void AppendTimestamp(int64_t micros, int precision, std::string* out) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  AppendDate(days, out);
  out->push_back(' ');
  AppendClock(micros - days * kMicrosPerDay, precision, out);
}

std::string FormatTimestamp(int64_t micros, int precision) {
  std::string out;
  AppendTimestamp(micros, precision, &out);
  return out;
}

std::optional<int32_t> ParseDate(std::string_view text) {
  text = Trim(text);
  size_t pos = 0;
  int64_t days;
  if (!ParseDatePart(text, &pos, &days) || pos != text.size()) return std::nullopt;
  return static_cast<int32_t>(days);
}

std::optional<int32_t> ParseTime(std::string_view text) {
  text = Trim(text);
  size_t pos = 0;
  int64_t micros;
  if (!ParseTimePart(text, &pos, &micros) || pos != text.size()) return std::nullopt;
  return static_cast<int32_t>(micros / kMicrosPerMilli);
}

std::optional<int64_t> ParseTimestamp(std::string_view text, bool allow_iso) {
  text = Trim(text);
  size_t pos = 0;
  int64_t days;
  if (!ParseDatePart(text, &pos, &days)) return std::nullopt;
  int64_t micros = 0;
  if (pos < text.size()) {
    char sep = text[pos];
    if (sep != ' ' && !(allow_iso && sep == 'T')) return std::nullopt;
    ++pos;
    if (!ParseTimePart(text, &pos, &micros)) return std::nullopt;
    if (allow_iso && pos < text.size() && text[pos] == 'Z') ++pos;
  }
  if (pos != text.size()) return std::nullopt;
  return days * kMicrosPerDay + micros;
}

}  // namespace sluice
