// Readers of Iceberg manifests and manifest lists of format v1, v2 and v3.
//
// Fields are found by name in the writer's Avro schema, so older and newer schemas read alike: v1
// lists (no content or sequence numbers, 'added_data_files_count' names), v2 manifests without
// 'file_sequence_number', v3 fields when present. Files without Iceberg header metadata (Impala
// rewrites them with only avro.schema and avro.codec) read too: the format version is inferred from
// the schema and the partition fields' types from their Avro types.
//
// Inheritance (the spec's "Sequence Number Inheritance" and "First Row ID Inheritance"), applied
// when the ManifestFile that names the manifest is given: a null snapshot id takes the manifest's
// added_snapshot_id; a null data or file sequence number takes the manifest's sequence number when
// the entry is ADDED or the manifest's sequence number is 0 (v1 tables); a v3 data file without
// first_row_id gets the manifest's first_row_id plus the record counts of the files before it that
// also had none.
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/partition_spec.h"

namespace sluice {

struct ManifestListContents {
  int format_version = 1;
  // Header values, when the writer recorded them.
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> parent_snapshot_id;
  std::optional<int64_t> sequence_number;
  std::optional<int64_t> first_row_id;
  std::vector<ManifestFile> manifests;
};

struct ManifestContents {
  int format_version = 1;
  ManifestContent content = ManifestContent::kData;
  // From the header, when present ("partition-spec-id", "partition-spec", "schema").
  std::optional<int32_t> partition_spec_id;
  std::optional<PartitionSpec> spec;
  std::optional<IcebergSchema> schema;
  // The partition tuple's type as the file's Avro schema gives it (field ids, names, types).
  IcebergType partition_type;
  std::vector<ManifestEntry> entries;
};

[[nodiscard]] Result<ManifestListContents> ReadManifestList(FileIO* io, const std::string& location);
[[nodiscard]] Result<ManifestListContents> ParseManifestList(std::string data, const std::string& source);

// Reads the manifest `manifest` names, with inheritance from it.
[[nodiscard]] Result<ManifestContents> ReadManifest(FileIO* io, const ManifestFile& manifest);
// Parses a manifest's bytes; inheritance applies when `inherit_from` is given.
[[nodiscard]] Result<ManifestContents> ParseManifest(std::string data, const std::string& source,
                                                     const ManifestFile* inherit_from);

}  // namespace sluice
