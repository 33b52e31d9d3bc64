// WindowAggregateOperator driven directly: rows are (key STRING, value INT, ts TIMESTAMP(3)), grouped
// by key, COUNT(*) and SUM(value); output rows print as [key, count, sum, window_start, window_end]
// with timestamps in milliseconds. Watermarks, processing time (a ManualClock) and the freeing of
// slices are driven by hand.
#include "runtime/operators/window_aggregate_operator.h"

#include <gtest/gtest.h>

#include <memory>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::Harness;
using testing::I;
using testing::Int;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Integer(), LogicalType::Timestamp(3)};

Row R(const std::string& key, int32_t v, int64_t ts) { return I({Str(key), Int(v), Ts(ts)}); }

WindowAggregateOperator MakeOp(WindowSpec w, bool proctime) {
  auto count = ResolveAggregate("COUNT", {}, {}, false);
  auto sum = ResolveAggregate("SUM", {LogicalType::Integer()}, {nullptr}, false);
  SLUICE_CHECK(count.ok() && sum.ok());
  std::vector<WindowAggregateOperator::Agg> aggs = {{*count, {}, false, -1}, {*sum, {1}, false, -1}};
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  std::vector<LogicalType> out = {LogicalType::String(), LogicalType::BigInt().WithNullable(false), LogicalType::Integer(),
                                  bound, bound};
  return WindowAggregateOperator("WindowAggregate", kTypes, {0}, std::move(aggs), out, w, 2, proctime, false, false);
}

WindowSpec Tumble(int64_t size_ms) { return WindowSpec{WindowKind::kTumble, size_ms, 0, 0}; }

TEST(WindowAggregateOperatorTest, TumbleFiresAtWindowEndMinusOneMillisecondAndFreesState) {
  auto op = MakeOp(Tumble(10), false);
  Harness h(&op);
  ASSERT_TRUE(h.open_status.ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 1), R("b", 2, 5), R("a", 3, 9), R("a", 4, 12)})).ok());
  EXPECT_EQ(op.num_slices(), 2u);
  ASSERT_TRUE(h.Watermark(8).ok());  // [0, 10) fires at 9
  EXPECT_TRUE(h.sink.Changes().empty());
  ASSERT_TRUE(h.Watermark(9).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]", "+I[b, 1, 2, 0, 10]"}));
  EXPECT_EQ(op.num_slices(), 1u);
  // A row of a fired window is late: dropped and counted; one of an open window is kept.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("b", 5, 9), R("b", 6, 10)})).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]", "+I[b, 1, 2, 0, 10]", "+I[a, 1, 4, 10, 20]", "+I[b, 1, 6, 10, 20]"}));
  EXPECT_EQ(op.num_slices(), 0u);
  // The watermark goes on after the windows it closed.
  EXPECT_EQ(h.sink.rows.back(), "WM[+inf]");
}

TEST(WindowAggregateOperatorTest, HopRowCountsForTheWindowsStillOpen) {
  // Size 10, slide 5: the row at 4 arrives after [-5, 5) fired but while [0, 10) is open.
  auto op = MakeOp(WindowSpec{WindowKind::kHop, 10, 5, 0}, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 1)})).ok());
  ASSERT_TRUE(h.Watermark(5).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 10, 4)})).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 0);
  ASSERT_TRUE(h.Watermark(9).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 100, 3)})).ok());  // every window holding 3 has fired
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 1, 1, -5, 5]", "+I[a, 2, 11, 0, 10]"}));
}

// Over an updating input (SetRetracting): the retracting calls plus the hidden row counter last.
// Attached windows (SetAttachedWindows): rows are (key, value, window_start, window_end) and belong
// to the window they carry only.
const std::vector<LogicalType> kAttachedTypes = {LogicalType::String(), LogicalType::Integer(), LogicalType::Timestamp(3),
                                                 LogicalType::Timestamp(3)};

Row RW(const std::string& key, int32_t v, int64_t start, int64_t end) { return I({Str(key), Int(v), Ts(start), Ts(end)}); }

std::unique_ptr<WindowAggregateOperator> MakeAttachedOp(WindowSpec w) {
  auto count = ResolveAggregate("COUNT", {}, {}, false);
  auto sum = ResolveAggregate("SUM", {LogicalType::Integer()}, {nullptr}, false);
  SLUICE_CHECK(count.ok() && sum.ok());
  std::vector<WindowAggregateOperator::Agg> aggs = {{*count, {}, false, -1}, {*sum, {1}, false, -1}};
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  std::vector<LogicalType> out = {LogicalType::String(), LogicalType::BigInt().WithNullable(false), LogicalType::Integer(),
                                  bound, bound};
  auto op = std::make_unique<WindowAggregateOperator>("WindowAggregate", kAttachedTypes, std::vector<int>{0}, std::move(aggs),
                                                      out, w, 3, false, false, false);
  op->SetAttachedWindows(2);
  return op;
}

TEST(WindowAggregateOperatorTest, AttachedHopWindowsAreAggregatedAsTheRowsCarryThem) {
  // Size 10, slide 5: each row counts for its own window only, not for every window holding a time.
  auto op = MakeAttachedOp(WindowSpec{WindowKind::kHop, 10, 5, 0});
  Harness h(op.get());
  ASSERT_TRUE(h.Push(MakeChunk(kAttachedTypes, {RW("a", 1, 0, 10), RW("a", 2, 5, 15), RW("a", 3, 0, 10)})).ok());
  ASSERT_TRUE(h.Watermark(8).ok());
  EXPECT_TRUE(h.sink.Changes().empty());
  ASSERT_TRUE(h.Watermark(9).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]"}));
  ASSERT_TRUE(h.Push(MakeChunk(kAttachedTypes, {RW("a", 7, 0, 10), RW("b", 4, 5, 15)})).ok());  // [0, 10) fired
  EXPECT_EQ(op->metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]", "+I[a, 1, 2, 5, 15]", "+I[b, 1, 4, 5, 15]"}));
}

