// IntervalJoinOperator driven directly: both sides are (key STRING, ts TIMESTAMP(3)); a left row at l
// and a right row at r match when -10 ms <= l - r <= 5 ms. Output rows print as [key, l, key, r] with
// timestamps in milliseconds. Checks that state is freed as the watermark passes each row's last
// possible match, that outer rows are padded then, and that late rows are dropped and counted; and
// that incremental checkpoints (a full snapshot plus deltas) restore exactly the original's state.
#include "snapshot_chain_util.h"
#include "runtime/operators/interval_join_operator.h"

#include <gtest/gtest.h>

#include "rank_dedup_test_util.h"
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

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Timestamp(3)};

Row R(const std::string& key, int64_t ts) { return I({Str(key), Ts(ts)}); }

struct TwoInputs : testing::Driven<IntervalJoinOperator> {
  explicit TwoInputs(IntervalJoinSpec spec) : Driven(kTypes, 1024, "IntervalJoin", kTypes, kTypes, std::move(spec)) {}
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

// ---- Incremental checkpoints: a full snapshot plus deltas restores the same state. ----

using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

// Drives both joins through the same steps (from `t` ms on) and expects the same output.
void SameSteps(TwoInputs& a, TwoInputs& b, int64_t t) {
  for (TwoInputs* j : {&a, &b}) {
    ASSERT_TRUE(j->Push(0, {R("a", t + 1), R("q", t + 2), R("b", t + 3)}).ok());
    ASSERT_TRUE(j->Push(1, {R("a", t), R("b", t - 4), R("c", t + 1), R("a", t + 6)}).ok());
    ASSERT_TRUE(j->Watermark(t + 4).ok());
    ASSERT_TRUE(j->Push(1, {R("q", t + 8), R("a", t + 9)}).ok());
    ASSERT_TRUE(j->Watermark(t + 12).ok());
    ASSERT_TRUE(j->Push(0, {R("a", t + 13), R("c", t + 14)}).ok());
    ASSERT_TRUE(j->op.ReceiveEndOfInput(0).ok());
    ASSERT_TRUE(j->op.ReceiveEndOfInput(1).ok());
  }
  EXPECT_EQ(a.Take(), b.Take());
  EXPECT_EQ(a.op.metrics().late_rows_dropped, b.op.metrics().late_rows_dropped);
  EXPECT_EQ(b.op.kept_rows(0) + b.op.kept_rows(1), 0u);
}

TEST(IntervalJoinOperatorTest, DeltaCheckpointsRestoreTheSameState) {
  TwoInputs a(Spec(/*left_outer=*/true, /*right_outer=*/true));
  ASSERT_TRUE(a.Push(0, {R("a", 100), R("b", 100), R("c", 104)}).ok());
  ASSERT_TRUE(a.Push(1, {R("a", 95), R("d", 101)}).ok());
  ASSERT_TRUE(a.Watermark(96).ok());
  const std::string full = FullSnapshot(a.op);
  // Old keys' rows get matched (dirty keys) and expire, new keys arrive, a key empties.
  ASSERT_TRUE(a.Push(1, {R("b", 103), R("e", 105), R("a", 104)}).ok());
  ASSERT_TRUE(a.Push(0, {R("d", 106), R("f", 107)}).ok());
  ASSERT_TRUE(a.Watermark(101).ok());
  const std::string d1 = Delta(a.op);
  ASSERT_TRUE(a.Watermark(110).ok());
  // Not kept (its deadline 109 passed) but it matches c's kept left row, which is then no longer
  // padded when it expires: the only write to key c.
  ASSERT_TRUE(a.Push(1, {R("c", 104)}).ok());
  ASSERT_TRUE(a.Push(0, {R("e", 108), R("a", 111), R("g", 112)}).ok());
  const std::string d2 = Delta(a.op);
  const std::string d3 = Delta(a.op);  // nothing new: still a delta
  EXPECT_LT(d3.size(), 200u);
  EXPECT_GT(a.op.kept_keys(), 0u);
  a.Take();

  TwoInputs b(Spec(true, true));
  RestoreChain(b.op, {full, d1, d2, d3});
  // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
  JobContext ctx;
  ExpectFailedDeltasDropTheState(
      [&] {
        auto op = std::make_unique<IntervalJoinOperator>("IntervalJoin", kTypes, kTypes, Spec(true, true));
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, d1, d2});
  EXPECT_EQ(b.op.kept_rows(0), a.op.kept_rows(0));
  EXPECT_EQ(b.op.kept_rows(1), a.op.kept_rows(1));
  EXPECT_EQ(b.op.kept_keys(), a.op.kept_keys());
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  SameSteps(a, b, 112);
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
}

TEST(IntervalJoinOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  TwoInputs a(Spec(/*left_outer=*/true, /*right_outer=*/false));
  ASSERT_TRUE(a.Push(0, {R("a", 100), R("b", 100)}).ok());
  ASSERT_TRUE(a.Push(1, {R("a", 101)}).ok());
  const std::string full = FullSnapshot(a.op);
  ASSERT_TRUE(a.Watermark(106).ok());  // the right row expires: a dirty key only
  const std::string d1 = Delta(a.op);
  ASSERT_TRUE(a.Push(0, {R("c", 120)}).ok());
  const std::string d2 = Delta(a.op);

  TwoInputs fresh(Spec(true, false));
  EXPECT_FALSE(RestoreDelta(fresh.op, d1).ok());
  TwoInputs twice(Spec(true, false));
  ASSERT_TRUE(RestoreFull(twice.op, full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op, d1).ok());
  Status st = RestoreDelta(twice.op, d1);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("applied to snapshot"), std::string::npos) << st.ToString();
  TwoInputs skipped(Spec(true, false));
  ASSERT_TRUE(RestoreFull(skipped.op, full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op, d2).ok());
  TwoInputs truncated(Spec(true, false));
  ASSERT_TRUE(RestoreFull(truncated.op, full).ok());
  EXPECT_FALSE(RestoreDelta(truncated.op, d1.substr(0, d1.size() - 3)).ok());

