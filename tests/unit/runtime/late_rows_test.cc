// Late-row reporting (runtime/late_rows.h, Operator::ReportLate), the job summary's late counts, and
// watermark idleness (Operator::ReceiveIdle, SourceOperator's idle timeout).
#include "runtime/late_rows.h"

#include <gtest/gtest.h>

#include <deque>

#include "common/clock.h"
#include "connectors/connector.h"
#include "function/evaluator.h"
#include "function/expression.h"
#include "runtime/operators/source_operator.h"
#include "unit/runtime/rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::Big;
using testing::CollectSink;
using testing::Ts;

Schema Columns(std::vector<std::pair<std::string, LogicalType>> cols) {
  Schema s;
  for (auto& [n, t] : cols) s.Add(n, t);
  return s;
}

TEST(LateRowsTableTest, AcceptsTheColumnsInAnyOrderWithOptionalEventTime) {
  auto roles = ValidateLateRowsTable(
      "late", Columns({{"row", LogicalType::String()}, {"operator", LogicalType::String()},
                       {"watermark", LogicalType::Timestamp(3)}}));
  ASSERT_TRUE(roles.ok()) << roles.status().ToString();
  EXPECT_EQ(*roles, (std::vector<LateRowsColumn>{LateRowsColumn::kRow, LateRowsColumn::kOperator, LateRowsColumn::kWatermark}));
}

TEST(LateRowsTableTest, NamesTheTableAndTheExpectedColumns) {
  auto missing = ValidateLateRowsTable("late", Columns({{"operator", LogicalType::String()},
                                                        {"watermark", LogicalType::Timestamp(3)}}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "The late-rows table 'late' (option 'sluice.exec.late-rows.table') lacks the column 'row'. It must have the "
            "columns operator STRING, watermark TIMESTAMP(3), row STRING and optionally event_time TIMESTAMP(3), in any "
            "order, but has (`operator` STRING, `watermark` TIMESTAMP(3)).");
  auto wrong = ValidateLateRowsTable("late", Columns({{"operator", LogicalType::BigInt()},
                                                      {"watermark", LogicalType::Timestamp(3)},
                                                      {"row", LogicalType::String()}}));
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("declares column 'operator' as BIGINT instead of STRING"), std::string::npos);
}

// Collects what a late-rows table receives, as text.
class TextWriter final : public SinkWriter {
 public:
  Status Write(const Chunk& chunk) override {
    ++writes;
    for (size_t i = 0; i < chunk.size(); ++i) {
      std::string line;
      for (size_t c = 0; c < chunk.num_columns(); ++c) {
        line += (c ? "|" : "") + (chunk.column(c).IsNull(i) ? std::string("NULL") : chunk.column(c).GetValue(i).ToString());
      }
      rows.push_back(line);
    }
    return Status::OK();
  }
  Status Finish() override {
    finished = true;
    return Status::OK();
  }
  std::vector<std::string> rows;
  int writes = 0;
  bool finished = false;
};

// Drops every row it receives as late.
class DropEverything final : public Operator {
 public:
  DropEverything() : Operator("DropEverything", 1) {}
  Status Process(int, Chunk& chunk) override {
    for (size_t i = 0; i < chunk.size(); ++i) ReportLate(chunk, i, chunk.column(1).data<int64_t>()[i]);
    return Status::OK();
  }
};

