// Writes Parquet files with Sluice's ParquetWriter for tests/interop/parquet_write_check.py, which
// reads them with pyarrow and DuckDB. For each case it writes <case>.parquet and <case>.json: the
// expected rows in a canonical JSON form (below), the Iceberg field ids, the footer key-value
// metadata and what the file's layout must show (row groups, dictionary or plain pages).
//
// Canonical values: NULL null; integers, DATE (days), TIME (microseconds of the day) and
// TIMESTAMP / TIMESTAMP_LTZ (microseconds since the epoch, UTC) as JSON integers; FLOAT/DOUBLE as
// numbers ("NaN", "Infinity", "-Infinity" as strings); DECIMAL as a string with the type's scale;
// strings as strings; binaries as lowercase hex; ARRAY as a list; ROW as an object; MAP as
// {"__map__": [[key, value], ...]}.
//
// Usage: parquet_write_fixtures OUT_DIR
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include "common/file_io.h"
#include "formats/parquet/parquet_writer.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice::parquet {
namespace {

using LT = LogicalType;

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string DecimalString(__int128 v, int scale) {
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return (neg ? "-" : "") + digits;
}

std::string Canonical(const Value& v, const LT& t) {
  if (v.is_null()) return "null";
  switch (t.id()) {
    case TypeId::kBoolean: return v.bool_value() ? "true" : "false";
    case TypeId::kTime: return std::to_string(v.int_value() * 1000);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = v.double_value();
      if (std::isnan(d)) return "\"NaN\"";
      if (std::isinf(d)) return d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", t.id() == TypeId::kFloat ? static_cast<double>(static_cast<float>(d)) : d);
      return buf;
    }
    case TypeId::kDecimal: return "\"" + DecimalString(v.decimal_value(), t.scale()) + "\"";
    case TypeId::kChar:
    case TypeId::kVarChar: return JsonString(v.string_value());
    case TypeId::kBinary:
    case TypeId::kVarBinary: {
      std::string s = v.string_value();
      if (t.id() == TypeId::kBinary) s.resize(t.length(), '\0');
      std::string hex = "\"";
      for (unsigned char c : s) {
        char buf[3];
        std::snprintf(buf, sizeof(buf), "%02x", c);
        hex += buf;
      }
      return hex + "\"";
    }
    case TypeId::kArray: {
      std::string out = "[";
      const auto& items = v.list_value();
      for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + Canonical(items[i], t.child(0));
      return out + "]";
    }
    case TypeId::kMap: {
      std::string out = "{\"__map__\":[";
      const auto& items = v.list_value();
      for (size_t i = 0; i + 1 < items.size(); i += 2) {
        out += (i ? ",[" : "[") + Canonical(items[i], t.child(0)) + "," + Canonical(items[i + 1], t.child(1)) + "]";
      }
      return out + "]}";
    }
    case TypeId::kRow: {
      std::string out = "{";
      const auto& items = v.list_value();
      for (size_t i = 0; i < items.size(); ++i) {
        out += (i ? "," : "") + JsonString(t.field_name(i)) + ":" + Canonical(items[i], t.child(i));
      }
      return out + "}";
    }
    default: return std::to_string(v.int_value());
  }
}

// Random values of a type; `distinct` bounds the number of distinct scalars (dictionary-friendly
// when small), `null_pct` the share of NULLs in nullable positions.
class Gen {
 public:
  Gen(uint64_t seed, int null_pct, uint64_t distinct) : rng_(seed), null_pct_(null_pct), distinct_(distinct) {}

