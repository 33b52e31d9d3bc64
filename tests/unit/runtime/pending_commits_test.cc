#include "runtime/pending_commits.h"

#include <gtest/gtest.h>

#include "connectors/connector.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

// A two-phase-commit writer that logs its calls; PreCommit(id) returns "c<id>".
class LoggingWriter final : public SinkWriter {
 public:
  Status Write(const Chunk&) override { return Status::OK(); }
  Status Finish() override { return Status::OK(); }
  bool EnableTwoPhaseCommit() override { return true; }
  Result<std::string> PreCommit(int64_t id) override {
    if (fail_precommit) return Status::IOError("disk full");
    return "c" + std::to_string(id);
  }
  Status Commit(const std::string& c) override {
    log.push_back("commit " + c);
    return Status::OK();
  }
  Status RecoverAndCommit(const std::string& c) override {
    log.push_back("recover " + c);
    return Status::OK();
  }
  std::vector<std::string> log;
  bool fail_precommit = false;
};

// Flink's committer semantics: a checkpoint that never completes leaves its committables to the
// next one that does, which commits them first, in checkpoint order.
TEST(PendingCommitsTest, ACompletedCheckpointCommitsWhatEarlierAbandonedOnesPreCommitted) {
  LoggingWriter w;
  PendingCommits p;
  ASSERT_TRUE(p.PreCommit(&w, 1).ok());
  ASSERT_TRUE(p.CommitUpTo(&w, 1).ok());
  ASSERT_TRUE(p.PreCommit(&w, 2).ok());  // abandoned
  ASSERT_TRUE(p.PreCommit(&w, 3).ok());  // abandoned
  ASSERT_TRUE(p.PreCommit(&w, 4).ok());
  ASSERT_TRUE(p.CommitUpTo(&w, 4).ok());
  ASSERT_TRUE(p.CommitUpTo(&w, 4).ok());  // nothing left
  EXPECT_EQ(w.log, (std::vector<std::string>{"commit c1", "commit c2", "commit c3", "commit c4"}));

  w.fail_precommit = true;
  EXPECT_FALSE(p.PreCommit(&w, 5).ok());
}

// A snapshot stores every pending committable; restoring it commits them in order, the last through
// RecoverAndCommit (which discards later output); with none, RecoverAndCommit gets empty ones.
TEST(PendingCommitsTest, ASnapshotCarriesEveryPendingCommittableIntoTheRestore) {
  LoggingWriter w;
  PendingCommits p;
  ASSERT_TRUE(p.PreCommit(&w, 1).ok());
  ASSERT_TRUE(p.PreCommit(&w, 2).ok());
  ASSERT_TRUE(p.PreCommit(&w, 3).ok());
  ASSERT_TRUE(p.CommitUpTo(&w, 1).ok());
  StateWriter sw;
  p.Put(&sw);
  const std::string bytes = sw.Release();

  LoggingWriter restored;
  StateReader r(bytes, "sink");
  std::vector<std::string> got = PendingCommits::Get(&r);
  ASSERT_TRUE(r.Finish().ok());
  ASSERT_TRUE(PendingCommits::Recover(&restored, got).ok());
  EXPECT_EQ(restored.log, (std::vector<std::string>{"commit c2", "recover c3"}));

  LoggingWriter fresh;
  ASSERT_TRUE(PendingCommits::Recover(&fresh, {}).ok());
  EXPECT_EQ(fresh.log, (std::vector<std::string>{"recover "}));

  // A truncated list is an error, not a shorter list.
  StateReader cut(std::string_view(bytes).substr(0, bytes.size() - 1), "sink");
  PendingCommits::Get(&cut);
  EXPECT_FALSE(cut.ok());
}

}  // namespace
}  // namespace sluice
