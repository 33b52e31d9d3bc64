// Reading and writing Iceberg table metadata files (the spec's Appendix C, "Table Metadata and
// Snapshots"), as Java's TableMetadataParser does: the v1 forms ("schema", "partition-spec", no
// sequence numbers, no sort orders) are read and normalized; unknown top-level fields are ignored.
// Written files carry the v1 compatibility fields for v1 tables and are accepted by the Java
// reference implementation and PyIceberg.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

class JsonWriter;

// Parses a metadata file's text (gzip-compressed files, as Java writes them with
// 'write.metadata.compression-codec' = 'gzip', are recognized by their magic bytes). `location`
// names the file in errors.
[[nodiscard]] Result<TableMetadata> ParseTableMetadata(std::string_view json, std::string_view location = {});
// The metadata as pretty-printed JSON.
std::string TableMetadataToJson(const TableMetadata& metadata);
// One snapshot object as metadata files write it (also the REST catalog's add-snapshot update).
void WriteSnapshotJson(const Snapshot& snapshot, int format_version, JsonWriter* w);

}  // namespace sluice