  Value Make(const LT& t) {
    if (t.nullable() && static_cast<int>(rng_() % 100) < null_pct_) return Value::Null(t);
    uint64_t r = distinct_ ? rng_() % distinct_ : rng_();
    auto s = static_cast<int64_t>(r);
    switch (t.id()) {
      case TypeId::kBoolean: return Value::Boolean(r % 2);
      case TypeId::kTinyInt: return Value::Int(t, static_cast<int8_t>(r));
      case TypeId::kSmallInt: return Value::Int(t, static_cast<int16_t>(r));
      case TypeId::kInteger: return Value::Int(t, static_cast<int32_t>(r));
      case TypeId::kBigInt: return Value::Int(t, s % 2 ? -s : s);
      case TypeId::kFloat: return Value::Float(Special(r, static_cast<float>(static_cast<int64_t>(r % 20001) - 10000) / 8));
      case TypeId::kDouble: return Value::Double(Special(r, (static_cast<double>(r % 2000001) - 1000000) / 1024));
      case TypeId::kDecimal: {
        __int128 limit = 1;
        for (int i = 0; i < t.precision(); ++i) limit *= 10;
        __int128 x = (static_cast<__int128>(r) * 6364136223846793005ULL + rng_()) % limit;
        if (r % 3 == 0) x = -x;
        if (r % 97 == 1) x = limit - 1;  // the extremes of the precision
        if (r % 97 == 2) x = -(limit - 1);
        return Value::Decimal(t.precision(), t.scale(), x);
      }
      case TypeId::kDate: return Value::Int(t, static_cast<int64_t>(r % 60000) - 20000);
      case TypeId::kTime: return Value::Int(t, static_cast<int64_t>(r % 86400000));
      case TypeId::kTimestamp:
      case TypeId::kTimestampLtz:
        return Value::Int(t, static_cast<int64_t>(r % 4000000000000000ULL) - 1000000000000000LL);
      case TypeId::kVarChar: {
        static const char* kWords[] = {"", "a", "store", "Zürich", "日本", "emoji 🙂", "x\"q\\", "tab\tnl\n"};
        std::string v = kWords[r % 8] + std::to_string(r % 1000);
        if (r % 50 == 3) v = std::string(1 + r % 300, 'L');
        return Value::Typed(t, v);
      }
      case TypeId::kBinary:
      case TypeId::kVarBinary: {
        std::string v;
        size_t n = t.id() == TypeId::kBinary ? static_cast<size_t>(t.length()) - r % 2 : r % 7;
        for (size_t i = 0; i < n; ++i) v.push_back(static_cast<char>((r >> (i * 8 % 56)) * 31 + i));
        return Value::Typed(t, v);
      }
      case TypeId::kArray: {
        std::vector<Value> items;
        size_t n = rng_() % 5;
        for (size_t i = 0; i < n; ++i) items.push_back(Make(t.child(0)));
        return Value::List(t, std::move(items));
      }
      case TypeId::kMap: {
        std::vector<Value> items;
        size_t n = rng_() % 4;
        for (size_t i = 0; i < n; ++i) {
          // Distinct keys: the index makes them unique.
          Value k = Make(t.child(0).WithNullable(false));
          if (t.child(0).id() == TypeId::kVarChar) k = Value::Typed(t.child(0), "k" + std::to_string(i) + k.string_value());
          if (t.child(0).id() == TypeId::kInteger) k = Value::Int(t.child(0), static_cast<int64_t>(i) * 1000 + std::abs(k.int_value() % 1000));
          items.push_back(k);
          items.push_back(Make(t.child(1)));
        }
        return Value::List(t, std::move(items));
      }
      case TypeId::kRow: {
        std::vector<Value> items;
        for (const LT& c : t.children()) items.push_back(Make(c));
        return Value::List(t, std::move(items));
      }
      default: return Value::Null(t);
    }
  }

 private:
  template <typename F>
  F Special(uint64_t r, F normal) {
    switch (r % 41) {
      case 0: return std::numeric_limits<F>::quiet_NaN();
      case 1: return -F(0);
      case 2: return F(0);
      case 3: return std::numeric_limits<F>::infinity() * (r % 2 ? 1 : -1);
      default: return normal;
    }
  }
  std::mt19937_64 rng_;
  int null_pct_;
  uint64_t distinct_;
};

struct Case {
  std::string name;
  Schema schema;
  std::vector<FieldIdTree> ids;
  ParquetWriterOptions options;
  size_t rows = 0;
  size_t chunk_rows = 1024;
  int null_pct = 10;
  uint64_t distinct = 0;
  std::string checks = "{}";  // layout expectations for the checker
  bool with_ids = true;
};

// Field ids: top-level columns 1..n, nested ids from 1000 on, depth first.
FieldIdTree IdsFor(const LT& t, int32_t id, int32_t* next) {
  FieldIdTree tree{id, {}};
  for (size_t i = 0; i < t.num_children(); ++i) tree.children.push_back(IdsFor(t.child(i), (*next)++, next));
  return tree;
}

std::string IdsJson(const FieldIdTree& t) {
  std::string out = "{\"id\":" + (t.id ? std::to_string(*t.id) : "null") + ",\"children\":[";
  for (size_t i = 0; i < t.children.size(); ++i) out += (i ? "," : "") + IdsJson(t.children[i]);
  return out + "]}";
}

