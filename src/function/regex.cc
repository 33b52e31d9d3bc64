#include "function/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cctype>

namespace sluice::fn {
namespace {

std::string ErrorText(int code) {
  PCRE2_UCHAR buf[256];
  int n = pcre2_get_error_message(code, buf, sizeof(buf));
  return n < 0 ? "PCRE2 error " + std::to_string(code) : std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

// Java's (?U) is UNICODE_CHARACTER_CLASS, PCRE2's "ungreedy": refused rather than read differently.
bool HasUngreedyFlag(std::string_view p) {
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (in_class) {
      in_class = p[i] != ']';
    } else if (p[i] == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // ']' first in a class is a member
    } else if (p[i] == '(' && i + 1 < p.size() && p[i + 1] == '?') {
      for (size_t j = i + 2; j < p.size() && (std::isalpha(static_cast<unsigned char>(p[j])) || p[j] == '-'); ++j) {
        if (p[j] == 'U') return true;
      }
    }
  }
  return false;
}

}  // namespace

MatchData::~MatchData() { pcre2_match_data_free(data_); }

void MatchData::Fit(int pairs) {
  if (data_ != nullptr && pairs_ >= pairs) return;
  pcre2_match_data_free(data_);
  data_ = pcre2_match_data_create(static_cast<uint32_t>(pairs), nullptr);
  pairs_ = pairs;
}

size_t MatchData::begin(int g) const {
  const PCRE2_SIZE v = pcre2_get_ovector_pointer(data_)[2 * g];
  return v == PCRE2_UNSET ? kUnset : static_cast<size_t>(v);
}

size_t MatchData::end(int g) const {
  const PCRE2_SIZE v = pcre2_get_ovector_pointer(data_)[2 * g + 1];
  return v == PCRE2_UNSET ? kUnset : static_cast<size_t>(v);
}

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern, bool whole_text) {
  if (HasUngreedyFlag(pattern)) {
    return Status::InvalidArgument("the flag (?U) (Java's UNICODE_CHARACTER_CLASS) is not supported");
  }
  pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
  pcre2_set_newline(cc, PCRE2_NEWLINE_ANY);
  uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  if (whole_text) options |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
  int error = 0;
  PCRE2_SIZE offset = 0;
  // An empty view may have no data pointer, which PCRE2 refuses even for length 0.
  const char* text = pattern.data() != nullptr ? pattern.data() : "";
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text), pattern.size(), options, &error, &offset, cc);
  pcre2_compile_context_free(cc);
  if (code == nullptr) {
    return Status::InvalidArgument(ErrorText(error) + " at offset " + std::to_string(offset));
  }
  // Without the JIT (an unsupported CPU) PCRE2 interprets the same program.
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  std::shared_ptr<Regex> re(new Regex());
  re->pattern_ = std::string(pattern);
  re->code_ = code;
  uint32_t groups = 0;
  pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
  re->groups_ = static_cast<int>(groups);
  return std::shared_ptr<const Regex>(std::move(re));
}

Regex::~Regex() { pcre2_code_free(code_); }

Result<bool> Regex::Find(std::string_view text, size_t from, MatchData* m) const {
  m->Fit(groups_ + 1);
  if (text.data() == nullptr) text = std::string_view("", 0);  // PCRE2 refuses a null subject
  int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), from, 0, m->data_, nullptr);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
    // The JIT's small default stack: the interpreter keeps its backtracking on the heap.
    rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), from, PCRE2_NO_JIT, m->data_,
                     nullptr);
  }
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  return Status::RuntimeError("Regular expression '" + pattern_ + "' could not be matched against a value of " +
                              std::to_string(text.size()) + " bytes: " + ErrorText(rc));
}

}  // namespace sluice::fn
