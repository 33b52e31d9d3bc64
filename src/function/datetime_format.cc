#include "function/datetime_format.h"

#include <algorithm>
#include <cctype>

#include "common/time_util.h"

namespace sluice::fn {

namespace {

const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};
const char* const kDays[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

bool IsPatternLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

bool Supported(char c) {
  switch (c) {
    case 'y': case 'Y': case 'M': case 'L': case 'd': case 'D': case 'H': case 'h': case 'k': case 'K':
    case 'm': case 's': case 'S': case 'a': case 'E': case 'u': case 'w': case 'X': case 'Z': case 'x':
      return true;
    default: return false;
  }
}

// A field of `width` digits; a negative value's sign comes before them (Java's SignStyle.NORMAL).
void AppendPadded(int64_t v, int width, std::string* out) {
  if (v < 0) {
    out->push_back('-');
    v = -v;
  }
  AppendZeroPadded(v, width, out);
}

// ISO-8601 day of week, 1 = Monday .. 7 = Sunday.
int IsoDayOfWeek(int64_t days) { return static_cast<int>(FloorMod(days + 3, 7)) + 1; }

// ISO week of year.
int IsoWeek(int64_t days) {
  CivilDate d = CivilFromDays(days);
  int64_t doy = days - DaysFromCivil(d.year, 1, 1) + 1;
  int dow = IsoDayOfWeek(days);
  int64_t week = (doy - dow + 10) / 7;
  if (week < 1) {
    // Last week of the previous year.
    return IsoWeek(DaysFromCivil(d.year - 1, 12, 31));
  }
  if (week == 53) {
    int jan1_next = IsoDayOfWeek(DaysFromCivil(d.year + 1, 1, 1));
    if (jan1_next <= 4) return 1;
  }
  return static_cast<int>(week);
}

}  // namespace

Result<DateTimeFormat> DateTimeFormat::Compile(std::string_view pattern) {
  DateTimeFormat f;
  f.pattern_ = std::string(pattern);
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\'') {
      std::string lit;
      ++i;
      if (i < pattern.size() && pattern[i] == '\'') {
        lit = "'";
        ++i;
      } else {
        while (i < pattern.size()) {
          if (pattern[i] == '\'') {
            if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
              lit.push_back('\'');
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          lit.push_back(pattern[i++]);
        }
      }
      f.tokens_.push_back({0, 0, lit});
      continue;
    }
    if (IsPatternLetter(c)) {
      if (!Supported(c)) {
        return Status::InvalidArgument("Unsupported pattern letter '" + std::string(1, c) + "' in date format '" +
                                       std::string(pattern) + "'");
      }
      size_t j = i;
      while (j < pattern.size() && pattern[j] == c) ++j;
      f.tokens_.push_back({c, static_cast<int>(j - i), ""});
      i = j;
      continue;
    }
    if (!f.tokens_.empty() && f.tokens_.back().letter == 0) {
      f.tokens_.back().literal.push_back(c);
    } else {
      f.tokens_.push_back({0, 0, std::string(1, c)});
    }
    ++i;
  }
  f.granularity_micros_ = kMicrosPerDay;
  for (const Token& t : f.tokens_) {
    int64_t g = kMicrosPerDay;
    switch (t.letter) {
      case 'H': case 'h': case 'k': case 'K': case 'a': g = kMicrosPerHour; break;
      case 'm': g = kMicrosPerMinute; break;
      case 's': g = kMicrosPerSecond; break;
      case 'S': g = 1; break;
      default: break;  // literals, zone offsets (constant) and the date's fields
    }
    f.granularity_micros_ = std::min(f.granularity_micros_, g);
  }
  return f;
}

