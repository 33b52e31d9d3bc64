#include "connectors/iceberg/partition_transforms.h"

#include <cstring>

#include "common/check.h"
#include "common/time_util.h"

namespace sluice {

// ---------------------------------------------------------------------------------------------
// Hashing (Appendix B)

namespace {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

inline uint32_t MixK1(uint32_t k1) {
  k1 *= 0xcc9e2d51u;
  k1 = Rotl32(k1, 15);
  return k1 * 0x1b873593u;
}

inline uint32_t MixH1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = Rotl32(h1, 13);
  return h1 * 5 + 0xe6546b64u;
}

inline uint32_t Fmix(uint32_t h, uint32_t length) {
  h ^= length;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

}  // namespace

int32_t Murmur3Hash32(std::string_view data) {
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t n = data.size();
  uint32_t h1 = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    uint32_t k1 = uint32_t(p[i]) | (uint32_t(p[i + 1]) << 8) | (uint32_t(p[i + 2]) << 16) | (uint32_t(p[i + 3]) << 24);
    h1 = MixH1(h1, MixK1(k1));
  }
  uint32_t k1 = 0;
  switch (n - i) {
    case 3: k1 ^= uint32_t(p[i + 2]) << 16; [[fallthrough]];
    case 2: k1 ^= uint32_t(p[i + 1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= uint32_t(p[i]);
      h1 ^= MixK1(k1);
      break;
    default: break;
  }
  return static_cast<int32_t>(Fmix(h1, static_cast<uint32_t>(n)));
}

int32_t IcebergHashLong(int64_t v) {
  auto u = static_cast<uint64_t>(v);
  uint32_t h1 = MixH1(0, MixK1(static_cast<uint32_t>(u)));
  h1 = MixH1(h1, MixK1(static_cast<uint32_t>(u >> 32)));
  return static_cast<int32_t>(Fmix(h1, 8));
}

int32_t IcebergHashDecimal(__int128 unscaled) {
  return Murmur3Hash32(IcebergLiteral::Decimal(unscaled, 38, 0).ToBytes());
}

// ---------------------------------------------------------------------------------------------
// Scalar pieces shared by the column and value paths

namespace {

constexpr int64_t kMicrosPerHourI = 3600LL * 1000000;

int32_t YearsFromDays(int64_t days) { return static_cast<int32_t>(CivilFromDays(days).year - 1970); }
int32_t MonthsFromDays(int64_t days) {
  CivilDate d = CivilFromDays(days);
  return static_cast<int32_t>((d.year - 1970) * 12 + (d.month - 1));
}

// Truncates UTF-8 `s` to at most `width` code points.
std::string_view TruncateUtf8(std::string_view s, int32_t width) {
  int32_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<uint8_t>(s[i]) & 0xC0) != 0x80) {
      if (points == width) return s.substr(0, i);
      ++points;
    }
  }
  return s;
}

template <typename T>
T TruncateInteger(T v, int64_t width) {
  return static_cast<T>(v - (((v % width) + width) % width));
}

// The source's int64 time value in micros (TIMESTAMP/TIMESTAMP_LTZ are micros in Sluice vectors).
Status CheckTemporalInput(const Transform& t, const LogicalType& type) {
  if (type.id() == TypeId::kDate || type.IsTimestamp()) return Status::OK();
  return Status::InvalidArgument("Iceberg transform " + t.ToString() + " cannot be applied to a column of type " +
                                 type.ToString());
}

// Reads row i of an integral-or-temporal vector as int64 in Iceberg's representation (TIME -> micros).
int64_t IntegralAt(const Vector& v, size_t i) {
  switch (v.type().id()) {
    case TypeId::kTinyInt: return v.data<int8_t>()[i];
    case TypeId::kSmallInt: return v.data<int16_t>()[i];
    case TypeId::kInteger:
    case TypeId::kDate: return v.data<int32_t>()[i];
    case TypeId::kTime: return int64_t{v.data<int32_t>()[i]} * 1000;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: return v.data<int64_t>()[i];
    default: SLUICE_UNREACHABLE();
  }
}

// Calls f(const T* data, int64_t scale) once with the column's physical array, so loops over rows
// compile per type with no per-row dispatch; `scale` converts to Iceberg's unit (TIME: ms -> micros).
template <typename F>
void WithIntegralData(const Vector& v, F&& f) {
  switch (v.type().id()) {
    case TypeId::kTinyInt: f(v.data<int8_t>(), 1); break;
    case TypeId::kSmallInt: f(v.data<int16_t>(), 1); break;
    case TypeId::kInteger:
    case TypeId::kDate: f(v.data<int32_t>(), 1); break;
    case TypeId::kTime: f(v.data<int32_t>(), 1000); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: f(v.data<int64_t>(), 1); break;
    default: SLUICE_UNREACHABLE();
  }
}

