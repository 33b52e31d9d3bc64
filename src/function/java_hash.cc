// Java's hashCode of SQL values and HASH_CODE (java_hash.h).
#include "function/java_hash.h"

#include <climits>
#include <cmath>
#include <cstring>

#include "function/kernel_util.h"
#include "function/string_kernels.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

int32_t JavaHashCode(std::string_view s) {
  uint32_t h = 0;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t cp = DecodeUtf8(s, &i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      h = 31 * h + (0xD800 + (cp >> 10));
      h = 31 * h + (0xDC00 + (cp & 0x3FF));
    } else {
      h = 31 * h + cp;
    }
  }
  return static_cast<int32_t>(h);
}

int32_t JavaBigIntegerHash(__int128 v) {
  const bool negative = v < 0;
  unsigned __int128 mag = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  uint32_t words[4];
  int n = 0;
  for (; mag != 0; mag >>= 32) words[n++] = static_cast<uint32_t>(mag);
  uint32_t h = 0;
  for (int i = n - 1; i >= 0; --i) h = 31 * h + words[i];
  return static_cast<int32_t>(negative ? 0u - h : h);
}

bool HashedAsJavaObject(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kBoolean:
    case TypeId::kDate:
    case TypeId::kTime: return true;
    default: return false;
  }
}

// As Flink's generated code hashes each type: DecimalData its BigDecimal's (31 * unscaled.hashCode() +
// scale), TimestampData the millisecond's Long.hashCode times 31 plus the nanosecond of the
// millisecond, Float/Double/Boolean/Integer (DATE, TIME) their boxed types'.
int32_t JavaHashOf(const Vector& v, size_t i) {
  const LogicalType& t = v.type();
  switch (t.id()) {
    case TypeId::kDecimal:
      return static_cast<int32_t>(31u * static_cast<uint32_t>(JavaBigIntegerHash(v.data<__int128>()[i])) +
                                  static_cast<uint32_t>(t.scale()));
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      const int64_t micros = v.data<int64_t>()[i];
      const int64_t millis = micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000);
      const uint64_t m = static_cast<uint64_t>(millis);
      const auto ret = static_cast<uint32_t>(static_cast<uint32_t>(m) ^ static_cast<uint32_t>(m >> 32));
      return static_cast<int32_t>(31u * ret + static_cast<uint32_t>((micros - millis * 1000) * 1000));
    }
    case TypeId::kFloat: {
      const float f = v.data<float>()[i];
      uint32_t bits = 0x7fc00000u;  // Float.floatToIntBits's canonical NaN
      if (!std::isnan(f)) std::memcpy(&bits, &f, sizeof bits);
      return static_cast<int32_t>(bits);
    }
    case TypeId::kDouble: {
      const double d = v.data<double>()[i];
      uint64_t bits = 0x7ff8000000000000ull;  // Double.doubleToLongBits's canonical NaN
      if (!std::isnan(d)) std::memcpy(&bits, &d, sizeof bits);
      return static_cast<int32_t>(static_cast<uint32_t>(bits ^ (bits >> 32)));
    }
    case TypeId::kBoolean: return v.data<uint8_t>()[i] ? 1231 : 1237;
    default: return v.data<int32_t>()[i];  // DATE (days), TIME (milliseconds of the day)
  }
}

namespace {

// Java's Math.abs of an int: Integer.MIN_VALUE stays negative.
int32_t JavaAbs(int32_t h) { return h == INT32_MIN ? h : (h < 0 ? -h : h); }

// Java's hashCode of a boxed Byte, Short, Integer or Long (Long: the high half XORed into the low)
// at row i of an integral vector.
int32_t JavaIntegralHash(const Vector& v, size_t i) {
  int64_t h = 0;
  switch (v.type().id()) {
    case TypeId::kTinyInt: h = v.data<int8_t>()[i]; break;
    case TypeId::kSmallInt: h = v.data<int16_t>()[i]; break;
    case TypeId::kInteger: h = v.data<int32_t>()[i]; break;
    default: {
      const uint64_t u = static_cast<uint64_t>(v.data<int64_t>()[i]);
      h = static_cast<int32_t>(static_cast<uint32_t>(u ^ (u >> 32)));
    }
  }
  return static_cast<int32_t>(h);
}

}  // namespace

Result<FnPtr> ResolveHashCode(const CallInfo& c) {
  if (c.size() == 1 && HashedAsJavaObject(c.type(0))) {
    Coerce keep = [](const LogicalType& t, LogicalType* cast) {
      *cast = t;
      return HashedAsJavaObject(t);
    };
    return Simple(c, {keep}, LogicalType::Integer(), ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                    *r = JavaAbs(JavaHashOf(*a[0], i));
                    return true;
                  }));
  }
  if (c.size() == 1 && c.type(0).IsIntegral()) {
    // The bucket of a split DISTINCT aggregate: Java's hashCode of the boxed value, made
    // non-negative as the string form's.
    Coerce keep = [](const LogicalType& t, LogicalType* cast) {
      *cast = t;
      return t.IsIntegral();
    };
    return Simple(c, {keep}, LogicalType::Integer(), ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                    *r = JavaAbs(JavaIntegralHash(*a[0], i));
                    return true;
                  }));
  }
  // Flink: Math.abs(String.hashCode()).
  return Simple(c, {AsString}, LogicalType::Integer(), ValueOut<int32_t>([](const Vector* const* a, size_t i, int32_t* r) {
                  *r = JavaAbs(JavaHashCode(Str(a, 0, i)));
                  return true;
                }));
}

}  // namespace sluice::fn
