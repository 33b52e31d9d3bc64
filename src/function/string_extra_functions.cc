// The string functions Flink added after its first SQL release, with Flink 2.2's semantics:
// STARTSWITH, ENDSWITH, TRANSLATE, ELT, SPLIT, URL_ENCODE, URL_DECODE, JSON_QUOTE, JSON_UNQUOTE,
// IS_ALPHA, IS_DIGIT, IS_DECIMAL, HEX, BIN and PARSE_URL. NULL in gives NULL out unless noted (TRANSLATE
// treats a NULL `from` as nothing to replace and a NULL `to` as deleting every `from` character).
// Character positions are code points; Flink's Java code counts UTF-16 units, which differ only
// for characters beyond the Basic Multilingual Plane.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/utf8.h"
#include "function/cast.h"
#include "function/string_kernels.h"
#include "types/value.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {

// ---- character classes (java.lang.Character on one UTF-16 unit: beyond the BMP nothing qualifies) ----

// Java's Character.isDigit for a BMP code point: the decimal digit blocks of Unicode's Nd category.
bool IsUnicodeDigit(uint32_t cp) {
  static const uint32_t kZeros[] = {0x30,   0x660,  0x6F0,  0x7C0,  0x966,  0x9E6,  0xA66,  0xAE6,  0xB66,
                                    0xBE6,  0xC66,  0xCE6,  0xD66,  0xDE6,  0xE50,  0xED0,  0xF20,  0x1040,
                                    0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0,
                                    0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
                                    0xFF10};
  for (uint32_t z : kZeros) {
    if (cp >= z && cp < z + 10) return true;
  }
  return false;
}

// Java's Character.isLetter, exactly for ASCII and Latin-1; beyond them every BMP code point counts as a
// letter except digits, combining marks, punctuation and symbol blocks, surrogates and private use
// (an approximation of Unicode's L categories, listed in docs/flink_differences.md).
bool IsUnicodeLetter(uint32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  if (cp < 0x100) return cp == 0xAA || cp == 0xB5 || cp == 0xBA || (cp >= 0xC0 && cp != 0xD7 && cp != 0xF7);
  if (cp >= 0x10000 || IsUnicodeDigit(cp)) return false;
  struct Range {
    uint32_t lo, hi;
  };
  static const Range kNotLetters[] = {{0x2B9, 0x2FF},   {0x300, 0x36F},   {0x37E, 0x37E},   {0x387, 0x387},
                                      {0x55A, 0x55F},   {0x589, 0x58A},   {0x5BE, 0x5C7},   {0x600, 0x61F},
                                      {0x64B, 0x65F},   {0x66A, 0x66D},   {0x2000, 0x2BFF}, {0x2E00, 0x2E7F},
                                      {0x3000, 0x3004}, {0x3007, 0x3030}, {0xD800, 0xF8FF}, {0xFE00, 0xFE6F},
                                      {0xFF00, 0xFF20}, {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65}, {0xFFE0, 0xFFFF}};
  for (const Range& r : kNotLetters) {
    if (cp >= r.lo && cp <= r.hi) return false;
  }
  return true;
}

// IS_ALPHA / IS_DIGIT (commons-lang StringUtils.isAlpha / isNumeric): every character qualifies and the
// string is not empty.
template <typename P>
bool AllChars(std::string_view s, P pred) {
  if (s.empty()) return false;
  for (size_t k = 0; k < s.size();) {
    if (!pred(DecodeUtf8(s, &k))) return false;
  }
  return true;
}

