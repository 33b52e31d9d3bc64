// The pattern functions with Flink's semantics: LIKE, SIMILAR TO and REGEXP_EXTRACT / REGEXP_REPLACE /
// REGEXP. Regular expressions are Java's, on PCRE2 (function/regex.h); constant patterns are compiled
// once at resolution and captured in the kernel.
#include <string>

#include "function/like.h"
#include "function/regex.h"
#include "function/string_kernels.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {


// SIMILAR TO: SQL regex (% and _ wildcards, | * + ? () [] as regex) matching the whole string.
std::string SimilarToRegex(std::string_view p) {
  std::string r;
  for (char ch : p) {
    switch (ch) {
      case '%': r += ".*"; break;
      case '_': r += "."; break;
      case '.': case '^': case '$': case '\\': r.push_back('\\'); r.push_back(ch); break;
      default: r.push_back(ch);
    }
  }
  return r;
}

// A regex compiled once when constant, otherwise again whenever the pattern text changes from row to
// row (one cache per kernel call).
class RegexHolder {
 public:
  // `whole_text`: SIMILAR TO (matches the entire text).
  RegexHolder(const std::string* constant, bool whole_text) : whole_text_(whole_text) {
    if (constant == nullptr) return;
    Result<std::shared_ptr<const Regex>> re = Regex::Compile(*constant, whole_text);
    if (re.ok()) {
      constant_ = *re;
    } else {
      error_ = re.status().message();
    }
  }
  bool ConstantOk() const { return error_.empty(); }
  const std::string& ConstantError() const { return error_; }
  const Regex* constant() const { return constant_.get(); }
  bool whole_text() const { return whole_text_; }

 private:
  bool whole_text_;
  std::shared_ptr<const Regex> constant_;
  std::string error_;
};

// Per kernel call: the regex of the last pattern from a column, and the match groups.
struct RegexScratch {
  // Null when the pattern is invalid (Flink returns NULL for an invalid pattern at runtime).
  const Regex* Get(const RegexHolder& h, std::string_view pattern) {
    if (h.constant() != nullptr) return h.constant();
    if (!cached || cached_text != pattern) {
      Result<std::shared_ptr<const Regex>> re = Regex::Compile(pattern, h.whole_text());
      cache = re.ok() ? *re : nullptr;
      cached_text.assign(pattern.data(), pattern.size());
      cached = true;
    }
    return cache.get();
  }
  bool cached = false;
  std::string cached_text;
  std::shared_ptr<const Regex> cache;
  MatchData match;
};

// Java's Matcher.replaceAll with a literal replacement (Flink quotes it with Matcher.quoteReplacement):
// every match from the left; after an empty match the next search starts one character further.
Status ReplaceAll(const Regex& re, std::string_view s, std::string_view replacement, MatchData* m, std::string* out) {
  out->clear();
  size_t from = 0, copied = 0;
  while (from <= s.size()) {
    ASSIGN_OR_RETURN(bool found, re.Find(s, from, m));
    if (!found) break;
    const size_t b = m->begin(0), e = m->end(0);
    out->append(s.substr(copied, b - copied));
    out->append(replacement);
    copied = e;
    from = e;
    if (e == b) {
      if (e == s.size()) break;
      size_t next = e;
      DecodeUtf8(s, &next);
      from = next;
    }
  }
  out->append(s.substr(copied));
  return Status::OK();
}

Status BadRegex(const std::string& fn, const RegexHolder& h, const std::string& pattern) {
  return Status::BindError("Invalid regular expression '" + pattern + "' in " + fn + ": " + h.ConstantError());
}

