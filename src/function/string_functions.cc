// String functions with Flink's semantics (SqlFunctionUtils / BinaryStringDataUtil): character
// positions are 1-based code points, NULL in gives NULL out unless noted (CONCAT_WS skips NULLs).
// Regular expressions use RE2 (Java-compatible for the common syntax); constant patterns are compiled
// once at resolution and captured in the kernel.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <random>

#include "function/case_map.h"
#include "function/java_hash.h"
#include "function/kernel_util.h"
#include "function/string_kernels.h"
#include "types/value.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {


// Flink's substringSQL: pos > 0 from the start (1-based), pos < 0 from the end, pos = 0 as 1; a negative
// length gives NULL.
bool Substring(std::string_view s, int64_t pos, int64_t len, std::string* out) {
  if (len < 0) return false;
  std::vector<size_t> offs;
  CodePointOffsets(s, &offs);
  int64_t n = static_cast<int64_t>(offs.size()) - 1;
  int64_t start;
  if (pos > 0) {
    start = pos - 1;
    if (start >= n) return true;
  } else if (pos < 0) {
    start = n + pos;
    if (start < 0) return true;
  } else {
    start = 0;
  }
  int64_t end = (n - start) < len ? n : start + len;
  out->assign(s.substr(offs[static_cast<size_t>(start)], offs[static_cast<size_t>(end)] - offs[static_cast<size_t>(start)]));
  return true;
}

// LEFT(s, n) / RIGHT(s, n): the first or last n code points of s; "" when n <= 0, all of s when n
// exceeds its length (Flink's documented behaviour).
bool LeftRight(std::string_view s, int64_t n, bool left, std::string* out) {
  if (n <= 0) {
    out->clear();
    return true;
  }
  std::vector<size_t> offs;
  CodePointOffsets(s, &offs);
  const int64_t len = static_cast<int64_t>(offs.size()) - 1;
  if (n >= len) {
    out->assign(s);
    return true;
  }
  const size_t cut = offs[static_cast<size_t>(left ? n : len - n)];
  out->assign(left ? s.substr(0, cut) : s.substr(cut));
  return true;
}

// Removes code points in `chars` from the start and/or end of `s`.
std::string_view TrimChars(std::string_view s, std::string_view chars, bool leading, bool trailing) {
  auto in_set = [&](uint32_t cp) {
    size_t k = 0;
    while (k < chars.size()) {
      if (DecodeUtf8(chars, &k) == cp) return true;
    }
    return false;
  };
  if (leading) {
    while (!s.empty()) {
      size_t k = 0;
      uint32_t cp = DecodeUtf8(s, &k);
      if (!in_set(cp)) break;
      s.remove_prefix(k);
    }
  }
  if (trailing) {
    while (!s.empty()) {
      size_t start = s.size() - 1;
      while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
      size_t k = start;
      uint32_t cp = DecodeUtf8(s, &k);
      if (!in_set(cp)) break;
      s.remove_suffix(s.size() - start);
    }
  }
  return s;
}

// Flink's lpad/rpad: NULL for a negative length or an empty pad; the result has exactly `len` characters
// (the base is truncated when longer).
bool Pad(std::string_view base, int64_t len, std::string_view pad, bool left, std::string* out) {
  if (len < 0 || pad.empty()) return false;
  std::vector<size_t> boffs, poffs;
  CodePointOffsets(base, &boffs);
  CodePointOffsets(pad, &poffs);
  int64_t blen = static_cast<int64_t>(boffs.size()) - 1;
  int64_t plen = static_cast<int64_t>(poffs.size()) - 1;
  int64_t npad = std::max<int64_t>(len - blen, 0);
  auto append_pad = [&] {
    for (int64_t k = 0; k < npad; ++k) {
      size_t j = static_cast<size_t>(k % plen);
      out->append(pad.substr(poffs[j], poffs[j + 1] - poffs[j]));
    }
  };
  int64_t keep = std::min(blen, len);
  if (left) append_pad();
  out->append(base.substr(0, boffs[static_cast<size_t>(keep)]));
  if (!left) append_pad();
  return true;
}