// IS_DECIMAL: whether Java's Double.parseDouble accepts the text (surrounding characters <= ' ' ignored;
// an optional sign; NaN, Infinity, digits with an optional point and exponent, or a hexadecimal
// 0x...p... form; an optional f/F/d/D suffix).
bool IsJavaDouble(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::string_view rest = s.substr(i);
  if (rest == "NaN" || rest == "Infinity") return true;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  auto is_hex = [&](char c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); };
  const bool hex = rest.size() > 1 && rest[0] == '0' && (rest[1] | 0x20) == 'x';
  if (hex) i += 2;
  size_t digits = 0;
  while (i < s.size() && (hex ? is_hex(s[i]) : is_digit(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (hex ? is_hex(s[i]) : is_digit(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && ((s[i] | 0x20) == (hex ? 'p' : 'e'))) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exp;
    if (exp == 0) return false;
  } else if (hex) {
    return false;  // a hexadecimal float needs its binary exponent
  }
  if (i < s.size() && ((s[i] | 0x20) == 'f' || (s[i] | 0x20) == 'd')) ++i;
  return i == s.size();
}

// ---- encodings ----

const char kHexUpper[] = "0123456789ABCDEF";

// java.net.URLEncoder with UTF-8: letters, digits and . - * _ stay, ' ' becomes '+', every other byte %XX.
void UrlEncode(std::string_view s, std::string* out) {
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
        c == '*' || c == '_') {
      out->push_back(ch);
    } else if (c == ' ') {
      out->push_back('+');
    } else {
      out->push_back('%');
      out->push_back(kHexUpper[c >> 4]);
      out->push_back(kHexUpper[c & 0xF]);
    }
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(c | 0x20);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// java.net.URLDecoder with UTF-8: '+' is ' ', %XX a byte (Java's Integer.parseInt(XX, 16), so "+h" and
// "-0" pass too); a truncated or non-hex escape makes the whole result NULL.
bool UrlDecode(std::string_view s, std::string* out) {
  std::string bytes;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+') {
      bytes.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= s.size()) return false;
      char a = s[i + 1], b = s[i + 2];
      int v;
      if (HexDigit(a) >= 0 && HexDigit(b) >= 0) {
        v = HexDigit(a) * 16 + HexDigit(b);
      } else if (a == '+' && HexDigit(b) >= 0) {
        v = HexDigit(b);
      } else if (a == '-' && b == '0') {
        v = 0;
      } else {
        return false;
      }
      bytes.push_back(static_cast<char>(v));
      i += 2;
    } else {
      bytes.push_back(c);
    }
  }
  AppendSanitizedUtf8(bytes, out);
  return true;
}

// Flink's JSON_QUOTE: a JSON string literal; '"', '\', '/' and \b \f \n \r \t escaped, every character
// beyond ASCII as \uXXXX (UTF-16 units); other control characters stay as they are, as in Flink.
void JsonQuote(std::string_view s, std::string* out) {
  out->push_back('"');
  auto unit = [&](uint32_t u) {
    out->append("\\u");
    static const char kHexLower[] = "0123456789abcdef";
    for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHexLower[(u >> shift) & 0xF]);
  };
  for (size_t k = 0; k < s.size();) {
    uint32_t cp = DecodeUtf8(s, &k);
    switch (cp) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '/': out->append("\\/"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (cp < 0x80) {
          out->push_back(static_cast<char>(cp));
        } else if (cp >= 0x10000) {
          // Flink formats the code point at the high surrogate, then the low surrogate on its own:
          // U+1F600 is "\\u1f600\\ude00".
          char hex[16];
          std::snprintf(hex, sizeof hex, "\\u%04x", cp);
          out->append(hex);
          unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
          unit(cp);
        }
    }
  }
  out->push_back('"');
}

// Flink's JSON_UNQUOTE: text wrapped in double quotes has its escapes undone; text that is not wrapped,
// or holds an invalid escape, comes back as it is.
void JsonUnquote(std::string_view s, std::string* out) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') {
    out->assign(s);
    return;
  }
  std::string_view in = s.substr(1, s.size() - 2);
  std::string r;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\\') {
      r.push_back(in[i]);
      continue;
    }
    if (++i >= in.size()) {
      out->assign(s);
      return;
    }
    switch (in[i]) {
      case '"': r.push_back('"'); break;
      case '\\': r.push_back('\\'); break;
      case '/': r.push_back('/'); break;
      case 'b': r.push_back('\b'); break;
      case 'f': r.push_back('\f'); break;
      case 'n': r.push_back('\n'); break;
      case 'r': r.push_back('\r'); break;
      case 't': r.push_back('\t'); break;
      case 'u': {
        uint32_t u = 0;
        for (int k = 1; k <= 4; ++k) {
          int d = i + k < in.size() ? HexDigit(in[i + k]) : -1;
          if (d < 0) {
            out->assign(s);
            return;
          }
          u = u * 16 + static_cast<uint32_t>(d);
        }
        i += 4;
        // A surrogate pair written as two escapes is one character.
        if (u >= 0xD800 && u < 0xDC00 && i + 6 < in.size() && in.substr(i + 1, 2) == "\\u") {
          uint32_t lo = 0;
          bool ok = true;
          for (int k = 3; k <= 6 && ok; ++k) {
            int d = i + k < in.size() ? HexDigit(in[i + k]) : -1;
            ok = d >= 0;
            lo = lo * 16 + static_cast<uint32_t>(d < 0 ? 0 : d);
          }
          if (ok && lo >= 0xDC00 && lo < 0xE000) {
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        AppendUtf8(u, &r);
        break;
      }
      default: out->assign(s); return;
    }
  }
  *out = std::move(r);
}