int WriteCase(const std::string& dir, Case c) {
  int32_t next = 1000;
  if (c.with_ids && c.ids.empty()) {
    for (size_t i = 0; i < c.schema.size(); ++i) c.ids.push_back(IdsFor(c.schema.field(i).type, static_cast<int32_t>(i + 1), &next));
  }
  c.options.key_value_metadata.push_back({"iceberg.schema", std::string("{\"case\":\"" + c.name + "\"}")});
  auto io = NewLocalFileIO();
  auto file = io->Create(dir + "/" + c.name + ".parquet");
  if (!file.ok()) {
    std::cerr << file.status().ToString() << "\n";
    return 1;
  }
  auto writer = ParquetWriter::Open(file->get(), c.schema, c.ids, c.options);
  if (!writer.ok()) {
    std::cerr << writer.status().ToString() << "\n";
    return 1;
  }
  Gen gen(std::hash<std::string>{}(c.name), c.null_pct, c.distinct);
  std::string rows_json = "[";
  size_t written = 0;
  while (written < c.rows) {
    Chunk chunk(c.schema);
    size_t n = std::min(c.chunk_rows, c.rows - written);
    for (size_t r = 0; r < n; ++r) {
      std::vector<Value> row;
      std::string obj = "{";
      for (size_t f = 0; f < c.schema.size(); ++f) {
        const LT& t = c.schema.field(f).type;
        Value v = gen.Make(t);
        if (f == 0 && t.id() == TypeId::kBigInt) v = Value::BigInt(static_cast<int64_t>(written + r));
        obj += (f ? "," : "") + JsonString(c.schema.field(f).name) + ":" + Canonical(v, t);
        row.push_back(std::move(v));
      }
      chunk.AppendValues(row, RowKind::kInsert);
      rows_json += (written + r ? ",\n" : "\n") + obj + "}";
    }
    Status st = (*writer)->Write(chunk);
    if (!st.ok()) {
      std::cerr << c.name << ": " << st.ToString() << "\n";
      return 1;
    }
    written += n;
  }
  rows_json += "]";
  auto metrics = (*writer)->Close();
  if (!metrics.ok() || !(*file)->Close().ok()) {
    std::cerr << c.name << ": close failed " << metrics.status().ToString() << "\n";
    return 1;
  }
  std::string ids = "[";
  for (size_t i = 0; i < c.ids.size(); ++i) ids += (i ? "," : "") + IdsJson(c.ids[i]);
  ids += "]";
  std::ofstream out(dir + "/" + c.name + ".json");
  out << "{\"name\":" << JsonString(c.name) << ",\"field_ids\":" << ids << ",\"checks\":" << c.checks
      << ",\"row_count\":" << metrics->row_count << ",\"file_size\":" << metrics->file_size
      << ",\"kv\":{\"iceberg.schema\":" << JsonString("{\"case\":\"" + c.name + "\"}") << "},\"rows\":" << rows_json
      << "}\n";
  std::cout << c.name << ": " << metrics->row_count << " rows, " << metrics->file_size << " bytes, "
            << metrics->split_offsets.size() << " row groups\n";
  return 0;
}

Schema FlatSchema() {
  Schema s;
  s.Add("id", LT::BigInt().WithNullable(false));
  s.Add("b", LT::Boolean());
  s.Add("i8", LT::TinyInt());
  s.Add("i16", LT::SmallInt());
  s.Add("i32", LT::Integer());
  s.Add("i64", LT::BigInt());
  s.Add("f32", LT::Float());
  s.Add("f64", LT::Double());
  s.Add("dec9", LT::Decimal(9, 2));
  s.Add("dec18", LT::Decimal(18, 6));
  s.Add("dec38", LT::Decimal(38, 10));
  s.Add("dec20", LT::Decimal(20, 0));
  s.Add("dt", LT::Date());
  s.Add("tm", LT::Time(3));
  s.Add("ts", LT::Timestamp(6));
  s.Add("tsz", LT::TimestampLtz(6));
  s.Add("s", LT::String());
  s.Add("vb", LT::Bytes());
  s.Add("fx", LT::Binary(4));
  s.Add("req_s", LT::String().WithNullable(false));
  return s;
}