TEST(WindowAggregateOperatorTest, AttachedSessionsKeepTheirBounds) {
  auto op = MakeAttachedOp(WindowSpec{WindowKind::kSession, 3, 0, 0});
  Harness h(op.get());
  ASSERT_TRUE(h.Push(MakeChunk(kAttachedTypes, {RW("a", 1, 0, 7), RW("b", 5, 3, 9), RW("a", 2, 0, 7)})).ok());
  ASSERT_TRUE(h.Watermark(6).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 3, 0, 7]"}));
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 2, 3, 0, 7]", "+I[b, 1, 5, 3, 9]"}));
}

std::unique_ptr<WindowAggregateOperator> MakeRetractingOp(WindowSpec w) {
  auto count = ResolveAggregate("COUNT", {}, {}, true);
  auto sum = ResolveAggregate("SUM", {LogicalType::Integer()}, {nullptr}, true);
  auto rows = ResolveAggregate("COUNT", {}, {}, true);
  SLUICE_CHECK(count.ok() && sum.ok() && rows.ok());
  std::vector<WindowAggregateOperator::Agg> aggs = {
      {*count, {}, false, -1}, {*sum, {1}, false, -1}, {*rows, {}, false, -1}};
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  std::vector<LogicalType> out = {LogicalType::String(), LogicalType::BigInt().WithNullable(false), LogicalType::Integer(),
                                  bound, bound};
  auto op = std::make_unique<WindowAggregateOperator>("WindowAggregate", kTypes, std::vector<int>{0}, std::move(aggs), out,
                                                      w, 2, false, false, false);
  op->SetRetracting();
  return op;
}

Row RK(RowKind kind, const std::string& key, int32_t v, int64_t ts) { return {kind, {Str(key), Int(v), Ts(ts)}}; }

TEST(WindowAggregateOperatorTest, RetractionsGoToTheWindowsOfTheirRowTimeAndEmptyKeysAreNotEmitted) {
  auto op = MakeRetractingOp(WindowSpec{WindowKind::kHop, 10, 5, 0});
  Harness h(op.get());
  ASSERT_TRUE(h.open_status.ok());
  // a: 1 at 3, updated to 2 at 7; b: 5 at 4, deleted; c: a delete of a row never seen (count -1).
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 3), R("b", 5, 4), RK(RowKind::kUpdateBefore, "a", 1, 3),
                                        RK(RowKind::kUpdateAfter, "a", 2, 7), RK(RowKind::kDelete, "b", 5, 4),
                                        RK(RowKind::kDelete, "c", 8, 6)}))
                  .ok());
  ASSERT_TRUE(h.Watermark(4).ok());  // [-5, 5) fires: a and b were retracted there, nothing left
  EXPECT_TRUE(h.sink.Changes().empty());
  ASSERT_TRUE(h.Watermark(9).ok());  // [0, 10): a's update, and c below 0 (emitted, as Flink)
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 1, 2, 0, 10]", "+I[c, -1, -8, 0, 10]"}));
  // A retraction whose windows all fired is late and dropped; one into an open window counts.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {RK(RowKind::kDelete, "a", 9, 1), RK(RowKind::kDelete, "a", 2, 7)})).ok());
  EXPECT_EQ(op->metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(),
            (Lines{"+I[a, 1, 2, 0, 10]", "+I[c, -1, -8, 0, 10]", "+I[c, -1, -8, 5, 15]"}));
}

TEST(WindowAggregateOperatorTest, ProcessingTimeWindowsFollowTheInjectedClock) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  auto op = MakeOp(Tumble(10), true);
  testing::CollectSink sink;
  JobContext ctx;
  ctx.eval = &eval;
  op.AddOutput(&sink, 0);
  ASSERT_TRUE(op.Open(&ctx).ok());
  ASSERT_TRUE(sink.Open(&ctx).ok());
  auto push = [&](std::vector<Row> rows) {
    Chunk c = MakeChunk(kTypes, rows);
    return op.Process(0, c);
  };
  clock.Set(3 * 1000);  // rows fall into [0, 10) whatever their rowtime
  ASSERT_TRUE(push({R("a", 1, 500), R("b", 2, 0)}).ok());
  clock.Set(9 * 1000);
  ASSERT_TRUE(push({R("a", 3, 0)}).ok());
  EXPECT_TRUE(sink.Changes().empty());
  clock.Set(10 * 1000);  // [0, 10) closes once the clock reaches 9 ms; this row opens [10, 20)
  ASSERT_TRUE(push({R("a", 4, 0)}).ok());
  EXPECT_EQ(sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]", "+I[b, 1, 2, 0, 10]"}));
  ASSERT_TRUE(op.ReceiveEndOfInput(0).ok());
  EXPECT_EQ(sink.Changes(), (Lines{"+I[a, 2, 4, 0, 10]", "+I[b, 1, 2, 0, 10]", "+I[a, 1, 4, 10, 20]"}));
  EXPECT_EQ(op.metrics().late_rows_dropped, 0);
}

TEST(WindowAggregateOperatorTest, UpdatingInputIsRefused) {
  auto op = MakeOp(Tumble(10), false);
  Harness h(&op);
  Status s = h.Push(MakeChunk(kTypes, {testing::D({Str("a"), Int(1), Ts(1)})}));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("insert-only"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sluice