// ---- TRANSLATE ----

// TRANSLATE(s, from, to): each character of s found in `from` becomes the character at the same place
// in `to` (the first occurrence in `from` decides), or disappears when `to` is shorter.
void Translate(std::string_view s, std::string_view from, std::string_view to, bool has_to, std::string* out) {
  std::vector<uint32_t> f, t;
  for (size_t k = 0; k < from.size();) f.push_back(DecodeUtf8(from, &k));
  if (has_to) {
    for (size_t k = 0; k < to.size();) t.push_back(DecodeUtf8(to, &k));
  }
  for (size_t k = 0; k < s.size();) {
    size_t start = k;
    uint32_t cp = DecodeUtf8(s, &k);
    size_t pos = 0;
    while (pos < f.size() && f[pos] != cp) ++pos;
    if (pos == f.size()) {
      out->append(s.substr(start, k - start));
    } else if (pos < t.size()) {
      AppendUtf8(t[pos], out);
    }
  }
}

// ---- argument coercions ----

bool AsBinary(const LogicalType& t, LogicalType* cast) {
  if (t.id() == TypeId::kNull) {
    *cast = LogicalType::Bytes();
    return true;
  }
  if (!t.IsBinaryString()) return false;
  *cast = t;
  return true;
}

Result<FnPtr> ResolveStartsEnds(const CallInfo& c, bool starts) {
  auto kernel = ValueOut<uint8_t>([starts](const Vector* const* a, size_t i, uint8_t* r) {
    std::string_view s = Str(a, 0, i), p = Str(a, 1, i);
    *r = p.size() <= s.size() && (starts ? s.compare(0, p.size(), p) == 0 : s.compare(s.size() - p.size(), p.size(), p) == 0);
    return true;
  });
  if (c.size() == 2 && (c.type(0).IsBinaryString() || c.type(1).IsBinaryString())) {
    return NeverFails(Simple(c, {AsBinary, AsBinary}, LogicalType::Boolean(), kernel));
  }
  return NeverFails(Simple(c, {AsString, AsString}, LogicalType::Boolean(), kernel));
}