  TwoInputs ok(Spec(true, false));
  RestoreChain(ok.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op), FullSnapshot(a.op));
  // Every one-byte corruption of a delta is refused, or gives a state the operator can run on.
  for (size_t i = 0; i < d2.size(); ++i) {
    std::string bad = d2;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    TwoInputs j(Spec(true, false));
    ASSERT_TRUE(RestoreFull(j.op, full).ok());
    ASSERT_TRUE(RestoreDelta(j.op, d1).ok());
    if (RestoreDelta(j.op, bad).ok()) {
      EXPECT_TRUE(j.Push(1, {R("c", 121)}).ok());
      EXPECT_TRUE(j.op.ReceiveEndOfInput(0).ok());
      EXPECT_TRUE(j.op.ReceiveEndOfInput(1).ok());
    }
  }
}

TEST(IntervalJoinOperatorTest, CompactionForcesAFullSnapshot) {
  TwoInputs a(Spec(/*left_outer=*/false, /*right_outer=*/false));
  std::vector<Row> left;
  for (int i = 0; i < 40000; ++i) left.push_back(R("k" + std::to_string(i), 1000 + i));
  ASSERT_TRUE(a.Push(0, left).ok());
  const std::string full = FullSnapshot(a.op);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  // Rows up to 1000 + 36010 expire: the arena and the keys are mostly garbage and compacted.
  ASSERT_TRUE(a.Watermark(1000 + 36010).ok());
  EXPECT_FALSE(a.op.CanSnapshotDelta());
  const std::string full2 = FullSnapshot(a.op);
  EXPECT_LT(full2.size(), full.size() / 5);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  ASSERT_TRUE(a.Push(1, {R("k39000", 1000 + 39000), R("k1", 40000)}).ok());
  const std::string d1 = Delta(a.op);
  a.Take();
  TwoInputs b(Spec(false, false));
  RestoreChain(b.op, {full2, d1});
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  EXPECT_EQ(b.op.kept_keys(), a.op.kept_keys());
  SameSteps(a, b, 1000 + 39100);
}

}  // namespace
}  // namespace sluice
