// PendingCommits: the committables a two-phase-commit writer (connectors/connector.h, SinkWriter)
// pre-committed at checkpoints that have not completed yet, oldest first.
//
// As Flink's committer keeps committables per checkpoint id, a checkpoint that never completes (the
// job abandoned it, checkpoint.h) leaves its committables to the next one that does: completing
// checkpoint `id` commits everything pre-committed at `id` or before. A snapshot stores them all, so
// restoring it commits them all.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace sluice {

class SinkWriter;
class StateReader;
class StateWriter;

class PendingCommits {
 public:
  // At checkpoint `id`: the writer pre-commits; its committables wait for the checkpoint.
  Status PreCommit(SinkWriter* writer, int64_t id);
  // Checkpoint `id` is durable: commits what was pre-committed at it or before, in order.
  Status CommitUpTo(SinkWriter* writer, int64_t id);
  // Every pending committable, for the snapshot.
  void Put(StateWriter* w) const;
  // Reads what Put wrote (check r->status()).
  static std::vector<std::string> Get(StateReader* r);
  // After a restore: commits the restored committables in order, the last through RecoverAndCommit,
  // which also discards what was written after it (with none, RecoverAndCommit gets empty
  // committables and discards everything uncommitted).
  static Status Recover(SinkWriter* writer, const std::vector<std::string>& committables);

 private:
  std::vector<std::pair<int64_t, std::string>> pending_;  // by checkpoint id, ascending
};

}  // namespace sluice
