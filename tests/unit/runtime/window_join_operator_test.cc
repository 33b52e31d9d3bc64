// WindowJoinOperator driven directly: both sides are (key STRING, ts TIMESTAMP(3), window_end
// TIMESTAMP(3)), joined on key within the same window. Output rows print as [key, ts, end, key, ts,
// end] with timestamps in milliseconds. Checks Flink's loop order with outer padding, NULL keys and
// late rows, semi and anti joins (each left row once, left columns only), and that incremental checkpoints (a full snapshot plus deltas) restore exactly the
// original's state: windows fired between deltas, rows added to old and new windows.
#include "runtime/operators/window_join_operator.h"

#include <gtest/gtest.h>

#include "../function/function_test_util.h"
#include "function/evaluator.h"
#include "rank_dedup_test_util.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using testing::CollectSink;
using testing::I;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using Lines = std::vector<std::string>;
using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Timestamp(3), LogicalType::Timestamp(3)};

Row R(const std::string& key, int64_t ts, int64_t end) { return I({Str(key), Ts(ts), Ts(end)}); }
Row N(int64_t ts, int64_t end) { return I({Value::Null(LogicalType::String()), Ts(ts), Ts(end)}); }

WindowJoinSpec Spec(bool left_outer, bool right_outer) {
  WindowJoinSpec s;
  s.left_outer = left_outer;
  s.right_outer = right_outer;
  s.left_keys = {0};
  s.right_keys = {0};
  s.left_window_end = 2;
  s.right_window_end = 2;
  s.left_event_time = 1;
  s.right_event_time = 1;
  return s;
}

struct TwoInputs : testing::Driven<WindowJoinOperator> {
  explicit TwoInputs(WindowJoinSpec spec) : Driven(kTypes, 1024, "WindowJoin", kTypes, kTypes, std::move(spec)) {}
};

