// Table maintenance (beyond Flink's SQL; the `sluice iceberg` CLI commands, docs/iceberg.md
// "Compaction and snapshot expiry"), with the semantics of Iceberg's Spark procedures
// rewrite_data_files, expire_snapshots and remove_orphan_files:
//
//  - RewriteDataFiles (compaction): the data files of the current snapshot that have deletes (equality
//    deletes, position deletes or deletion vectors that apply to them), and in each partition the files
//    below the target size when there are at least two of them (with deletes or not), are read with
//    their deletes applied (the scan reader, iceberg_scan_reader.h) and written again per partition at
//    the target size.
//    One 'replace' snapshot removes them and every delete file that applies to no other file, and adds
//    the new files with the data sequence number of the snapshot the rewrite started from (Java's
//    use-starting-sequence-number), so deletes committed after it still apply. A table that changed
//    while the rewrite ran is left alone (an error: run it again).
//  - ExpireSnapshotsAndFiles: the snapshots table_metadata.h's ExpireSnapshots removes
//    (older than `older_than_ms`, beyond the newest `retain_last` of each branch; defaults from the
//    table's history.expire.* properties) are committed away, then every file only they reached is
//    deleted: manifest lists, manifests, data files, delete files (a Puffin file once no kept
//    deletion vector is in it).
//  - RemoveOrphanFiles: every file under the table's location (as FileIO::ListFilesRecursively lists
//    them: names starting with '.', writers' temporary files, are not listed, as Java's hidden-path
//    filter does not list them) that the table's metadata does not reach and that was last modified
//    before `older_than_ms` is deleted (or only listed, `dry_run`). Reachable: every snapshot's
//    manifest list, its manifests and their live entries' data and delete files (Puffin files of
//    deletion vectors too), the statistics and partition-statistics files, the current metadata file,
//    the metadata log's files and the hadoop catalog's version-hint.text. Orphans are what a job
//    killed between writing files and committing them leaves (data and delete files, the committer's
//    temporary manifests), and metadata files beyond write.metadata.previous-versions-max.
//    The cutoff is the only protection against deleting the files of a commit in progress (written,
//    not yet referenced): it must be older than any write still running (the CLI's default: 3 days).
//    The files are listed before the metadata is loaded, so a commit that completes in between is
//    seen.
//
// A writer in 'position' or 'dv' delete mode keeps an index of row positions: stop it before
// compacting its table (a compaction commits new positions it does not know).
//
// Threading: functions; one table at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/iceberg_catalog.h"

namespace sluice {

struct RewriteDataFilesOptions {
  std::optional<int64_t> target_file_size;  // default: the table's write.target-file-size-bytes
};

struct RewriteDataFilesResult {
  int64_t rewritten_data_files = 0;
  int64_t added_data_files = 0;
  int64_t rewritten_bytes = 0;
  int64_t removed_delete_files = 0;
  std::optional<int64_t> snapshot_id;  // the replace snapshot; none when nothing needed rewriting
};

[[nodiscard]] Result<RewriteDataFilesResult> RewriteDataFiles(IcebergCatalog* catalog, std::shared_ptr<FileIO> io,
                                                              const TableIdentifier& ident,
                                                              const RewriteDataFilesOptions& options);

struct ExpireSnapshotsRequest {
  int64_t now_ms = 0;
  std::optional<int64_t> older_than_ms;  // default: now - history.expire.max-snapshot-age-ms
  std::optional<int64_t> retain_last;    // default: history.expire.min-snapshots-to-keep
};

struct ExpireSnapshotsResult {
  int64_t expired_snapshots = 0;
  int64_t deleted_data_files = 0;
  int64_t deleted_position_delete_files = 0;  // Parquet position delete files and Puffin files
  int64_t deleted_equality_delete_files = 0;
  int64_t deleted_manifest_files = 0;
  int64_t deleted_manifest_lists = 0;
};

[[nodiscard]] Result<ExpireSnapshotsResult> ExpireSnapshotsAndFiles(IcebergCatalog* catalog, FileIO* io,
                                                                    const TableIdentifier& ident,
                                                                    const ExpireSnapshotsRequest& request);

struct RemoveOrphanFilesRequest {
  int64_t older_than_ms = 0;  // only files last modified before it are orphans
  bool dry_run = false;       // list them without deleting
};

struct RemoveOrphanFilesResult {
  std::vector<std::string> orphan_file_locations;  // sorted; deleted unless dry_run
};

[[nodiscard]] Result<RemoveOrphanFilesResult> RemoveOrphanFiles(IcebergCatalog* catalog, FileIO* io,
                                                                const TableIdentifier& ident,
                                                                const RemoveOrphanFilesRequest& request);

}  // namespace sluice