Result<FnPtr> ResolveLike(const CallInfo& c) {
  if (c.size() != 2 && c.size() != 3) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  if (c.size() == 3) {
    const std::string* esc = ConstantString(c, 2);
    if (esc != nullptr && Utf8Length(*esc) != 1) {
      return Status::BindError("Invalid escape character '" + *esc + "' in LIKE: it must be a single character");
    }
  }
  const bool has_escape = c.size() == 3;
  return MakeFunction(c.name, casts, LogicalType::Boolean().WithNullable(c.AnyNullable()),
                      ValueOut<uint8_t>([has_escape](const Vector* const* a, size_t i, uint8_t* r) {
                        int esc = -1;
                        if (has_escape) {
                          std::string_view e = Str(a, 2, i);
                          if (e.empty()) return false;
                          esc = static_cast<unsigned char>(e[0]);
                        }
                        *r = LikeMatch(Str(a, 0, i), Str(a, 1, i), esc) ? 1 : 0;
                        return true;
                      }));
}

Result<FnPtr> ResolveRegexpExtract(const CallInfo& c) {
  if (c.size() != 2 && c.size() != 3) return FnPtr();
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  const bool has_index = c.size() == 3;
  ScalarKernel kernel = [holder, has_index](EvalContext&, const Vector* const* args, size_t n, size_t rows,
                                           Vector* out) -> Status {
    RegexScratch scratch;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      const Regex* re = scratch.Get(*holder, args[1]->GetString(i));
      int idx = has_index ? args[2]->data<int32_t>()[i] : 0;
      if (re == nullptr || idx < 0 || idx > re->groups()) {
        out->SetNull(i, true);
        return Status::OK();
      }
      std::string_view s = args[0]->GetString(i);
      ASSIGN_OR_RETURN(bool found, re->Find(s, 0, &scratch.match));
      if (!found || scratch.match.begin(idx) == MatchData::kUnset) {
        out->SetNull(i, true);
        return Status::OK();
      }
      out->SetString(i, s.substr(scratch.match.begin(idx), scratch.match.end(idx) - scratch.match.begin(idx)));
      return Status::OK();
    });
  };
  if (has_index) return Simple(c, {AsString, AsString, AsInt}, LogicalType::String(), kernel, true);
  return Simple(c, {AsString, AsString}, LogicalType::String(), kernel, true);
}

Result<FnPtr> ResolveRegexpReplace(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  return Simple(c, {AsString, AsString, AsString}, LogicalType::String(),
                [holder](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  RegexScratch scratch;
                  std::string buf;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    const Regex* re = scratch.Get(*holder, args[1]->GetString(i));
                    if (re == nullptr) {
                      out->SetNull(i, true);
                      return Status::OK();
                    }
                    RETURN_IF_ERROR(ReplaceAll(*re, args[0]->GetString(i), args[2]->GetString(i), &scratch.match, &buf));
                    out->SetString(i, buf);
                    return Status::OK();
                  });
                });  // Flink types it NOT NULL over NOT NULL arguments, though an invalid pattern gives NULL
}

// REGEXP and SIMILAR TO: whether the regex finds a match (SIMILAR TO's matches only the whole text).
ScalarKernel MatchKernel(std::shared_ptr<RegexHolder> holder, bool similar) {
  return [holder, similar](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    RegexScratch scratch;
    std::string converted;
    uint8_t* od = out->data<uint8_t>();
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      std::string_view pattern = args[1]->GetString(i);
      if (similar) {
        converted = SimilarToRegex(pattern);
        pattern = converted;
      } else if (pattern.empty()) {
        od[i] = 0;  // Flink: an empty pattern matches nothing (FALSE)
        return Status::OK();
      }
      const Regex* re = scratch.Get(*holder, pattern);
      if (re == nullptr) {
        // REGEXP: an invalid pattern is FALSE (Flink); SIMILAR TO: NULL.
        if (similar) {
          out->SetNull(i, true);
        } else {
          od[i] = 0;
        }
        return Status::OK();
      }
      ASSIGN_OR_RETURN(bool found, re->Find(args[0]->GetString(i), 0, &scratch.match));
      od[i] = found ? 1 : 0;
      return Status::OK();
    });
  };
}

Result<FnPtr> ResolveRegexp(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  return Simple(c, {AsString, AsString}, LogicalType::Boolean(), MatchKernel(holder, false));
}

