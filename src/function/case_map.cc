#include "function/case_map.h"

#include <locale.h>
#include <wctype.h>

#include <cstdint>

#include "common/utf8.h"

namespace sluice {

namespace {

locale_t Utf8Locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

uint32_t Decode(std::string_view s, size_t i, size_t len) {
  const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  switch (len) {
    case 1: return b(0);
    case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
  }
}

void Encode(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Java's unconditional multi-character upper-case mappings (Unicode SpecialCasing.txt) for the
// letters of the Latin, Greek and Armenian scripts; "" when `c` has none.
const char* SpecialUpper(uint32_t c) {
  switch (c) {
    case 0x00DF: return "SS";
    case 0x0149: return "\u02BCN";
    case 0x01F0: return "J\u030C";
    case 0x0390: return "\u0399\u0308\u0301";
    case 0x03B0: return "\u03A5\u0308\u0301";
    case 0x0587: return "\u0535\u0552";
    case 0x1E96: return "H\u0331";
    case 0x1E97: return "T\u0308";
    case 0x1E98: return "W\u030A";
    case 0x1E99: return "Y\u030A";
    case 0x1E9A: return "A\u02BE";
    case 0xFB00: return "FF";
    case 0xFB01: return "FI";
    case 0xFB02: return "FL";
    case 0xFB03: return "FFI";
    case 0xFB04: return "FFL";
    case 0xFB05: return "ST";
    case 0xFB06: return "ST";
    case 0xFB13: return "\u0544\u0546";
    case 0xFB14: return "\u0544\u0535";
    case 0xFB15: return "\u0544\u053B";
    case 0xFB16: return "\u054E\u0546";
    case 0xFB17: return "\u0544\u053D";
    default: return "";
  }
}

bool IsLetter(uint32_t c) { return iswalpha_l(static_cast<wint_t>(c), Utf8Locale()) != 0; }

// The code point before byte offset `i` (0 when none).
uint32_t Previous(std::string_view s, size_t i) {
  size_t j = i;
  while (j > 0) {
    --j;
    if ((static_cast<unsigned char>(s[j]) & 0xC0) != 0x80) {
      const size_t len = Utf8SequenceLength(s, j);
      return len == i - j ? Decode(s, j, len) : 0;
    }
  }
  return 0;
}

// Java's Final_Sigma condition, simplified to letters: a capital sigma ends a word when a letter comes
// right before it and none right after.
bool FinalSigma(std::string_view s, size_t i, size_t len) {
  if (!IsLetter(Previous(s, i))) return false;
  const size_t next = i + len;
  if (next >= s.size()) return true;
  const size_t nlen = Utf8SequenceLength(s, next);
  return nlen == 0 || !IsLetter(Decode(s, next, nlen));
}

}  // namespace

void AppendCaseMapped(std::string_view s, bool upper, std::string* out) {
  const char from = upper ? 'a' : 'A';
  bool ascii = true;
  for (char ch : s) ascii &= static_cast<unsigned char>(ch) < 0x80;
  const locale_t loc = Utf8Locale();
  if (ascii || loc == static_cast<locale_t>(nullptr)) {
    // ASCII letters as the C locale's toupper / tolower, without a call per byte.
    const size_t start = out->size();
    out->append(s);
    for (size_t k = start; k < out->size(); ++k) {
      char& ch = (*out)[k];
      if (static_cast<unsigned char>(ch - from) < 26) ch = static_cast<char>(ch ^ 0x20);
    }
    return;
  }
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out->push_back(static_cast<unsigned char>(b - from) < 26 ? static_cast<char>(b ^ 0x20) : static_cast<char>(b));
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(s, i);
    if (len == 0) {  // not UTF-8: the byte as it is
      out->push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    const uint32_t c = Decode(s, i, len);
    if (upper && *SpecialUpper(c) != '\0') {
      out->append(SpecialUpper(c));
    } else if (!upper && c == 0x0130) {
      out->append("i\u0307");
    } else if (!upper && c == 0x03A3 && FinalSigma(s, i, len)) {
      Encode(0x03C2, out);
    } else {
      const wint_t m = upper ? towupper_l(static_cast<wint_t>(c), loc) : towlower_l(static_cast<wint_t>(c), loc);
      Encode(static_cast<uint32_t>(m), out);
    }
    i += len;
  }
}

}  // namespace sluice
