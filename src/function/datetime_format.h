// DateTimeFormat: Java-style date/time patterns ('yyyy-MM-dd HH:mm:ss.SSS') for DATE_FORMAT,
// TO_TIMESTAMP, TO_DATE, UNIX_TIMESTAMP and FROM_UNIXTIME (internal to function/).
//
// Supported letters: y (year; yy is two digits), M (month; MMM Jan, MMMM January), d (day of month),
// D (day of year), H (hour 0-23), h (hour 1-12), k (1-24), K (0-11), m, s, S (fraction of a second: as
// many digits as letters), a (AM/PM), E (EEE Mon, EEEE Monday), u (day of week 1=Monday), w (week of
// year), X/Z/x (zone offset, parse: "Z", "+08", "+0800", "+08:00"). Text in single quotes is literal
// ('' is a quote); other non-letters are literal. Patterns compile once; formatting and parsing are
// then allocation-free loops over the compiled tokens.
//
// Threading: immutable after Compile.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice::fn {

class DateTimeFormat {
 public:
  [[nodiscard]] static Result<DateTimeFormat> Compile(std::string_view pattern);

  // Appends the wall-clock time `local_micros` (microseconds since 1970-01-01 00:00:00).
  void Format(int64_t local_micros, std::string* out) const;
  // Parses the whole text. On success sets *local_micros (wall clock; fields not in the pattern are
  // 1970-01-01 00:00:00) and *offset_micros when the text carries a zone offset.
  bool Parse(std::string_view text, int64_t* local_micros, std::optional<int64_t>* offset_micros) const;

  const std::string& pattern() const { return pattern_; }
  // Format's text depends only on FloorDiv(local_micros, granularity_micros()): a day without a time
  // field, an hour, minute or second with those as the finest field, 1 with a fraction.
  int64_t granularity_micros() const { return granularity_micros_; }

 private:
  struct Token {
    char letter;  // 0 for literal text
    int count;
    std::string literal;
  };
  std::string pattern_;
  std::vector<Token> tokens_;
  int64_t granularity_micros_ = 1;
};

}  // namespace sluice::fn
