// The Avro side of manifests: the spec's schemas of manifest entries and manifest-list entries
// (format v2 and v3) as Iceberg schemas, their Avro form as Java's AvroSchemaUtil converts them (field
// ids on every field, nested records named "r<field id>" such as the partition record "r102",
// int-keyed maps as arrays of "k117_v118" key/value records), and the conversion of partition
// values between IcebergLiteral and AvroValue. One definition gives both the "avro.schema" and the
// "iceberg.schema" header of a file.
//
// Iceberg types map to Avro as the spec's "Avro" appendix gives them: date -> int/date,
// time -> long/time-micros, timestamp(tz) -> long/timestamp-micros with "adjust-to-utc",
// decimal(P,S) -> fixed "decimal_P_S" of the minimal size, uuid -> fixed[16]/uuid, fixed[L] ->
// fixed "fixed_L", binary -> bytes.
//
// Threading: pure functions.
#pragma once

#include <string>

#include "common/status.h"
#include "connectors/iceberg/iceberg_literal.h"
#include "connectors/iceberg/iceberg_types.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sluice {

// The schema of a manifest's entries. `partition_type` is the spec's partition struct
// (PartitionSpec::PartitionType); its fields become the optional fields of record "r102".
IcebergSchema ManifestEntrySchema(int format_version, const IcebergType& partition_type);
// The schema of a manifest list's entries.
IcebergSchema ManifestFileSchema(int format_version);

// The Avro schema JSON of an Iceberg schema, the top-level record named `record_name`.
[[nodiscard]] Result<std::string> IcebergToAvroSchemaJson(const IcebergSchema& schema, std::string_view record_name);
// The two schemas above in Avro form ("manifest_entry", "manifest_file").
[[nodiscard]] Result<std::string> ManifestEntryAvroSchema(int format_version, const IcebergType& partition_type);
std::string ManifestFileAvroSchema(int format_version);

// The bytes of a decimal's fixed type for `precision` (Iceberg's decimalRequiredBytes).
int DecimalRequiredBytes(int precision);

// A partition value in the Avro form of its Iceberg type, and back.
AvroValue PartitionValueToAvro(const IcebergLiteral& value);
[[nodiscard]] Result<IcebergLiteral> PartitionValueFromAvro(const IcebergType& type, const AvroValue& value);

// The Iceberg type an Avro partition field holds (the non-null branch of its union), for files
// whose header does not carry the partition spec.
[[nodiscard]] Result<IcebergType> IcebergTypeOfAvro(const AvroNode& node);

}  // namespace sluice
