// Writers of Iceberg manifests and manifest lists, format v2 and v3, as Avro object container files
// with the spec's schemas (manifest_avro.h) and header metadata:
//  - a manifest: "schema", "schema-id", "partition-spec", "partition-spec-id", "format-version",
//    "content" ("data" or "deletes");
//  - a manifest list: "snapshot-id", "parent-snapshot-id" ("null" for none, as Java writes it),
//    "sequence-number", "format-version", and in v3 "first-row-id";
//  - both, as Java writes them: "iceberg.schema", the file's own schema in Iceberg JSON.
//
// As Java's writers do, an entry ADDED by the snapshot being committed is written with its
// snapshot id and null sequence numbers (inherited from the manifest list on read), and the
// ManifestFile a ManifestWriter returns has kUnassignedSequenceNumber until the manifest list
// writer gives it the snapshot's sequence number. In v3 the manifest list writer also assigns
// first_row_id to data manifests that have none, from the table's next row id on.
//
// Threading: a writer is used by one thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/partition_spec.h"
#include "formats/avro/avro_container.h"

namespace sluice {

struct ManifestWriterOptions {
  int format_version = 2;  // 2 or 3
  ManifestContent content = ManifestContent::kData;
  IcebergSchema schema;
  PartitionSpec spec;
  // The snapshot the manifest is written for (ADDED and DELETED entries carry it).
  int64_t snapshot_id = 0;
  AvroCodec codec = AvroCodec::kDeflate;
  // Fixed for byte-identical files in tests; random otherwise.
  std::optional<std::string> sync_marker;
};

class ManifestWriter {
 public:
  static Result<std::unique_ptr<ManifestWriter>> Open(FileIO* io, const std::string& location,
                                                      ManifestWriterOptions options);

  // A file ADDED by this snapshot: its snapshot id set, sequence numbers left to inheritance.
  Status Add(const DataFile& file);
  // A file kept from an earlier snapshot, with the sequence numbers and snapshot id it has.
  Status Existing(const ManifestEntry& entry);
  // A file this snapshot removes: DELETED with this snapshot's id, its sequence numbers kept.
  Status Delete(const ManifestEntry& entry);
  // An entry as given (checked against the manifest's content and partition spec).
  Status Append(const ManifestEntry& entry);

  // Publishes the file and returns its manifest-list entry (sequence_number unassigned).
  Result<ManifestFile> Close();

 private:
  ManifestWriter() = default;
  Status Check(const ManifestEntry& entry) const;
  void Summarize(const ManifestEntry& entry);

  ManifestWriterOptions options_;
  IcebergType partition_type_;
  AvroSchema avro_schema_;
  std::unique_ptr<AvroFileWriter> writer_;
  ManifestFile summary_;
  std::optional<int64_t> min_sequence_number_;
  // Per partition field: the running summary and its bounds as literals.
  std::vector<PartitionFieldSummary> partitions_;
  std::vector<std::optional<IcebergLiteral>> lower_;
  std::vector<std::optional<IcebergLiteral>> upper_;
};

struct ManifestListOptions {
  int format_version = 2;
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  // v3: the table's next-row-id before this snapshot, where row id assignment continues.
  int64_t first_row_id = 0;
  AvroCodec codec = AvroCodec::kDeflate;
  std::optional<std::string> sync_marker;
};

struct WrittenManifestList {
  int64_t length = 0;
  // v3: the table's next-row-id after this snapshot (first_row_id plus the rows assigned ids).
  int64_t next_row_id = 0;
  // The entries as written (sequence numbers and first row ids filled in).
  std::vector<ManifestFile> manifests;
};

[[nodiscard]] Result<WrittenManifestList> WriteManifestList(FileIO* io, const std::string& location,
                                                            const ManifestListOptions& options,
                                                            std::vector<ManifestFile> manifests);

}  // namespace sluice
