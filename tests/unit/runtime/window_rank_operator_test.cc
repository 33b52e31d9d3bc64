// WindowRankOperator driven directly: rows are (cat STRING, price BIGINT, ts TIMESTAMP(3), window_end
// TIMESTAMP(3)); Top-2 per category and window by price DESC with the rank number, or window
// deduplication keeping the last rows (ts DESC, later ties first). Output rows print timestamps in
// milliseconds. Checks the firing order and late rows, and that incremental checkpoints (a full
// snapshot plus deltas) restore exactly the original's state: a window fired between deltas, rows
// pushed out of the Top-N of a window that existed at the base, a compacted window, ties.
#include "runtime/operators/window_rank_operator.h"

#include <gtest/gtest.h>

#include "rank_dedup_test_util.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using testing::Big;
using testing::CollectSink;
using testing::I;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using Lines = std::vector<std::string>;
using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::BigInt(), LogicalType::Timestamp(3),
                                         LogicalType::Timestamp(3)};

Row R(const std::string& cat, int64_t price, int64_t ts, int64_t end) { return I({Str(cat), Big(price), Ts(ts), Ts(end)}); }

// Top-2 by price DESC per category, with the rank number.
WindowRankSpec TopSpec() {
  WindowRankSpec s;
  s.window_end = 3;
  s.partition_keys = {0};
  s.order = {{1, /*ascending=*/false, /*nulls_first=*/false}};
  s.rank_start = 1;
  s.rank_end = 2;
  s.output_rank_number = true;
  s.event_time_column = 2;
  return s;
}

// Window deduplication keeping the last `keep` rows by ts (ties: the later row first).
WindowRankSpec LastSpec(int64_t keep) {
  WindowRankSpec s;
  s.window_end = 3;
  s.partition_keys = {0};
  s.order = {{2, /*ascending=*/false, /*nulls_first=*/false}};
  s.rank_end = keep;
  s.later_ties_first = true;
  s.output_rank_number = true;
  s.event_time_column = 2;
  return s;
}

struct Ranker : testing::Driven<WindowRankOperator> {
  explicit Ranker(WindowRankSpec spec, size_t chunk_size = 1024)
      : Driven(kTypes, chunk_size, "WindowRank", kTypes, std::move(spec)) {}
  Status Push(const std::vector<Row>& rows) { return Driven::Push(0, rows); }
};

