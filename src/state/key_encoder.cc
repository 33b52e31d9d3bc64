#include "state/key_encoder.h"

#include <cmath>
#include <cstring>

namespace sluice {

namespace {

template <typename T>
void AppendRaw(T v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

}  // namespace

void EncodeKeyValue(const Vector& vec, size_t row, std::string* out) {
  if (vec.IsNull(row)) {
    out->push_back('\0');
    return;
  }
  out->push_back('\1');
  const LogicalType& t = vec.type();
  switch (t.id()) {
    case TypeId::kNull: return;
    case TypeId::kBoolean:
    case TypeId::kTinyInt: out->push_back(static_cast<char>(vec.raw_data()[row])); return;
    case TypeId::kSmallInt: AppendRaw(vec.data<int16_t>()[row], out); return;
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: AppendRaw(vec.data<int32_t>()[row], out); return;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: AppendRaw(vec.data<int64_t>()[row], out); return;
    case TypeId::kFloat: {
      float f = vec.data<float>()[row];
      if (f == 0) f = 0;  // -0.0 == 0.0
      if (std::isnan(f)) f = std::nanf("");
      AppendRaw(f, out);
      return;
    }
    case TypeId::kDouble: {
      double d = vec.data<double>()[row];
      if (d == 0) d = 0;
      if (std::isnan(d)) d = std::nan("");
      AppendRaw(d, out);
      return;
    }
    case TypeId::kDecimal: AppendRaw(vec.data<__int128>()[row], out); return;
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: {
      std::string_view s = vec.GetString(row);
      AppendRaw(static_cast<uint32_t>(s.size()), out);
      out->append(s.data(), s.size());
      return;
    }
    case TypeId::kArray:
    case TypeId::kMultiset:
    case TypeId::kMap: {
      const ListEntry& e = vec.list_entry(row);
      AppendRaw(e.length, out);
      for (uint32_t i = 0; i < e.length; ++i) {
        for (size_t c = 0; c < vec.num_children(); ++c) EncodeKeyValue(vec.child(c), e.offset + i, out);
      }
      return;
    }
    case TypeId::kRow:
      for (size_t c = 0; c < vec.num_children(); ++c) EncodeKeyValue(vec.child(c), row, out);
      return;
  }
}

void EncodeKeys(const Chunk& chunk, const std::vector<int>& key_columns, std::vector<std::string>* keys) {
  const size_t n = chunk.size();
  keys->resize(n);
  for (auto& k : *keys) k.clear();
  for (int c : key_columns) {
    const Vector& v = chunk.column(static_cast<size_t>(c));
    for (size_t i = 0; i < n; ++i) EncodeKeyValue(v, i, &(*keys)[i]);
  }
}

}  // namespace sluice