TEST(LateRowRecorderTest, OperatorsReportRowsAsJsonWithTheirWatermarkAndTheRecorderWritesThemPerOperator) {
  auto writer = std::make_shared<TextWriter>();
  std::vector<LateRowsColumn> cols = {LateRowsColumn::kOperator, LateRowsColumn::kWatermark, LateRowsColumn::kRow,
                                      LateRowsColumn::kEventTime};
  LateRowRecorder recorder("late", cols, writer, 1);
  JobContext ctx;
  ctx.late_rows = &recorder;
  DropEverything first, second;
  first.SetLateRowReporting("Drop#1", {{"user_id", "ts"}});
  second.SetLateRowReporting("Drop#2", {{"user_id", "ts"}});
  recorder.RegisterOperator("Drop#1");
  recorder.RegisterOperator("Drop#2");
  ASSERT_TRUE(first.Open(&ctx).ok());
  ASSERT_TRUE(second.Open(&ctx).ok());
  const std::vector<LogicalType> types = {LogicalType::String(), LogicalType::Timestamp(3)};
  Chunk a = testing::MakeChunk(types, {testing::I({Value::String("u1"), Ts(1000)})});
  ASSERT_TRUE(second.Process(0, a).ok());  // before any watermark
  ASSERT_TRUE(first.ReceiveWatermark(0, 5000 * 1000).ok());
  Chunk b = testing::MakeChunk(types, {testing::I({Value::String("u2"), Ts(2000)}), testing::I({Value::String("u3"), Ts(3000)})});
  ASSERT_TRUE(first.Process(0, b).ok());
  EXPECT_EQ(first.metrics().late_rows_dropped, 2);
  EXPECT_EQ(second.metrics().late_rows_dropped, 1);
  EXPECT_TRUE(writer->rows.empty());  // written when the job ends
  ASSERT_TRUE(recorder.Finish().ok());
  EXPECT_TRUE(writer->finished);
  EXPECT_EQ(recorder.rows_recorded(), 3);
  // Operator by operator in registration order, chunks of at most chunk_size rows.
  EXPECT_EQ(writer->rows, (std::vector<std::string>{
                              "Drop#1|1970-01-01 00:00:05.000|{\"user_id\":\"u2\",\"ts\":\"1970-01-01 00:00:02.000\"}|1970-01-01 00:00:02.000",
                              "Drop#1|1970-01-01 00:00:05.000|{\"user_id\":\"u3\",\"ts\":\"1970-01-01 00:00:03.000\"}|1970-01-01 00:00:03.000",
                              "Drop#2|NULL|{\"user_id\":\"u1\",\"ts\":\"1970-01-01 00:00:01.000\"}|1970-01-01 00:00:01.000",
                          }));
  EXPECT_EQ(writer->writes, 3);
}

