#include "connectors/iceberg/iceberg_literal.h"

#include <simdjson.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "common/check.h"
#include "common/time_util.h"
#include "formats/json/json_format.h"
#include "types/value_format.h"

namespace sluice {

namespace {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int64_t kNanosPerDay = 86400 * kNanosPerSecond;

bool IsIntRepresented(IcebergTypeId id) {
  switch (id) {
    case IcebergTypeId::kBoolean:
    case IcebergTypeId::kInt:
    case IcebergTypeId::kLong:
    case IcebergTypeId::kDate:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs:
      return true;
    default:
      return false;
  }
}

bool IsNanos(IcebergTypeId id) { return id == IcebergTypeId::kTimestampNs || id == IcebergTypeId::kTimestampTzNs; }
bool HasZone(IcebergTypeId id) { return id == IcebergTypeId::kTimestampTz || id == IcebergTypeId::kTimestampTzNs; }

void AppendLittleEndian(uint64_t v, int width, std::string* out) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t ReadLittleEndian(std::string_view b) {
  uint64_t v = 0;
  for (size_t i = 0; i < b.size(); ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
  return v;
}

std::string HexOf(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : bytes) {
    out.push_back(kHex[(static_cast<uint8_t>(c) >> 4) & 0xf]);
    out.push_back(kHex[static_cast<uint8_t>(c) & 0xf]);
  }
  return out;
}

std::optional<std::string> ParseHex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = digit(text[i]), lo = digit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string Base64Of(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(n >> s) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t n = uint8_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= uint8_t(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

void AppendTwoDigits(int64_t v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

// "HH:MM:SS" plus exactly `digits` fraction digits of `nanos_of_day` (ISO form of Appendix C).
void AppendIsoTime(int64_t nanos_of_day, int digits, std::string* out) {
  int64_t secs = nanos_of_day / kNanosPerSecond;
  AppendTwoDigits(secs / 3600, out);
  out->push_back(':');
  AppendTwoDigits(secs / 60 % 60, out);
  out->push_back(':');
  AppendTwoDigits(secs % 60, out);
  if (digits > 0) {
    std::string frac = std::to_string(nanos_of_day % kNanosPerSecond + kNanosPerSecond).substr(1);
    out->push_back('.');
    out->append(frac, 0, digits);
  }
}

// Parses "HH:MM[:SS[.fffffffff]]" into nanoseconds of the day.
std::optional<int64_t> ParseIsoTime(std::string_view t) {
  auto num = [&](size_t pos, size_t len) -> std::optional<int64_t> {
    if (pos + len > t.size()) return std::nullopt;
    int64_t v = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (t[i] < '0' || t[i] > '9') return std::nullopt;
      v = v * 10 + (t[i] - '0');
    }
    return v;
  };
  auto h = num(0, 2), m = num(3, 2);
  if (!h || !m || t.size() < 5 || t[2] != ':' || *h > 23 || *m > 59) return std::nullopt;
  int64_t nanos = (*h * 3600 + *m * 60) * kNanosPerSecond;
  if (t.size() == 5) return nanos;
  auto s = num(6, 2);
  if (t[5] != ':' || !s || *s > 59) return std::nullopt;
  nanos += *s * kNanosPerSecond;
  if (t.size() == 8) return nanos;
  if (t[8] != '.' || t.size() > 18 || t.size() == 9) return std::nullopt;
  auto frac = num(9, t.size() - 9);
  if (!frac) return std::nullopt;
  int64_t f = *frac;
  for (size_t d = t.size() - 9; d < 9; ++d) f *= 10;
  return nanos + f;
}

// Parses "YYYY-MM-DDTHH:MM:SS.ffffff[+00:00|Z]" into nanoseconds since the epoch (UTC when zoned).
std::optional<int64_t> ParseIsoTimestamp(std::string_view t, bool zoned) {
  size_t tpos = t.find('T');
  if (tpos == std::string_view::npos) return std::nullopt;
  auto days = ParseDate(t.substr(0, tpos));
  if (!days) return std::nullopt;
  std::string_view rest = t.substr(tpos + 1);
  int64_t offset_nanos = 0;
  if (zoned) {
    if (rest.ends_with("Z")) {
      rest.remove_suffix(1);
    } else {
      if (rest.size() < 6) return std::nullopt;
      std::string_view off = rest.substr(rest.size() - 6);
      if (off[0] != '+' && off[0] != '-') return std::nullopt;
      auto o = ParseIsoTime(off.substr(1));
      if (!o) return std::nullopt;
      offset_nanos = off[0] == '+' ? *o : -*o;
      rest.remove_suffix(6);
    }
  }
  auto time = ParseIsoTime(rest);
  if (!time) return std::nullopt;
  return static_cast<int64_t>(*days) * kNanosPerDay + *time - offset_nanos;
}

// Minimal two's-complement big-endian bytes of `v` (Java's BigInteger.toByteArray).
std::string DecimalBytes(__int128 v) {
  std::string out;
  for (int i = 15; i >= 0; --i) out.push_back(static_cast<char>((static_cast<unsigned __int128>(v) >> (8 * i)) & 0xff));
  size_t start = 0;
  while (start + 1 < out.size()) {
    uint8_t b = out[start], next = out[start + 1];
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xff && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

std::optional<__int128> ParseDecimalText(std::string_view text, int scale) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  __int128 v = 0;
  int frac_digits = -1;
  for (char c : text) {
    if (c == '.' && frac_digits < 0) {
      frac_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (frac_digits >= 0) ++frac_digits;
  }
  if (frac_digits < 0) frac_digits = 0;
  if (frac_digits > scale) return std::nullopt;
  for (int i = frac_digits; i < scale; ++i) v *= 10;
  return negative ? -v : v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Factories

IcebergLiteral IcebergLiteral::Boolean(bool v) { return OfInt(IcebergType::Primitive(IcebergTypeId::kBoolean), v); }
IcebergLiteral IcebergLiteral::Int(int32_t v) { return OfInt(IcebergType::Primitive(IcebergTypeId::kInt), v); }
IcebergLiteral IcebergLiteral::Long(int64_t v) { return OfInt(IcebergType::Primitive(IcebergTypeId::kLong), v); }
IcebergLiteral IcebergLiteral::Date(int32_t v) { return OfInt(IcebergType::Primitive(IcebergTypeId::kDate), v); }
IcebergLiteral IcebergLiteral::Time(int64_t v) { return OfInt(IcebergType::Primitive(IcebergTypeId::kTime), v); }
IcebergLiteral IcebergLiteral::Timestamp(int64_t v) {
  return OfInt(IcebergType::Primitive(IcebergTypeId::kTimestamp), v);
}
IcebergLiteral IcebergLiteral::TimestampTz(int64_t v) {
  return OfInt(IcebergType::Primitive(IcebergTypeId::kTimestampTz), v);
}
IcebergLiteral IcebergLiteral::TimestampNs(int64_t v) {
  return OfInt(IcebergType::Primitive(IcebergTypeId::kTimestampNs), v);
}
IcebergLiteral IcebergLiteral::TimestampTzNs(int64_t v) {
  return OfInt(IcebergType::Primitive(IcebergTypeId::kTimestampTzNs), v);
}

IcebergLiteral IcebergLiteral::OfInt(const IcebergType& type, int64_t v) {
  SLUICE_CHECK(IsIntRepresented(type.id()));
  IcebergLiteral l;
  l.type_ = type;
  l.int_value_ = v;
  return l;
}

IcebergLiteral IcebergLiteral::Float(float v) {
  IcebergLiteral l;
  l.type_ = IcebergType::Primitive(IcebergTypeId::kFloat);
  l.double_value_ = v;
  return l;
}

IcebergLiteral IcebergLiteral::Double(double v) {
  IcebergLiteral l;
  l.type_ = IcebergType::Primitive(IcebergTypeId::kDouble);
  l.double_value_ = v;
  return l;
}

IcebergLiteral IcebergLiteral::Decimal(__int128 unscaled, int precision, int scale) {
  IcebergLiteral l;
  l.type_ = IcebergType::Decimal(precision, scale);
  l.unscaled_ = unscaled;
  return l;
}

IcebergLiteral IcebergLiteral::String(std::string v) {
  IcebergLiteral l;
  l.type_ = IcebergType::Primitive(IcebergTypeId::kString);
  l.bytes_ = std::move(v);
  return l;
}

IcebergLiteral IcebergLiteral::Uuid(std::string bytes16) {
  SLUICE_CHECK_EQ(bytes16.size(), 16u);
  IcebergLiteral l;
  l.type_ = IcebergType::Primitive(IcebergTypeId::kUuid);
  l.bytes_ = std::move(bytes16);
  return l;
}

IcebergLiteral IcebergLiteral::Fixed(std::string bytes) {
  IcebergLiteral l;
  l.type_ = IcebergType::Fixed(static_cast<int32_t>(bytes.size()));
  l.bytes_ = std::move(bytes);
  return l;
}

IcebergLiteral IcebergLiteral::Binary(std::string bytes) {
  IcebergLiteral l;
  l.type_ = IcebergType::Primitive(IcebergTypeId::kBinary);
  l.bytes_ = std::move(bytes);
  return l;
}

// ---------------------------------------------------------------------------------------------
// Binary (Appendix D)

std::string IcebergLiteral::ToBytes() const {
  std::string out;
  switch (type_.id()) {
    case IcebergTypeId::kBoolean: out.push_back(int_value_ != 0 ? 1 : 0); break;
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate: AppendLittleEndian(static_cast<uint64_t>(int_value_), 4, &out); break;
    case IcebergTypeId::kLong:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: AppendLittleEndian(static_cast<uint64_t>(int_value_), 8, &out); break;
    case IcebergTypeId::kFloat:
      AppendLittleEndian(std::bit_cast<uint32_t>(static_cast<float>(double_value_)), 4, &out);
      break;
    case IcebergTypeId::kDouble: AppendLittleEndian(std::bit_cast<uint64_t>(double_value_), 8, &out); break;
    case IcebergTypeId::kDecimal: out = DecimalBytes(unscaled_); break;
    default: out = bytes_; break;
  }
  return out;
}

Result<IcebergLiteral> IcebergLiteral::FromBytes(const IcebergType& type, std::string_view b) {
  auto bad = [&]() {
    return Status::InvalidArgument("malformed " + type.ToString() + " value of " + std::to_string(b.size()) +
                                   " bytes (Iceberg single-value serialization)");
  };
  switch (type.id()) {
    case IcebergTypeId::kBoolean:
      if (b.size() != 1) return bad();
      return Boolean(b[0] != 0);
    case IcebergTypeId::kInt:
    case IcebergTypeId::kDate:
      if (b.size() != 4) return bad();
      return OfInt(type, static_cast<int32_t>(ReadLittleEndian(b)));
    case IcebergTypeId::kLong:
    case IcebergTypeId::kTime:
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs:
      if (b.size() == 4 && type.id() == IcebergTypeId::kLong) {
        return OfInt(type, static_cast<int32_t>(ReadLittleEndian(b)));
      }
      if (b.size() != 8) return bad();
      return OfInt(type, static_cast<int64_t>(ReadLittleEndian(b)));
    case IcebergTypeId::kFloat:
      if (b.size() != 4) return bad();
      return Float(std::bit_cast<float>(static_cast<uint32_t>(ReadLittleEndian(b))));
    case IcebergTypeId::kDouble:
      if (b.size() == 4) return Double(std::bit_cast<float>(static_cast<uint32_t>(ReadLittleEndian(b))));
      if (b.size() != 8) return bad();
      return Double(std::bit_cast<double>(ReadLittleEndian(b)));
    case IcebergTypeId::kDecimal: {
      if (b.empty() || b.size() > 16) return bad();
      __int128 v = static_cast<int8_t>(b[0]);  // sign-extends
      for (size_t i = 1; i < b.size(); ++i) v = v * 256 + static_cast<uint8_t>(b[i]);
      return Decimal(v, type.precision(), type.scale());
    }
    case IcebergTypeId::kString: return String(std::string(b));
    case IcebergTypeId::kUuid:
      if (b.size() != 16) return bad();
      return Uuid(std::string(b));
    case IcebergTypeId::kFixed: {
      if (static_cast<int32_t>(b.size()) != type.length()) return bad();
      return Fixed(std::string(b));
    }
    case IcebergTypeId::kBinary: return Binary(std::string(b));
    default:
      return Status::InvalidArgument("a " + type.ToString() + " has no single-value serialization");
  }
}

// ---------------------------------------------------------------------------------------------
// JSON (Appendix C)

std::string IcebergLiteral::ToJson() const {
  std::string out;
  IcebergTypeId id = type_.id();
  switch (id) {
    case IcebergTypeId::kBoolean: return int_value_ != 0 ? "true" : "false";
    case IcebergTypeId::kInt:
    case IcebergTypeId::kLong: return std::to_string(int_value_);
    case IcebergTypeId::kFloat:
    case IcebergTypeId::kDouble: {
      char buf[64];
      auto [p, ec] = id == IcebergTypeId::kFloat
                         ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(double_value_))
                         : std::to_chars(buf, buf + sizeof(buf), double_value_);
      return std::string(buf, p);
    }
    case IcebergTypeId::kDecimal:
      out.push_back('"');
      AppendDecimalText(unscaled_, type_.scale(), &out);
      out.push_back('"');
      return out;
    case IcebergTypeId::kDate: AppendJsonString(FormatDate(static_cast<int32_t>(int_value_)), &out); return out;
    case IcebergTypeId::kTime: {
      std::string t;
      AppendIsoTime(int_value_ * kNanosPerMicro, 6, &t);
      AppendJsonString(t, &out);
      return out;
    }
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: {
      int64_t per_day = IsNanos(id) ? kNanosPerDay : kNanosPerDay / kNanosPerMicro;
      int64_t days = FloorDiv(int_value_, per_day);
      int64_t in_day = FloorMod(int_value_, per_day) * (IsNanos(id) ? 1 : kNanosPerMicro);
      std::string t = FormatDate(static_cast<int32_t>(days)) + "T";
      AppendIsoTime(in_day, IsNanos(id) ? 9 : 6, &t);
      if (HasZone(id)) t += "+00:00";
      AppendJsonString(t, &out);
      return out;
    }
    case IcebergTypeId::kString: AppendJsonString(bytes_, &out); return out;
    case IcebergTypeId::kUuid: AppendJsonString(FormatUuid(bytes_), &out); return out;
    default: AppendJsonString(HexOf(bytes_), &out); return out;
  }
}

Result<IcebergLiteral> IcebergLiteral::FromJson(const IcebergType& type, std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  auto bad = [&]() {
    return Status::InvalidArgument("cannot read '" + std::string(json) + "' as an Iceberg " + type.ToString() +
                                   " value (JSON single-value serialization)");
  };
  if (parser.parse(json.data(), json.size()).get(e) != simdjson::SUCCESS) return bad();
  IcebergTypeId id = type.id();
  std::string_view text;
  bool is_string = e.get_string().get(text) == simdjson::SUCCESS;
  switch (id) {
    case IcebergTypeId::kBoolean: {
      bool v;
      if (e.get_bool().get(v) != simdjson::SUCCESS) return bad();
      return Boolean(v);
    }
    case IcebergTypeId::kInt:
    case IcebergTypeId::kLong: {
      int64_t v;
      if (e.get_int64().get(v) != simdjson::SUCCESS) return bad();
      if (id == IcebergTypeId::kInt && (v < INT32_MIN || v > INT32_MAX)) return bad();
      return OfInt(type, v);
    }
    case IcebergTypeId::kFloat:
    case IcebergTypeId::kDouble: {
      double v;
      if (e.get_double().get(v) != simdjson::SUCCESS) return bad();
      return id == IcebergTypeId::kFloat ? Float(static_cast<float>(v)) : Double(v);
    }
    case IcebergTypeId::kDecimal: {
      if (!is_string) return bad();
      auto v = ParseDecimalText(text, type.scale());
      if (!v) return bad();
      return Decimal(*v, type.precision(), type.scale());
    }
    case IcebergTypeId::kDate: {
      auto d = is_string ? ParseDate(text) : std::nullopt;
      if (!d) return bad();
      return Date(*d);
    }
    case IcebergTypeId::kTime: {
      auto t = is_string ? ParseIsoTime(text) : std::nullopt;
      if (!t) return bad();
      return Time(*t / kNanosPerMicro);
    }
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: {
      auto t = is_string ? ParseIsoTimestamp(text, HasZone(id)) : std::nullopt;
      if (!t) return bad();
      return OfInt(type, IsNanos(id) ? *t : FloorDiv(*t, kNanosPerMicro));
    }
    case IcebergTypeId::kString:
      if (!is_string) return bad();
      return String(std::string(text));
    case IcebergTypeId::kUuid: {
      auto u = is_string ? ParseUuid(text) : std::nullopt;
      if (!u) return bad();
      return Uuid(*u);
    }
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kBinary: {
      auto h = is_string ? ParseHex(text) : std::nullopt;
      if (!h || (id == IcebergTypeId::kFixed && static_cast<int32_t>(h->size()) != type.length())) return bad();
      return id == IcebergTypeId::kFixed ? Fixed(*h) : Binary(*h);
    }
    default:
      return bad();
  }
}

// ---------------------------------------------------------------------------------------------
// Human strings, comparison

void AppendJavaLocalTime(int64_t nanos_of_day, std::string* out) {
  int64_t secs = nanos_of_day / kNanosPerSecond;
  int64_t nanos = nanos_of_day % kNanosPerSecond;
  AppendTwoDigits(secs / 3600, out);
  out->push_back(':');
  AppendTwoDigits(secs / 60 % 60, out);
  if (secs % 60 == 0 && nanos == 0) return;
  out->push_back(':');
  AppendTwoDigits(secs % 60, out);
  if (nanos == 0) return;
  std::string frac = std::to_string(nanos + kNanosPerSecond).substr(1);
  out->push_back('.');
  if (nanos % 1000000 == 0) {
    out->append(frac, 0, 3);
  } else if (nanos % 1000 == 0) {
    out->append(frac, 0, 6);
  } else {
    out->append(frac);
  }
}

std::string IcebergLiteral::ToHumanString() const {
  std::string out;
  IcebergTypeId id = type_.id();
  switch (id) {
    case IcebergTypeId::kBoolean: return int_value_ != 0 ? "true" : "false";
    case IcebergTypeId::kInt:
    case IcebergTypeId::kLong: return std::to_string(int_value_);
    case IcebergTypeId::kFloat: AppendFloatText(static_cast<float>(double_value_), &out); return out;
    case IcebergTypeId::kDouble: AppendDoubleText(double_value_, &out); return out;
    case IcebergTypeId::kDecimal: AppendDecimalText(unscaled_, type_.scale(), &out); return out;
    case IcebergTypeId::kDate: return FormatDate(static_cast<int32_t>(int_value_));
    case IcebergTypeId::kTime: AppendJavaLocalTime(int_value_ * kNanosPerMicro, &out); return out;
    case IcebergTypeId::kTimestamp:
    case IcebergTypeId::kTimestampTz:
    case IcebergTypeId::kTimestampNs:
    case IcebergTypeId::kTimestampTzNs: {
      int64_t per_day = IsNanos(id) ? kNanosPerDay : kNanosPerDay / kNanosPerMicro;
      out = FormatDate(static_cast<int32_t>(FloorDiv(int_value_, per_day))) + "T";
      AppendJavaLocalTime(FloorMod(int_value_, per_day) * (IsNanos(id) ? 1 : kNanosPerMicro), &out);
      if (HasZone(id)) out += "Z";
      return out;
    }
    case IcebergTypeId::kString: return bytes_;
    case IcebergTypeId::kUuid: return FormatUuid(bytes_);
    default: return Base64Of(bytes_);
  }
}

int IcebergLiteral::Compare(const IcebergLiteral& other) const {
  switch (type_.id()) {
    case IcebergTypeId::kFloat:
    case IcebergTypeId::kDouble: {
      bool a_nan = std::isnan(double_value_), b_nan = std::isnan(other.double_value_);
      if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
      return double_value_ < other.double_value_ ? -1 : (double_value_ > other.double_value_ ? 1 : 0);
    }
    case IcebergTypeId::kDecimal:
      return unscaled_ < other.unscaled_ ? -1 : (unscaled_ > other.unscaled_ ? 1 : 0);
    case IcebergTypeId::kString:
    case IcebergTypeId::kUuid:
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kBinary: {
      int c = bytes_.compare(other.bytes_);  // char_traits<char>::compare is unsigned-byte order
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return int_value_ < other.int_value_ ? -1 : (int_value_ > other.int_value_ ? 1 : 0);
  }
}

bool IcebergLiteral::operator==(const IcebergLiteral& other) const {
  return type_ == other.type_ && int_value_ == other.int_value_ &&
         std::bit_cast<uint64_t>(double_value_) == std::bit_cast<uint64_t>(other.double_value_) &&
         unscaled_ == other.unscaled_ && bytes_ == other.bytes_;
}

std::string FormatUuid(std::string_view bytes16) {
  std::string hex = HexOf(bytes16);
  for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (hex.size() != 32) return hex;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

std::optional<std::string> ParseUuid(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-') {
    return std::nullopt;
  }
  std::string hex;
  for (char c : text) {
    if (c != '-') hex.push_back(c);
  }
  return ParseHex(hex);
}

}  // namespace sluice
