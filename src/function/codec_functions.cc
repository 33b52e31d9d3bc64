// Byte and type conversions with Flink's semantics: ENCODE(string, charset) -> BYTES,
// DECODE(bytes, charset) -> STRING, UNHEX(string) -> BYTES and TYPEOF(value[, force_serializable]).
//
// Charsets are the ones Flink documents (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16),
// named case-insensitively as Java's Charset.forName takes them (with the usual aliases); another name
// fails the row as Java's UnsupportedCharsetException fails the job. As Java's encoders, a character
// the charset cannot hold encodes as '?', and bytes that do not decode become U+FFFD. "UTF-16" encodes
// big-endian with a byte-order mark (none for an empty string) and decodes by the mark (big-endian without one).
#include <string>
#include <string_view>

#include "common/utf8.h"
#include "function/string_kernels.h"
#include "types/value.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {

enum class Charset { kAscii, kLatin1, kUtf8, kUtf16Be, kUtf16Le, kUtf16 };

bool ParseCharset(std::string_view name, Charset* cs) {
  std::string n;
  for (char ch : name) n.push_back(static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch));
  if (n == "US-ASCII" || n == "ASCII" || n == "US_ASCII") *cs = Charset::kAscii;
  else if (n == "ISO-8859-1" || n == "ISO8859-1" || n == "ISO_8859_1" || n == "LATIN1" || n == "ISO-LATIN-1") *cs = Charset::kLatin1;
  else if (n == "UTF-8" || n == "UTF8") *cs = Charset::kUtf8;
  else if (n == "UTF-16BE" || n == "UTF_16BE") *cs = Charset::kUtf16Be;
  else if (n == "UTF-16LE" || n == "UTF_16LE") *cs = Charset::kUtf16Le;
  else if (n == "UTF-16" || n == "UTF_16" || n == "UTF16") *cs = Charset::kUtf16;
  else return false;
  return true;
}

Status UnsupportedCharset(std::string_view name) {
  return Status::RuntimeError("java.nio.charset.UnsupportedCharsetException: " + std::string(name));
}

void PutUnit(uint32_t u, bool big_endian, std::string* out) {
  char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
  out->push_back(big_endian ? hi : lo);
  out->push_back(big_endian ? lo : hi);
}

void Encode(std::string_view s, Charset cs, std::string* out) {
  if (cs == Charset::kUtf8) {
    out->assign(s);
    return;
  }
  const bool big = cs != Charset::kUtf16Le;
  if (cs == Charset::kUtf16 && !s.empty()) PutUnit(0xFEFF, true, out);  // Java writes no mark for ''
  for (size_t k = 0; k < s.size();) {
    uint32_t cp = DecodeUtf8(s, &k);
    switch (cs) {
      case Charset::kAscii: out->push_back(cp < 0x80 ? static_cast<char>(cp) : '?'); break;
      case Charset::kLatin1: out->push_back(cp < 0x100 ? static_cast<char>(cp) : '?'); break;
      default:
        if (cp >= 0x10000) {
          PutUnit(0xD800 + ((cp - 0x10000) >> 10), big, out);
          PutUnit(0xDC00 + ((cp - 0x10000) & 0x3FF), big, out);
        } else {
          PutUnit(cp, big, out);
        }
    }
  }
}

void Decode(std::string_view b, Charset cs, std::string* out) {
  switch (cs) {
    case Charset::kUtf8: AppendSanitizedUtf8(b, out); return;
    case Charset::kAscii:
      for (char ch : b) {
        if (static_cast<unsigned char>(ch) < 0x80) {
          out->push_back(ch);
        } else {
          out->append("\xEF\xBF\xBD");
        }
      }
      return;
    case Charset::kLatin1:
      for (char ch : b) AppendUtf8(static_cast<unsigned char>(ch), out);
      return;
    default: break;
  }
  bool big = cs != Charset::kUtf16Le;
  size_t i = 0;
  if (cs == Charset::kUtf16 && b.size() >= 2) {
    const unsigned char b0 = static_cast<unsigned char>(b[0]), b1 = static_cast<unsigned char>(b[1]);
    if (b0 == 0xFE && b1 == 0xFF) i = 2;
    if (b0 == 0xFF && b1 == 0xFE) i = 2, big = false;
  }
  auto unit = [&](size_t at) -> uint32_t {
    const uint32_t x = static_cast<unsigned char>(b[at]), y = static_cast<unsigned char>(b[at + 1]);
    return big ? (x << 8) | y : (y << 8) | x;
  };
  for (; i + 1 < b.size(); i += 2) {
    uint32_t u = unit(i);
    if (u >= 0xD800 && u < 0xDC00 && i + 3 < b.size()) {
      uint32_t lo = unit(i + 2);
      if (lo >= 0xDC00 && lo < 0xE000) {
        AppendUtf8(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), out);
        i += 2;
        continue;
      }
    }
    if (u >= 0xD800 && u < 0xE000) {
      out->append("\xEF\xBF\xBD");
    } else {
      AppendUtf8(u, out);
    }
  }
  if (i < b.size()) out->append("\xEF\xBF\xBD");  // a dangling odd byte
}