TEST(WindowJoinOperatorTest, JoinsPerWindowInFlinksLoopOrder) {
  TwoInputs j(Spec(/*left_outer=*/true, /*right_outer=*/true));
  ASSERT_TRUE(j.open_status.ok());
  ASSERT_TRUE(j.Push(1, {R("b", 10, 1000), R("a", 11, 1000)}).ok());
  ASSERT_TRUE(j.Push(0, {R("a", 12, 1000), N(13, 1000), R("c", 14, 1000), R("a", 15, 1000), R("a", 16, 2000)}).ok());
  ASSERT_TRUE(j.Push(1, {R("a", 17, 1000), N(18, 1000)}).ok());
  EXPECT_EQ(j.op.num_windows(), 2u);
  ASSERT_TRUE(j.Watermark(999).ok());
  // Groups in first-arrival order: b, a, NULL (left), c, NULL (right).
  EXPECT_EQ(j.Take(), (Lines{"+I[NULL, NULL, NULL, b, 10, 1000]", "+I[a, 12, 1000, a, 11, 1000]",
                             "+I[a, 12, 1000, a, 17, 1000]", "+I[a, 15, 1000, a, 11, 1000]",
                             "+I[a, 15, 1000, a, 17, 1000]", "+I[NULL, 13, 1000, NULL, NULL, NULL]",
                             "+I[c, 14, 1000, NULL, NULL, NULL]", "+I[NULL, NULL, NULL, NULL, 18, 1000]"}));
  ASSERT_TRUE(j.Push(1, {R("a", 900, 1000)}).ok());
  EXPECT_EQ(j.op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(j.End().ok());
  EXPECT_EQ(j.Take(), (Lines{"+I[a, 16, 2000, NULL, NULL, NULL]"}));
  EXPECT_EQ(j.op.num_windows(), 0u);
}

WindowJoinSpec SemiAnti(bool anti) {
  WindowJoinSpec s = Spec(false, false);
  s.semi = !anti;
  s.anti = anti;
  return s;
}

TEST(WindowJoinOperatorTest, SemiAndAntiEmitEachLeftRowOnceAtTheWindowsEnd) {
  for (bool anti : {false, true}) {
    TwoInputs j(SemiAnti(anti));
    ASSERT_TRUE(j.open_status.ok());
    ASSERT_TRUE(j.Push(1, {R("b", 10, 1000), R("a", 11, 1000), R("a", 12, 1000), N(13, 1000)}).ok());
    ASSERT_TRUE(j.Push(0, {R("a", 20, 1000), N(21, 1000), R("c", 22, 1000), R("a", 23, 1000), R("b", 24, 2000)}).ok());
    ASSERT_TRUE(j.Watermark(998).ok());
    EXPECT_EQ(j.Take(), Lines{});  // nothing before the window's end
    ASSERT_TRUE(j.Watermark(999).ok());
    // Groups in first-arrival order: b, a, NULL (right), NULL (left), c; a's left rows match twice
    // each and leave once; a NULL key matches nothing.
    if (anti) {
      EXPECT_EQ(j.Take(), (Lines{"+I[NULL, 21, 1000]", "+I[c, 22, 1000]"}));
    } else {
      EXPECT_EQ(j.Take(), (Lines{"+I[a, 20, 1000]", "+I[a, 23, 1000]"}));
    }
    ASSERT_TRUE(j.Push(1, {R("a", 900, 1000)}).ok());
    EXPECT_EQ(j.op.metrics().late_rows_dropped, 1);
    ASSERT_TRUE(j.End().ok());
    // Window 2000 has no right rows.
    EXPECT_EQ(j.Take(), anti ? Lines{"+I[b, 24, 2000]"} : Lines{});
    EXPECT_EQ(j.op.num_windows(), 0u);
  }
}

// A residual (left.ts < right.ts) over more candidate pairs than one batch evaluates: 200 left rows
// (ts 0..199) and 100 right rows (ts 0..99) of one key, 20,000 pairs.
TEST(WindowJoinOperatorTest, SemiAndAntiJudgeManyPairsInBatches) {
  for (bool anti : {false, true}) {
    WindowJoinSpec spec = SemiAnti(anti);
    spec.residual = testing::Call("<", {testing::Col(1, LogicalType::Timestamp(3)), testing::Col(4, LogicalType::Timestamp(3))});
    JobContext ctx;
    EvalContext eval;
    ctx.eval = &eval;
    WindowJoinOperator op("WindowJoin", kTypes, kTypes, spec);
    testing::CollectSink sink;
    op.AddOutput(&sink, 0);
    ASSERT_TRUE(op.Open(&ctx).ok());
    ASSERT_TRUE(sink.Open(&ctx).ok());
    std::vector<Row> left, right;
    for (int64_t t = 0; t < 200; ++t) left.push_back(R("a", t, 1000));
    for (int64_t t = 0; t < 100; ++t) right.push_back(R("a", t, 1000));
    Chunk r = MakeChunk(kTypes, right);
    ASSERT_TRUE(op.Process(1, r).ok());
    Chunk l = MakeChunk(kTypes, left);
    ASSERT_TRUE(op.Process(0, l).ok());
    ASSERT_TRUE(op.ReceiveEndOfInput(0).ok());
    ASSERT_TRUE(op.ReceiveEndOfInput(1).ok());
    // Left rows 0..98 have a later right row; 99..199 have none.
    const Lines out = sink.Changes();
    ASSERT_EQ(out.size(), anti ? 101u : 99u);
    EXPECT_EQ(out.front(), anti ? "+I[a, 99, 1000]" : "+I[a, 0, 1000]");
    EXPECT_EQ(out.back(), anti ? "+I[a, 199, 1000]" : "+I[a, 98, 1000]");
  }
}

// Drives both joins through the same steps (rows from `t` ms on) and expects the same output.
void SameSteps(TwoInputs& a, TwoInputs& b, int64_t t) {
  for (TwoInputs* j : {&a, &b}) {
    ASSERT_TRUE(j->Push(0, {R("a", t, 2000), R("q", t + 1, 3000), N(t + 2, 2000)}).ok());
    ASSERT_TRUE(j->Push(1, {R("a", t + 3, 2000), R("q", t + 4, 3000), R("z", t + 5, 4000)}).ok());
    ASSERT_TRUE(j->Watermark(1999).ok());
    ASSERT_TRUE(j->Push(1, {R("a", t + 6, 2000), R("q", t + 7, 3000)}).ok());
    ASSERT_TRUE(j->End().ok());
  }
  EXPECT_EQ(a.Take(), b.Take());
  EXPECT_EQ(a.op.metrics().late_rows_dropped, b.op.metrics().late_rows_dropped);
  EXPECT_EQ(b.op.num_windows(), 0u);
}

TEST(WindowJoinOperatorTest, DeltaCheckpointsRestoreTheSameState) {
  TwoInputs a(Spec(/*left_outer=*/true, /*right_outer=*/true));
  ASSERT_TRUE(a.Push(0, {R("a", 100, 1000), R("b", 110, 1000), R("a", 120, 2000)}).ok());
  ASSERT_TRUE(a.Push(1, {R("a", 130, 1000), N(140, 2000)}).ok());
  const std::string full = FullSnapshot(a.op);
  // Old windows get rows of old and new keys; window 3000 is new.
  ASSERT_TRUE(a.Push(1, {R("b", 200, 1000), R("c", 210, 1000), R("a", 220, 2000), R("d", 230, 3000)}).ok());
  ASSERT_TRUE(a.Push(0, {N(240, 1000), R("d", 250, 3000)}).ok());
  const std::string d1 = Delta(a.op);
  // Window 1000 fires between the deltas; window 2000 (at both bases) grows; 4000 is new.
  ASSERT_TRUE(a.Watermark(999).ok());
  ASSERT_TRUE(a.Push(0, {R("a", 300, 2000), R("e", 310, 2000), R("f", 320, 4000)}).ok());
  ASSERT_TRUE(a.Push(1, {R("d", 330, 3000)}).ok());
  const std::string d2 = Delta(a.op);
  const std::string d3 = Delta(a.op);  // nothing new: still a delta, and a small one
  EXPECT_LT(d3.size(), 400u);
  a.Take();

  TwoInputs b(Spec(true, true));
  RestoreChain(b.op, {full, d1, d2, d3});
  EXPECT_EQ(b.op.num_windows(), a.op.num_windows());
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  SameSteps(a, b, 400);
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
}

TEST(WindowJoinOperatorTest, SemiAntiDeltaCheckpointsRestoreTheSameState) {
  for (bool anti : {false, true}) {
    TwoInputs a(SemiAnti(anti));
    ASSERT_TRUE(a.Push(0, {R("a", 100, 1000), R("b", 110, 1000), R("a", 120, 2000)}).ok());
    ASSERT_TRUE(a.Push(1, {R("a", 130, 1000), N(140, 2000)}).ok());
    const std::string full = FullSnapshot(a.op);
    ASSERT_TRUE(a.Push(1, {R("b", 200, 1000), R("a", 220, 2000), R("d", 230, 3000)}).ok());
    ASSERT_TRUE(a.Push(0, {N(240, 1000), R("d", 250, 3000)}).ok());
    const std::string d1 = Delta(a.op);
    ASSERT_TRUE(a.Watermark(999).ok());
    ASSERT_TRUE(a.Push(0, {R("a", 300, 2000), R("e", 310, 2000)}).ok());
    const std::string d2 = Delta(a.op);
    a.Take();

    TwoInputs b(SemiAnti(anti));
    RestoreChain(b.op, {full, d1, d2});
    EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
    SameSteps(a, b, 400);
  }
}

TEST(WindowJoinOperatorTest, DeltaOnTheWrongBaseOrDamagedIsRefused) {
  TwoInputs a(Spec(/*left_outer=*/true, /*right_outer=*/false));
  ASSERT_TRUE(a.Push(0, {R("a", 100, 1000), R("b", 110, 2000)}).ok());
  ASSERT_TRUE(a.Push(1, {R("a", 120, 1000)}).ok());
  const std::string full = FullSnapshot(a.op);
  ASSERT_TRUE(a.Push(1, {R("b", 200, 2000), N(210, 1000)}).ok());
  const std::string d1 = Delta(a.op);
  ASSERT_TRUE(a.Watermark(999).ok());
  ASSERT_TRUE(a.Push(0, {R("b", 300, 2000), R("c", 310, 3000)}).ok());
  const std::string d2 = Delta(a.op);

  TwoInputs fresh(Spec(true, false));
  EXPECT_FALSE(RestoreDelta(fresh.op, d1).ok());
  TwoInputs twice(Spec(true, false));
  ASSERT_TRUE(RestoreFull(twice.op, full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op, d1).ok());
  EXPECT_FALSE(RestoreDelta(twice.op, d1).ok());
  TwoInputs skipped(Spec(true, false));
  ASSERT_TRUE(RestoreFull(skipped.op, full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op, d2).ok());

  // Every truncation of a delta is refused; one that fails halfway leaves the operator empty.
  JobContext ctx;
  ExpectFailedDeltasDropTheState(
      [&] {
        auto op = std::make_unique<WindowJoinOperator>("WindowJoin", kTypes, kTypes, Spec(true, false));
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, d1, d2});
  // Every one-byte corruption is refused, or gives a state the operator can run on.
  for (size_t i = 0; i < d2.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x5a}}) {
      std::string bad = d2;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      TwoInputs j(Spec(true, false));
      ASSERT_TRUE(RestoreFull(j.op, full).ok());
      ASSERT_TRUE(RestoreDelta(j.op, d1).ok());
      if (RestoreDelta(j.op, bad).ok()) {
        EXPECT_TRUE(j.Push(1, {R("b", 400, 2000), R("e", 410, 5000)}).ok());
        EXPECT_TRUE(j.End().ok());
        (void)FullSnapshot(j.op);
      }
    }
  }
  TwoInputs ok(Spec(true, false));
  RestoreChain(ok.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op), FullSnapshot(a.op));
}

TEST(WindowJoinOperatorTest, DamagedFullSnapshotIsRefusedOrRunnable) {
  TwoInputs a(Spec(/*left_outer=*/true, /*right_outer=*/true));
  ASSERT_TRUE(a.Push(0, {R("a", 100, 1000), N(105, 1000), R("b", 110, 2000)}).ok());
  ASSERT_TRUE(a.Push(1, {R("a", 120, 1000), R("c", 130, 2000)}).ok());
  const std::string full = FullSnapshot(a.op);
  for (size_t len = 0; len < full.size(); ++len) {
    TwoInputs t(Spec(true, true));
    EXPECT_FALSE(RestoreFull(t.op, full.substr(0, len)).ok()) << len;
  }
  for (size_t i = 0; i < full.size(); ++i) {
    std::string bad = full;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    TwoInputs j(Spec(true, true));
    if (RestoreFull(j.op, bad).ok()) {
      EXPECT_TRUE(j.Push(1, {R("b", 400, 2000)}).ok());
      EXPECT_TRUE(j.End().ok());
    }
  }
}

}  // namespace
}  // namespace sluice
