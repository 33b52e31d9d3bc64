#include "formats/parquet/leaf_conversion.h"

#include <algorithm>
#include <cstring>

#include "formats/parquet/value_decoders.h"
#include "types/vector.h"

namespace sluice::parquet {

namespace {

using Kind = LeafConversion::Kind;

size_t PhysicalWidth(Type t) {
  switch (t) {
    case Type::BOOLEAN: return 1;
    case Type::INT32:
    case Type::FLOAT: return 4;
    case Type::INT64:
    case Type::DOUBLE: return 8;
    case Type::INT96: return sizeof(Int96);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return sizeof(std::string_view);
  }
  return 0;
}

// The time unit of an INT64 TIMESTAMP/TIME column (logical type first, then the converted type).
TimeUnit UnitOf(const SchemaElement& e) {
  if (e.logical_type.kind == LogicalTypeAnnotation::Kind::TIMESTAMP ||
      e.logical_type.kind == LogicalTypeAnnotation::Kind::TIME) {
    return e.logical_type.unit;
  }
  if (e.converted_type == ConvertedType::TIMESTAMP_MILLIS || e.converted_type == ConvertedType::TIME_MILLIS) {
    return TimeUnit::MILLIS;
  }
  return TimeUnit::MICROS;
}

int IntegralRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger: return 3;
    case TypeId::kBigInt: return 4;
    default: return 0;
  }
}

Status Mismatch(const LogicalType& natural, const LogicalType& requested) {
  return Status::InvalidArgument("cannot read a Parquet column of type " + natural.ToString() + " as " +
                                 requested.ToString());
}

Result<Kind> IntegerKind(const LogicalType& natural, const LogicalType& requested) {
  int from = IntegralRank(natural.id());
  int to = IntegralRank(requested.id());
  if (to == 0 || to < from) return Mismatch(natural, requested);
  switch (requested.id()) {
    case TypeId::kTinyInt: return Kind::kInt32ToInt8;
    case TypeId::kSmallInt: return Kind::kInt32ToInt16;
    case TypeId::kInteger: return Kind::kCopy;
    default: return natural.id() == TypeId::kBigInt ? Kind::kUInt32ToInt64 : Kind::kInt32ToInt64;
  }
}

}  // namespace

Result<LeafConversion> ChooseConversion(const ParquetSchema& schema, const ColumnDescriptor& column,
                                        const LogicalType& requested) {
  const SchemaNode& node = schema.node(column.node);
  if (!node.unsupported.empty()) return Status::NotSupported(node.unsupported);
  const SchemaElement& e = node.element;
  const LogicalType& natural = node.sluice_type;
  LeafConversion c;
  c.physical = column.physical_type;
  c.physical_width = PhysicalWidth(c.physical);
  c.type_length = c.physical == Type::FIXED_LEN_BYTE_ARRAY ? static_cast<size_t>(std::max(column.type_length, 0)) : 0;
  c.target = requested;
  c.target_width = requested.PhysicalWidth();
  const TypeId want = requested.id();
  const TypeId have = natural.id();
  if (have == TypeId::kDecimal) {
    if (want != TypeId::kDecimal || requested.scale() != natural.scale() || requested.precision() < natural.precision()) {
      return Mismatch(natural, requested);
    }
    c.kind = c.physical == Type::INT32   ? Kind::kInt32ToDecimal
             : c.physical == Type::INT64 ? Kind::kInt64ToDecimal
                                         : Kind::kBytesToDecimal;
    if (c.physical != Type::INT32 && c.physical != Type::INT64 && c.physical != Type::BYTE_ARRAY &&
        c.physical != Type::FIXED_LEN_BYTE_ARRAY) {
      return Mismatch(natural, requested);
    }
    return c;
  }
  switch (c.physical) {
    case Type::BOOLEAN:
      if (want != TypeId::kBoolean) return Mismatch(natural, requested);
      c.kind = Kind::kCopy;
      return c;
    case Type::INT32: {
      if (have == TypeId::kDate || have == TypeId::kTime) {
        if (want != have) return Mismatch(natural, requested);
        c.kind = Kind::kCopy;
        return c;
      }
      ASSIGN_OR_RETURN(c.kind, IntegerKind(natural, requested));
      return c;
    }
    case Type::INT64: {
      if (natural.IsTimestamp()) {
        if (!requested.IsTimestamp()) return Mismatch(natural, requested);
        TimeUnit u = UnitOf(e);
        c.kind = u == TimeUnit::MICROS ? Kind::kCopy : Kind::kInt64Scale;
        if (u == TimeUnit::MILLIS) c.multiplier = 1000;
        if (u == TimeUnit::NANOS) c.divisor = 1000;
        return c;
      }
      if (have == TypeId::kTime) {
        if (want != TypeId::kTime) return Mismatch(natural, requested);
        TimeUnit u = UnitOf(e);
        c.kind = Kind::kInt64ToTime;
        c.divisor = u == TimeUnit::MILLIS ? 1 : u == TimeUnit::MICROS ? 1000 : 1000000;
        return c;
      }
      if (want != TypeId::kBigInt) return Mismatch(natural, requested);
      c.kind = Kind::kCopy;
      return c;
    }
    case Type::INT96:
      if (!requested.IsTimestamp()) return Mismatch(natural, requested);
      c.kind = Kind::kInt96ToMicros;
      return c;
    case Type::FLOAT:
      if (want == TypeId::kFloat) {
        c.kind = Kind::kCopy;
      } else if (want == TypeId::kDouble) {
        c.kind = Kind::kFloatToDouble;
      } else {
        return Mismatch(natural, requested);
      }
      return c;
    case Type::DOUBLE:
      if (want != TypeId::kDouble) return Mismatch(natural, requested);
      c.kind = Kind::kCopy;
      return c;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (c.physical == Type::FIXED_LEN_BYTE_ARRAY && column.type_length <= 0) {
        return Status::InvalidArgument("FIXED_LEN_BYTE_ARRAY column without a positive type_length");
      }
      if (e.logical_type.kind == LogicalTypeAnnotation::Kind::UUID && requested.IsCharacterString()) {
        if (column.type_length != 16) return Mismatch(natural, requested);
        c.kind = Kind::kUuidToString;
        return c;
      }
      if (!requested.IsStringLike()) return Mismatch(natural, requested);
      c.kind = Kind::kCopy;
      return c;
  }
  return Mismatch(natural, requested);
}