Schema NestedSchema() {
  Schema s;
  s.Add("id", LT::BigInt().WithNullable(false));
  s.Add("arr", LT::Array(LT::Integer()));
  s.Add("arr_s", LT::Array(LT::String().WithNullable(false)));
  s.Add("m", LT::Map(LT::String(), LT::BigInt()));
  s.Add("r", LT::Row({"a", "b", "c"},
                     {LT::Integer(), LT::String(),
                      LT::Array(LT::Row({"x", "y"}, {LT::Double(), LT::Array(LT::String())}))}));
  s.Add("mm", LT::Map(LT::Integer(), LT::Array(LT::Decimal(12, 3))));
  s.Add("aa", LT::Array(LT::Array(LT::BigInt())));
  s.Add("req_r", LT::Row({"p", "q"}, {LT::Date().WithNullable(false), LT::TimestampLtz(6)}).WithNullable(false));
  return s;
}

int Run(const std::string& dir) {
  int rc = 0;
  for (auto [codec, name] : {std::pair{CompressionCodec::ZSTD, "zstd"}, std::pair{CompressionCodec::SNAPPY, "snappy"},
                             std::pair{CompressionCodec::GZIP, "gzip"},
                             std::pair{CompressionCodec::UNCOMPRESSED, "uncompressed"}}) {
    Case c; c.name = std::string("flat_") + name; c.schema = FlatSchema(); c.rows = 3000; c.distinct = 500;
    c.options.codec = codec;
    rc |= WriteCase(dir, c);
    Case n; n.name = std::string("nested_") + name; n.schema = NestedSchema(); n.rows = 1500; n.null_pct = 15;
    n.options.codec = codec;
    rc |= WriteCase(dir, n);
  }
  // Many row groups and pages; low-cardinality columns stay dictionary-encoded, unique ones fall
  // back to PLAIN.
  Case many; many.name = "many_groups"; many.schema = FlatSchema(); many.rows = 60000; many.chunk_rows = 777; many.distinct = 50;
  many.options.row_group_size_bytes = 256 << 10;
  many.options.page_size_bytes = 8 << 10;
  many.checks = R"({"min_row_groups": 3, "dictionary": ["s", "i64", "i32", "fx"], "plain": ["id"]})";
  rc |= WriteCase(dir, many);
  // Plain only.
  Case plain; plain.name = "plain_only"; plain.schema = FlatSchema(); plain.rows = 5000; plain.distinct = 10;
  plain.options.enable_dictionary = false;
  plain.checks = R"({"dictionary": [], "plain": ["s", "i64", "b"]})";
  rc |= WriteCase(dir, plain);
  // A dictionary that outgrows its limit after pages used it: dictionary and plain pages mixed.
  Schema one;
  one.Add("id", LT::BigInt().WithNullable(false));
  one.Add("s", LT::String());
  Case fallback; fallback.name = "dict_fallback"; fallback.schema = one; fallback.rows = 30000; fallback.chunk_rows = 1000; fallback.distinct = 0;
  fallback.options.dict_size_bytes = 64 << 10;
  fallback.options.page_size_bytes = 4 << 10;
  fallback.checks = R"({"dictionary": ["s"], "plain": ["s"]})";
  rc |= WriteCase(dir, fallback);
  // Nested columns across row groups and pages.
  Case nested_many; nested_many.name = "nested_many"; nested_many.schema = NestedSchema(); nested_many.rows = 20000; nested_many.chunk_rows = 500; nested_many.null_pct = 20;
  nested_many.options.row_group_size_bytes = 128 << 10;
  nested_many.options.page_size_bytes = 4 << 10;
  nested_many.checks = R"({"min_row_groups": 2})";
  rc |= WriteCase(dir, nested_many);
  // No rows at all.
  Case empty; empty.name = "empty"; empty.schema = NestedSchema(); empty.rows = 0;
  rc |= WriteCase(dir, empty);
  // All NULL columns (no min/max) and no field ids.
  Case nulls; nulls.name = "all_nulls"; nulls.schema = FlatSchema(); nulls.rows = 100; nulls.null_pct = 100;
  nulls.with_ids = false;
  rc |= WriteCase(dir, nulls);
  return rc;
}

}  // namespace
}  // namespace sluice::parquet

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: parquet_write_fixtures OUT_DIR\n";
    return 2;
  }
  return sluice::parquet::Run(argv[1]);
}