Result<FnPtr> ResolveSimilarTo(const CallInfo& c) {
  const std::string* pat = ConstantString(c, 1);
  std::string converted = pat ? SimilarToRegex(*pat) : "";
  auto holder = std::make_shared<RegexHolder>(pat ? &converted : nullptr, true);
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *pat);
  return Simple(c, {AsString, AsString}, LogicalType::Boolean(), MatchKernel(holder, true));
}

// REGEXP_COUNT / REGEXP_INSTR / REGEXP_SUBSTR (Flink 2): an invalid pattern gives NULL, never an error.
// `f(re, s, scratch, i)` computes row i from a valid pattern.
template <typename F>
ScalarKernel PatternKernel(std::shared_ptr<RegexHolder> holder, F f) {
  return [holder, f](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    RegexScratch scratch;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      const Regex* re = scratch.Get(*holder, args[1]->GetString(i));
      if (re == nullptr) {
        out->SetNull(i, true);
        return Status::OK();
      }
      return f(*re, args[0]->GetString(i), &scratch, i, out);
    });
  };
}

// The next search start after a match [b, e): Java's find() moves one character on after an empty match.
size_t NextFrom(std::string_view s, size_t b, size_t e) {
  if (e != b) return e;
  if (e >= s.size()) return s.size() + 1;
  size_t next = e;
  DecodeUtf8(s, &next);
  return next;
}

Result<FnPtr> ResolveRegexpCount(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  return Simple(c, {AsString, AsString}, LogicalType::Integer(),
                PatternKernel(holder, [](const Regex& re, std::string_view s, RegexScratch* sc, size_t i, Vector* out) -> Status {
                  int32_t n = 0;
                  for (size_t from = 0; from <= s.size();) {
                    ASSIGN_OR_RETURN(bool found, re.Find(s, from, &sc->match));
                    if (!found) break;
                    ++n;
                    from = NextFrom(s, sc->match.begin(0), sc->match.end(0));
                  }
                  out->data<int32_t>()[i] = n;
                  return Status::OK();
                }),
                true);
}

Result<FnPtr> ResolveRegexpInstr(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  return Simple(c, {AsString, AsString}, LogicalType::Integer(),
                PatternKernel(holder, [](const Regex& re, std::string_view s, RegexScratch* sc, size_t i, Vector* out) -> Status {
                  ASSIGN_OR_RETURN(bool found, re.Find(s, 0, &sc->match));
                  // 1-based character position of the match, 0 when there is none.
                  out->data<int32_t>()[i] = found ? static_cast<int32_t>(Utf8Length(s.substr(0, sc->match.begin(0)))) + 1 : 0;
                  return Status::OK();
                }),
                true);
}

Result<FnPtr> ResolveRegexpSubstr(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  return Simple(c, {AsString, AsString}, LogicalType::String(),
                PatternKernel(holder, [](const Regex& re, std::string_view s, RegexScratch* sc, size_t i, Vector* out) -> Status {
                  ASSIGN_OR_RETURN(bool found, re.Find(s, 0, &sc->match));
                  if (found) {
                    out->SetString(i, s.substr(sc->match.begin(0), sc->match.end(0) - sc->match.begin(0)));
                  } else {
                    out->SetNull(i, true);
                  }
                  return Status::OK();
                }),
                true);
}