namespace {

template <typename From, typename To>
void Cast(const void* src, size_t n, void* dst) {
  const From* s = static_cast<const From*>(src);
  To* d = static_cast<To*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = static_cast<To>(s[i]);
}

inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0)) ? q - 1 : q;
}

// The common case, FIXED_LEN_BYTE_ARRAY of W <= 8 bytes: a constant-size load per value. `at(i)`
// gives value i's bytes.
template <size_t W, typename At>
void FixedToDecimal(At at, size_t n, __int128* d) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, at(i), W);
    d[i] = static_cast<int64_t>(__builtin_bswap64(v)) >> (64 - 8 * W);
  }
}

template <typename At>
bool FixedWidthToDecimal(At at, size_t n, size_t width, __int128* d) {
  switch (width) {
    case 1: FixedToDecimal<1>(at, n, d); return true;
    case 2: FixedToDecimal<2>(at, n, d); return true;
    case 3: FixedToDecimal<3>(at, n, d); return true;
    case 4: FixedToDecimal<4>(at, n, d); return true;
    case 5: FixedToDecimal<5>(at, n, d); return true;
    case 6: FixedToDecimal<6>(at, n, d); return true;
    case 7: FixedToDecimal<7>(at, n, d); return true;
    case 8: FixedToDecimal<8>(at, n, d); return true;
    default: return false;
  }
}

Status BytesToDecimal(const std::string_view* s, size_t n, __int128* d) {
  for (size_t i = 0; i < n; ++i) {
    const auto* p = reinterpret_cast<const uint8_t*>(s[i].data());
    size_t len = s[i].size();
    if (len == 0) {
      d[i] = 0;
      continue;
    }
    // Bytes beyond 16 must be pure sign extension.
    if (len > 16) {
      size_t skip = len - 16;
      uint8_t ext = (p[skip] & 0x80) ? 0xff : 0x00;
      for (size_t k = 0; k < skip; ++k) {
        if (p[k] != ext) return Status::InvalidArgument("a DECIMAL value of " + std::to_string(len) + " bytes exceeds 38 digits");
      }
      p += skip;
      len = 16;
    }
    if (len <= 8) {
      // The bytes at the top of a 64-bit word, then an arithmetic shift extends the sign.
      uint64_t v = 0;
      std::memcpy(&v, p, len);
      d[i] = static_cast<int64_t>(__builtin_bswap64(v)) >> (64 - 8 * len);
      continue;
    }
    // Right-align the big-endian bytes in 16, sign-extended, and swap to the machine's order.
    uint8_t buf[16];
    std::memset(buf, (p[0] & 0x80) ? 0xff : 0x00, 16);
    std::memcpy(buf + 16 - len, p, len);
    uint64_t hi, lo;
    std::memcpy(&hi, buf, 8);
    std::memcpy(&lo, buf + 8, 8);
    d[i] = static_cast<__int128>((static_cast<unsigned __int128>(__builtin_bswap64(hi)) << 64) | __builtin_bswap64(lo));
  }
  return Status::OK();
}

