// Helpers of the Parquet reader tests: the canonical text of a row (the same text
// tests/interop/parquet_read_fixtures.py writes for the values it gives pyarrow) and whole-file reads.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "formats/parquet/parquet_reader.h"
#include "types/vector.h"

namespace sluice::parquet::testing {

inline std::string Hex(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

inline std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

inline std::string Canon(const Vector& v, size_t i) {
  if (v.IsNull(i)) return "null";
  const LogicalType& t = v.type();
  char buf[64];
  switch (t.id()) {
    case TypeId::kBoolean: return v.data<uint8_t>()[i] ? "true" : "false";
    case TypeId::kTinyInt: return std::to_string(v.data<int8_t>()[i]);
    case TypeId::kSmallInt: return std::to_string(v.data<int16_t>()[i]);
    case TypeId::kInteger: return std::to_string(v.data<int32_t>()[i]);
    case TypeId::kBigInt: return std::to_string(v.data<int64_t>()[i]);
    case TypeId::kFloat: std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v.data<float>()[i])); return buf;
    case TypeId::kDouble: std::snprintf(buf, sizeof buf, "%.17g", v.data<double>()[i]); return buf;
    case TypeId::kDecimal: return Int128ToString(v.data<__int128>()[i]) + "d" + std::to_string(t.scale());
    case TypeId::kChar:
    case TypeId::kVarChar: return "s'" + Hex(v.GetString(i)) + "'";
    case TypeId::kBinary:
    case TypeId::kVarBinary: return "b'" + Hex(v.GetString(i)) + "'";
    case TypeId::kDate: return "d" + std::to_string(v.data<int32_t>()[i]);
    case TypeId::kTime: return "t" + std::to_string(v.data<int32_t>()[i]);
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: return "ts" + std::to_string(v.data<int64_t>()[i]);
    case TypeId::kArray:
    case TypeId::kMultiset: {
      const ListEntry& e = v.list_entry(i);
      std::string s = "[";
      for (uint32_t k = 0; k < e.length; ++k) s += (k ? "," : "") + Canon(v.child(0), e.offset + k);
      return s + "]";
    }
    case TypeId::kMap: {
      const ListEntry& e = v.list_entry(i);
      std::string s = "{";
      for (uint32_t k = 0; k < e.length; ++k) {
        s += (k ? "," : "") + Canon(v.child(0), e.offset + k) + ":" + Canon(v.child(1), e.offset + k);
      }
      return s + "}";
    }
    case TypeId::kRow: {
      std::string s = "(";
      for (size_t c = 0; c < v.num_children(); ++c) s += (c ? "," : "") + Canon(v.child(c), i);
      return s + ")";
    }
    default: return "?";
  }
}

inline std::string CanonRow(const Chunk& chunk, size_t row) {
  std::string s;
  for (size_t c = 0; c < chunk.num_columns(); ++c) s += (c ? "|" : "") + Canon(chunk.column(c), row);
  return s;
}

struct ReadResult {
  Status status;
  Schema file_schema;
  std::vector<std::string> rows;
  size_t chunks = 0;
};

// Reads a whole file, `chunk_rows` rows at a time; with `requested` unset, the file's own schema.
inline ReadResult ReadFile(const std::string& path, size_t chunk_rows, const Schema* requested = nullptr,
                           const std::vector<FieldIdTree>& ids = {}, const ParquetReadOptions& options = {}) {
  ReadResult r;
  auto io = NewLocalFileIO();
  auto file = io->OpenRead(path);
  if (!file.ok()) {
    r.status = file.status();
    return r;
  }
  auto reader = ParquetReader::Open(std::move(file).value());
  if (!reader.ok()) {
    r.status = reader.status();
    return r;
  }
  r.file_schema = (*reader)->sluice_schema();
  r.status = (*reader)->Select(requested ? *requested : r.file_schema, ids, options);
  while (r.status.ok()) {
    Chunk chunk;
    r.status = (*reader)->ReadNext(chunk_rows, &chunk);
    if (!r.status.ok() || chunk.size() == 0) break;
    ++r.chunks;
    for (size_t i = 0; i < chunk.size(); ++i) r.rows.push_back(CanonRow(chunk, i));
  }
  return r;
}

}  // namespace sluice::parquet::testing
