// The 'json' format: newline-delimited JSON objects, read with simdjson's On-Demand API straight into
// typed column vectors, and written one object per row (Flink's json format semantics).
//
// Reading: fields are matched to columns by exact (case-sensitive) name; unknown fields are skipped;
// a missing field is NULL unless 'json.fail-on-missing-field' is true; numbers, booleans, dates and
// times may also be given as strings (as Flink accepts); TIMESTAMP text follows
// 'json.timestamp-format.standard' ('SQL' "2026-08-15 05:00:00[.fff]" or 'ISO-8601'
// "2026-08-15T05:00:00[.fff]"). A malformed record fails with its file, line and reason, or is
// skipped and counted when 'json.ignore-parse-errors' is true.
//
// Writing (Flink 2.2's json format text, docs/formats.md): fields in schema order; TIMESTAMP in the
// chosen standard with the shortest fraction ("2026-08-15 05:00:00", "2026-08-15 05:00:00.5"),
// TIMESTAMP_LTZ with a trailing 'Z', TIME as "05:00:00" (no fraction), DECIMAL as a JSON number
// without trailing zeros in Java's BigDecimal text ("5", "1E+2") or, with
// 'json.encode.decimal-as-plain-number', plain at the type's scale ("5.00"); NULL as null, ARRAY as
// array, ROW and MAP as objects; MAP null keys per 'json.map-null-key.mode'.
//
// Threading: see formats/format.h. JsonRowWriter is immutable after construction and may be shared.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "formats/format.h"
#include "formats/text_values.h"

namespace sluice {

class Chunk;
class Vector;

const FormatFactory& JsonFormatFactory();

struct JsonWriteOptions {
  TimestampStandard timestamp_standard = TimestampStandard::kSql;
  enum class MapNullKeyMode { kFail, kDrop, kLiteral };
  MapNullKeyMode map_null_key_mode = MapNullKeyMode::kFail;
  std::string map_null_key_literal = "null";
  // The defaults are the jsonl of results (DESIGN.md section 9): DECIMAL at the type's scale, TIME and
  // TIMESTAMP with the type's precision. JsonWriteOptionKeys::Read gives Flink's json format text
  // instead: DECIMAL normalised ("5", "1E+2") unless '<prefix>.encode.decimal-as-plain-number',
  // TIMESTAMP with the shortest fraction and TIME without one ("10:00:05", as Flink's json writer).
  DecimalText decimal_text = DecimalText::kPlain;
  FractionText fraction_text = FractionText::kPrecision;
};

// Writes rows as JSON objects with precomputed keys; used by the json encoder and by the CLI's
// `--format jsonl`.
class JsonRowWriter {
 public:
  // `op_key`, when not empty, adds a leading field with the row's RowKind ("op":"+I").
  JsonRowWriter(std::vector<std::string> names, JsonWriteOptions options = {}, std::string op_key = "");
  // Appends one object (without a trailing newline).
  Status Append(const Chunk& chunk, size_t row, std::string* out) const;

 private:
  std::vector<std::string> keys_;  // "\"name\":" with JSON escaping, a comma before all but the first
  JsonWriteOptions options_;
  std::string op_prefix_;  // "{\"op\":\"" or empty
};

// The JSON writing options a JSON-based format declares under its prefix ("json", "debezium-json"),
// with Flink's keys: '<prefix>.timestamp-format.standard' (also read by decoders),
// '<prefix>.map-null-key.mode', '<prefix>.map-null-key.literal' and
// '<prefix>.encode.decimal-as-plain-number'. The declarations point into this object's strings, so
// a format keeps one for as long as it lives (a function-local static).
class JsonWriteOptionKeys {
 public:
  explicit JsonWriteOptionKeys(std::string_view prefix);
  JsonWriteOptionKeys(const JsonWriteOptionKeys&) = delete;
  JsonWriteOptionKeys& operator=(const JsonWriteOptionKeys&) = delete;

  // The four declarations, in documentation order, appended to `out`.
  void Declare(std::vector<ConfigOption>* out) const;
  [[nodiscard]] Result<TimestampStandard> ReadTimestampStandard(const OptionReader& options) const;
  // Every write option, for an encoder.
  [[nodiscard]] Result<JsonWriteOptions> Read(const OptionReader& options) const;

 private:
  std::string timestamp_standard_;
  std::string map_null_key_mode_;
  std::string map_null_key_literal_;
  std::string decimal_plain_;
  std::string map_null_key_mode_description_;
};

// The columns `projection` of `physical` (all of them when empty), as a decoder reads them.
Schema JsonProjectedSchema(const Schema& physical, const std::vector<int>& projection);
// Fails, naming the column, when a column of `schema` has a type JSON cannot carry.
[[nodiscard]] Status CheckJsonColumns(const Schema& schema);
// The json format's decoder for `schema` (checked with CheckJsonColumns); JSON-based formats decode
// their records' JSON through it.
[[nodiscard]] Result<std::unique_ptr<RecordDecoder>> CreateJsonDecoder(const Schema& schema, bool fail_on_missing,
                                                                     bool ignore_parse_errors, TimestampStandard standard);

// One row as a JSON object; a convenience over JsonRowWriter for callers that write few rows.
Status AppendJsonRow(const Chunk& chunk, size_t row, const std::vector<std::string>& names, std::string* out,
                     const JsonWriteOptions& options = {}, std::string_view op_key = {});

// One value (row `row` of `vec`) as JSON.
Status AppendJsonValue(const Vector& vec, size_t row, const JsonWriteOptions& options, std::string* out);
// `s` as a JSON string literal with quotes.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace sluice