// A bound on Pad's result size in bytes: the kept base plus whole repetitions of `pad` (one more than
// needed at most).
uint64_t PadBytes(std::string_view base, int64_t len, std::string_view pad) {
  if (len < 0 || pad.empty()) return 0;
  int64_t blen = static_cast<int64_t>(Utf8Length(base));
  if (len <= blen) return base.size();
  uint64_t plen = Utf8Length(pad);
  uint64_t npad = static_cast<uint64_t>(len - blen);
  return base.size() + (npad + plen - 1) / plen * pad.size();
}

// REPLACE's result size in bytes: every non-overlapping occurrence of `from` becomes `to`.
uint64_t ReplaceBytes(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return s.size();
  uint64_t count = 0;
  for (size_t p = s.find(from); p != std::string_view::npos; p = s.find(from, p + from.size())) ++count;
  return s.size() - count * from.size() + count * to.size();
}

// 1-based code point position of `needle` in `s` at or after code point `from` (1-based), 0 if absent.
int32_t Locate(std::string_view needle, std::string_view s, int64_t from) {
  if (from < 1) return 0;
  std::vector<size_t> offs;
  CodePointOffsets(s, &offs);
  int64_t n = static_cast<int64_t>(offs.size()) - 1;
  if (from > n + 1) return 0;
  size_t start = offs[static_cast<size_t>(std::min(from - 1, n))];
  size_t p = s.find(needle, start);
  if (p == std::string_view::npos) return 0;
  return static_cast<int32_t>(std::lower_bound(offs.begin(), offs.end(), p) - offs.begin()) + 1;
}

uint32_t Md5Rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

std::string Md5Hex(std::string_view msg) {
  static const uint32_t k[64] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
      0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
      0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
      0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
      0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
      0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
      0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
      0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
  static const int r[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9,  14, 20, 5, 9,
                            14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                            4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  std::string m(msg);
  uint64_t bits = static_cast<uint64_t>(msg.size()) * 8;
  m.push_back(static_cast<char>(0x80));
  while (m.size() % 64 != 56) m.push_back('\0');
  for (int i = 0; i < 8; ++i) m.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  for (size_t off = 0; off < m.size(); off += 64) {
    uint32_t w[16];
    for (int i = 0; i < 16; ++i) {
      const unsigned char* p = reinterpret_cast<const unsigned char*>(m.data() + off + static_cast<size_t>(i) * 4);
      w[i] = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      uint32_t tmp = d;
      d = c;
      c = b;
      b = b + Md5Rotl(a + f + k[i] + w[g], r[i]);
      a = tmp;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint32_t v : h) {
    for (int i = 0; i < 4; ++i) {
      unsigned char byte = static_cast<unsigned char>((v >> (8 * i)) & 0xff);
      out.push_back(hex[byte >> 4]);
      out.push_back(hex[byte & 15]);
    }
  }
  return out;
}

const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void ToBase64(std::string_view s, std::string* out) {
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    uint32_t v = (static_cast<unsigned char>(s[i]) << 16) | (static_cast<unsigned char>(s[i + 1]) << 8) |
                 static_cast<unsigned char>(s[i + 2]);
    for (int k = 3; k >= 0; --k) out->push_back(kBase64[(v >> (6 * k)) & 63]);
  }
  if (i < s.size()) {
    uint32_t v = static_cast<unsigned char>(s[i]) << 16;
    if (i + 1 < s.size()) v |= static_cast<unsigned char>(s[i + 1]) << 8;
    out->push_back(kBase64[(v >> 18) & 63]);
    out->push_back(kBase64[(v >> 12) & 63]);
    out->push_back(i + 1 < s.size() ? kBase64[(v >> 6) & 63] : '=');
    out->push_back('=');
  }
}

bool FromBase64(std::string_view s, std::string* out) {
  uint32_t v = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    if (c == '\n' || c == '\r') continue;
    const char* p = std::strchr(kBase64, c);
    if (p == nullptr || c == '\0') return false;
    v = (v << 6) | static_cast<uint32_t>(p - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((v >> bits) & 0xff));
    }
  }
  return true;
}

// ---- resolvers ----