void DateTimeFormat::Format(int64_t local_micros, std::string* out) const {
  int64_t days = FloorDiv(local_micros, kMicrosPerDay);
  int64_t tod = local_micros - days * kMicrosPerDay;
  CivilDate d = CivilFromDays(days);
  int hour = static_cast<int>(tod / kMicrosPerHour);
  int minute = static_cast<int>(tod / kMicrosPerMinute % 60);
  int second = static_cast<int>(tod / kMicrosPerSecond % 60);
  int64_t frac = tod % kMicrosPerSecond;
  for (const Token& t : tokens_) {
    switch (t.letter) {
      case 0: out->append(t.literal); break;
      case 'y':
      case 'Y':
        if (t.count == 2) {
          AppendPadded(FloorMod(d.year, 100), 2, out);
        } else {
          AppendPadded(d.year, t.count, out);
        }
        break;
      case 'M':
      case 'L':
        if (t.count >= 4) {
          out->append(kMonths[d.month - 1]);
        } else if (t.count == 3) {
          out->append(std::string(kMonths[d.month - 1]).substr(0, 3));
        } else {
          AppendPadded(d.month, t.count, out);
        }
        break;
      case 'd': AppendPadded(d.day, t.count, out); break;
      case 'D': AppendPadded(days - DaysFromCivil(d.year, 1, 1) + 1, t.count, out); break;
      case 'H': AppendPadded(hour, t.count, out); break;
      case 'k': AppendPadded(hour == 0 ? 24 : hour, t.count, out); break;
      case 'K': AppendPadded(hour % 12, t.count, out); break;
      case 'h': AppendPadded(hour % 12 == 0 ? 12 : hour % 12, t.count, out); break;
      case 'm': AppendPadded(minute, t.count, out); break;
      case 's': AppendPadded(second, t.count, out); break;
      case 'S': {
        // The first `count` digits of the fraction (micros padded to 6, then zeros).
        std::string digits = std::to_string(frac);
        digits.insert(0, 6 - digits.size(), '0');
        if (t.count <= 6) {
          out->append(digits, 0, static_cast<size_t>(t.count));
        } else {
          out->append(digits);
          out->append(static_cast<size_t>(t.count - 6), '0');
        }
        break;
      }
      case 'a': out->append(hour < 12 ? "AM" : "PM"); break;
      case 'E': {
        std::string name = kDays[IsoDayOfWeek(days) - 1];
        out->append(t.count >= 4 ? name : name.substr(0, 3));
        break;
      }
      case 'u': AppendPadded(IsoDayOfWeek(days), t.count, out); break;
      case 'w': AppendPadded(IsoWeek(days), t.count, out); break;
      case 'X':
      case 'x': out->append(t.letter == 'X' ? "Z" : "+00"); break;
      case 'Z': out->append("+0000"); break;
      default: break;
    }
  }
}

namespace {

// The fields a parse has read so far: 1970-01-01 00:00:00 for those not in the pattern.
struct ParsedFields {
  int64_t year = 1970;
  int month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int64_t micros = 0;
  int64_t doy = -1;
  int pm = -1;
  bool twelve_hour = false;
};

// The unread part of the text being parsed.
struct ParseCursor {
  std::string_view text;
  size_t pos = 0;

