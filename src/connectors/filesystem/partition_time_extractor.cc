#include "connectors/filesystem/partition_time_extractor.h"

#include <cctype>

#include "common/time_util.h"

namespace sluice {

namespace {

// The fields of a local date-time as parsed; -1 where the text had none.
struct Fields {
  int64_t year = -1;
  int64_t month = -1;
  int64_t day = -1;
  int64_t hour = -1;
  int64_t minute = -1;
  int64_t second = -1;
  int64_t nanos = 0;
};

// Reads `min`..`max` digits at text[*pos]; false when fewer than `min`.
bool ReadDigits(const std::string& text, size_t* pos, int min, int max, int64_t* out) {
  int64_t v = 0;
  int n = 0;
  while (*pos < text.size() && n < max && std::isdigit(static_cast<unsigned char>(text[*pos]))) {
    v = v * 10 + (text[*pos] - '0');
    ++*pos;
    ++n;
  }
  *out = v;
  return n >= min;
}

bool ReadLiteral(const std::string& text, size_t* pos, const std::string& literal) {
  if (text.compare(*pos, literal.size(), literal) != 0) return false;
  *pos += literal.size();
  return true;
}

// The lenient default: yyyy-M-d, optionally followed by ' H:m:s' and a fraction of 1 to 9 digits.
bool ParseDefault(const std::string& text, Fields* f) {
  size_t pos = 0;
  if (!ReadDigits(text, &pos, 1, 10, &f->year) || !ReadLiteral(text, &pos, "-") ||
      !ReadDigits(text, &pos, 1, 2, &f->month) || !ReadLiteral(text, &pos, "-") ||
      !ReadDigits(text, &pos, 1, 2, &f->day)) {
    return false;
  }
  if (pos == text.size()) return true;
  if (!ReadLiteral(text, &pos, " ") || !ReadDigits(text, &pos, 1, 2, &f->hour) || !ReadLiteral(text, &pos, ":") ||
      !ReadDigits(text, &pos, 1, 2, &f->minute) || !ReadLiteral(text, &pos, ":") ||
      !ReadDigits(text, &pos, 1, 2, &f->second)) {
    return false;
  }
  if (pos == text.size()) return true;
  const size_t start = pos + 1;
  int64_t fraction = 0;
  if (!ReadLiteral(text, &pos, ".") || !ReadDigits(text, &pos, 1, 9, &fraction) || pos != text.size()) return false;
  for (size_t digits = pos - start; digits < 9; ++digits) fraction *= 10;
  f->nanos = fraction;
  return true;
}

}  // namespace

Result<PartitionTimeExtractor> PartitionTimeExtractor::Make(const OptionReader& options) {
  PartitionTimeExtractor e;
  const std::string kind = options.GetString(kKind, "default");
  if (kind == "custom") {
    return options.InvalidValue(kKind, "'custom' loads a Java class ('" + std::string(kClass) +
                                           "'), which Sluice cannot run; use 'default' with '" + kTimestampPattern +
                                           "' and '" + kTimestampFormatter + "'");
  }
  if (kind != "default") return options.InvalidValue(kKind, "Unsupported extractor kind: " + kind);
  e.pattern_ = options.GetString(kTimestampPattern, "");
  e.formatter_text_ = options.GetString(kTimestampFormatter, "");
  const std::string& f = e.formatter_text_;
  for (size_t i = 0; i < f.size();) {
    const char c = f[i];
    if (c == '\'') {
      // A quoted literal; '' is one quote.
      Piece piece;
      size_t j = i + 1;
      while (j < f.size()) {
        if (f[j] == '\'') {
          if (j + 1 < f.size() && f[j + 1] == '\'') {
            piece.literal.push_back('\'');
            j += 2;
            continue;
          }
          break;
        }
        piece.literal.push_back(f[j++]);
      }
      if (j >= f.size()) return options.InvalidValue(kTimestampFormatter, "unterminated quote in '" + f + "'");
      if (j == i + 1) piece.literal = "'";
      e.formatter_.push_back(std::move(piece));
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      if (std::string_view("yMdHmsS").find(c) == std::string_view::npos) {
        return options.InvalidValue(kTimestampFormatter, std::string("the pattern letter '") + c + "' in '" + f +
                                                             "' is not supported (Sluice reads y M d H m s S)");
      }
      Piece piece;
      piece.letter = c;
      while (i < f.size() && f[i] == c) {
        ++piece.width;
        ++i;
      }
      e.formatter_.push_back(std::move(piece));
      continue;
    }
    Piece piece;
    piece.literal.push_back(c);
    e.formatter_.push_back(std::move(piece));
    ++i;
  }
  return e;
}

Result<int64_t> PartitionTimeExtractor::ExtractMicros(const std::vector<std::string>& keys,
                                                      const std::vector<std::string>& values) const {
  std::string text;
  if (pattern_.empty()) {
    text = values.empty() ? std::string() : values[0];
  } else {
    text = pattern_;
    for (size_t k = 0; k < keys.size() && k < values.size(); ++k) {
      const std::string token = "$" + keys[k];
      std::string replaced;
      for (size_t pos = 0;;) {
        const size_t hit = text.find(token, pos);
        replaced.append(text, pos, hit == std::string::npos ? std::string::npos : hit - pos);
        if (hit == std::string::npos) break;
        replaced.append(values[k]);
        pos = hit + token.size();
      }
      text = std::move(replaced);
    }
  }
  Fields f;
  bool ok = true;
  if (formatter_text_.empty()) {
    ok = ParseDefault(text, &f);
  } else {
    size_t pos = 0;
    for (const Piece& p : formatter_) {
      if (p.letter == 0) {
        ok = ReadLiteral(text, &pos, p.literal);
      } else {
        const int min = p.width;
        const int max = p.width >= 2 ? p.width : (p.letter == 'y' ? 9 : 2);
        int64_t v = 0;
        ok = ReadDigits(text, &pos, min, max, &v);
        switch (p.letter) {
          case 'y': f.year = p.width == 2 ? 2000 + v : v; break;
          case 'M': f.month = v; break;
          case 'd': f.day = v; break;
          case 'H': f.hour = v; break;
          case 'm': f.minute = v; break;
          case 's': f.second = v; break;
          default: {
            int64_t nanos = v;
            for (int d = p.width; d < 9; ++d) nanos *= 10;
            f.nanos = nanos;
          }
        }
      }
      if (!ok) break;
    }
    ok = ok && pos == text.size() && f.year >= 0 && f.month >= 0 && f.day >= 0;
  }
  if (f.hour < 0) f.hour = f.minute = f.second = 0;  // a date alone: midnight
  if (f.minute < 0) f.minute = 0;
  if (f.second < 0) f.second = 0;
  ok = ok && f.month >= 1 && f.month <= 12 && f.day >= 1 && IsValidDate(f.year, static_cast<int>(f.month),
                                                                          static_cast<int>(f.day)) &&
       f.hour <= 23 && f.minute <= 59 && f.second <= 59;
  if (!ok) {
    return Status::InvalidArgument("Cannot extract the partition time of partition values [" +
                                   [&] {
                                     std::string s;
                                     for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i];
                                     return s;
                                   }() +
                                   "]: '" + text + "' does not match " +
                                   (formatter_text_.empty() ? std::string("'yyyy-MM-dd[ HH:mm:ss]'")
                                                            : "'" + formatter_text_ + "'") +
                                   " (see '" + kTimestampPattern + "' and '" + kTimestampFormatter + "')");
  }
  const int64_t days = DaysFromCivil(f.year, static_cast<int>(f.month), static_cast<int>(f.day));
  return ((days * 24 + f.hour) * 60 + f.minute) * 60 * 1000000 + f.second * 1000000 + f.nanos / 1000;
}

}  // namespace sluice