FnPtr CaseMap(const CallInfo& c, bool upper) {
  if (c.size() != 1) return nullptr;
  LogicalType t;
  if (!AsString(c.type(0), &t)) return nullptr;
  // Case mapping never fails (ScalarFunction::can_fail), so a repeated LOWER(x) may be shared and
  // evaluated over every row of a chunk (function/common_subexpr.h). Unicode letters as Java's
  // toUpperCase / toLowerCase (function/case_map.h).
  return NeverFails(MakeFunction(c.name, {t}, t, StringOut([upper](const Vector* const* a, size_t i, std::string* buf) {
                        buf->clear();
                        AppendCaseMapped(Str(a, 0, i), upper, buf);
                        return true;
                      })));
}

Result<FnPtr> ResolveTrim(const CallInfo& c) {
  // TRIM(s) | TRIM(mode, chars, s); LTRIM/RTRIM(s[, chars]).
  bool leading = true, trailing = true;
  size_t str_arg = 0;
  int chars_arg = -1;
  if (c.name == "TRIM") {
    if (c.size() == 3) {
      const std::string* mode = ConstantString(c, 0);
      if (mode == nullptr) return FnPtr();
      if (*mode == "LEADING") trailing = false;
      else if (*mode == "TRAILING") leading = false;
      else if (*mode != "BOTH") return Status::BindError("TRIM mode must be BOTH, LEADING or TRAILING, not " + *mode);
      chars_arg = 1;
      str_arg = 2;
    } else if (c.size() != 1) {
      return FnPtr();
    }
  } else if (c.name == "BTRIM") {
    if (c.size() == 2) {
      chars_arg = 1;
    } else if (c.size() != 1) {
      return FnPtr();
    }
  } else {
    leading = c.name == "LTRIM";
    trailing = !leading;
    if (c.size() == 2) {
      chars_arg = 1;
    } else if (c.size() != 1) {
      return FnPtr();
    }
  }
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  LogicalType ret = casts[str_arg].WithNullable(c.AnyNullable());
  if (ret.id() == TypeId::kChar) ret = LogicalType::VarChar(ret.length()).WithNullable(ret.nullable());
  if (c.name == "BTRIM") ret = LogicalType::String().WithNullable(ret.nullable());  // Flink 2's BTRIM: STRING
  return MakeFunction(c.name, casts, ret,
                      StringOut([=](const Vector* const* a, size_t i, std::string* buf) {
                        std::string_view chars = chars_arg >= 0 ? Str(a, static_cast<size_t>(chars_arg), i) : " ";
                        buf->assign(TrimChars(Str(a, str_arg, i), chars, leading, trailing));
                        return true;
                      }));
}

Result<FnPtr> ResolveSubstring(const CallInfo& c) {
  if (c.size() == 2) {
    return Simple(c, {AsString, AsInt}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                    return Substring(Str(a, 0, i), Int(a, 1, i), INT64_MAX, buf);
                  }), true);
  }
  return Simple(c, {AsString, AsInt, AsInt}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                  return Substring(Str(a, 0, i), Int(a, 1, i), Int(a, 2, i), buf);
                }), true);
}

ScalarKernel ConcatKernel(std::string name) {
  return [name](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    std::string buf;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      uint64_t bytes = 0;
      for (size_t k = 0; k < n; ++k) bytes += args[k]->GetString(i).size();
      RETURN_IF_ERROR(CheckStringResultSize(name, bytes));
      buf.clear();
      for (size_t k = 0; k < n; ++k) buf.append(args[k]->GetString(i));
      out->SetString(i, buf);
      return Status::OK();
    });
  };
}

Result<FnPtr> ResolveConcat(const CallInfo& c) {
  if (c.size() < 1) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  int64_t len = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
    len += casts[i].length();
  }
  LogicalType ret = LogicalType::VarChar(static_cast<int32_t>(std::min<int64_t>(len, LogicalType::kMaxVarCharLength)));
  return MakeFunction(c.name, casts, ret.WithNullable(c.AnyNullable()), ConcatKernel(c.name));
}