// REGEXP_EXTRACT_ALL(s, regex[, group]): group `group` (default 1) of every match, an unmatched group
// as a NULL element; an empty array when nothing matches; NULL when the pattern is invalid or the group
// does not exist.
Result<FnPtr> ResolveRegexpExtractAll(const CallInfo& c) {
  if (c.size() != 2 && c.size() != 3) return FnPtr();
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1), false);
  const bool has_index = c.size() == 3;
  ScalarKernel kernel = [holder, has_index](EvalContext&, const Vector* const* args, size_t n, size_t rows,
                                           Vector* out) -> Status {
    RegexScratch scratch;
    Vector& child = out->child(0);
    ListEntry* entries = out->data<ListEntry>();
    bool nulls = PropagateNulls(args, n, rows, out);
    for (size_t i = 0; i < rows; ++i) {
      const uint32_t offset = static_cast<uint32_t>(child.size());
      entries[i] = ListEntry{offset, 0};
      if (nulls && out->IsNull(i)) continue;
      const Regex* re = scratch.Get(*holder, args[1]->GetString(i));
      int64_t idx = has_index ? args[2]->data<int64_t>()[i] : 1;
      if (re == nullptr || idx < 0 || idx > re->groups()) {
        out->SetNull(i, true);
        continue;
      }
      const int g = static_cast<int>(idx);
      std::string_view s = args[0]->GetString(i);
      for (size_t from = 0; from <= s.size();) {
        ASSIGN_OR_RETURN(bool found, re->Find(s, from, &scratch.match));
        if (!found) break;
        size_t at = child.size();
        child.Resize(at + 1);
        if (scratch.match.begin(g) == MatchData::kUnset) {
          child.SetNull(at, true);
        } else {
          child.SetString(at, s.substr(scratch.match.begin(g), scratch.match.end(g) - scratch.match.begin(g)));
        }
        from = NextFrom(s, scratch.match.begin(0), scratch.match.end(0));
      }
      entries[i].length = static_cast<uint32_t>(child.size()) - offset;
    }
    return Status::OK();
  };
  LogicalType ret = LogicalType::Array(LogicalType::String());
  if (has_index) return Simple(c, {AsString, AsString, AsBigInt}, ret, kernel, true);
  return Simple(c, {AsString, AsString}, ret, kernel, true);
}

}  // namespace

namespace string_internal {

void RegisterLikeFunctions(FunctionTable* t) {
  t->Add({"LIKE", {"<CHARACTER> LIKE <CHARACTER>", "<CHARACTER> LIKE <CHARACTER> ESCAPE <CHARACTER>"}, ResolveLike, false});
  t->Add({"SIMILAR TO", {"<CHARACTER> SIMILAR TO <CHARACTER>"}, ResolveSimilarTo, false});
}

void RegisterRegexpFunctions(FunctionTable* t) {
  t->Add({"REGEXP_EXTRACT", {"REGEXP_EXTRACT(<CHARACTER>, <CHARACTER>)", "REGEXP_EXTRACT(<CHARACTER>, <CHARACTER>, <INTEGER>)"},
          ResolveRegexpExtract});
  t->Add({"REGEXP_REPLACE", {"REGEXP_REPLACE(<CHARACTER>, <CHARACTER>, <CHARACTER>)"}, ResolveRegexpReplace});
  t->Add({"REGEXP", {"REGEXP(<CHARACTER>, <CHARACTER>)"}, ResolveRegexp});
  t->Add({"REGEXP_COUNT", {"REGEXP_COUNT(<CHARACTER>, <CHARACTER>)"}, ResolveRegexpCount});
  t->Add({"REGEXP_INSTR", {"REGEXP_INSTR(<CHARACTER>, <CHARACTER>)"}, ResolveRegexpInstr});
  t->Add({"REGEXP_SUBSTR", {"REGEXP_SUBSTR(<CHARACTER>, <CHARACTER>)"}, ResolveRegexpSubstr});
  t->Add({"REGEXP_EXTRACT_ALL", {"REGEXP_EXTRACT_ALL(<CHARACTER>, <CHARACTER>)", "REGEXP_EXTRACT_ALL(<CHARACTER>, <CHARACTER>, <INTEGER>)"},
          ResolveRegexpExtractAll});
}

}  // namespace string_internal

// SQL LIKE with % and _ (one code point) and an optional escape character; backtracking on the last %.
bool LikeMatch(std::string_view s, std::string_view p, int escape) {
  size_t si = 0, pi = 0;
  size_t star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (escape >= 0 && c == static_cast<char>(escape) && pi + 1 < p.size()) {
        if (s[si] == p[pi + 1]) {
          ++si;
          pi += 2;
          continue;
        }
      } else if (c == '%') {
        star_p = ++pi;
        star_s = si;
        continue;
      } else if (c == '_') {
        DecodeUtf8(s, &si);
        ++pi;
        continue;
      } else if (c == s[si]) {
        ++si;
        ++pi;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    pi = star_p;
    DecodeUtf8(s, &star_s);
    si = star_s;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

}  // namespace sluice::fn