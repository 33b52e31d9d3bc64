// IntervalJoinOperator driven directly: both sides are (key STRING, ts TIMESTAMP(3)); a left row at l
// and a right row at r match when -10 ms <= l - r <= 5 ms. Output rows print as [key, l, key, r] with
// timestamps in milliseconds. Checks that state is freed as the watermark passes each row's last
// possible match, that outer rows are padded then, and that late rows are dropped and counted.
#include "runtime/operators/interval_join_operator.h"

#include <gtest/gtest.h>

#include "rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::CollectSink;
using testing::I;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Timestamp(3)};

Row R(const std::string& key, int64_t ts) { return I({Str(key), Ts(ts)}); }

struct TwoInputs {
  explicit TwoInputs(IntervalJoinSpec spec) : op("IntervalJoin", kTypes, kTypes, std::move(spec)) {
    op.AddOutput(&sink, 0);
    open_status = op.Open(&ctx);
    (void)sink.Open(&ctx);
  }
  Status Push(int side, const std::vector<Row>& rows) {
    Chunk c = MakeChunk(kTypes, rows);
    return op.Process(side, c);
  }
  Status Watermark(int64_t millis) {
    RETURN_IF_ERROR(op.ReceiveWatermark(0, millis * 1000));
    return op.ReceiveWatermark(1, millis * 1000);
  }
  JobContext ctx;
  IntervalJoinOperator op;
  CollectSink sink;
  Status open_status;
};

IntervalJoinSpec Spec(bool left_outer, bool right_outer) {
  IntervalJoinSpec s;
  s.left_outer = left_outer;
  s.right_outer = right_outer;
  s.left_keys = {0};
  s.right_keys = {0};
  s.left_time = 1;
  s.right_time = 1;
  s.lower_ms = -10;
  s.upper_ms = 5;
  return s;
}

TEST(IntervalJoinOperatorTest, ExpiresRowsPadsOuterRowsAndDropsLateOnes) {
  TwoInputs j(Spec(/*left_outer=*/true, /*right_outer=*/true));
  ASSERT_TRUE(j.open_status.ok());
  ASSERT_TRUE(j.Push(0, {R("a", 100), R("b", 100)}).ok());
  EXPECT_EQ(j.op.kept_rows(0), 2u);
  // Right rows at 95 (l - r = 5) and 111 (l - r = -11): only the first matches a's row.
  ASSERT_TRUE(j.Push(1, {R("a", 95), R("a", 111)}).ok());
  EXPECT_EQ(j.sink.Changes(), (Lines{"+I[a, 100, a, 95]"}));
  // The right row at 95 can match left rows up to 100: it expires at watermark 100 (matched: no padding).
  ASSERT_TRUE(j.Watermark(100).ok());
  EXPECT_EQ(j.op.kept_rows(1), 1u);
  // Left rows at 100 can match right rows up to 110: they expire at 110, b's padded.
  ASSERT_TRUE(j.Watermark(109).ok());
  EXPECT_EQ(j.op.kept_rows(0), 2u);
  ASSERT_TRUE(j.Watermark(110).ok());
  EXPECT_EQ(j.op.kept_rows(0), 0u);
  EXPECT_EQ(j.sink.Changes(), (Lines{"+I[a, 100, a, 95]", "+I[b, 100, NULL, NULL]"}));
  // A left row at 95 could only match right rows up to 105, all expired (105 + 5 <= 110): late. One at
  // 100 may match kept right rows up to 110 (100 + 10 + 5 > 110), but no later ones can arrive: it is
  // joined at once and, matching nothing, padded at once instead of kept.
  ASSERT_TRUE(j.Push(0, {R("a", 95), R("c", 100)}).ok());
  EXPECT_EQ(j.op.metrics().late_rows_dropped, 1);
  EXPECT_EQ(j.sink.Changes(), (Lines{"+I[a, 100, a, 95]", "+I[b, 100, NULL, NULL]", "+I[c, 100, NULL, NULL]"}));
  EXPECT_EQ(j.op.kept_rows(0), 0u);
  // The right row at 111 matches left rows up to 116; the end of the input pads it.
  ASSERT_TRUE(j.op.ReceiveEndOfInput(0).ok());
  ASSERT_TRUE(j.op.ReceiveEndOfInput(1).ok());
  EXPECT_EQ(j.sink.Changes().back(), "+I[NULL, NULL, a, 111]");
  EXPECT_EQ(j.op.kept_rows(1), 0u);
  EXPECT_EQ(j.op.kept_keys(), 0u);
}

TEST(IntervalJoinOperatorTest, NullKeysNeverMatch) {
  TwoInputs j(Spec(/*left_outer=*/true, /*right_outer=*/false));
  ASSERT_TRUE(j.open_status.ok());
  ASSERT_TRUE(j.Push(1, {I({Value::Null(LogicalType::String()), Ts(100)})}).ok());
  ASSERT_TRUE(j.Push(0, {I({Value::Null(LogicalType::String()), Ts(100)})}).ok());
  EXPECT_EQ(j.sink.Changes(), (Lines{"+I[NULL, 100, NULL, NULL]"}));
  EXPECT_EQ(j.op.kept_rows(0), 0u);
  EXPECT_EQ(j.op.kept_rows(1), 0u);
}

}  // namespace
}  // namespace sluice
