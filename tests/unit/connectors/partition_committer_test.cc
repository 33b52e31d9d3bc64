// PartitionCommitter's triggers decided by explicit watermarks and processing times (the .test scripts
// cannot pin when a background checkpoint completes): partition-time with a delay, process-time with a
// delay, end of input, and the pending state carried by the committables.
#include "connectors/filesystem/partition_committer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr char kPartition[] = "dt=2023-11-14/hm=10%3A00";  // hm = '10:00', escaped as Flink does

std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) / (std::string("sluice_commit_") + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir / "dt=2023-11-14" / "hm=10%3A00");
  return dir.string();
}

std::unique_ptr<PartitionCommitter> MakeCommitter(const std::string& dir, std::map<std::string, std::string> options) {
  options["sink.partition-commit.policy.kind"] = "success-file";
  OptionReader reader("parts", &options);
  auto made = PartitionCommitter::Make(reader, dir, {"dt", "hm"});
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  return made.ok() ? std::move(*made) : nullptr;
}

// What a checkpoint carries for the committer, as the lines Commit reads back.
std::vector<std::string> Checkpoint(PartitionCommitter* c, bool end_of_input = false) {
  std::string text;
  c->AppendCommittables(end_of_input, &text);
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

Status Commit(PartitionCommitter* c, const std::vector<std::string>& lines, int64_t now_millis) {
  std::vector<std::string_view> views(lines.begin(), lines.end());
  return c->Commit(views, now_millis);
}

bool Committed(const std::string& dir) { return fs::exists(fs::path(dir) / kPartition / "_SUCCESS"); }

// 2023-11-14 10:00:00 UTC.
constexpr int64_t kPartitionMillis = 1699956000000;
constexpr int64_t kMicrosPerMilli = 1000;

TEST(PartitionCommitterTest, PartitionTimeCommitsOnceTheWatermarkPassesTimePlusDelay) {
  const std::string dir = TestDir();
  auto c = MakeCommitter(dir, {{"sink.partition-commit.trigger", "partition-time"},
                               {"sink.partition-commit.delay", "1 h"},
                               {"partition.time-extractor.timestamp-pattern", "$dt $hm:00"}});
  ASSERT_NE(c, nullptr);
  c->PartitionWritten(kPartition);
  // Watermarks are microseconds, as everywhere in the engine: exactly time + delay does not commit
  // (Flink: watermark > time + delay).
  c->SetWatermark((kPartitionMillis + 3600000) * kMicrosPerMilli);
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 0).ok());
  EXPECT_FALSE(Committed(dir));
  c->SetWatermark((kPartitionMillis + 3600001) * kMicrosPerMilli);
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 0).ok());
  EXPECT_TRUE(Committed(dir));
}

TEST(PartitionCommitterTest, ProcessTimeCommitsAfterTheDelaySinceTheCheckpointThatShowedThePartition) {
  const std::string dir = TestDir();
  auto c = MakeCommitter(dir, {{"sink.partition-commit.trigger", "process-time"},
                               {"sink.partition-commit.delay", "10 s"}});
  ASSERT_NE(c, nullptr);
  c->PartitionWritten(kPartition);
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 1000).ok());  // seen at 1 s
  EXPECT_FALSE(Committed(dir));
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 11000).ok());
  EXPECT_FALSE(Committed(dir));
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 11001).ok());
  EXPECT_TRUE(Committed(dir));
}

TEST(PartitionCommitterTest, EndOfInputCommitsWhatIsPending) {
  const std::string dir = TestDir();
  auto c = MakeCommitter(dir, {{"sink.partition-commit.trigger", "partition-time"},
                               {"partition.time-extractor.timestamp-pattern", "$dt $hm:00"}});
  ASSERT_NE(c, nullptr);
  c->PartitionWritten(kPartition);
  c->SetWatermark(kPartitionMillis * kMicrosPerMilli);  // not past the partition's time
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get()), 0).ok());
  EXPECT_FALSE(Committed(dir));
  ASSERT_TRUE(Commit(c.get(), Checkpoint(c.get(), /*end_of_input=*/true), 0).ok());
  EXPECT_TRUE(Committed(dir));
}

TEST(PartitionCommitterTest, ARestoredCommitterDecidesFromTheCheckpointsPendingState) {
  const std::string dir = TestDir();
  const std::map<std::string, std::string> options = {{"sink.partition-commit.trigger", "process-time"},
                                                      {"sink.partition-commit.delay", "10 s"}};
  auto before = MakeCommitter(dir, options);
  ASSERT_NE(before, nullptr);
  before->PartitionWritten(kPartition);
  ASSERT_TRUE(Commit(before.get(), Checkpoint(before.get()), 1000).ok());
  const std::vector<std::string> carried = Checkpoint(before.get());  // the partition, pending since 1 s
  auto after = MakeCommitter(dir, options);
  ASSERT_NE(after, nullptr);
  ASSERT_TRUE(Commit(after.get(), carried, 5000).ok());
  EXPECT_FALSE(Committed(dir));
  ASSERT_TRUE(Commit(after.get(), Checkpoint(after.get()), 11001).ok());
  EXPECT_TRUE(Committed(dir));
}

TEST(PartitionCommitterTest, CorruptStateIsAnErrorNamingTheTable) {
  const std::string dir = TestDir();
  auto c = MakeCommitter(dir, {});
  ASSERT_NE(c, nullptr);
  Status st = Commit(c.get(), {"\tX\tnonsense"}, 0);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("Corrupt partition commit state for '" + dir + "'"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace sluice
