// The job summary as the embedding API returns it (engine/session.h): peak_rss is the job's own
// memory, and a job that fails once running still has its summary.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "engine/session.h"

namespace sluice {
namespace {

TEST(JobSummaryTest, PeakRssLeavesOutWhatTheProcessHeldBeforeTheJob) {
  // The embedding process holds 200 MB (allocated and touched) while the job runs.
  constexpr size_t kBallast = size_t{200} << 20;
  std::vector<char> ballast(kBallast);
  std::memset(ballast.data(), 1, ballast.size());
  Session session;
  auto result = session.Execute("SELECT 1", nullptr);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_TRUE(result->summary.has_value());
  EXPECT_LT(result->summary->peak_rss_bytes, static_cast<int64_t>(kBallast / 4)) << result->summary->ToString();
  EXPECT_EQ(ballast[kBallast / 2], 1);  // held until here
}

TEST(JobSummaryTest, JobOverTheMemoryBudgetFailsAfterItsSummary) {
  Session session;
  for (const char* sql : {"SET 'taskmanager.memory.process.size' = '1 mb'",
                          "CREATE TABLE g (k BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '50000', "
                          "'rows-per-second' = '1000000000', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', "
                          "'fields.k.end' = '50000')",
                          "CREATE TABLE o (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')"}) {
    ASSERT_TRUE(session.Execute(sql, nullptr).ok()) << sql;
  }
  auto result = session.Execute("INSERT INTO o SELECT k, COUNT(*) FROM g GROUP BY k", nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(
                "Job 'job-1' exceeded the memory budget ('taskmanager.memory.process.size' = 1 mb): operator GroupAggregate("),
            std::string::npos)
      << result.status().message();
  ASSERT_TRUE(session.LastJobSummary().has_value());
  EXPECT_TRUE(session.LastJobSummary()->failed);
  EXPECT_EQ(session.LastJobSummary()->ToString().rfind("job failed: source g(rows=", 0), 0u)
      << session.LastJobSummary()->ToString();
  // The next statement starts without it.
  ASSERT_TRUE(session.Execute("SET 'taskmanager.memory.process.size' = '1 gb'", nullptr).ok());
  EXPECT_FALSE(session.LastJobSummary().has_value());
}

}  // namespace
}  // namespace sluice
