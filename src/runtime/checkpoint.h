// Checkpoints: the durable snapshot of a running job, and where they are kept (issue 5).
//
// A checkpoint holds, for every operator of the job in the order BuildJob created them, its state
// as bytes written through a StateWriter (state/state_serde.h): sources their split offsets and
// watermarks, stateful operators their keyed state, sinks their pending (pre-committed) files.
// Each operator's section carries its plan digest (EXPLAIN's name and attributes), so a script whose
// plan changed is refused naming the operator, and an XXH64 checksum.
//
// Storage (CheckpointStorage) follows Flink's layout: <state.checkpoints.dir>/<job>/chk-<id>/_metadata.
// A checkpoint is written as chk-<id>.inprogress/_metadata, fsynced, and renamed to chk-<id> (then
// the directory is fsynced), so a crash leaves either a complete checkpoint or an in-progress
// directory that is ignored and removed. The file ends with a checksum of everything before it; a
// torn or corrupt file is detected when read, and Latest() then falls back to the previous complete
// checkpoint, saying so. Only the newest 'state.checkpoints.num-retained' are kept.
//
// Incremental checkpoints: an operator's state of at least 'state.storage.fs.memory-threshold' goes to its own file in
// <job>/shared/ rather than into _metadata, and a later checkpoint may then store only a delta on
// it (Operator::WriteDelta): its _metadata lists the operator's chain, the full snapshot and every
// delta since, by file name, size and checksum. A missing or damaged chain file makes the whole
// checkpoint unreadable, so Latest() falls back as for a damaged _metadata.
//
// Object storage: a 'state.checkpoints.dir' of s3://bucket/path keeps this layout in a local staging
// directory mirrored to the store after every checkpoint and fetched from it before a restore
// (runtime/checkpoint_remote.h).
//
// Failpoints (for the crash harness, tests/crash/): common/failpoint.h.
//
// Threading: Write runs on the job's checkpoint thread, one at a time; HelpWrite may run on another
// thread meanwhile (the job's task thread, while it waits for that write). The rest is used by the
// task thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/failpoint.h"
#include "common/status.h"
#include "state/state_serde.h"

namespace sluice {

class FileIO;

struct CheckpointData {
  // A state file under <job>/shared/: an operator's full snapshot or a delta on it. Checkpoints
  // share these files (a later checkpoint's chain starts with files an earlier one wrote), as Flink's
  // incremental checkpoints share state files; retention deletes a file once no retained checkpoint
  // names it.
  struct StateFile {
    std::string name;       // file name under shared/; empty until written
    bool delta = false;     // Operator::WriteDelta output (else WriteSnapshot)
    uint64_t raw_size = 0;  // bytes of the state
    uint64_t file_size = 0;
    uint64_t checksum = 0;  // XXH64 of the file
    std::string bytes;      // the state: to write (a new file) or as read back
    // Parts of a new file's state written by the background thread between `bytes` (state_serde.h);
    // dropped once written.
    std::vector<DeferredPart> deferred;
  };
  struct OperatorState {
    std::string digest;  // the operator's plan digest, for the restore-time match
    std::string bytes;   // its StateWriter output, kept in _metadata (when `chain` is empty)
    // Or: its state as a chain of shared files, a full snapshot then the deltas on it, in order.
    std::vector<StateFile> chain;
  };
  int64_t id = 0;
  int64_t timestamp_micros = 0;  // processing time when it was triggered
  // Taken after every source ended: restoring it only completes the sinks' commits.
  bool final = false;
  std::vector<OperatorState> operators;
};

// Encodes/decodes the _metadata file (chain files by name, size and checksum: their bytes are not
// read or written here). Decode never crashes on bad bytes: it returns an error that names `path`
// and what is wrong.
std::string EncodeCheckpoint(const CheckpointData& data);
Result<CheckpointData> DecodeCheckpoint(std::string_view bytes, const std::string& path);

class CheckpointStorage {
 public:
  // `job_dir` is <state.checkpoints.dir>/<job name>; created on first write.
  CheckpointStorage(std::string job_dir, int num_retained);
  ~CheckpointStorage();

  // Writes checkpoint `data.id` durably: first the chain files that have no name yet (each from its
  // bytes to shared/ under a temporary name, fsynced, renamed; their names, sizes and checksums are
  // filled in, and their bytes left for the caller to release or reuse), then _metadata (temporary name, fsync, rename, fsync of the
  // directory). Then removes checkpoints beyond the retained count and shared files no retained
  // checkpoint names. Returns the bytes written.
  Result<int64_t> Write(CheckpointData* data);
  // The newest complete checkpoint that reads back intact, or nullopt when there is none. Corrupt
  // ones are skipped with a note per skipped checkpoint appended to `notes`; when checkpoints exist
  // but none is intact, an error. Leftover in-progress directories are removed.
  Result<std::optional<CheckpointData>> Latest(std::vector<std::string>* notes);
  // Reads one checkpoint directory (chk-<id>) or its _metadata file ('execution.savepoint.path'),
  // with the bytes of every chain file (from ../shared/, each checked against its size and checksum).
  static Result<CheckpointData> ReadPath(const std::string& path);

  // The job directory ('state.checkpoints.dir'/<job>), remote or local.
  const std::string& dir() const { return remote_.empty() ? dir_ : remote_; }

  // Helping a Write that runs on another thread: StartWrite marks one as started (call it before
  // starting the thread); HelpWrite then compresses frames of its state files on the calling thread
  // until the Write has finished or `deadline` has passed (returning at once when none runs). The
  // bytes written are the same.
  void StartWrite();
  void HelpWrite(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());
  // Abandons checkpoint `id` if its Write has not written _metadata yet: the Write stops at its next
  // frame or file, leaves no chk-<id>, and returns an Aborted status (the shared files it wrote are
  // collected by the next checkpoint's retention). Callable from any thread; a Write that is past
  // that point completes as usual.
  void Abort(int64_t id);

  // The frames of the state file being written (checkpoint.cc).
  struct Frames;

 private:
  Result<int64_t> WriteLocal(CheckpointData* data);

  std::string dir_;  // the local job directory (for a remote one: its staging copy)
  int num_retained_;
  std::unique_ptr<Frames> frames_;
  std::string remote_;                  // the s3:// job directory, or empty
  std::shared_ptr<FileIO> remote_io_;
};

}  // namespace sluice
