// Regex: the regular expressions of the SQL functions (REGEXP_EXTRACT, REGEXP_REPLACE, REGEXP,
// SIMILAR TO), in Java's syntax and with java.util.regex's matching (Flink evaluates them with it),
// on Debian's PCRE2 with its JIT compiler. PCRE2 is a backtracking engine like Java's: the leftmost
// match, alternatives and lazy quantifiers tried in order, look-around, back-references, possessive
// quantifiers and atomic groups as in Java. The syntax differences that remain are listed in
// docs/sql.md (Regular expressions).
//
// Options fixed for Java's defaults: UTF-8 text (invalid UTF-8 is matched as bytes that match no
// character, never an error), `$` also before a final line terminator, line terminators \n, \r, \r\n,
// \u0085, \u2028, \u2029 (and \v, \f: PCRE2's "any" newline). Backtracking is bounded by PCRE2's
// default match limit: a pattern that would backtrack without end (where Java would run for ever or
// overflow its stack) fails the row with an error naming the pattern.
//
// Threading: a compiled Regex is immutable and may be shared; a MatchData belongs to one thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

namespace sluice::fn {

class Regex;

// The groups of the last match (reused across matches).
class MatchData {
 public:
  MatchData() = default;
  ~MatchData();
  MatchData(const MatchData&) = delete;
  MatchData& operator=(const MatchData&) = delete;

  static constexpr size_t kUnset = static_cast<size_t>(-1);
  // Group g's [begin, end) in the text (group 0: the whole match); begin is kUnset when the group did
  // not take part.
  size_t begin(int g) const;
  size_t end(int g) const;

 private:
  friend class Regex;
  void Fit(int pairs);
  pcre2_real_match_data_8* data_ = nullptr;
  int pairs_ = 0;
};

class Regex {
 public:
  // Compiles a pattern; `whole_text`: matches only the entire text (SIMILAR TO). An invalid pattern
  // gives PCRE2's reason and the offset it refers to.
  static Result<std::shared_ptr<const Regex>> Compile(std::string_view pattern, bool whole_text = false);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  const std::string& pattern() const { return pattern_; }
  // The number of capturing groups (group 0 not counted).
  int groups() const { return groups_; }

  // Java's Matcher.find(from): the leftmost match starting at or after byte `from`, the text before
  // it being context for ^, \b and look-behind. False when there is none.
  Result<bool> Find(std::string_view text, size_t from, MatchData* m) const;

 private:
  Regex() = default;
  std::string pattern_;
  pcre2_real_code_8* code_ = nullptr;
  int groups_ = 0;
};

}  // namespace sluice::fn
