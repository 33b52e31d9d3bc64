// IcebergCommitter: the exactly-once half of the Iceberg sink, as Flink's IcebergFilesCommitter.
//
// At a checkpoint (Prepare) the files a task wrote since the previous one are listed in temporary
// manifests under <table location>/metadata/ ("<job id>-<operator id>-0-0-<checkpoint id>-<n>.avro",
// Flink's ManifestOutputFileFactory names), and the committables name them with the checkpoint id,
// the job id and the operator id. Commit (when the checkpoint is durable, or again after a restore)
// makes one snapshot of them: "append" when there are only data files, "overwrite" (a RowDelta: data
// and delete manifests) otherwise, on top of the current snapshot's manifests, with the summary
// 'flink.max-committed-checkpoint-id', 'flink.job-id' and 'flink.operator-id' and Java's totals. A
// commit conflict (another writer committed first) reloads the table and re-applies the change
// (CommitWithRetries, 'commit.retry.num-retries').
//
// A writer with a primary-key index ('position' and 'dv' modes) must see its table exactly as its
// index does. When a job falls back to an older checkpoint (the newest one unreadable), its next
// checkpoint reuses an id the table already has; that checkpoint's files are new and its deletes were
// computed against the table as it is, so it is committed anyway: such committers (set_commit_once_by_id
// (false)) tag each snapshot with 'sluice.commit-id' and skip only committables whose id is there.
//
// Deletion vectors (v3): a new vector for a data file that has a live one replaces it (the writer
// merged the old positions in and names the vector it replaced, IcebergWriteResult::replaced_dvs).
// The commit rewrites the delete manifests holding the replaced vectors with them DELETED (the rest
// EXISTING), so a data file has one live vector per snapshot. When the live vector is not the one
// the writer merged (another writer changed it), the commit fails rather than lose its deletes.
//
// A committable whose checkpoint id is at most the table's max committed checkpoint id for its job
// and operator (MaxCommittedCheckpointId of table_metadata.h walks the current snapshot's ancestry, as Flink's
// getMaxCommittedCheckpointId) is skipped, so committing the same committables twice (a restart after
// the commit but before the checkpoint's completion was noticed) never commits twice.
//
// Threading: one sink task.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/iceberg_catalog.h"
#include "connectors/iceberg/iceberg_task_writer.h"

namespace sluice {

// Flink's checkpoint id for the commit at the end of input of a job without checkpoints.
inline constexpr int64_t kEndOfInputCheckpointId = 9223372036854775807LL;

// What the commits of one sink did, for the job summary.
struct IcebergCommitStats {
  int64_t snapshots = 0;
  int64_t rows_written = 0;
  int64_t data_files = 0;
  int64_t equality_deletes = 0;
  int64_t position_deletes = 0;
};

class IcebergCommitter {
 public:
  // `job_id`: the job's id, shared by its sinks ('flink.job-id'); empty draws a random one.
  IcebergCommitter(std::shared_ptr<IcebergCatalog> catalog, std::shared_ptr<FileIO> io, TableIdentifier ident,
                   std::string operator_id, std::string job_id = "");

  const std::string& job_id() const { return job_id_; }
  // A restored job continues under the job id of the committables it restored.
  void set_job_id(std::string job_id) { job_id_ = std::move(job_id); }

  // Writes the temporary manifests of `result` and returns the committables. They are never empty:
  // a checkpoint without files still records the job id, so a restore from it continues under the
  // same job id (and skips what that job committed after it).
  [[nodiscard]] Result<std::string> Prepare(int64_t checkpoint_id, const IcebergWriteResult& result);
  // Commits the committables Prepare returned, unless the table already has them.
  [[nodiscard]] Status Commit(const std::string& committables);
  // The job id the committables were prepared under.
  [[nodiscard]] static Result<std::string> JobIdOf(const std::string& committables);

  const IcebergCommitStats& stats() const { return stats_; }
  // false: a checkpoint id already committed is committed again unless its own commit id is in the
  // table (writers with a primary-key index, see above). Default true (Flink's rule).
  void set_commit_once_by_id(bool v) { once_by_id_ = v; }

 private:
  struct Parsed;
  [[nodiscard]] Result<std::string> WriteTempManifest(const std::string& location, ManifestContent content,
                                                      const std::vector<DataFile>& files, const TableMetadata& md);
  // The metadata with the checkpoint's snapshot added on `base` (its manifests and manifest list
  // written), for CommitWithRetries.
  [[nodiscard]] Result<TableMetadata> BuildSnapshot(const Parsed& c, const std::vector<DataFile>& data,
                                                    const std::vector<DataFile>& deletes, const LoadedTable& base);
  // Rewrites the parent's delete manifests (`manifests`) that hold live deletion vectors of the
  // data files `deletes` adds vectors for: those entries DELETED by `snapshot_id`, counted in
  // `changes`. Checks them against the vectors the writer replaced.
  [[nodiscard]] Status ReplaceDeletionVectors(const Parsed& c, const std::vector<DataFile>& deletes,
                                              const TableMetadata& md, int64_t snapshot_id,
                                              const std::string& location_prefix, std::vector<ManifestFile>* manifests,
                                              SnapshotChanges* changes);

  std::shared_ptr<IcebergCatalog> catalog_;
  std::shared_ptr<FileIO> io_;
  TableIdentifier ident_;
  std::string operator_id_;
  std::string job_id_;
  IcebergCommitStats stats_;
  bool once_by_id_ = true;
  // Entries of delete manifests read for ReplaceDeletionVectors (manifests never change).
  std::unordered_map<std::string, std::vector<ManifestEntry>> delete_manifests_;
};

}  // namespace sluice