TEST(WindowRankOperatorTest, FiresWindowsInOrderAndDropsLateRows) {
  Ranker a(TopSpec());
  ASSERT_TRUE(a.open_status.ok());
  ASSERT_TRUE(a.Push({R("b", 5, 100, 2000), R("a", 3, 200, 1000), R("a", 9, 300, 1000), R("a", 4, 400, 1000),
                      R("b", 1, 500, 1000)})
                  .ok());
  EXPECT_EQ(a.op.num_windows(), 2u);
  EXPECT_EQ(a.op.kept_rows(), 4u);  // a's 3 was pushed out
  ASSERT_TRUE(a.Watermark(999).ok());
  EXPECT_EQ(a.Take(), (Lines{"+I[a, 9, 300, 1000, 1]", "+I[a, 4, 400, 1000, 2]", "+I[b, 1, 500, 1000, 1]"}));
  ASSERT_TRUE(a.Push({R("a", 100, 900, 1000), R("c", 7, 1100, 2000)}).ok());
  EXPECT_EQ(a.op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(a.op.ReceiveEndOfInput(0).ok());
  EXPECT_EQ(a.Take(), (Lines{"+I[b, 5, 100, 2000, 1]", "+I[c, 7, 1100, 2000, 1]"}));
  EXPECT_EQ(a.op.num_windows(), 0u);
}

// Drives both operators through the same steps (rows from `t` ms on) and expects the same output.
void SameSteps(Ranker& a, Ranker& b, int64_t t) {
  for (Ranker* r : {&a, &b}) {
    ASSERT_TRUE(r->Push({R("a", 50, t, 2000), R("b", 8, t + 1, 2000), R("z", 1, t + 2, 4000), R("a", 50, t + 3, 4000)}).ok());
    ASSERT_TRUE(r->Watermark(1999).ok());
    ASSERT_TRUE(r->Push({R("a", 2, t + 4, 1000), R("y", 6, t + 5, 3000), R("a", 51, t + 6, 4000)}).ok());
    ASSERT_TRUE(r->op.ReceiveEndOfInput(0).ok());
  }
  EXPECT_EQ(a.Take(), b.Take());
  EXPECT_EQ(a.op.metrics().late_rows_dropped, b.op.metrics().late_rows_dropped);
  EXPECT_EQ(b.op.num_windows(), 0u);
}

TEST(WindowRankOperatorTest, DeltaCheckpointsRestoreTheSameState) {
  Ranker a(TopSpec());
  ASSERT_TRUE(a.Push({R("a", 3, 100, 1000), R("a", 5, 110, 1000), R("b", 4, 120, 1000), R("a", 7, 130, 2000)}).ok());
  const std::string full = FullSnapshot(a.op);
  // Window 1000 (at the base) gets a new partition and a row that pushes a's 3 out; window 3000 is new.
  ASSERT_TRUE(a.Push({R("c", 1, 200, 1000), R("a", 6, 210, 1000), R("a", 2, 220, 2000), R("d", 9, 230, 3000)}).ok());
  const std::string d1 = Delta(a.op);
  // Window 1000 fires between the deltas; window 2000 (at both bases) changes its top; 4000 is new.
  ASSERT_TRUE(a.Watermark(999).ok());
  ASSERT_TRUE(a.Push({R("a", 8, 300, 2000), R("a", 7, 310, 2000), R("e", 1, 320, 4000), R("d", 10, 330, 3000)}).ok());
  const std::string d2 = Delta(a.op);
  const std::string d3 = Delta(a.op);  // nothing new: still a delta, and a small one
  EXPECT_LT(d3.size(), 400u);
  a.Take();

  Ranker b(TopSpec());
  RestoreChain(b.op, {full, d1, d2, d3});
  EXPECT_EQ(b.op.num_windows(), a.op.num_windows());
  EXPECT_EQ(b.op.kept_rows(), a.op.kept_rows());
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  SameSteps(a, b, 400);
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
}

TEST(WindowRankOperatorTest, TiesKeepTheirOrderAcrossCompactionAndRestore) {
  // Keep the last 3 rows per key: every row ties on ts with the others of its key, so the later row
  // ranks first; thousands of rows push older ones out, so the window's arena is compacted.
  Ranker a(LastSpec(3));
  ASSERT_TRUE(a.Push({R("k", 1, 100, 1000), R("j", 1, 100, 1000)}).ok());
  const std::string full = FullSnapshot(a.op);
  std::vector<Row> rows;
  for (int i = 0; i < 3000; ++i) rows.push_back(R(i % 2 ? "k" : "m", i, 100, 1000));
  ASSERT_TRUE(a.Push(rows).ok());
  EXPECT_EQ(a.op.kept_rows(), 7u);
  const std::string d1 = Delta(a.op);  // the compacted window goes in full
  ASSERT_TRUE(a.Push({R("k", 7000, 100, 1000), R("j", 7001, 100, 1000), R("n", 7002, 100, 2000)}).ok());
  const std::string d2 = Delta(a.op);
  a.Take();

  Ranker b(LastSpec(3));
  RestoreChain(b.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  for (Ranker* r : {&a, &b}) {
    ASSERT_TRUE(r->Push({R("m", 9000, 100, 1000), R("n", 9001, 100, 2000)}).ok());
    ASSERT_TRUE(r->op.ReceiveEndOfInput(0).ok());
  }
  const Lines out = a.Take();
  EXPECT_EQ(out, b.Take());
  EXPECT_EQ(out, (Lines{"+I[k, 7000, 100, 1000, 1]", "+I[k, 2999, 100, 1000, 2]", "+I[k, 2997, 100, 1000, 3]",
                        "+I[j, 7001, 100, 1000, 1]", "+I[j, 1, 100, 1000, 2]", "+I[m, 9000, 100, 1000, 1]",
                        "+I[m, 2998, 100, 1000, 2]", "+I[m, 2996, 100, 1000, 3]", "+I[n, 9001, 100, 2000, 1]",
                        "+I[n, 7002, 100, 2000, 2]"}));
}

TEST(WindowRankOperatorTest, DeltaOnTheWrongBaseOrDamagedIsRefused) {
  Ranker a(TopSpec());
  ASSERT_TRUE(a.Push({R("a", 3, 100, 1000), R("a", 5, 110, 1000), R("b", 4, 120, 2000)}).ok());
  const std::string full = FullSnapshot(a.op);
  ASSERT_TRUE(a.Push({R("a", 6, 200, 1000), R("c", 1, 210, 2000)}).ok());
  const std::string d1 = Delta(a.op);
  ASSERT_TRUE(a.Watermark(999).ok());
  ASSERT_TRUE(a.Push({R("b", 9, 300, 2000), R("b", 8, 310, 2000), R("d", 2, 320, 3000)}).ok());
  const std::string d2 = Delta(a.op);

  Ranker fresh(TopSpec());
  EXPECT_FALSE(RestoreDelta(fresh.op, d1).ok());
  Ranker twice(TopSpec());
  ASSERT_TRUE(RestoreFull(twice.op, full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op, d1).ok());
  EXPECT_FALSE(RestoreDelta(twice.op, d1).ok());
  Ranker skipped(TopSpec());
  ASSERT_TRUE(RestoreFull(skipped.op, full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op, d2).ok());

  // Every truncation of a delta is refused; one that fails halfway leaves the operator empty.
  JobContext ctx;
  ExpectFailedDeltasDropTheState(
      [&] {
        auto op = std::make_unique<WindowRankOperator>("WindowRank", kTypes, TopSpec());
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, d1, d2});
  // Every one-byte corruption is refused, or gives a state the operator can run on.
  for (size_t i = 0; i < d2.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x5a}}) {
      std::string bad = d2;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      Ranker j(TopSpec());
      ASSERT_TRUE(RestoreFull(j.op, full).ok());
      ASSERT_TRUE(RestoreDelta(j.op, d1).ok());
      if (RestoreDelta(j.op, bad).ok()) {
        EXPECT_TRUE(j.Push({R("b", 1, 400, 2000), R("e", 1, 410, 5000)}).ok());
        EXPECT_TRUE(j.op.ReceiveEndOfInput(0).ok());
        (void)FullSnapshot(j.op);
      }
    }
  }
  Ranker ok(TopSpec());
  RestoreChain(ok.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op), FullSnapshot(a.op));
}

TEST(WindowRankOperatorTest, DamagedFullSnapshotIsRefusedOrRunnable) {
  Ranker a(TopSpec());
  ASSERT_TRUE(a.Push({R("a", 3, 100, 1000), R("a", 5, 110, 1000), R("a", 6, 200, 1000), R("b", 4, 120, 2000)}).ok());
  const std::string full = FullSnapshot(a.op);
  for (size_t len = 0; len < full.size(); ++len) {
    Ranker t(TopSpec());
    EXPECT_FALSE(RestoreFull(t.op, full.substr(0, len)).ok()) << len;
  }
  for (size_t i = 0; i < full.size(); ++i) {
    std::string bad = full;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    Ranker j(TopSpec());
    if (RestoreFull(j.op, bad).ok()) {
      EXPECT_TRUE(j.Push({R("b", 1, 400, 2000)}).ok());
      EXPECT_TRUE(j.op.ReceiveEndOfInput(0).ok());
    }
  }
}

}  // namespace
}  // namespace sluice