Result<FnPtr> ResolveTranslate(const CallInfo& c) {
  if (c.size() != 3) return FnPtr();
  std::vector<LogicalType> casts(3);
  for (size_t i = 0; i < 3; ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  return MakeFunction(c.name, casts, LogicalType::String().WithNullable(c.type(0).nullable()),
                      [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
                        std::string buf;
                        for (size_t i = 0; i < rows; ++i) {
                          if (args[0]->IsNull(i)) {
                            out->SetNull(i, true);
                            continue;
                          }
                          std::string_view s = args[0]->GetString(i);
                          if (args[1]->IsNull(i)) {
                            out->SetString(i, s);
                            continue;
                          }
                          buf.clear();
                          Translate(s, args[1]->GetString(i), args[2]->IsNull(i) ? "" : args[2]->GetString(i),
                                    !args[2]->IsNull(i), &buf);
                          out->SetString(i, buf);
                        }
                        return Status::OK();
                      });
}

// ELT(index, e1, e2, ...): e<index>, NULL when the index is NULL or out of range; the result has the
// common type of the expressions and is always nullable.
Result<FnPtr> ResolveElt(const CallInfo& c) {
  if (c.size() < 2) return FnPtr();
  LogicalType idx;
  if (!AsBigInt(c.type(0), &idx)) return FnPtr();
  std::vector<LogicalType> exprs(c.types.begin() + 1, c.types.end());
  auto common = CommonType(exprs);
  if (!common.ok() || !(common->IsCharacterString() || common->IsBinaryString() || common->id() == TypeId::kNull)) {
    return FnPtr();
  }
  LogicalType e = common->id() == TypeId::kNull ? LogicalType::String() : *common;
  std::vector<LogicalType> casts{idx};
  for (const auto& t : exprs) casts.push_back(e.WithNullable(t.nullable()));
  return NeverFails(MakeFunction(c.name, casts, e.WithNullable(true),
                                 [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                                   for (size_t k = 1; k < n; ++k) out->ShareHeapsWith(*args[k]);
                                   const int64_t* ix = args[0]->data<int64_t>();
                                   for (size_t i = 0; i < rows; ++i) {
                                     if (args[0]->IsNull(i) || ix[i] < 1 || ix[i] >= static_cast<int64_t>(n)) {
                                       out->SetNull(i, true);
                                     } else {
                                       CopyRow(*args[ix[i]], i, out, i);
                                     }
                                   }
                                   return Status::OK();
                                 }));
}

// SPLIT(s, delimiter): every piece between delimiters, empty ones included; an empty delimiter splits
// into characters; an empty string gives an empty array.
Result<FnPtr> ResolveSplit(const CallInfo& c) {
  return NeverFails(Simple(c, {AsString, AsString}, LogicalType::Array(LogicalType::String()),
                           [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                             Vector& child = out->child(0);
                             ListEntry* entries = out->data<ListEntry>();
                             auto push = [&](std::string_view piece) {
                               size_t at = child.size();
                               child.Resize(at + 1);
                               child.SetString(at, piece);
                             };
                             bool nulls = PropagateNulls(args, n, rows, out);
                             for (size_t i = 0; i < rows; ++i) {
                               const uint32_t offset = static_cast<uint32_t>(child.size());
                               if (!(nulls && out->IsNull(i))) {
                                 std::string_view s = args[0]->GetString(i), d = args[1]->GetString(i);
                                 if (s.empty()) {
                                 } else if (d.empty()) {
                                   for (size_t k = 0; k < s.size();) {
                                     size_t start = k;
                                     DecodeUtf8(s, &k);
                                     push(s.substr(start, k - start));
                                   }
                                 } else {
                                   size_t from = 0;
                                   for (size_t p = s.find(d); p != std::string_view::npos; p = s.find(d, from)) {
                                     push(s.substr(from, p - from));
                                     from = p + d.size();
                                   }
                                   push(s.substr(from));
                                 }
                               }
                               entries[i] = ListEntry{offset, static_cast<uint32_t>(child.size()) - offset};
                             }
                             return Status::OK();
                           }));
}

// HEX(integer): the two's complement of the BIGINT in upper-case hex; HEX(string): its UTF-8 bytes.
Result<FnPtr> ResolveHex(const CallInfo& c) {
  if (c.size() == 1 && c.type(0).IsIntegral()) {
    return NeverFails(Simple(c, {AsBigInt}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                                uint64_t v = static_cast<uint64_t>(a[0]->data<int64_t>()[i]);
                                do {
                                  buf->insert(buf->begin(), kHexUpper[v & 0xF]);
                                  v >>= 4;
                                } while (v != 0);
                                return true;
                              })));
  }
  return NeverFails(Simple(c, {AsString}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                              for (char ch : Str(a, 0, i)) {
                                buf->push_back(kHexUpper[static_cast<unsigned char>(ch) >> 4]);
                                buf->push_back(kHexUpper[static_cast<unsigned char>(ch) & 0xF]);
                              }
                              return true;
                            })));
}