void UuidToString(const std::string_view* s, size_t n, std::string_view* d, StringHeap* heap) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    char* out = heap->Allocate(36);
    size_t o = 0;
    for (size_t k = 0; k < 16; ++k) {
      if (k == 4 || k == 6 || k == 8 || k == 10) out[o++] = '-';
      auto b = static_cast<uint8_t>(s[i][k]);
      out[o++] = kHex[b >> 4];
      out[o++] = kHex[b & 15];
    }
    d[i] = std::string_view(out, 36);
  }
}

}  // namespace

bool DecimalsFromContiguous(const uint8_t* src, size_t n, size_t width, __int128* dst) {
  return FixedWidthToDecimal([src, width](size_t i) { return src + i * width; }, n, width, dst);
}

Status Convert(const LeafConversion& conv, const void* src, size_t n, void* dst, StringHeap* heap) {
  switch (conv.kind) {
    case Kind::kCopy:
      if (src != dst) std::memmove(dst, src, n * conv.target_width);
      return Status::OK();
    case Kind::kInt32ToInt8: Cast<int32_t, int8_t>(src, n, dst); return Status::OK();
    case Kind::kInt32ToInt16: Cast<int32_t, int16_t>(src, n, dst); return Status::OK();
    case Kind::kInt32ToInt64: Cast<int32_t, int64_t>(src, n, dst); return Status::OK();
    case Kind::kUInt32ToInt64: Cast<uint32_t, int64_t>(src, n, dst); return Status::OK();
    case Kind::kInt32ToDecimal: Cast<int32_t, __int128>(src, n, dst); return Status::OK();
    case Kind::kInt64ToDecimal: Cast<int64_t, __int128>(src, n, dst); return Status::OK();
    case Kind::kFloatToDouble: Cast<float, double>(src, n, dst); return Status::OK();
    case Kind::kInt64Scale: {
      const auto* s = static_cast<const int64_t*>(src);
      auto* d = static_cast<int64_t*>(dst);
      if (conv.divisor != 1) {
        for (size_t i = 0; i < n; ++i) d[i] = FloorDiv(s[i], conv.divisor);
      } else {
        // Wrapping multiply: an out-of-range timestamp must not be undefined behavior.
        for (size_t i = 0; i < n; ++i) d[i] = static_cast<int64_t>(static_cast<uint64_t>(s[i]) * conv.multiplier);
      }
      return Status::OK();
    }
    case Kind::kInt64ToTime: {
      const auto* s = static_cast<const int64_t*>(src);
      auto* d = static_cast<int32_t*>(dst);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<int32_t>(FloorDiv(s[i], conv.divisor));
      return Status::OK();
    }
    case Kind::kInt96ToMicros: {
      const auto* s = static_cast<const Int96*>(src);
      auto* d = static_cast<int64_t*>(dst);
      constexpr int64_t kJulianEpoch = 2440588;
      for (size_t i = 0; i < n; ++i) {
        int64_t nanos;
        int32_t day;
        std::memcpy(&nanos, s[i].bytes, 8);
        std::memcpy(&day, s[i].bytes + 8, 4);
        uint64_t micros = static_cast<uint64_t>(static_cast<int64_t>(day) - kJulianEpoch) * 86400000000ull;
        d[i] = static_cast<int64_t>(micros + static_cast<uint64_t>(FloorDiv(nanos, 1000)));
      }
      return Status::OK();
    }
    case Kind::kBytesToDecimal:
      if (conv.physical == Type::FIXED_LEN_BYTE_ARRAY) {
        const auto* views = static_cast<const std::string_view*>(src);
        if (FixedWidthToDecimal([views](size_t i) { return views[i].data(); }, n, conv.type_length,
                                static_cast<__int128*>(dst))) {
          return Status::OK();
        }
      }
      return BytesToDecimal(static_cast<const std::string_view*>(src), n, static_cast<__int128*>(dst));
    case Kind::kUuidToString:
      UuidToString(static_cast<const std::string_view*>(src), n, static_cast<std::string_view*>(dst), heap);
      return Status::OK();
  }
  return Status::OK();
}

}  // namespace sluice::parquet