void CopyValidity(const Vector& input, Vector* out) {
  if (!input.MayHaveNulls()) return;
  std::memcpy(out->mutable_validity(), input.validity(), input.size());
}

Status BucketColumn(int32_t n, const Vector& input, Vector* out) {
  *out = Vector(LogicalType::Integer(), input.size());
  int32_t* dst = out->data<int32_t>();
  size_t rows = input.size();
  switch (input.type().id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
      WithIntegralData(input, [&](const auto* src, int64_t scale) {
        for (size_t i = 0; i < rows; ++i) dst[i] = BucketOf(IcebergHashLong(int64_t{src[i]} * scale), n);
      });
      break;
    case TypeId::kDecimal: {
      const __int128* src = input.data<__int128>();
      for (size_t i = 0; i < rows; ++i) dst[i] = input.IsValid(i) ? BucketOf(IcebergHashDecimal(src[i]), n) : 0;
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: {
      const std::string_view* src = input.data<std::string_view>();
      for (size_t i = 0; i < rows; ++i) dst[i] = input.IsValid(i) ? BucketOf(Murmur3Hash32(src[i]), n) : 0;
      break;
    }
    default:
      return Status::InvalidArgument("Iceberg transform bucket[" + std::to_string(n) +
                                     "] cannot be applied to a column of type " + input.type().ToString());
  }
  CopyValidity(input, out);
  return Status::OK();
}

Status TruncateColumn(int32_t w, const Vector& input, Vector* out) {
  size_t rows = input.size();
  *out = Vector(input.type(), rows);
  switch (input.type().id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      // Iceberg computes truncate[W] of an int in 32 bits and of a long in 64 (wrapping at the ends of
      // the range as Java does); TINYINT and SMALLINT columns are Iceberg ints, so their results are
      // INTEGER (-128 truncated by 10 is -130).
      if (input.type().id() != TypeId::kBigInt) *out = Vector(LogicalType::Integer().WithNullable(true), rows);
      WithIntegralData(input, [&](const auto* src, int64_t) {
        if (input.type().id() == TypeId::kBigInt) {
          int64_t* dst = out->data<int64_t>();
          for (size_t i = 0; i < rows; ++i) dst[i] = TruncateInteger<int64_t>(int64_t{src[i]}, w);
        } else {
          int32_t* dst = out->data<int32_t>();
          for (size_t i = 0; i < rows; ++i) dst[i] = static_cast<int32_t>(TruncateInteger<int64_t>(int64_t{src[i]}, w));
        }
      });
      break;
    case TypeId::kDecimal: {
      const __int128* src = input.data<__int128>();
      __int128* dst = out->data<__int128>();
      for (size_t i = 0; i < rows; ++i) dst[i] = TruncateInteger<__int128>(src[i], w);
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kVarBinary: {
      out->ShareHeapsWith(input);
      const std::string_view* src = input.data<std::string_view>();
      std::string_view* dst = out->data<std::string_view>();
      bool text = input.type().IsCharacterString();
      for (size_t i = 0; i < rows; ++i) {
        std::string_view s = src[i];
        dst[i] = text ? TruncateUtf8(s, w) : s.substr(0, std::min<size_t>(s.size(), static_cast<size_t>(w)));
      }
      break;
    }
    default:
      return Status::InvalidArgument("Iceberg transform truncate[" + std::to_string(w) +
                                     "] cannot be applied to a column of type " + input.type().ToString());
  }
  CopyValidity(input, out);
  return Status::OK();
}

Status TemporalColumn(const Transform& t, const Vector& input, Vector* out) {
  RETURN_IF_ERROR(CheckTemporalInput(t, input.type()));
  bool is_date = input.type().id() == TypeId::kDate;
  if (is_date && t.kind == TransformKind::kHour) {
    return Status::InvalidArgument("Iceberg transform hour cannot be applied to a column of type DATE");
  }
  size_t rows = input.size();
  *out = Vector(t.kind == TransformKind::kDay ? LogicalType::Date() : LogicalType::Integer(), rows);
  int32_t* dst = out->data<int32_t>();
  for (size_t i = 0; i < rows; ++i) {
    int64_t v = is_date ? input.data<int32_t>()[i] : input.data<int64_t>()[i];
    int64_t days = is_date ? v : FloorDiv(v, kMicrosPerDay);
    switch (t.kind) {
      case TransformKind::kYear: dst[i] = YearsFromDays(days); break;
      case TransformKind::kMonth: dst[i] = MonthsFromDays(days); break;
      case TransformKind::kDay: dst[i] = static_cast<int32_t>(days); break;
      default: dst[i] = static_cast<int32_t>(FloorDiv(v, kMicrosPerHourI)); break;
    }
  }
  CopyValidity(input, out);
  return Status::OK();
}

}  // namespace

Status ApplyTransform(const Transform& transform, const IcebergType& source, const Vector& input, Vector* out) {
  RETURN_IF_ERROR(transform.ResultType(source).status());
  switch (transform.kind) {
    case TransformKind::kIdentity:
      *out = input;
      return Status::OK();
    case TransformKind::kVoid: {
      *out = Vector(input.type().WithNullable(true), input.size());
      uint8_t* validity = out->mutable_validity();
      std::memset(validity, 0, input.size());
      return Status::OK();
    }
    case TransformKind::kBucket:
      return BucketColumn(transform.param, input, out);
    case TransformKind::kTruncate:
      return TruncateColumn(transform.param, input, out);
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
    case TransformKind::kHour:
      return TemporalColumn(transform, input, out);
    case TransformKind::kUnknown:
      break;
  }
  return Status::NotSupported("Iceberg transform '" + transform.ToString() + "' is not supported by Sluice");
}

// ---------------------------------------------------------------------------------------------
// One value

Result<std::optional<IcebergLiteral>> ApplyTransform(const Transform& transform, const IcebergType& source,
                                                     const std::optional<IcebergLiteral>& value) {
  RETURN_IF_ERROR(transform.ResultType(source).status());
  if (!value || transform.kind == TransformKind::kVoid) return std::optional<IcebergLiteral>();
  const IcebergLiteral& v = *value;
  auto some = [](IcebergLiteral l) { return std::optional<IcebergLiteral>(std::move(l)); };
  IcebergTypeId id = source.id();
  bool nanos = id == IcebergTypeId::kTimestampNs || id == IcebergTypeId::kTimestampTzNs;
  switch (transform.kind) {
    case TransformKind::kIdentity:
      return some(v);
    case TransformKind::kBucket: {
      int32_t hash;
      switch (id) {
        case IcebergTypeId::kDecimal: hash = IcebergHashDecimal(v.unscaled()); break;
        case IcebergTypeId::kString:
        case IcebergTypeId::kUuid:
        case IcebergTypeId::kFixed:
        case IcebergTypeId::kBinary: hash = Murmur3Hash32(v.bytes()); break;
        default: hash = IcebergHashLong(nanos ? FloorDiv(v.int_value(), 1000) : v.int_value()); break;
      }
      return some(IcebergLiteral::Int(BucketOf(hash, transform.param)));
    }
    case TransformKind::kTruncate:
      switch (id) {
        case IcebergTypeId::kInt:
          return some(IcebergLiteral::Int(
              static_cast<int32_t>(TruncateInteger<int64_t>(v.int_value(), transform.param))));
        case IcebergTypeId::kLong:
          return some(IcebergLiteral::Long(TruncateInteger<int64_t>(v.int_value(), transform.param)));
        case IcebergTypeId::kDecimal:
          return some(IcebergLiteral::Decimal(
              TruncateInteger<__int128>(v.unscaled(), transform.param), source.precision(), source.scale()));
        case IcebergTypeId::kString:
          return some(IcebergLiteral::String(std::string(TruncateUtf8(v.bytes(), transform.param))));
        default:
          return some(IcebergLiteral::Binary(v.bytes().substr(0, static_cast<size_t>(transform.param))));
      }
    default: {
      int64_t micros_or_days = nanos ? FloorDiv(v.int_value(), 1000) : v.int_value();
      bool is_date = id == IcebergTypeId::kDate;
      int64_t days = is_date ? micros_or_days : FloorDiv(micros_or_days, kMicrosPerDay);
      if (transform.kind == TransformKind::kYear) return some(IcebergLiteral::Int(YearsFromDays(days)));
      if (transform.kind == TransformKind::kMonth) return some(IcebergLiteral::Int(MonthsFromDays(days)));
      if (transform.kind == TransformKind::kDay) return some(IcebergLiteral::Date(static_cast<int32_t>(days)));
      return some(IcebergLiteral::Int(static_cast<int32_t>(FloorDiv(micros_or_days, kMicrosPerHourI))));
    }
  }
}

Result<std::optional<IcebergLiteral>> LiteralFromVector(const Vector& column, size_t row, const IcebergType& type) {
  if (column.IsNull(row)) return std::optional<IcebergLiteral>();
  const LogicalType& lt = column.type();
  auto mismatch = [&]() {
    return Status::InvalidArgument("a column of type " + lt.ToString() + " cannot hold Iceberg " + type.ToString() +
                                   " values");
  };
  switch (type.id()) {
    case IcebergTypeId::kBoolean:
      if (lt.id() != TypeId::kBoolean) return mismatch();
      return std::optional<IcebergLiteral>(IcebergLiteral::Boolean(column.data<uint8_t>()[row] != 0));
    case IcebergTypeId::kFloat:
      if (lt.id() != TypeId::kFloat) return mismatch();
      return std::optional<IcebergLiteral>(IcebergLiteral::Float(column.data<float>()[row]));
    case IcebergTypeId::kDouble:
      if (lt.id() != TypeId::kDouble && lt.id() != TypeId::kFloat) return mismatch();
      return std::optional<IcebergLiteral>(IcebergLiteral::Double(
          lt.id() == TypeId::kFloat ? column.data<float>()[row] : column.data<double>()[row]));
    case IcebergTypeId::kDecimal:
      if (lt.id() != TypeId::kDecimal) return mismatch();
      return std::optional<IcebergLiteral>(
          IcebergLiteral::Decimal(column.data<__int128>()[row], type.precision(), type.scale()));
    case IcebergTypeId::kString:
      if (!lt.IsCharacterString()) return mismatch();
      return std::optional<IcebergLiteral>(IcebergLiteral::String(std::string(column.GetString(row))));
    case IcebergTypeId::kUuid:
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kBinary: {
      if (!lt.IsBinaryString()) return mismatch();
      std::string bytes(column.GetString(row));
      if (type.id() == IcebergTypeId::kUuid) {
        if (bytes.size() != 16) return mismatch();
        return std::optional<IcebergLiteral>(IcebergLiteral::Uuid(std::move(bytes)));
      }
      if (type.id() == IcebergTypeId::kFixed) {
        return std::optional<IcebergLiteral>(IcebergLiteral::Fixed(std::move(bytes)));
      }
      return std::optional<IcebergLiteral>(IcebergLiteral::Binary(std::move(bytes)));
    }
    case IcebergTypeId::kStruct:
    case IcebergTypeId::kList:
    case IcebergTypeId::kMap:
      return mismatch();
    default: {
      bool integral = lt.IsIntegral() || lt.id() == TypeId::kDate || lt.id() == TypeId::kTime || lt.IsTimestamp();
      if (!integral) return mismatch();
      int64_t v = IntegralAt(column, row);
      // Sluice keeps timestamps in micros; the _ns types hold nanos.
      if (type.id() == IcebergTypeId::kTimestampNs || type.id() == IcebergTypeId::kTimestampTzNs) v *= 1000;
      return std::optional<IcebergLiteral>(IcebergLiteral::OfInt(type, v));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Human strings and paths

std::string PartitionValueHumanString(const Transform& transform, const std::optional<IcebergLiteral>& value) {
  if (!value) return "null";
  int64_t v = value->int_value();
  switch (transform.kind) {
    case TransformKind::kYear:
      return std::to_string(1970 + v);
    case TransformKind::kMonth: {
      int64_t year = 1970 + FloorDiv(v, 12);
      int64_t month = FloorMod(v, 12) + 1;
      std::string out = std::to_string(year);
      out.insert(0, year >= 0 && out.size() < 4 ? 4 - out.size() : 0, '0');
      out += month < 10 ? "-0" : "-";
      return out + std::to_string(month);
    }
    case TransformKind::kDay:
      return FormatDate(static_cast<int32_t>(v));
    case TransformKind::kHour: {
      std::string out = FormatDate(static_cast<int32_t>(FloorDiv(v, 24)));
      int64_t hour = FloorMod(v, 24);
      return out + (hour < 10 ? "-0" : "-") + std::to_string(hour);
    }
    default:
      return value->ToHumanString();
  }
}

std::string UrlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '.' || c == '-' || c == '*' || c == '_') {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string PartitionPath(const PartitionSpec& spec, const std::vector<std::optional<IcebergLiteral>>& values) {
  SLUICE_CHECK_EQ(spec.fields().size(), values.size());
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back('/');
    out += UrlEncode(spec.fields()[i].name);
    out.push_back('=');
    out += UrlEncode(PartitionValueHumanString(spec.fields()[i].transform, values[i]));
  }
  return out;
}

}  // namespace sluice
