// TableMetadata: one version of an Iceberg table's metadata file (format v1, v2 and v3), as the
// spec's "Table Metadata" section defines it, plus the builders Sluice's commits use: a new table,
// a new snapshot on the main branch (with Java's SnapshotSummary totals), and the metadata log kept
// to 'write.metadata.previous-versions-max' entries.
//
// A TableMetadata is a plain value: builders take a base and return a new one, so a failed commit
// can be retried from a freshly loaded base. Reading and writing JSON is in table_metadata_json.h.
// Times (last-updated-ms, snapshot timestamps) and ids (table uuid, snapshot ids) are given by the
// caller, so tests are deterministic; NewSnapshotId/NewTableUuid produce random ones for real use.
//
// Threading: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/partition_spec.h"

namespace sluice {

// Table properties Sluice reads (Iceberg's TableProperties names and defaults).
inline constexpr const char* kPropMetadataPreviousVersionsMax = "write.metadata.previous-versions-max";
inline constexpr int64_t kDefaultMetadataPreviousVersionsMax = 100;
inline constexpr const char* kPropMetadataDeleteAfterCommit = "write.metadata.delete-after-commit.enabled";
inline constexpr const char* kPropParquetCompression = "write.parquet.compression-codec";
inline constexpr const char* kPropFormatDefault = "write.format.default";
inline constexpr const char* kPropTargetFileSize = "write.target-file-size-bytes";
// Not stored as a property: it selects the metadata's format-version when a table is created.
inline constexpr const char* kPropFormatVersion = "format-version";
inline constexpr const char* kMainBranch = "main";
inline constexpr int kMaxSupportedFormatVersion = 3;

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 in v1 metadata
  int64_t timestamp_ms = 0;
  std::string manifest_list;           // empty for a v1 snapshot with an inline manifest list
  std::vector<std::string> manifests;  // v1 only, when there is no manifest list
  // "operation" first, then the rest in insertion order (Java writes it so).
  std::vector<std::pair<std::string, std::string>> summary;
  std::optional<int32_t> schema_id;
  std::optional<int64_t> first_row_id;  // v3
  std::optional<int64_t> added_rows;    // v3

  std::string operation() const { return SummaryValue("operation"); }
  // The summary value, or empty.
  std::string SummaryValue(std::string_view key) const;
};

struct SnapshotRef {
  int64_t snapshot_id = 0;
  std::string type = "branch";  // "branch" or "tag"
  std::optional<int32_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;
};

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
};

// A statistics, partition-statistics or encryption-key entry: kept as its JSON so it is written
// back unchanged; the snapshot id (when the entry has one) is read out for expiry.
struct RawJsonEntry {
  std::optional<int64_t> snapshot_id;
  std::string json;
};

struct TableMetadata {
  int format_version = 2;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<IcebergSchema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = PartitionSpec::kFirstFieldId - 1;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = 0;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::map<std::string, SnapshotRef> refs;
  std::vector<RawJsonEntry> statistics;
  std::vector<RawJsonEntry> partition_statistics;
  std::vector<RawJsonEntry> encryption_keys;
  std::optional<int64_t> next_row_id;  // v3

  // Lookups (null when absent). The current ones CHECK that metadata is consistent, which parsing
  // and the builders guarantee.
  const IcebergSchema& CurrentSchema() const;
  const PartitionSpec& DefaultSpec() const;
  const SortOrder& DefaultSortOrder() const;
  const IcebergSchema* SchemaById(int32_t id) const;
  const PartitionSpec* SpecById(int32_t id) const;
  const Snapshot* SnapshotById(int64_t id) const;
  const Snapshot* CurrentSnapshot() const;
  // The snapshot a branch or tag points to.
  const Snapshot* SnapshotForRef(const std::string& ref) const;

  std::string Property(const std::string& key, const std::string& fallback = {}) const;
  // A numeric or boolean property; a malformed value is an error naming the property.
  [[nodiscard]] Result<int64_t> IntProperty(const std::string& key, int64_t fallback) const;
  [[nodiscard]] Result<bool> BoolProperty(const std::string& key, bool fallback) const;

  // Checks the invariants the spec states (ids referenced exist, the current snapshot matches the
  // main branch, ...). Parsing and the builders call it.
  [[nodiscard]] Status Validate() const;
};

// A new table's definition. Ids in `schema`, `spec` and `sort_order` are reassigned as Java's
// TableMetadata.newTableMetadata does: fresh column ids 1..n (assignFreshIds), partition field ids
// from 1000 (sources remapped by column name), spec id 0, sort order id 1 (0 when unsorted).
struct NewTableOptions {
  std::string location;  // the table's base location (the catalog fills it in when empty)
  IcebergSchema schema;
  PartitionSpec spec;
  SortOrder sort_order;
  std::map<std::string, std::string> properties;  // may carry 'format-version'
  int format_version = 2;                         // used when properties have no 'format-version'
  std::string table_uuid;                         // empty: a random one
  int64_t now_ms = 0;
};

[[nodiscard]] Result<TableMetadata> NewTableMetadata(const NewTableOptions& options);