  bool AtDigit() const { return pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); }
  // One to `limit` digits.
  bool ReadNumber(int limit, int64_t* v) {
    size_t start = pos;
    *v = 0;
    while (AtDigit() && static_cast<int>(pos - start) < limit) {
      *v = *v * 10 + (text[pos] - '0');
      ++pos;
    }
    return pos > start;
  }
  // The index of the first of `n` names (cut to 3 letters when `abbreviate`) the text continues
  // with, or -1.
  int ReadName(const char* const* names, int n, bool abbreviate) {
    for (int i = 0; i < n; ++i) {
      std::string name = names[i];
      if (abbreviate) name = name.substr(0, 3);
      if (text.substr(pos, name.size()) == name) {
        pos += name.size();
        return i;
      }
    }
    return -1;
  }
  // Fraction-of-second digits (one to `limit`, the first 6 kept) as microseconds.
  bool ReadFraction(int limit, int64_t* micros) {
    size_t start = pos;
    int64_t f = 0;
    int digits = 0;
    while (AtDigit() && digits < limit) {
      if (digits < 6) f = f * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (pos == start) return false;
    for (int k = digits; k < 6; ++k) f *= 10;
    *micros = f;
    return true;
  }
  // A zone offset: Z, or +HH[[:]MM] / -HH[[:]MM].
  bool ReadOffset(std::optional<int64_t>* offset_micros) {
    if (pos < text.size() && text[pos] == 'Z') {
      ++pos;
      *offset_micros = 0;
      return true;
    }
    if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return false;
    int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t hh = 0, mm = 0;
    int digits = 0;
    while (AtDigit() && digits < 2) {
      hh = hh * 10 + (text[pos++] - '0');
      ++digits;
    }
    if (digits != 2) return false;
    if (pos < text.size() && text[pos] == ':') ++pos;
    digits = 0;
    while (AtDigit() && digits < 2) {
      mm = mm * 10 + (text[pos++] - '0');
      ++digits;
    }
    *offset_micros = sign * (hh * kMicrosPerHour + mm * kMicrosPerMinute);
    return true;
  }
};

// Reads the field of pattern letter `letter` repeated `count` times into `f`. Numeric fields take
// exactly `count` digits when `adjacent` (the next token is numeric too, no separator), otherwise
// one or more.
bool ReadField(char letter, int count, bool adjacent, ParseCursor& in, ParsedFields* f,
               std::optional<int64_t>* offset_micros) {
  auto read_number = [&](int max_digits, int64_t* v) { return in.ReadNumber(adjacent ? max_digits : 18, v); };
  int64_t v = 0;
  switch (letter) {
    case 'y':
    case 'Y': {
      bool neg = in.pos < in.text.size() && in.text[in.pos] == '-' && count != 2;
      if (neg) ++in.pos;
      size_t start = in.pos;
      if (!read_number(count == 2 ? 2 : std::max(count, 4), &v)) return false;
      if (count == 2 && in.pos - start == 2) v += 2000;  // java.time's base year 2000 for "yy"
      f->year = neg ? -v : v;
      return true;
    }
    case 'M':
    case 'L':
      if (count >= 3) {
        const int m = in.ReadName(kMonths, 12, count == 3);
        if (m < 0) return false;
        f->month = m + 1;
      } else {
        if (!read_number(2, &v)) return false;
        f->month = static_cast<int>(v);
      }
      return true;
    case 'd':
      if (!read_number(2, &v)) return false;
      f->day = static_cast<int>(v);
      return true;
    case 'D':
      if (!read_number(3, &v)) return false;
      f->doy = v;
      return true;
    case 'H':
    case 'k':
    case 'K':
    case 'h':
      if (!read_number(2, &v)) return false;
      f->hour = static_cast<int>(v);
      if (letter == 'k' && f->hour == 24) f->hour = 0;
      f->twelve_hour = letter == 'h' || letter == 'K';
      if (letter == 'h' && f->hour == 12) f->hour = 0;
      return true;
    case 'm':
      if (!read_number(2, &v)) return false;
      f->minute = static_cast<int>(v);
      return true;
    case 's':
      if (!read_number(2, &v)) return false;
      f->second = static_cast<int>(v);
      return true;
    case 'S': return in.ReadFraction(adjacent ? count : 9, &f->micros);
    case 'a': {
      const std::string_view ampm = in.text.substr(in.pos, 2);
      if (ampm == "AM" || ampm == "am") {
        f->pm = 0;
      } else if (ampm == "PM" || ampm == "pm") {
        f->pm = 1;
      } else {
        return false;
      }
      in.pos += 2;
      return true;
    }
    case 'E': return in.ReadName(kDays, 7, count < 4) >= 0;
    case 'u':
    case 'w': return read_number(2, &v);
    case 'X':
    case 'x':
    case 'Z': return in.ReadOffset(offset_micros);
    default: return false;
  }
}

// The wall-clock time of the fields read, or false when they name no valid time.
bool ToLocalMicros(ParsedFields f, int64_t* local_micros) {
  if (f.twelve_hour && f.pm == 1) f.hour += 12;
  if (f.hour > 23 || f.minute > 59 || f.second > 59) return false;
  int64_t days;
  if (f.doy >= 0) {
    days = DaysFromCivil(f.year, 1, 1) + f.doy - 1;
  } else {
    if (!IsValidDate(f.year, f.month, f.day)) return false;
    days = DaysFromCivil(f.year, f.month, f.day);
  }
  *local_micros = days * kMicrosPerDay + ((f.hour * 60 + f.minute) * 60 + f.second) * kMicrosPerSecond + f.micros;
  return true;
}

}  // namespace

bool DateTimeFormat::Parse(std::string_view text, int64_t* local_micros, std::optional<int64_t>* offset_micros) const {
  ParsedFields f;
  ParseCursor in{text};
  offset_micros->reset();
  for (size_t ti = 0; ti < tokens_.size(); ++ti) {
    const Token& t = tokens_[ti];
    if (t.letter == 0) {
      if (text.substr(in.pos, t.literal.size()) != t.literal) return false;
      in.pos += t.literal.size();
      continue;
    }
    const bool adjacent = ti + 1 < tokens_.size() && tokens_[ti + 1].letter != 0 && tokens_[ti + 1].letter != 'a';
    if (!ReadField(t.letter, t.count, adjacent, in, &f, offset_micros)) return false;
  }
  if (in.pos != text.size()) return false;
  return ToLocalMicros(f, local_micros);
}

}  // namespace sluice::fn
