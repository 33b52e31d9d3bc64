// The typed content of Iceberg manifests and manifest lists (the spec's "Manifests" and "Manifest
// Lists"): DataFile (a data file, a position- or equality-delete file, or a deletion vector),
// ManifestEntry (a DataFile with its status and sequence numbers in one manifest) and ManifestFile
// (one manifest as a manifest list names it, with its counts and partition summaries).
//
// Sequence numbers and snapshot ids are optional where the file may leave them to inheritance: a
// writer leaves them unset for entries ADDED by the snapshot being committed, and readers
// (manifest_reader.h) fill them from the manifest list as the spec says. kUnassignedSequenceNumber
// marks a ManifestFile written for a snapshot whose sequence number is not known yet; the manifest
// list writer replaces it with the snapshot's.
//
// Threading: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectors/iceberg/iceberg_literal.h"

namespace sluice {

inline constexpr int64_t kUnassignedSequenceNumber = -1;

enum class ManifestContent : int32_t { kData = 0, kDeletes = 1 };
enum class DataFileContent : int32_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class ManifestEntryStatus : int32_t { kExisting = 0, kAdded = 1, kDeleted = 2 };

// "data" / "deletes", as the manifest header's "content" key spells them.
const char* ManifestContentName(ManifestContent content);

struct DataFile {
  DataFileContent content = DataFileContent::kData;
  std::string file_path;
  // "PARQUET", "AVRO", "ORC" or "PUFFIN" (upper case, as Java writes it).
  std::string file_format = "PARQUET";
  // One value per partition field of the spec, in spec order; nullopt is a null partition value.
  std::vector<std::optional<IcebergLiteral>> partition;
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  // Column statistics by field id; an empty map is written as null.
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  // Bounds in the spec's single-value binary form (IcebergLiteral::ToBytes).
  std::map<int32_t, std::string> lower_bounds;
  std::map<int32_t, std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;  // empty is written as null
  std::vector<int32_t> equality_ids;   // empty is written as null
  std::optional<int32_t> sort_order_id;
  // v3: the first row id of a data file (null when it inherits one).
  std::optional<int64_t> first_row_id;
  // Position deletes and deletion vectors: the one data file they apply to.
  std::optional<std::string> referenced_data_file;
  // Deletion vectors: where the blob sits in the Puffin file.
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;

  bool operator==(const DataFile& other) const = default;
};

struct ManifestEntry {
  ManifestEntryStatus status = ManifestEntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  // The data sequence number, and the sequence number of the snapshot that added the file.
  std::optional<int64_t> sequence_number;
  std::optional<int64_t> file_sequence_number;
  DataFile data_file;

  bool operator==(const ManifestEntry& other) const = default;
};

struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // single-value binary form
  std::optional<std::string> upper_bound;

  bool operator==(const PartitionFieldSummary& other) const = default;
};

struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  int32_t added_files_count = 0;
  int32_t existing_files_count = 0;
  int32_t deleted_files_count = 0;
  int64_t added_rows_count = 0;
  int64_t existing_rows_count = 0;
  int64_t deleted_rows_count = 0;
  // One per partition field; absent when the writer left it null.
  std::optional<std::vector<PartitionFieldSummary>> partitions;
  std::optional<std::string> key_metadata;
  // v3 data manifests: the first row id of the manifest's files that inherit one.
  std::optional<int64_t> first_row_id;

  bool operator==(const ManifestFile& other) const = default;
};

}  // namespace sluice
