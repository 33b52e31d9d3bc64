// The 'avro' format (Flink's): each record is one Avro binary datum of the record schema Flink
// derives from the table's columns (formats/avro/avro_row.h), without a header or schema id; the
// reader and the writer must agree on the schema. Options: 'avro.timestamp_mapping.legacy'
// (Flink's, default true), 'avro.encoding' ('binary' only), 'avro.codec' (accepted for Flink
// compatibility: it compresses Avro files, which a message format does not write) and
// 'avro.ignore-parse-errors' (a Sluice extension: skip and count records that do not decode).
//
// AvroRowCodec is the part shared with 'avro-confluent': one table's rows as records of one schema.
//
// Threading: see formats/format.h; an AvroRowCodec is immutable after Make and may be shared.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "formats/avro/avro_resolve.h"
#include "formats/avro/avro_schema.h"
#include "formats/format.h"

namespace sluice {

const FormatFactory& AvroFormatFactory();

class AvroRowCodec {
 public:
  // The schema of `columns`: `given_json` when not empty (it must be a record whose fields carry the
  // columns in order), else the one Flink derives. Errors name the table.
  [[nodiscard]] static Result<std::shared_ptr<const AvroRowCodec>> Make(const Schema& columns,
                                                                       const std::string& given_json,
                                                                       bool legacy_timestamp_mapping);

  const AvroSchema& schema() const { return schema_; }
  const std::string& schema_json() const { return json_; }

  // Appends row `row` of `chunk` (the columns it was made for) as one binary datum.
  [[nodiscard]] Status EncodeRow(const Chunk& chunk, size_t row, std::string* out) const;
  // Decodes one datum (with `plan` from a writer schema, or this schema when null) and appends the
  // columns `fields` of it to `out`. The whole input must be one datum.
  [[nodiscard]] Status DecodeRow(std::string_view data, const AvroReadPlan* plan, const std::vector<int>& fields,
                                 Chunk* out) const;

 private:
  AvroRowCodec() = default;
  AvroSchema schema_;
  std::string json_;
};

// The columns `projection` indexes (all when empty), as positions of the codec's record fields.
std::vector<int> AvroProjectedFields(const Schema& physical, const std::vector<int>& projection);

}  // namespace sluice
