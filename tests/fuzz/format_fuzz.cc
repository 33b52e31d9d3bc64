#include "fuzz/format_fuzz.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "formats/format.h"
#include "types/logical_type.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {
namespace {

// Records handed to one Decode call: small, so one input runs several batches and chunk boundaries.
constexpr size_t kRecordsPerBatch = 5;

LogicalType Ts(int p) { return LogicalType::Timestamp(p); }

// The columns json and debezium-json decode: every type family, nested three deep.
Schema JsonSchema() {
  LogicalType inner = LogicalType::Row({"x", "y"}, {LogicalType::String(), Ts(3)});
  LogicalType nested = LogicalType::Row(
      {"a", "b", "m"}, {LogicalType::Integer(), LogicalType::Array(inner),
                        LogicalType::Map(LogicalType::Integer(), LogicalType::Array(LogicalType::Double()))});
  return Schema({{"id", LogicalType::BigInt()},
                 {"tiny", LogicalType::TinyInt()},
                 {"small", LogicalType::SmallInt()},
                 {"i", LogicalType::Integer()},
                 {"name", LogicalType::String()},
                 {"code", LogicalType::VarChar(5)},
                 {"price", LogicalType::Decimal(10, 2)},
                 {"big", LogicalType::Decimal(38, 18)},
                 {"f", LogicalType::Float()},
                 {"d", LogicalType::Double()},
                 {"flag", LogicalType::Boolean()},
                 {"day", LogicalType::Date()},
                 {"t", LogicalType::Time(3)},
                 {"ts", Ts(3)},
                 {"ts9", Ts(9)},
                 {"ltz", LogicalType::TimestampLtz(6)},
                 {"bin", LogicalType::Bytes()},
                 {"tags", LogicalType::Array(LogicalType::String())},
                 {"nums", LogicalType::Array(LogicalType::Decimal(5, 1))},
                 {"attrs", LogicalType::Map(LogicalType::String(), LogicalType::BigInt())},
                 {"nested", nested},
                 {"grid", LogicalType::Array(LogicalType::Array(LogicalType::Integer()))}});
}

// The columns csv decodes (it supports no ROW or MAP, and arrays of scalars only).
Schema CsvSchema() {
  return Schema({{"id", LogicalType::BigInt()},
                 {"tiny", LogicalType::TinyInt()},
                 {"i", LogicalType::Integer()},
                 {"name", LogicalType::String()},
                 {"code", LogicalType::VarChar(5)},
                 {"price", LogicalType::Decimal(10, 2)},
                 {"big", LogicalType::Decimal(38, 18)},
                 {"f", LogicalType::Float()},
                 {"d", LogicalType::Double()},
                 {"flag", LogicalType::Boolean()},
                 {"day", LogicalType::Date()},
                 {"t", LogicalType::Time(3)},
                 {"ts", Ts(3)},
                 {"ltz", LogicalType::TimestampLtz(6)},
                 {"bin", LogicalType::Bytes()},
                 {"tags", LogicalType::Array(LogicalType::String())},
                 {"nums", LogicalType::Array(LogicalType::Decimal(5, 1))},
                 {"stamps", LogicalType::Array(Ts(3))}});
}

// The table options the flag byte selects (bit 0 and bit 7 are common; see format_fuzz.h).
std::map<std::string, std::string> FormatFuzzOptions(const std::string& format, uint8_t flags) {
  std::map<std::string, std::string> o;
  auto bit = [flags](int b) { return ((flags >> b) & 1) != 0; };
  if (bit(0)) o[format + ".ignore-parse-errors"] = "true";
  if (format == "json") {
    if (bit(1)) o["json.fail-on-missing-field"] = "true";
    if (bit(2)) o["json.timestamp-format.standard"] = "ISO-8601";
    if (bit(4)) o["json.map-null-key.mode"] = "LITERAL";
    if (bit(5)) o["json.encode.decimal-as-plain-number"] = "false";
  } else if (format == "debezium-json") {
    if (bit(1)) o["debezium-json.schema-include"] = "true";
    if (bit(2)) o["debezium-json.timestamp-format.standard"] = "ISO-8601";
  } else if (format == "csv") {
    if (bit(1)) o["csv.allow-comments"] = "true";
    if (bit(2)) o["csv.disable-quote-character"] = "true";
    if (bit(4)) o["csv.escape-character"] = "\\";
    if (bit(5)) o["csv.null-literal"] = "null";
    if (bit(6)) {
      o["csv.field-delimiter"] = "|";
      o["csv.array-element-delimiter"] = ",";
    }
  }
  return o;
}

}  // namespace

int FuzzFormatDecode(const std::string& format, const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const bool padded = (flags & 0x80) != 0;
  // Bit 3 (every format): decode a projection (every other column, last first) rather than all.
  const bool project = (flags & 0x08) != 0;
  const Schema physical = format == "csv" ? CsvSchema() : JsonSchema();
  std::vector<int> projection;
  Schema projected = physical;
  if (project) {
    projected = Schema();
    for (int i = static_cast<int>(physical.size()) - 1; i >= 0; i -= 2) {
      projection.push_back(i);
      projected.Add(physical.field(static_cast<size_t>(i)).name, physical.field(static_cast<size_t>(i)).type);
    }
  }
  auto factory = FindFormat(format);
  if (!factory.ok()) std::abort();
  const std::map<std::string, std::string> options = FormatFuzzOptions(format, flags);
  OptionReader reader("fuzz", &options);
  auto decoder = (*factory)->CreateDecoder(physical, projection, reader);
  if (!decoder.ok()) {
    // Only contradicting options may be refused (json: fail-on-missing-field with ignore-parse-errors).
    if ((flags & 0x7f) == 0) {
      std::fprintf(stderr, "format_fuzz: cannot create the %s decoder: %s\n", format.c_str(),
                   decoder.status().ToString().c_str());
      std::abort();
    }
    return 0;
  }
  auto encoder = (*factory)->CreateEncoder(projected, reader);
  // The file's bytes, then the padding the filesystem reader guarantees (RecordBatch::padded).
  std::vector<char> file(data + 1, data + size);
  const size_t content = file.size();
  file.resize(content + kRecordPadding, '\0');
  std::string_view rest(file.data(), content);
  int64_t line = 1;
  const std::string source = "/fuzz/part-0." + format;
  std::string encoded;
  while (!rest.empty()) {
    std::vector<TextRecord> records;
    const size_t used = (*decoder)->SplitRecords(rest, /*at_end=*/true, kRecordsPerBatch, &line, &records);
    if (used == 0 && records.empty()) break;
    rest.remove_prefix(used);
    Chunk chunk(projected);
    RecordBatch batch{records.data(), records.size(), source, padded};
    if (!(*decoder)->Decode(batch, &chunk).ok()) return 0;
    if (encoder.ok() && chunk.size() > 0) {
      encoded.clear();
      (void)(*encoder)->Encode(chunk, &encoded);  // an unencodable value is an error, not a finding
    }
  }
  return 0;
}

}  // namespace sluice