Result<FnPtr> ResolveConcatWs(const CallInfo& c) {
  if (c.size() < 2) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  // Flink types it nullable when any argument is (TO_NULLABLE), though only a NULL separator gives NULL.
  return MakeFunction(c.name, casts, LogicalType::String().WithNullable(c.AnyNullable()),
                      [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                        std::string buf;
                        for (size_t i = 0; i < rows; ++i) {
                          if (args[0]->IsNull(i)) {
                            out->SetNull(i, true);
                            continue;
                          }
                          uint64_t bytes = 0, parts = 0;
                          for (size_t k = 1; k < n; ++k) {
                            if (args[k]->IsNull(i)) continue;
                            bytes += args[k]->GetString(i).size();
                            ++parts;
                          }
                          if (parts > 1) bytes += (parts - 1) * args[0]->GetString(i).size();
                          RETURN_IF_ERROR(CheckStringResultSize("CONCAT_WS", bytes));
                          buf.clear();
                          bool first = true;
                          for (size_t k = 1; k < n; ++k) {
                            if (args[k]->IsNull(i)) continue;
                            if (!first) buf.append(args[0]->GetString(i));
                            buf.append(args[k]->GetString(i));
                            first = false;
                          }
                          out->SetString(i, buf);
                        }
                        return Status::OK();
                      });
}