// What a commit changed, for the snapshot summary (Java's SnapshotSummary keys; zero counts are
// left out, totals are carried from the parent snapshot's summary).
struct SnapshotChanges {
  int64_t added_data_files = 0;
  int64_t removed_data_files = 0;
  int64_t added_records = 0;
  int64_t deleted_records = 0;
  int64_t added_files_size = 0;
  int64_t removed_files_size = 0;
  int64_t added_equality_delete_files = 0;
  int64_t added_position_delete_files = 0;
  // Deletion vectors (v3) are counted here, not as position delete files; added-delete-files counts
  // both kinds and the equality ones.
  int64_t added_dvs = 0;
  int64_t removed_dvs = 0;  // counted in removed_delete_files too
  int64_t removed_delete_files = 0;
  int64_t added_equality_deletes = 0;
  int64_t added_position_deletes = 0;
  int64_t removed_equality_deletes = 0;
  int64_t removed_position_deletes = 0;
  std::optional<int64_t> changed_partition_count;
};

struct NewSnapshot {
  int64_t snapshot_id = 0;
  int64_t timestamp_ms = 0;
  std::string operation = "append";  // append | overwrite | delete | replace
  std::string manifest_list;
  SnapshotChanges changes;
  // Caller keys such as flink.max-committed-checkpoint-id, flink.job-id, flink.operator-id.
  std::vector<std::pair<std::string, std::string>> extra_summary;
  std::string branch = kMainBranch;
  // v3: the rows this snapshot assigns row ids to (its first-row-id is the table's next-row-id).
  int64_t added_rows = 0;
};

// The metadata with `snapshot` added and made the head of its branch (and current, for main):
// sequence number last+1 (v2+), the branch head as parent, summary with totals, snapshot-log entry,
// last-updated-ms = the snapshot's timestamp, next-row-id advanced (v3).
[[nodiscard]] Result<TableMetadata> AddSnapshot(const TableMetadata& base, const NewSnapshot& snapshot);

// The summary a snapshot gets (exposed for tests and for a REST client that sends add-snapshot).
std::vector<std::pair<std::string, std::string>> BuildSnapshotSummary(const Snapshot* parent,
                                                                      const NewSnapshot& snapshot);

// Records the previous metadata file in `next`'s metadata log (as Java does on every commit), keeps
// the newest 'write.metadata.previous-versions-max' entries (at least 1) and returns the entries
// dropped from the log (the catalog deletes their files when
// 'write.metadata.delete-after-commit.enabled' is true).
[[nodiscard]] Result<std::vector<MetadataLogEntry>> UpdateMetadataLog(TableMetadata* next, const TableMetadata& base,
                                                                      const std::string& base_metadata_file);

// Snapshot expiry as Java's ExpireSnapshots: a branch keeps its head's ancestors while fewer than
// `min_snapshots_to_keep` are kept or they are not older than `older_than_ms`; a tag keeps its
// snapshot; a snapshot no ref reaches is kept only when not older than `older_than_ms`. The
// snapshot log loses the entries up to the last expired snapshot, statistics of expired snapshots
// are dropped. Files are not touched: the caller deletes what only the removed snapshots reference.
struct ExpireSnapshotsOptions {
  int64_t older_than_ms = 0;
  int64_t min_snapshots_to_keep = 1;
};
inline constexpr const char* kPropMaxSnapshotAgeMs = "history.expire.max-snapshot-age-ms";
inline constexpr int64_t kDefaultMaxSnapshotAgeMs = 432000000;  // 5 days
inline constexpr const char* kPropMinSnapshotsToKeep = "history.expire.min-snapshots-to-keep";
// The options the table's properties give at `now_ms`.
[[nodiscard]] Result<ExpireSnapshotsOptions> ExpireOptionsFromProperties(const TableMetadata& metadata, int64_t now_ms);
// The metadata without the expired snapshots; `removed` receives them (oldest first).
[[nodiscard]] Result<TableMetadata> ExpireSnapshots(const TableMetadata& base, const ExpireSnapshotsOptions& options,
                                                    std::vector<Snapshot>* removed);

// Flink's exactly-once bookkeeping (IcebergFilesCommitter): walking back from the branch head, the
// 'flink.max-committed-checkpoint-id' of the newest snapshot committed by job `job_id` (and by
// `operator_id`, when the snapshot records one); -1 when the job never committed to the table.
inline constexpr const char* kFlinkMaxCommittedCheckpointId = "flink.max-committed-checkpoint-id";
inline constexpr const char* kFlinkJobId = "flink.job-id";
inline constexpr const char* kFlinkOperatorId = "flink.operator-id";
[[nodiscard]] Result<int64_t> MaxCommittedCheckpointId(const TableMetadata& metadata, std::string_view job_id,
                                                       std::string_view operator_id,
                                                       const std::string& branch = kMainBranch);

// Random ids as Java makes them: a type-4 UUID ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx") and a
// positive snapshot id from one (its halves XORed, sign bit cleared).
std::string NewTableUuid();
int64_t NewSnapshotId();

}  // namespace sluice