// BIN(integer): the two's complement of the BIGINT in binary (Long.toBinaryString).
Result<FnPtr> ResolveBin(const CallInfo& c) {
  return NeverFails(Simple(c, {AsBigInt}, LogicalType::String(), StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                              uint64_t v = static_cast<uint64_t>(a[0]->data<int64_t>()[i]);
                              do {
                                buf->insert(buf->begin(), static_cast<char>('0' + (v & 1)));
                                v >>= 1;
                              } while (v != 0);
                              return true;
                            })));
}

// A string-to-string function with a fixed conversion: conv(s, buf) -> false for NULL.
template <typename F>
void AddStringConversion(FunctionTable* t, const std::string& name, bool may_return_null, F conv) {
  t->Add({name, {name + "(<CHARACTER>)"}, [conv, may_return_null](const CallInfo& c) -> Result<FnPtr> {
            return NeverFails(Simple(c, {AsString}, LogicalType::String(),
                                     StringOut([conv](const Vector* const* a, size_t i, std::string* buf) {
                                       return conv(Str(a, 0, i), buf);
                                     }),
                                     may_return_null));
          }});
}

// IS_ALPHA / IS_DIGIT / IS_DECIMAL: BOOLEAN NOT NULL, FALSE for a NULL string (Flink's).
template <typename P>
void AddStringPredicate(FunctionTable* t, const std::string& name, P pred) {
  t->Add({name, {name + "(<CHARACTER>)"}, [pred](const CallInfo& c) -> Result<FnPtr> {
            LogicalType arg;
            if (c.size() != 1 || !AsString(c.type(0), &arg)) return FnPtr();
            return NeverFails(MakeFunction(c.name, {arg}, LogicalType::Boolean().WithNullable(false),
                                           [pred](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                                             uint8_t* od = out->data<uint8_t>();
                                             for (size_t i = 0; i < rows; ++i) {
                                               od[i] = !args[0]->IsNull(i) && pred(args[0]->GetString(i)) ? 1 : 0;
                                             }
                                             return Status::OK();
                                           }));
          }});
}

}  // namespace

void RegisterStringExtraFunctions(FunctionTable* t) {
  t->Add({"STARTSWITH", {"STARTSWITH(<CHARACTER>, <CHARACTER>)", "STARTSWITH(<BINARY>, <BINARY>)"},
          [](const CallInfo& c) { return ResolveStartsEnds(c, true); }});
  t->Add({"ENDSWITH", {"ENDSWITH(<CHARACTER>, <CHARACTER>)", "ENDSWITH(<BINARY>, <BINARY>)"},
          [](const CallInfo& c) { return ResolveStartsEnds(c, false); }});
  t->Add({"TRANSLATE", {"TRANSLATE(<CHARACTER>, <CHARACTER>, <CHARACTER>)"}, ResolveTranslate});
  t->Add({"ELT", {"ELT(<INTEGER>, <CHARACTER>, ...)", "ELT(<INTEGER>, <BINARY>, ...)"}, ResolveElt});
  t->Add({"SPLIT", {"SPLIT(<CHARACTER>, <CHARACTER>)"}, ResolveSplit});
  t->Add({"HEX", {"HEX(<INTEGER>)", "HEX(<CHARACTER>)"}, ResolveHex});
  t->Add({"BIN", {"BIN(<INTEGER>)"}, ResolveBin});
  AddStringConversion(t, "URL_ENCODE", true, [](std::string_view s, std::string* buf) {
    UrlEncode(s, buf);
    return true;
  });
  AddStringConversion(t, "URL_DECODE", true, [](std::string_view s, std::string* buf) { return UrlDecode(s, buf); });
  AddStringConversion(t, "JSON_QUOTE", false, [](std::string_view s, std::string* buf) {
    JsonQuote(s, buf);
    return true;
  });
  AddStringConversion(t, "JSON_UNQUOTE", false, [](std::string_view s, std::string* buf) {
    JsonUnquote(s, buf);
    return true;
  });
  AddStringPredicate(t, "IS_ALPHA", [](std::string_view s) { return AllChars(s, IsUnicodeLetter); });
  AddStringPredicate(t, "IS_DIGIT", [](std::string_view s) { return AllChars(s, IsUnicodeDigit); });
  AddStringPredicate(t, "IS_DECIMAL", IsJavaDouble);
}

}  // namespace sluice::fn