bool SplitIndex(std::string_view s, std::string_view sep, int32_t index, std::string* out) {
  // Flink splits with StringUtils.splitByWholeSeparatorPreserveAllTokens: "" has no tokens.
  if (index < 0 || sep.empty() || s.empty()) return false;
  size_t start = 0;
  for (int32_t k = 0;; ++k) {
    size_t p = s.find(sep, start);
    if (k == index) {
      out->assign(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
      return true;
    }
    if (p == std::string_view::npos) return false;
    start = p + sep.size();
  }
}

Result<FnPtr> ResolveUuid(const CallInfo& c) {
  return Simple(c, {}, LogicalType::Char(36),
                [](EvalContext&, const Vector* const*, size_t, size_t rows, Vector* out) -> Status {
                  thread_local std::mt19937_64 rng(std::random_device{}());
                  static const char* hex = "0123456789abcdef";
                  char buf[37];
                  for (size_t i = 0; i < rows; ++i) {
                    uint64_t hi = rng(), lo = rng();
                    hi = (hi & ~0xF000ULL) | 0x4000ULL;                     // version 4
                    lo = (lo & ~(0xC000000000000000ULL)) | 0x8000000000000000ULL;  // IETF variant
                    int pos = 0;
                    for (int k = 0; k < 32; ++k) {
                      if (k == 8 || k == 12 || k == 16 || k == 20) buf[pos++] = '-';
                      uint64_t word = k < 16 ? hi : lo;
                      int shift = 60 - 4 * (k % 16);
                      buf[pos++] = hex[(word >> shift) & 15];
                    }
                    out->SetString(i, std::string_view(buf, 36));
                  }
                  return Status::OK();
                },
                false, /*deterministic=*/false);
}

// CHAR_LENGTH, UPPER, LOWER, the TRIMs, SUBSTRING, CONCAT, || and CONCAT_WS.
void RegisterLengthCaseTrimConcat(FunctionTable* t) {
  auto str_in_int_out = [](auto f) {
    return ValueOut<int32_t>([f](const Vector* const* a, size_t i, int32_t* r) {
      *r = f(Str(a, 0, i));
      return true;
    });
  };
  t->Add({"CHAR_LENGTH", {"CHAR_LENGTH(<CHARACTER>)"}, [=](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::Integer(),
                          str_in_int_out([](std::string_view s) { return static_cast<int32_t>(Utf8Length(s)); }));
          }});
  t->Alias("CHARACTER_LENGTH", "CHAR_LENGTH");
  t->Add({"UPPER", {"UPPER(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> { return CaseMap(c, true); }});
  t->Alias("UCASE", "UPPER");
  t->Add({"LOWER", {"LOWER(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> { return CaseMap(c, false); }});
  t->Alias("LCASE", "LOWER");
  t->Add({"TRIM", {"TRIM(<CHARACTER>)", "TRIM(BOTH|LEADING|TRAILING <CHARACTER> FROM <CHARACTER>)"}, ResolveTrim});
  t->Add({"LTRIM", {"LTRIM(<CHARACTER>)", "LTRIM(<CHARACTER>, <CHARACTER>)"}, ResolveTrim});
  t->Add({"RTRIM", {"RTRIM(<CHARACTER>)", "RTRIM(<CHARACTER>, <CHARACTER>)"}, ResolveTrim});
  t->Add({"BTRIM", {"BTRIM(<CHARACTER>)", "BTRIM(<CHARACTER>, <CHARACTER>)"}, ResolveTrim});
  t->Add({"SUBSTRING", {"SUBSTRING(<CHARACTER>, <INTEGER>)", "SUBSTRING(<CHARACTER>, <INTEGER>, <INTEGER>)"},
          ResolveSubstring});
  t->Alias("SUBSTR", "SUBSTRING");
  for (bool left : {true, false}) {
    std::string name = left ? "LEFT" : "RIGHT";
    t->Add({name, {name + "(<CHARACTER>, <INTEGER>)"}, [left](const CallInfo& c) -> Result<FnPtr> {
              return Simple(c, {AsString, AsInt}, LogicalType::String(),
                            StringOut([left](const Vector* const* a, size_t i, std::string* buf) {
                              return LeftRight(Str(a, 0, i), Int(a, 1, i), left, buf);
                            }),
                            true);
            }});
  }
  t->Add({"CONCAT", {"CONCAT(<CHARACTER>, ...)"}, ResolveConcat});
  t->Add({"||", {"<CHARACTER> || <CHARACTER>"}, ResolveConcat, false});
  t->Add({"CONCAT_WS", {"CONCAT_WS(<CHARACTER>, <CHARACTER>, ...)"}, ResolveConcatWs});
}

// REPLACE, LPAD, RPAD, POSITION, LOCATE, INSTR and SPLIT_INDEX.
void RegisterReplacePadSearch(FunctionTable* t) {
  t->Add({"REPLACE", {"REPLACE(<CHARACTER>, <CHARACTER>, <CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsString, AsString}, LogicalType::String(),
                          StringOutBounded("REPLACE",
                          [](const Vector* const* a, size_t i) { return ReplaceBytes(Str(a, 0, i), Str(a, 1, i), Str(a, 2, i)); },
                          [](const Vector* const* a, size_t i, std::string* buf) {
                            std::string_view s = Str(a, 0, i), from = Str(a, 1, i), to = Str(a, 2, i);
                            if (from.empty()) {
                              buf->assign(s);
                              return true;
                            }
                            size_t start = 0;
                            for (;;) {
                              size_t p = s.find(from, start);
                              if (p == std::string_view::npos) break;
                              buf->append(s.substr(start, p - start));
                              buf->append(to);
                              start = p + from.size();
                            }
                            buf->append(s.substr(start));
                            return true;
                          }));
          }});
  for (bool left : {true, false}) {
    std::string name = left ? "LPAD" : "RPAD";
    t->Add({name, {name + "(<CHARACTER>, <INTEGER>, <CHARACTER>)"}, [left, name](const CallInfo& c) -> Result<FnPtr> {
              return Simple(c, {AsString, AsInt, AsString}, LogicalType::String(),
                            StringOutBounded(name,
                            [](const Vector* const* a, size_t i) { return PadBytes(Str(a, 0, i), Int(a, 1, i), Str(a, 2, i)); },
                            [left](const Vector* const* a, size_t i, std::string* buf) {
                              return Pad(Str(a, 0, i), Int(a, 1, i), Str(a, 2, i), left, buf);
                            }));  // Flink types it NOT NULL over NOT NULL arguments, though a negative length gives NULL
            }});
  }
  t->Add({"POSITION", {"POSITION(<CHARACTER> IN <CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsString}, LogicalType::Integer(),
                          ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                            *r = Locate(Str(a, 0, i), Str(a, 1, i), 1);
                            return true;
                          }));
          }});
  t->Add({"LOCATE", {"LOCATE(<CHARACTER>, <CHARACTER>)", "LOCATE(<CHARACTER>, <CHARACTER>, <INTEGER>)"},
          [](const CallInfo& c) -> Result<FnPtr> {
            if (c.size() == 3) {
              return Simple(c, {AsString, AsString, AsInt}, LogicalType::Integer(),
                            ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                              *r = Locate(Str(a, 0, i), Str(a, 1, i), Int(a, 2, i));
                              return true;
                            }));
            }
            return Simple(c, {AsString, AsString}, LogicalType::Integer(),
                          ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                            *r = Locate(Str(a, 0, i), Str(a, 1, i), 1);
                            return true;
                          }));
          }});
  t->Add({"INSTR", {"INSTR(<CHARACTER>, <CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsString}, LogicalType::Integer(),
                          ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                            *r = Locate(Str(a, 1, i), Str(a, 0, i), 1);
                            return true;
                          }));
          }});
  t->Add({"SPLIT_INDEX", {"SPLIT_INDEX(<CHARACTER>, <CHARACTER>, <INTEGER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsString, AsInt}, LogicalType::String(),
                          StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            return SplitIndex(Str(a, 0, i), Str(a, 1, i), Int(a, 2, i), buf);
                          }),
                          true);
          }});
}

