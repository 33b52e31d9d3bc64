// The pattern functions with Flink's semantics: LIKE, SIMILAR TO and REGEXP_EXTRACT / REGEXP_REPLACE /
// REGEXP. Regular expressions use RE2 (Java-compatible for the common syntax); constant patterns are
// compiled once at resolution and captured in the kernel.
#include <re2/re2.h>

#include <string>

#include "function/like.h"
#include "function/string_kernels.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {


// Flink quotes the replacement (Matcher.quoteReplacement): it is literal text, so RE2's escape
// character must be escaped.
std::string LiteralReplacement(std::string_view r) {
  std::string out;
  for (char c : r) {
    if (c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// A regex compiled once when constant, otherwise per distinct pattern text of a batch.
class RegexHolder {
 public:
  explicit RegexHolder(const std::string* constant) {
    if (constant != nullptr) constant_ = std::make_shared<RE2>(*constant, Options());
  }
  bool ConstantOk() const { return constant_ == nullptr || constant_->ok(); }
  std::string ConstantError() const { return constant_ ? constant_->error() : ""; }
  // Null when the pattern is invalid (Flink returns NULL for an invalid pattern at runtime).
  const RE2* Get(std::string_view pattern, std::shared_ptr<RE2>* cache) const {
    if (constant_) return constant_.get();
    if (!*cache || (*cache)->pattern() != pattern) *cache = std::make_shared<RE2>(pattern, Options());
    return (*cache)->ok() ? cache->get() : nullptr;
  }

 private:
  static RE2::Options Options() {
    RE2::Options o;
    o.set_log_errors(false);
    return o;
  }
  std::shared_ptr<RE2> constant_;
};

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
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1));
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  const bool has_index = c.size() == 3;
  ScalarKernel kernel = [holder, has_index](EvalContext&, const Vector* const* args, size_t n, size_t rows,
                                           Vector* out) -> Status {
    std::shared_ptr<RE2> cache;
    std::vector<re2::StringPiece> groups;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      const RE2* re = holder->Get(args[1]->GetString(i), &cache);
      int idx = has_index ? args[2]->data<int32_t>()[i] : 0;
      if (re == nullptr || idx < 0 || idx > re->NumberOfCapturingGroups()) {
        out->SetNull(i, true);
        return Status::OK();
      }
      std::string_view s = args[0]->GetString(i);
      groups.assign(static_cast<size_t>(idx) + 1, re2::StringPiece());
      if (!re->Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::UNANCHORED, groups.data(),
                     idx + 1) ||
          groups[static_cast<size_t>(idx)].data() == nullptr) {
        out->SetNull(i, true);
        return Status::OK();
      }
      const auto& g = groups[static_cast<size_t>(idx)];
      out->SetString(i, std::string_view(g.data(), g.size()));
      return Status::OK();
    });
  };
  if (has_index) return Simple(c, {AsString, AsString, AsInt}, LogicalType::String(), kernel, true);
  return Simple(c, {AsString, AsString}, LogicalType::String(), kernel, true);
}

Result<FnPtr> ResolveRegexpReplace(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1));
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  return Simple(c, {AsString, AsString, AsString}, LogicalType::String(),
                [holder](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  std::shared_ptr<RE2> cache;
                  std::string buf;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    const RE2* re = holder->Get(args[1]->GetString(i), &cache);
                    if (re == nullptr) {
                      out->SetNull(i, true);
                      return Status::OK();
                    }
                    buf.assign(args[0]->GetString(i));
                    RE2::GlobalReplace(&buf, *re, LiteralReplacement(args[2]->GetString(i)));
                    out->SetString(i, buf);
                    return Status::OK();
                  });
                },
                true);
}

Result<FnPtr> ResolveRegexp(const CallInfo& c) {
  auto holder = std::make_shared<RegexHolder>(ConstantString(c, 1));
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *ConstantString(c, 1));
  return Simple(c, {AsString, AsString}, LogicalType::Boolean(),
                [holder](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  std::shared_ptr<RE2> cache;
                  uint8_t* od = out->data<uint8_t>();
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    // Flink: an empty or invalid pattern matches nothing (FALSE).
                    const RE2* re = args[1]->GetString(i).empty() ? nullptr : holder->Get(args[1]->GetString(i), &cache);
                    if (re == nullptr) {
                      od[i] = 0;
                      return Status::OK();
                    }
                    std::string_view s = args[0]->GetString(i);
                    od[i] = RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re) ? 1 : 0;
                    return Status::OK();
                  });
                },
                true);
}

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

Result<FnPtr> ResolveSimilarTo(const CallInfo& c) {
  const std::string* pat = ConstantString(c, 1);
  std::string converted = pat ? SimilarToRegex(*pat) : "";
  auto holder = std::make_shared<RegexHolder>(pat ? &converted : nullptr);
  if (!holder->ConstantOk()) return BadRegex(c.name, *holder, *pat);
  return Simple(c, {AsString, AsString}, LogicalType::Boolean(),
                [holder](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  std::shared_ptr<RE2> cache;
                  uint8_t* od = out->data<uint8_t>();
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    const RE2* re = holder->Get(SimilarToRegex(args[1]->GetString(i)), &cache);
                    if (re == nullptr) {
                      out->SetNull(i, true);
                      return Status::OK();
                    }
                    std::string_view s = args[0]->GetString(i);
                    od[i] = RE2::FullMatch(re2::StringPiece(s.data(), s.size()), *re) ? 1 : 0;
                    return Status::OK();
                  });
                });
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