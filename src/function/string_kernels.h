// The helpers the string function files share: UTF-8 code points, the kernel shapes of string
// functions and argument access (string_functions.cc, string_pattern_functions.cc, java_hash.cc).
// Private to them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "function/kernel_util.h"

namespace sluice::fn {
namespace string_internal {

using FnPtr = std::shared_ptr<ScalarFunction>;

// ---- UTF-8 helpers ----

// Byte offsets of every code point start, plus s.size() at the end.
inline void CodePointOffsets(std::string_view s, std::vector<size_t>* offs) {
  offs->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offs->push_back(i);
  }
  offs->push_back(s.size());
}

inline bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Decodes one code point at s[*i] (advancing *i); invalid bytes decode as themselves.
inline uint32_t DecodeUtf8(std::string_view s, size_t* i) {
  unsigned char c = static_cast<unsigned char>(s[*i]);
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  uint32_t cp = extra == 0 ? c : (c & (0x3F >> extra));
  ++*i;
  for (int k = 0; k < extra && *i < s.size(); ++k, ++*i) cp = (cp << 6) | (static_cast<unsigned char>(s[*i]) & 0x3F);
  return cp;
}

inline void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// ---- kernels ----

// Row i of a string function's result: what f builds into *buf, or NULL when f says so.
template <typename F>
void SetStringResult(const F& f, const Vector* const* args, size_t i, std::string* buf, Vector* out) {
  buf->clear();
  if (f(args, i, buf)) {
    out->SetString(i, *buf);
  } else {
    out->SetNull(i, true);
  }
}

// A kernel computing a string per valid row into `buf` with f(args, i, buf) -> bool (false = NULL).
template <typename F>
ScalarKernel StringOut(F f) {
  return [f](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    std::string buf;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      SetStringResult(f, args, i, &buf, out);
      return Status::OK();
    });
  };
}

// StringOut for a function whose result size its arguments control (REPEAT, LPAD, ...): size_of(args, i)
// gives the result's size in bytes (or a bound close to it) without building it, so a result beyond
// kMaxStringValueBytes fails naming `function` before any memory is spent on it.
template <typename S, typename F>
ScalarKernel StringOutBounded(std::string function, S size_of, F f) {
  return [function, size_of, f](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    std::string buf;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      RETURN_IF_ERROR(CheckStringResultSize(function, size_of(args, i)));
      SetStringResult(f, args, i, &buf, out);
      return Status::OK();
    });
  };
}

// A kernel computing a fixed-width value T per valid row with f(args, i, T*) -> bool (false = NULL).
template <typename T, typename F>
ScalarKernel ValueOut(F f) {
  return [f](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    T* od = out->data<T>();
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      if (!f(args, i, &od[i])) out->SetNull(i, true);
      return Status::OK();
    });
  };
}

inline std::string_view Str(const Vector* const* args, size_t a, size_t i) { return args[a]->GetString(i); }
inline int32_t Int(const Vector* const* args, size_t a, size_t i) { return args[a]->data<int32_t>()[i]; }

// The pattern functions (string_pattern_functions.cc), registered among the others in their place.
void RegisterLikeFunctions(FunctionTable* t);
void RegisterRegexpFunctions(FunctionTable* t);

}  // namespace string_internal
}  // namespace sluice::fn
