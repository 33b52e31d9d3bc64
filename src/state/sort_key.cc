#include "state/sort_key.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "common/check.h"
#include "state/key_encoder.h"

namespace sluice {

namespace {

// Big-endian bytes of an unsigned value, so memcmp orders like the integer.
template <typename U>
void AppendBigEndian(U v, std::string* out) {
  char buf[sizeof(U)];
  for (size_t i = 0; i < sizeof(U); ++i) buf[i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * (sizeof(U) - 1 - i))));
  out->append(buf, sizeof(U));
}

// Signed integers: flipping the sign bit maps them onto unsigned integers in the same order.
template <typename S, typename U>
void AppendSigned(S v, std::string* out) {
  AppendBigEndian<U>(static_cast<U>(static_cast<U>(v) ^ (U{1} << (8 * sizeof(U) - 1))), out);
}

// IEEE floats: negative numbers invert all bits, positive ones set the sign bit (Java's total order).
template <typename F, typename U>
void AppendFloating(F f, std::string* out) {
  U bits;
  if (std::isnan(f)) f = std::numeric_limits<F>::quiet_NaN();
  std::memcpy(&bits, &f, sizeof(U));
  constexpr U kSign = U{1} << (8 * sizeof(U) - 1);
  bits = (bits & kSign) ? static_cast<U>(~bits) : static_cast<U>(bits | kSign);
  AppendBigEndian<U>(bits, out);
}

// Bytes with 0x00 escaped as 0x00 0xFF and terminated by 0x00 0x00: prefix-free and order-preserving,
// so inverting the bytes for DESC still orders correctly.
void AppendBytes(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back(static_cast<char>(0xFF));
  }
  out->push_back('\0');
  out->push_back('\0');
}

}  // namespace

bool IsSortKeyEncodable(const LogicalType& type) { return !type.IsNested(); }

void EncodeSortKeyValue(const Vector& vec, size_t row, bool ascending, bool nulls_first, std::string* out) {
  if (vec.IsNull(row)) {
    out->push_back(nulls_first ? '\0' : '\2');
    return;
  }
  out->push_back('\1');
  const size_t start = out->size();
  switch (vec.type().id()) {
    case TypeId::kNull: break;
    case TypeId::kBoolean: out->push_back(static_cast<char>(vec.raw_data()[row] != 0)); break;
    case TypeId::kTinyInt: AppendSigned<int8_t, uint8_t>(static_cast<int8_t>(vec.raw_data()[row]), out); break;
    case TypeId::kSmallInt: AppendSigned<int16_t, uint16_t>(vec.data<int16_t>()[row], out); break;
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: AppendSigned<int32_t, uint32_t>(vec.data<int32_t>()[row], out); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: AppendSigned<int64_t, uint64_t>(vec.data<int64_t>()[row], out); break;
    case TypeId::kFloat: AppendFloating<float, uint32_t>(vec.data<float>()[row], out); break;
    case TypeId::kDouble: AppendFloating<double, uint64_t>(vec.data<double>()[row], out); break;
    case TypeId::kDecimal: {
      __int128 v;
      std::memcpy(&v, vec.raw_data() + row * sizeof(__int128), sizeof(v));
      AppendSigned<__int128, unsigned __int128>(v, out);
      break;
    }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: AppendBytes(vec.GetString(row), out); break;
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kMultiset:
    case TypeId::kRow: SLUICE_CHECK(IsSortKeyEncodable(vec.type())); break;
  }
  if (!ascending) {
    for (size_t i = start; i < out->size(); ++i) (*out)[i] = static_cast<char>(~static_cast<uint8_t>((*out)[i]));
  }
}

bool ValuesEqual(const Vector& a, size_t row_a, const Vector& b, size_t row_b) {
  const bool null_a = a.IsNull(row_a);
  const bool null_b = b.IsNull(row_b);
  if (null_a || null_b) return null_a == null_b;
  const LogicalType& t = a.type();
  if (t.IsStringLike()) return a.GetString(row_a) == b.GetString(row_b);
  if (t.IsNested()) {
    std::string ea, eb;
    EncodeKeyValue(a, row_a, &ea);
    EncodeKeyValue(b, row_b, &eb);
    return ea == eb;
  }
  const size_t w = t.PhysicalWidth();
  return std::memcmp(a.raw_data() + row_a * w, b.raw_data() + row_b * w, w) == 0;
}

bool RowsEqual(const Chunk& a, size_t row_a, const Chunk& b, size_t row_b) {
  SLUICE_CHECK_EQ(a.num_columns(), b.num_columns());
  for (size_t c = 0; c < a.num_columns(); ++c) {
    if (!ValuesEqual(a.column(c), row_a, b.column(c), row_b)) return false;
  }
  return true;
}

}  // namespace sluice