// INITCAP, REVERSE, REPEAT, LEFT and RIGHT.
void RegisterReshaping(FunctionTable* t) {
  t->Add({"INITCAP", {"INITCAP(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            // Flink's (Calcite's) rule: words are runs of ASCII letters and digits; every other
            // character (space, '_', '%', any non-ASCII one) ends a word and is kept as it is. The first
            // letter of a word is upper-cased, the others lower-cased ('x_y%z' -> 'X_Y%Z', 'élan' -> 'éLan').
            return Simple(c, {AsString}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            bool word_start = true;
                            for (char ch : Str(a, 0, i)) {
                              unsigned char u = static_cast<unsigned char>(ch);
                              bool upper = u >= 'A' && u <= 'Z', lower = u >= 'a' && u <= 'z';
                              if (!upper && !lower && !(u >= '0' && u <= '9')) {
                                word_start = true;
                              } else {
                                if (word_start && lower) ch = static_cast<char>(u - 'a' + 'A');
                                if (!word_start && upper) ch = static_cast<char>(u - 'A' + 'a');
                                word_start = false;
                              }
                              buf->push_back(ch);
                            }
                            return true;
                          }));
          }});
  t->Add({"REVERSE", {"REVERSE(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            std::string_view s = Str(a, 0, i);
                            if (IsAscii(s)) {
                              buf->assign(s.rbegin(), s.rend());
                              return true;
                            }
                            std::vector<size_t> offs;
                            CodePointOffsets(s, &offs);
                            for (size_t k = offs.size() - 1; k > 0; --k) buf->append(s.substr(offs[k - 1], offs[k] - offs[k - 1]));
                            return true;
                          }));
          }});
  t->Add({"REPEAT", {"REPEAT(<CHARACTER>, <INTEGER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsInt}, LogicalType::String(), StringOutBounded("REPEAT",
                          [](const Vector* const* a, size_t i) {
                            return Str(a, 0, i).size() * static_cast<uint64_t>(std::max(Int(a, 1, i), 0));
                          },
                          [](const Vector* const* a, size_t i, std::string* buf) {
                            std::string_view s = Str(a, 0, i);
                            for (int32_t k = 0; k < Int(a, 1, i); ++k) buf->append(s);
                            return true;
                          }));
          }});
  for (bool left : {true, false}) {
    std::string name = left ? "LEFT" : "RIGHT";
    t->Add({name, {name + "(<CHARACTER>, <INTEGER>)"}, [left](const CallInfo& c) -> Result<FnPtr> {
              return Simple(c, {AsString, AsInt}, LogicalType::String(),
                            StringOut([left](const Vector* const* a, size_t i, std::string* buf) {
                              std::string_view s = Str(a, 0, i);
                              int64_t n = Int(a, 1, i);
                              if (n <= 0) return true;
                              size_t len = Utf8Length(s);
                              if (static_cast<size_t>(n) >= len) {
                                buf->assign(s);
                              } else if (left) {
                                buf->assign(s.substr(0, Utf8PrefixBytes(s, static_cast<size_t>(n))));
                              } else {
                                buf->assign(s.substr(Utf8PrefixBytes(s, len - static_cast<size_t>(n))));
                              }
                              return true;
                            }));
            }});
  }
}

