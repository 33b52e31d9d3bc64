// Checkpoints in object storage ('state.checkpoints.dir' = 's3://bucket/path'): CheckpointStorage
// keeps its usual layout (<job>/chk-<id>/_metadata, <job>/shared/) in a local staging directory and
// mirrors it to the remote job directory through the S3 FileIO (connectors/s3/s3_file_io.h):
//
//  - after a checkpoint is written locally, PushCheckpoint uploads the shared state files the remote
//    side lacks, then chk-<id>/_metadata (one PUT: visible only complete, so a remote _metadata only
//    ever names state files already uploaded), then deletes remote checkpoints and shared files that
//    retention removed locally;
//  - before a restore, PullCheckpoints replaces the staging directory with the remote checkpoints
//    (every retained chk-<id>/_metadata and shared file), so the usual checks (checksums, fall back
//    to the previous intact checkpoint) run on what the store holds.
//
// A job killed during a push leaves at most shared files no _metadata names (and, for a large file,
// an incomplete multipart upload, never visible): the restart pulls them and the first checkpoint's
// retention removes them, locally and then from the store. Its local staging directory is removed by
// the next NewCheckpointStagingDir.
//
// The store is configured from the environment, as the AWS SDKs are: AWS_ENDPOINT_URL_S3 or
// AWS_ENDPOINT_URL (an S3-compatible endpoint; path-style addressing unless it is an amazonaws.com
// host), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/file_io.h"
#include "common/status.h"

namespace sluice {

bool IsRemoteCheckpointLocation(const std::string& location);
std::shared_ptr<FileIO> CheckpointFileIO(const std::string& location);

// A new local staging directory for a remote job directory, sluice-checkpoints-<pid>-<n> in the
// temporary directory. Staging directories of processes that no longer run (a job killed while it
// staged a checkpoint) are removed first.
Result<std::string> NewCheckpointStagingDir();

Status PushCheckpoint(FileIO* io, const std::string& local_dir, const std::string& remote_dir, int64_t id);
Status PullCheckpoints(FileIO* io, const std::string& remote_dir, const std::string& local_dir);

}  // namespace sluice
