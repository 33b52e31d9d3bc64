// TemporalJoinOperator driven directly: the left (probe) side is (id STRING, sku STRING, ts
// TIMESTAMP(3)), the versioned right side (sku STRING, price BIGINT, ts TIMESTAMP(3)); output rows
// print as [id, sku, ts, sku, price, ts] with timestamps in milliseconds. Checks the version picked
// for each left row, that versions are cleaned as the watermark passes them, and that incremental
// checkpoints (a full snapshot plus deltas) restore exactly the state of the original operator.
#include "snapshot_chain_util.h"
#include "runtime/operators/temporal_join_operator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "function/evaluator.h"
#include "rank_dedup_test_util.h"
#include "state/state_serde.h"
#include "unit/function/function_test_util.h"

namespace sluice {
namespace {

using testing::Big;
using testing::CollectSink;
using testing::D;
using testing::I;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using testing::UA;
using testing::UB;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kLeft = {LogicalType::String(), LogicalType::String(), LogicalType::Timestamp(3)};
const std::vector<LogicalType> kRight = {LogicalType::String(), LogicalType::BigInt(), LogicalType::Timestamp(3)};

Row L(const std::string& id, const std::string& sku, int64_t ts) { return I({Str(id), Str(sku), Ts(ts)}); }
std::vector<Value> P(const std::string& sku, int64_t price, int64_t ts) { return {Str(sku), Big(price), Ts(ts)}; }

struct TemporalJoin {
  explicit TemporalJoin(bool left_outer, ExprPtr residual = nullptr)
      : op("TemporalJoin", kLeft, kRight, {1}, {0}, 2, 2, left_outer, std::move(residual)) {
    ctx.eval = &eval;
    op.AddOutput(&sink, 0);
    Status st = op.Open(&ctx);
    EXPECT_TRUE(st.ok()) << st.ToString();
    (void)sink.Open(&ctx);
  }
  void Left(const std::vector<Row>& rows) {
    Chunk c = MakeChunk(kLeft, rows);
    Status st = op.Process(0, c);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  void Right(const std::vector<Row>& rows) {
    Chunk c = MakeChunk(kRight, rows);
    Status st = op.Process(1, c);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  void Watermark(int64_t millis) {
    const int64_t w = millis == kMaxWatermark ? kMaxWatermark : millis * 1000;
    Status st = op.ReceiveWatermark(0, w);
    EXPECT_TRUE(st.ok()) << st.ToString();
    st = op.ReceiveWatermark(1, w);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  // The changes emitted since the last call.
  Lines Take() {
    Lines all = sink.Changes();
    Lines out(all.begin() + static_cast<std::ptrdiff_t>(taken), all.end());
    taken = all.size();
    return out;
  }

  EvalContext eval;
  JobContext ctx;
  TemporalJoinOperator op;
  CollectSink sink;
  size_t taken = 0;
};

TEST(TemporalJoinOperatorTest, JoinsTheVersionInForceAndCleansOldVersions) {
  TemporalJoin j(/*left_outer=*/true);
  j.Right({I(P("a", 100, 10)), I(P("a", 120, 30)), I(P("b", 50, 20))});
  j.Left({L("s1", "a", 20), L("s2", "b", 15), L("s3", "c", 25), L("s4", "a", 30)});
  EXPECT_EQ(j.op.buffered_left_rows(), 4u);
  EXPECT_EQ(j.Take(), Lines{});
  j.Watermark(25);
  EXPECT_EQ(j.Take(), (Lines{"+I[s2, b, 15, NULL, NULL, NULL]", "+I[s1, a, 20, a, 100, 10]", "+I[s3, c, 25, NULL, NULL, NULL]"}));
  EXPECT_EQ(j.op.buffered_left_rows(), 1u);
  // Version a@10 is the newest at or before 25: it stays, nothing older exists.
  EXPECT_EQ(j.op.stored_versions(), 3u);
  // A retraction at 35 ends a's row; a's version at 30 is replaced by a later row with the same time.
  j.Right({UB(P("a", 120, 35)), I(P("a", 125, 30))});
  j.Left({L("s5", "a", 36)});
  j.Watermark(40);
  EXPECT_EQ(j.Take(), (Lines{"+I[s4, a, 30, a, 125, 30]", "+I[s5, a, 36, NULL, NULL, NULL]"}));
  // Only the newest version at or before the watermark is kept (the retraction at 35) and b@20.
  EXPECT_EQ(j.op.stored_versions(), 2u);
  EXPECT_EQ(j.op.buffered_left_rows(), 0u);
}

// ---- Incremental checkpoints: a full snapshot plus deltas restores the same state. ----

using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

ExprPtr PriceBelow200() {
  return testing::Call("<", {testing::Col(4, LogicalType::BigInt()), testing::Lit(Value::BigInt(200))});
}

// Drives both operators through the same steps and expects the same output.
void SameSteps(TemporalJoin& a, TemporalJoin& b, int64_t from) {
  for (TemporalJoin* j : {&a, &b}) {
    j->Right({I(P("a", 300, from + 1)), I(P("n", 7, from + 2)), D(P("b", 51, from + 3))});
    j->Left({L("x1", "a", from + 1), L("x2", "b", from + 4), L("x3", "n", from + 2), L("x4", "z", from)});
    j->Watermark(from + 2);
    j->Left({L("x5", "a", from + 5), L("x6", "c", from + 5)});
    j->Right({I(P("c", 90, from + 5)), UA(P("a", 150, from + 4))});
    j->Watermark(from + 10);
    j->Watermark(kMaxWatermark);
  }
  EXPECT_EQ(a.Take(), b.Take());
  EXPECT_EQ(a.op.stored_versions(), b.op.stored_versions());
  EXPECT_EQ(a.op.buffered_left_rows(), 0u);
}

TEST(TemporalJoinOperatorTest, DeltaCheckpointsRestoreTheSameState) {
  for (bool outer : {false, true}) {
    SCOPED_TRACE(outer ? "LEFT" : "INNER");
    TemporalJoin a(outer, PriceBelow200());
    a.Right({I(P("a", 100, 10)), I(P("b", 50, 20)), I(P("a", 120, 30)), I(P("g", 1, 20)), I(P("g", 2, 25))});
    a.Left({L("s1", "a", 20), L("s2", "b", 15), L("s3", "c", 25), L("s4", "a", 31), L("s0", "g", 26)});
    a.Watermark(16);
    const std::string full = FullSnapshot(a.op);
    // (Key g's only write until d1: emitting s0 at watermark 30 cleans its version at 20.)
    // New keys, new versions of old keys (also replacing one), rows emitted (dirty left rows) and
    // versions cleaned by the watermark, left rows still waiting.
    a.Right({I(P("d", 70, 12)), I(P("a", 130, 30)), I(P("b", 55, 24)), UB(P("b", 55, 28))});
    a.Left({L("s5", "d", 12), L("s6", "b", 29), L("s7", "e", 40), L("s8", "a", 45)});
    a.Watermark(30);
    const std::string d1 = Delta(a.op);
    a.Right({I(P("e", 250, 35)), I(P("a", 140, 41))});
    a.Left({L("s9", "b", 33)});
    a.Watermark(34);
    a.Left({L("s10", "a", 10)});  // behind the watermark: waits for the next one
    const std::string d2 = Delta(a.op);
    const std::string d3 = Delta(a.op);  // nothing new: still a delta
    EXPECT_LT(d3.size(), 200u);
    a.Take();

    TemporalJoin b(outer, PriceBelow200());
    RestoreChain(b.op, {full, d1, d2, d3});
    // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
    EvalContext eval;
    JobContext ctx;
    ctx.eval = &eval;
    ExpectFailedDeltasDropTheState(
        [&] {
          auto op = std::make_unique<TemporalJoinOperator>("TemporalJoin", kLeft, kRight, std::vector<int>{1},
                                                           std::vector<int>{0}, 2, 2, outer, PriceBelow200());
          EXPECT_TRUE(op->Open(&ctx).ok());
          return op;
        },
        {full, d1, d2});
    EXPECT_EQ(b.op.buffered_left_rows(), a.op.buffered_left_rows());
    EXPECT_EQ(b.op.stored_versions(), a.op.stored_versions());
    EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
    SameSteps(a, b, 50);
    EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  }
}

TEST(TemporalJoinOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  TemporalJoin a(/*left_outer=*/true);
  a.Right({I(P("a", 100, 10))});
  a.Left({L("s1", "a", 20), L("s2", "a", 30)});
  const std::string full = FullSnapshot(a.op);
  a.Watermark(20);  // only dirty slots: no size changes
  const std::string d1 = Delta(a.op);
  a.Left({L("s3", "b", 40)});
  const std::string d2 = Delta(a.op);

  TemporalJoin fresh(true);
  EXPECT_FALSE(RestoreDelta(fresh.op, d1).ok());
  TemporalJoin twice(true);
  ASSERT_TRUE(RestoreFull(twice.op, full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op, d1).ok());
  Status st = RestoreDelta(twice.op, d1);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("applied to snapshot"), std::string::npos) << st.ToString();
  TemporalJoin skipped(true);
  ASSERT_TRUE(RestoreFull(skipped.op, full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op, d2).ok());
  TemporalJoin truncated(true);
  ASSERT_TRUE(RestoreFull(truncated.op, full).ok());
  EXPECT_FALSE(RestoreDelta(truncated.op, d1.substr(0, d1.size() - 3)).ok());
  // A corrupt full snapshot is refused and leaves the operator empty (Operator::Restore drops what
  // a failed restore left), as a new one.
  TemporalJoin corrupt(true);
  corrupt.Left({L("k1", "a", 5)});
  std::string bad = full;
  bad[bad.size() - 1] = '\x7f';
  EXPECT_FALSE(RestoreFull(corrupt.op, bad).ok());
  EXPECT_EQ(corrupt.op.buffered_left_rows(), 0u);
  TemporalJoin new_one(true);
  EXPECT_EQ(FullSnapshot(corrupt.op), FullSnapshot(new_one.op));

  TemporalJoin ok(true);
  RestoreChain(ok.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op), FullSnapshot(a.op));
  // Every one-byte corruption of a delta is refused, or gives a state the operator can run on.
  for (size_t i = 0; i < d2.size(); ++i) {
    std::string bad = d2;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    TemporalJoin j(true);
    ASSERT_TRUE(RestoreFull(j.op, full).ok());
    ASSERT_TRUE(RestoreDelta(j.op, d1).ok());
    if (RestoreDelta(j.op, bad).ok()) j.Watermark(kMaxWatermark);
  }
}

TEST(TemporalJoinOperatorTest, CompactionForcesAFullSnapshot) {
  TemporalJoin a(/*left_outer=*/false);
  std::vector<Row> prices, sales;
  for (int i = 0; i < 100; ++i) prices.push_back(I(P("k" + std::to_string(i), i, 0)));
  for (int i = 0; i < 20000; ++i) sales.push_back(L("s" + std::to_string(i), "k" + std::to_string(i % 100), i));
  a.Right(prices);
  a.Left(sales);
  const std::string full = FullSnapshot(a.op);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  a.Watermark(18000);  // emits 90% of the buffered rows: the left arena is compacted
  EXPECT_FALSE(a.op.CanSnapshotDelta());
  const std::string full2 = FullSnapshot(a.op);
  EXPECT_LT(full2.size(), full.size() / 2);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  a.Right({I(P("k7", 700, 18500))});
  a.Watermark(19000);
  const std::string d1 = Delta(a.op);
  a.Take();
  TemporalJoin b(false);
  RestoreChain(b.op, {full2, d1});
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  SameSteps(a, b, 30000);
}

}  // namespace
}  // namespace sluice