// How often byte c occurs in s, eight bytes at a time: a byte of w ^ pattern is zero exactly where w
// holds c, and ~(((x & 0x7f..) + 0x7f..) | x | 0x7f..) sets the high bit of exactly the zero bytes.
int64_t CountByte(std::string_view s, char c) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  const uint64_t pattern = 0x0101010101010101ULL * static_cast<unsigned char>(c);
  int64_t n = 0;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const uint64_t x = w ^ pattern;
    n += __builtin_popcountll(~(((x & kLow7) + kLow7) | x | kLow7));
  }
  for (; i < s.size(); ++i) n += s[i] == c;
  return n;
}

// COUNT_CHAR, ASCII, CHR, MD5, HASH_CODE, TO_BASE64, FROM_BASE64 and UUID.
void RegisterCodeFunctions(FunctionTable* t) {
  // The Nexmark benchmark's Java UDF com.github.nexmark.flink.udf.CountChar, implemented natively
  // (CREATE FUNCTION maps that class here): how often the first character of `ch` occurs in `s`.
  t->Add({"COUNT_CHAR", {"COUNT_CHAR(<CHARACTER>, <CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString, AsString}, LogicalType::BigInt(), ValueOut<int64_t>([](const Vector* const* a, size_t i, int64_t* r) {
                            std::string_view s = Str(a, 0, i);
                            std::string_view ch = Str(a, 1, i);
                            int64_t n = 0;
                            if (ch.size() == 1) {
                              n = CountByte(s, ch[0]);
                            } else if (!ch.empty()) {
                              for (size_t p = s.find(ch); p != std::string_view::npos; p = s.find(ch, p + ch.size())) ++n;
                            }
                            *r = n;
                            return true;
                          }));
          }});
  t->Add({"ASCII", {"ASCII(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::Integer(), ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                            std::string_view s = Str(a, 0, i);
                            // Flink: the first byte of the UTF-8 text as a Java byte, so a non-ASCII
                            // first character is negative (ASCII('日') = -26, ASCII('Ü') = -61).
                            *r = s.empty() ? 0 : static_cast<signed char>(s[0]);
                            return true;
                          }));
          }});
  t->Add({"CHR", {"CHR(<INTEGER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsInt}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            // Flink: negative -> '', else the character (code & 0xFF).
                            int32_t v = Int(a, 0, i);
                            if (v >= 0) AppendUtf8(static_cast<uint32_t>(v) & 0xFF, buf);
                            return true;
                          }));
          }});
  t->Add({"MD5", {"MD5(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::Char(32), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            *buf = Md5Hex(Str(a, 0, i));
                            return true;
                          }));
          }});
  t->Add({"HASH_CODE", {"HASH_CODE(<CHARACTER>)", "HASH_CODE(<INTEGER>)", "HASH_CODE(<NUMERIC>)", "HASH_CODE(<BOOLEAN>)",
                          "HASH_CODE(<DATETIME>)"},
          ResolveHashCode});
  t->Add({"TO_BASE64", {"TO_BASE64(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            ToBase64(Str(a, 0, i), buf);
                            return true;
                          }));
          }});
  t->Add({"FROM_BASE64", {"FROM_BASE64(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                            return FromBase64(Str(a, 0, i), buf);
                          }));  // NOT NULL over a NOT NULL argument, as Flink types it
          }});
  t->Add({"UUID", {"UUID()"}, ResolveUuid});
}

}  // namespace

void RegisterStringFunctions(FunctionTable* t) {
  RegisterLengthCaseTrimConcat(t);
  RegisterLikeFunctions(t);
  RegisterReplacePadSearch(t);
  RegisterRegexpFunctions(t);
  RegisterReshaping(t);
  RegisterCodeFunctions(t);
}

// SQL LIKE with % and _ (one code point) and an optional escape character; backtracking on the last %.

}  // namespace sluice::fn