bool AsBinaryArg(const LogicalType& t, LogicalType* cast) {
  if (t.id() == TypeId::kNull) {
    *cast = LogicalType::Bytes();
    return true;
  }
  if (!t.IsBinaryString()) return false;
  *cast = t;
  return true;
}

// ENCODE / DECODE: f(text, charset, buf) per valid row; the charset is parsed once when constant.
template <typename F>
ScalarKernel CharsetKernel(const std::string* constant, F f) {
  Charset fixed = Charset::kUtf8;
  const bool has_fixed = constant != nullptr && ParseCharset(*constant, &fixed);
  return [has_fixed, fixed, f](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
    std::string buf;
    return ForEachValidRow(args, n, rows, out, [&](size_t i) {
      Charset cs = fixed;
      std::string_view name = args[1]->GetString(i);
      if (!has_fixed && !ParseCharset(name, &cs)) return UnsupportedCharset(name);
      buf.clear();
      f(args[0]->GetString(i), cs, &buf);
      out->SetString(i, buf);
      return Status::OK();
    });
  };
}

Result<FnPtr> ResolveEncode(const CallInfo& c) {
  const std::string* cs = ConstantString(c, 1);
  Charset parsed;
  if (c.size() == 2 && cs != nullptr && !ParseCharset(*cs, &parsed)) return UnsupportedCharset(*cs);
  return Simple(c, {AsString, AsString}, LogicalType::Bytes(), CharsetKernel(cs, Encode));
}

Result<FnPtr> ResolveDecode(const CallInfo& c) {
  const std::string* cs = ConstantString(c, 1);
  Charset parsed;
  if (c.size() == 2 && cs != nullptr && !ParseCharset(*cs, &parsed)) return UnsupportedCharset(*cs);
  return Simple(c, {AsBinaryArg, AsString}, LogicalType::String(), CharsetKernel(cs, Decode));
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// UNHEX: two hex digits per byte; with an odd count the first digit is dropped and a zero byte leads
// (Flink's); a non-hex character gives NULL.
bool Unhex(std::string_view s, std::string* out) {
  size_t i = 0;
  if (s.size() % 2 == 1) {
    if (HexValue(s[0]) < 0) return false;
    out->push_back('\0');
    i = 1;
  }
  for (; i < s.size(); i += 2) {
    int a = HexValue(s[i]), b = HexValue(s[i + 1]);
    if (a < 0 || b < 0) return false;
    out->push_back(static_cast<char>(a * 16 + b));
  }
  return true;
}

// TYPEOF(value[, force_serializable]): the argument's type as Flink prints it ("INT NOT NULL"); with
// force_serializable TRUE without time attribute markers.
Result<FnPtr> ResolveTypeOf(const CallInfo& c) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  bool serializable = false;
  if (c.size() == 2) {
    const Value* v = c.constant(1);
    if (c.type(1).id() != TypeId::kBoolean || v == nullptr) {
      return Status::BindError("TYPEOF's second argument (force_serializable) must be a BOOLEAN literal");
    }
    serializable = !v->is_null() && v->bool_value();
  }
  LogicalType t = c.type(0);
  if (serializable) t = t.WithTimeAttribute(TimeAttribute::kNone);
  const std::string text = t.ToString();
  return NeverFails(MakeFunction(c.name, c.types, LogicalType::String(),
                                 [text](EvalContext&, const Vector* const*, size_t, size_t rows, Vector* out) {
                                   for (size_t i = 0; i < rows; ++i) out->SetString(i, text);
                                   return Status::OK();
                                 }));
}

}  // namespace

void RegisterCodecFunctions(FunctionTable* t) {
  t->Add({"ENCODE", {"ENCODE(<CHARACTER>, <CHARACTER>)"}, ResolveEncode});
  t->Add({"DECODE", {"DECODE(<BINARY>, <CHARACTER>)"}, ResolveDecode});
  t->Add({"UNHEX", {"UNHEX(<CHARACTER>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return NeverFails(Simple(c, {AsString}, LogicalType::Bytes(),
                                     StringOut([](const Vector* const* a, size_t i, std::string* buf) { return Unhex(Str(a, 0, i), buf); }),
                                     true));
          }});
  t->Add({"TYPEOF", {"TYPEOF(<ANY>)", "TYPEOF(<ANY>, <BOOLEAN>)"}, ResolveTypeOf});
}

}  // namespace sluice::fn
