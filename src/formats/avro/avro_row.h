// Rows of a table as Avro records: the schema Flink derives for a row type (its AvroSchemaConverter)
// and the conversion of one row to and from an Avro record datum, for the 'avro' and
// 'avro-confluent' formats (a Kafka message is one record).
//
// Type mapping (Flink's): BOOLEAN boolean; TINYINT/SMALLINT/INT int; BIGINT long; FLOAT float;
// DOUBLE double; CHAR/VARCHAR string; BINARY/VARBINARY bytes; DECIMAL(p,s) bytes with logicalType
// decimal; DATE int/date; TIME(p<=3) int/time-millis; TIMESTAMP(p) long/timestamp-millis (p<=3, the
// legacy mapping, Flink's default) or local-timestamp-millis/-micros/-nanos (legacy mapping off);
// TIMESTAMP_LTZ(p) long/timestamp-millis/-micros/-nanos (legacy mapping off only); ARRAY array;
// MAP<STRING, V> map; ROW record named "<parent name>_<field name>". A nullable type is the union
// ["null", T] and its record field has the default null. The top-level record is named
// "org.apache.flink.avro.generated.record".
//
// Rows are encoded, and decoded when the writer's schema is the reader's, straight between the column
// vectors and the bytes (no AvroValue per row); a record written with another schema goes through
// schema resolution (avro_resolve.h), which yields an AvroValue that AppendAvroRecord stores.
//
// Reading interprets the reader schema's logical types (a writer's long is taken in the reader's
// unit, as Avro's Java reader does); it also accepts, in a given reader schema, enum for strings,
// fixed for bytes and decimals, long for INT columns' promotions, time-micros and plain longs for
// timestamps (milliseconds).
//
// Threading: pure functions over immutable schemas.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "formats/avro/avro_binary.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"
#include "types/schema.h"

namespace sluice {

class Chunk;

inline constexpr char kFlinkAvroRecordName[] = "org.apache.flink.avro.generated.record";

// Flink's AvroSchemaConverter.convertToSchema for the row of `columns` (a NOT NULL record).
// Errors use Flink's wording ("Avro does not support TIMESTAMP type with precision: 6, ...").
[[nodiscard]] Result<std::string> AvroSchemaJsonForRow(const Schema& columns, bool legacy_timestamp_mapping);

// Checks that `record` (a record schema, possibly given by the user) can carry `columns`, field i
// for column i; the error names the column and both types.
[[nodiscard]] Status CheckAvroRecordForColumns(const AvroNode& record, const Schema& columns);

// Encodes row `row` of `chunk` as one binary datum of `record`, straight from the columns.
[[nodiscard]] Status EncodeAvroRow(const Chunk& chunk, size_t row, const AvroNode& record, AvroEncoder* encoder);

// Decodes one datum written with `record` (the reader's schema too: no resolution) straight into a new
// row of `out`: column j takes field fields[j]; other fields are skipped.
[[nodiscard]] Status DecodeAvroRow(AvroDecoder* decoder, const AvroNode& record, const std::vector<int>& fields,
                                   Chunk* out);

// Appends one row to `out`: column j takes field fields[j] of `value` (a record datum of `record`, as
// schema resolution produces it for a writer schema other than the reader's).
[[nodiscard]] Status AppendAvroRecord(const AvroValue& value, const AvroNode& record, const std::vector<int>& fields,
                                      Chunk* out);

}  // namespace sluice