TEST(LateRowRecorderTest, WithoutATableOperatorsOnlyCount) {
  JobContext ctx;
  DropEverything op;
  ASSERT_TRUE(op.Open(&ctx).ok());
  Chunk c = testing::MakeChunk({LogicalType::String(), LogicalType::Timestamp(3)}, {testing::I({Value::String("u1"), Ts(1)})});
  ASSERT_TRUE(op.Process(0, c).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  EXPECT_EQ(op.late_row_label(), "DropEverything");
}

TEST(JobSummaryTest, ShowsLateRowsPerOperatorAndTheLateRowsTable) {
  JobSummary s;
  s.late_rows_dropped = 3;
  s.late_rows_per_operator = {{"WindowAggregate", 2}, {"Deduplicate", 1}};
  s.late_rows_table = "late_rows";
  s.late_rows_recorded = 3;
  EXPECT_NE(s.ToString().find(" late_dropped=3(WindowAggregate=2, Deduplicate=1) -> late rows late_rows(+I=3) elapsed="),
            std::string::npos)
      << s.ToString();
  JobSummary none;
  EXPECT_NE(none.ToString().find(" late_dropped=0 elapsed="), std::string::npos) << none.ToString();
}

// Forwards chunks from two inputs.
class TwoInputs final : public Operator {
 public:
  TwoInputs() : Operator("TwoInputs", 2) {}
  Status Process(int, Chunk& chunk) override { return Emit(chunk); }
};

TEST(WatermarkIdlenessTest, AnIdleInputDoesNotHoldBackTheWatermarkAndAReturningOneNeverMovesItBack) {
  TwoInputs op;
  CollectSink sink;
  op.AddOutput(&sink, 0);
  JobContext ctx;
  ASSERT_TRUE(op.Open(&ctx).ok());
  ASSERT_TRUE(sink.Open(&ctx).ok());
  ASSERT_TRUE(op.ReceiveWatermark(0, 10000).ok());
  EXPECT_TRUE(sink.rows.empty());  // input 1 has no watermark yet
  ASSERT_TRUE(op.ReceiveIdle(1, true).ok());
  EXPECT_EQ(sink.rows, (std::vector<std::string>{"WM[10]"}));
  ASSERT_TRUE(op.ReceiveIdle(1, false).ok());
  ASSERT_TRUE(op.ReceiveWatermark(1, 5000).ok());
  ASSERT_TRUE(op.ReceiveWatermark(0, 20000).ok());
  EXPECT_EQ(sink.rows, (std::vector<std::string>{"WM[10]"}));  // input 1 holds it at 5 again
  ASSERT_TRUE(op.ReceiveWatermark(1, 15000).ok());
  EXPECT_EQ(sink.rows, (std::vector<std::string>{"WM[10]", "WM[15]"}));
  // Both idle: nothing moves. An input that ends counts with the end of time, and the idle one does
  // not hold it back.
  ASSERT_TRUE(op.ReceiveIdle(0, true).ok());
  ASSERT_TRUE(op.ReceiveIdle(1, true).ok());
  EXPECT_EQ(sink.rows, (std::vector<std::string>{"WM[10]", "WM[15]"}));
  ASSERT_TRUE(op.ReceiveEndOfInput(0).ok());
  EXPECT_EQ(sink.rows, (std::vector<std::string>{"WM[10]", "WM[15]", "WM[+inf]"}));
}

// A live split: each entry is one Read's rows (milliseconds of a TIMESTAMP(3) column); after the
// script it ends, or stays open with empty reads when `endless`.
class LiveSplit final : public SourceSplit {
 public:
  LiveSplit(std::deque<std::vector<int64_t>> reads, bool endless) : reads_(std::move(reads)), endless_(endless) {}
  std::string id() const override { return "live"; }
  Result<bool> Read(size_t, Chunk* out) override {
    if (reads_.empty()) return endless_;
    for (int64_t v : reads_.front()) out->AppendValues({Ts(v)}, RowKind::kInsert);
    reads_.pop_front();
    return true;
  }

 private:
  std::deque<std::vector<int64_t>> reads_;
  bool endless_;
};

// A partition that has produced nothing for the idle timeout (by the clock) stops holding back the
// source's watermark; without the timeout it holds it forever.
std::vector<std::string> RunLiveSource(int64_t idle_timeout_micros) {
  ManualClock clock;
  auto eval = EvalContext::Make("UTC", &clock);
  EXPECT_TRUE(eval.ok());
  std::vector<std::unique_ptr<SourceSplit>> splits;
  splits.push_back(std::make_unique<LiveSplit>(std::deque<std::vector<int64_t>>{{100}}, true));
  splits.push_back(std::make_unique<LiveSplit>(std::deque<std::vector<int64_t>>{{200}, {300}, {400}}, false));
  Schema schema = Columns({{"ts", LogicalType::Timestamp(3)}});
  SourceOperator op("t", std::move(splits), schema, {}, 0, MakeColumnRef(0, LogicalType::Timestamp(3)), 1024);
  op.SetIdleTimeout(idle_timeout_micros);
  CollectSink sink;
  op.AddOutput(&sink, 0);
  JobContext ctx;
  ctx.eval = eval->get();
  EXPECT_TRUE(op.Open(&ctx).ok());
  EXPECT_TRUE(sink.Open(&ctx).ok());
  for (int i = 0; i < 30; ++i) {
    if (i == 4) clock.Advance(20 * 1000 * 1000);
    EXPECT_TRUE(op.UpdateIdleness().ok());
    EXPECT_TRUE(op.Step(kMaxWatermark, false).ok());
  }
  std::vector<std::string> watermarks;
  for (const auto& r : sink.rows) {
    if (r.rfind("WM[", 0) == 0) watermarks.push_back(r);
  }
  return watermarks;
}

TEST(WatermarkIdlenessTest, ASilentLivePartitionGoesIdleAfterTheTimeout) {
  EXPECT_EQ(RunLiveSource(0), (std::vector<std::string>{"WM[100]"}));
  std::vector<std::string> with = RunLiveSource(10 * 1000 * 1000);
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(with.back(), "WM[400]");
}

}  // namespace
}  // namespace sluice
