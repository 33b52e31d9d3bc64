// Scan planning (the spec's "Scan Planning"): which data files of a snapshot are live and which
// delete files apply to each of them.
//
// PlanSnapshotScan reads the snapshot's manifest list and every manifest it names (entries whose
// status is not DELETED are live) and assigns delete files to data files by the spec's rules, each
// with its data sequence number (inherited as manifest_reader.h describes):
//   - a deletion vector (a position delete file in Puffin) applies to its referenced_data_file when
//     its sequence number is >= the data file's;
//   - a position delete file applies when its sequence number is >= the data file's, and it is in
//     the data file's spec and partition (or names the data file in referenced_data_file); the rows
//     it holds are matched against the data file's path (NormalizeIcebergPath) when read;
//   - an equality delete file applies when its sequence number is strictly > the data file's, and
//     it is in the data file's spec and partition, or its spec is unpartitioned (a global delete).
// PlanAppendScan is Flink's incremental (append) scan: the data files that the append snapshots
// after `start` (exclusive) up to `end` (inclusive) added, without deletes.
//
// Threading: pure functions over a FileIO (which is thread-safe).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/manifest.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {

// A delete file with what the reader needs of its manifest entry.
struct ScanDeleteFile {
  DataFile file;
  int64_t data_sequence_number = 0;
  int32_t spec_id = 0;
  bool deletion_vector() const {
    return file.content == DataFileContent::kPositionDeletes && file.file_format == "PUFFIN";
  }
};

// One data file to read and the delete files that apply to it.
struct FileScanTask {
  DataFile data_file;
  int64_t data_sequence_number = 0;
  int32_t spec_id = 0;
  std::vector<ScanDeleteFile> deletes;
};

// The path of a data file with scheme and authority removed ("hdfs://nn:8020/a/b" and "file:/a/b"
// are "/a/b"), so a position delete written by one engine matches a data file path written by
// another.
std::string NormalizeIcebergPath(const std::string& path);

// With a `pruner`, data manifests and data files that cannot match its filter are skipped (delete
// files never are), and `metrics` (when given) counts what was kept and skipped.
class IcebergScanPruner;
struct IcebergScanMetrics;
[[nodiscard]] Result<std::vector<FileScanTask>> PlanSnapshotScan(FileIO* io, const TableMetadata& metadata,
                                                                 const Snapshot& snapshot,
                                                                 IcebergScanPruner* pruner = nullptr,
                                                                 IcebergScanMetrics* metrics = nullptr);

// `start_exclusive` unset: from the first snapshot of `end`'s ancestry. Fails when `start` is not
// an ancestor of `end`.
[[nodiscard]] Result<std::vector<FileScanTask>> PlanAppendScan(FileIO* io, const TableMetadata& metadata,
                                                               std::optional<int64_t> start_exclusive,
                                                               int64_t end_inclusive,
                                                               IcebergScanPruner* pruner = nullptr,
                                                               IcebergScanMetrics* metrics = nullptr);

// The ids of the snapshots after `start_exclusive` up to `end_inclusive` in `end`'s ancestry,
// oldest first; fails as PlanAppendScan does.
[[nodiscard]] Result<std::vector<int64_t>> SnapshotsBetween(const TableMetadata& metadata,
                                                            std::optional<int64_t> start_exclusive,
                                                            int64_t end_inclusive);

}  // namespace sluice
