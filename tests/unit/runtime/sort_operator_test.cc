// TemporalSortOperator and SortOperator driven directly. Rows are (key STRING, value INT,
// ts TIMESTAMP(3)); the temporal sort orders by ts (then by value where a test asks), following
// Flink's RowTimeSortOperator: rows leave as the watermark passes them, and a row at or below the
// largest rowtime already emitted is late.
#include "runtime/operators/sort_operator.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "rank_dedup_test_util.h"
#include "runtime/job.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using testing::D;
using testing::Harness;
using testing::I;
using testing::Int;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::Ts;
using testing::UB;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Integer(), LogicalType::Timestamp(3)};

Row R(const std::string& key, int32_t v, int64_t ts) { return I({Str(key), Int(v), Ts(ts)}); }

TEST(TemporalSortOperatorTest, RowtimeRowsLeaveInOrderAsTheWatermarkPassesThem) {
  TemporalSortOperator op("TemporalSort", kTypes, {{2, true, true}}, /*rowtime=*/true);
  Harness h(&op, /*chunk_size=*/2);
  ASSERT_TRUE(h.open_status.ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("b", 1, 5), R("a", 2, 3), R("c", 3, 7), R("a2", 4, 3)})).ok());
  EXPECT_EQ(h.sink.Changes(), Lines{});
  ASSERT_TRUE(h.Watermark(4).ok());
  // Ties keep arrival order.
  EXPECT_EQ(h.sink.rows, (Lines{"+I[a, 2, 3]", "+I[a2, 4, 3]", "WM[4]"}));
  // 3 was emitted already: late. 4 is behind the watermark but after the last emitted rowtime, so it
  // still has its place in the order and leaves at the next watermark.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("late", 5, 3), R("e", 6, 4), R("early", 7, 2)})).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 2);
  ASSERT_TRUE(h.Watermark(6).ok());
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.rows, (Lines{"+I[a, 2, 3]", "+I[a2, 4, 3]", "WM[4]", "+I[e, 6, 4]", "+I[b, 1, 5]", "WM[6]",
                                "+I[c, 3, 7]", "WM[+inf]"}));
  EXPECT_EQ(op.state_rows(), 0u);
  EXPECT_EQ(h.sink.split_pairs, 0);
}

TEST(TemporalSortOperatorTest, SecondaryKeysOrderRowsOfOneRowtime) {
  // ORDER BY ts, value DESC.
  TemporalSortOperator op("TemporalSort", kTypes, {{2, true, true}, {1, false, false}}, true);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("x", 1, 10), R("y", 3, 10), R("z", 2, 9), R("w", 2, 10)})).ok());
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[z, 2, 9]", "+I[y, 3, 10]", "+I[w, 2, 10]", "+I[x, 1, 10]"}));
}

TEST(TemporalSortOperatorTest, ProctimeRowsLeaveAsTheyArrive) {
  TemporalSortOperator op("TemporalSort", kTypes, {{2, true, true}, {1, true, true}}, /*rowtime=*/false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("x", 3, 10), R("y", 1, 10)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[x, 3, 10]", "+I[y, 1, 10]"}));
}

TEST(TemporalSortOperatorTest, RefusesUpdatingInputAndNonTimeKeys) {
  TemporalSortOperator op("TemporalSort", kTypes, {{2, true, true}}, true);
  Harness h(&op);
  Status st = h.Push(MakeChunk(kTypes, {D({Str("x"), Int(1), Ts(1)})}));
  EXPECT_FALSE(st.ok());
  TemporalSortOperator bad("TemporalSort", kTypes, {{1, true, true}}, true);
  Harness hb(&bad);
  EXPECT_FALSE(hb.open_status.ok());
}

TEST(SortOperatorTest, FoldsRetractionsAndEmitsTheSortedSliceAtTheEnd) {
  // ORDER BY value DESC, key NULLS ... OFFSET 1 FETCH 2, over an updating input.
  SortOperator op("SortLimit", kTypes, {{1, false, false}, {0, true, true}}, /*offset=*/1, /*fetch=*/2,
                  /*input_has_retractions=*/true);
  Harness h(&op, /*chunk_size=*/1);
  ASSERT_TRUE(h.open_status.ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 5, 1), R("b", 9, 2), R("c", 7, 3), R("d", 7, 4)})).ok());
  ASSERT_TRUE(h.Watermark(100).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {D({Str("b"), Int(9), Ts(2)}), R("e", 1, 5), D({Str("zz"), Int(1), Ts(1)})})).ok());
  EXPECT_EQ(h.sink.rows, Lines{});  // nothing, not even the watermark, before the end
  ASSERT_TRUE(h.End().ok());
  // Remaining: c 7, d 7, a 5, e 1 -> skip c, then d and a.
  EXPECT_EQ(h.sink.rows, (Lines{"+I[d, 7, 4]", "+I[a, 5, 1]", "WM[+inf]"}));
  EXPECT_TRUE(h.sink.ended);
  EXPECT_EQ(op.metrics().retractions_without_state, 1);
}

TEST(SortOperatorTest, LimitWithoutOrderKeepsArrivalOrder) {
  SortOperator op("Limit", kTypes, {}, 0, 3, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("q", 5, 1), R("p", 9, 2)})).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("o", 7, 3), R("n", 7, 4)})).ok());
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[q, 5, 1]", "+I[p, 9, 2]", "+I[o, 7, 3]"}));
}

// Snapshots `op` and restores the snapshot into `restored` (already opened, as a job does).
void SnapshotAndRestore(SortOperator* op, SortOperator* restored) {
  StateWriter w;
  ASSERT_TRUE(op->WriteSnapshot(&w).ok());
  StateReader r(w.data(), "test sort");
  Status st = restored->Restore(&r);
  ASSERT_TRUE(st.ok()) << st.ToString();
}

TEST(SortOperatorTest, RestoredSortEmitsWhatTheUninterruptedOneDoes) {
  // ORDER BY value DESC, key OFFSET 1 FETCH 3, over an updating input; the retraction after the
  // restore must find its copy (the most recent equal row) in the restored state.
  auto make = [] {
    return std::make_unique<SortOperator>("SortLimit", kTypes, std::vector<SortSpec>{{1, false, false}, {0, true, true}},
                                          /*offset=*/1, /*fetch=*/3, /*input_has_retractions=*/true);
  };
  auto before = [] {
    return MakeChunk(kTypes, {R("a", 5, 1), R("b", 9, 2), R("c", 7, 3), R("d", 7, 4), R("b", 9, 2),
                              D({Str("c"), Int(7), Ts(3)}), R("x", 2, 9)});
  };
  auto after = [] {
    return MakeChunk(kTypes, {D({Str("b"), Int(9), Ts(2)}), R("e", 1, 5), R("c", 7, 3), D({Str("x"), Int(2), Ts(9)}),
                              D({Str("zz"), Int(1), Ts(1)})});
  };
  auto whole = make();
  Harness hw(whole.get(), /*chunk_size=*/2);
  ASSERT_TRUE(hw.open_status.ok());
  ASSERT_TRUE(hw.Push(before()).ok());
  ASSERT_TRUE(hw.Push(after()).ok());
  ASSERT_TRUE(hw.End().ok());
  // Remaining: b 9, c 7, d 7, a 5, e 1 -> skip b, then c, d, a.
  ASSERT_EQ(hw.sink.rows, (Lines{"+I[c, 7, 3]", "+I[d, 7, 4]", "+I[a, 5, 1]", "WM[+inf]"}));

  auto first = make();
  Harness h1(first.get(), 2);
  ASSERT_TRUE(h1.Push(before()).ok());
  auto second = make();
  Harness h2(second.get(), 2);
  ASSERT_TRUE(h2.open_status.ok());
  SnapshotAndRestore(first.get(), second.get());
  EXPECT_EQ(second->state_rows(), first->state_rows());
  ASSERT_TRUE(h2.Push(after()).ok());
  ASSERT_TRUE(h2.End().ok());
  EXPECT_EQ(h2.sink.rows, hw.sink.rows);
  EXPECT_EQ(second->metrics().retractions_without_state, whole->metrics().retractions_without_state);
}

TEST(SortOperatorTest, RestoredLimitKeepsCountingItsRows) {
  SortOperator op("Limit", kTypes, {}, 1, 2, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("q", 5, 1), R("p", 9, 2)})).ok());
  SortOperator restored("Limit", kTypes, {}, 1, 2, false);
  Harness hr(&restored);
  SnapshotAndRestore(&op, &restored);
  ASSERT_TRUE(hr.Push(MakeChunk(kTypes, {R("o", 7, 3), R("n", 7, 4)})).ok());
  EXPECT_EQ(restored.state_rows(), 3u);
  ASSERT_TRUE(hr.End().ok());
  EXPECT_EQ(hr.sink.Changes(), (Lines{"+I[p, 9, 2]", "+I[o, 7, 3]"}));
}

TEST(SortOperatorTest, CorruptSnapshotsAreRefused) {
  SortOperator op("Sort", kTypes, {{1, true, true}}, 0, -1, true);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 5, 1), R("b", 9, 2), D({Str("a"), Int(5), Ts(1)}), R("c", 7, 3)})).ok());
  StateWriter w;
  ASSERT_TRUE(op.WriteSnapshot(&w).ok());
  const std::string bytes = w.Release();
  // Every truncation is refused with an error naming the state, never a crash.
  for (size_t len = 0; len < bytes.size(); ++len) {
    SortOperator fresh("Sort", kTypes, {{1, true, true}}, 0, -1, true);
    Harness hf(&fresh);
    StateReader r(std::string_view(bytes).substr(0, len), "sort");
    Status st = fresh.Restore(&r);
    EXPECT_FALSE(st.ok()) << len;
    EXPECT_NE(st.message().find("sort"), std::string::npos) << st.message();
  }
  // Bytes left over after the state are refused as well.
  {
    SortOperator fresh("Sort", kTypes, {{1, true, true}}, 0, -1, true);
    Harness hf(&fresh);
    const std::string longer = bytes + "x";
    StateReader r(longer, "sort");
    EXPECT_FALSE(fresh.Restore(&r).ok());
  }
  // A Limit refuses more rows than it keeps.
  SortOperator limit("Limit", kTypes, {}, 0, 1, false);
  Harness hl(&limit);
  SortOperator all("Limit", kTypes, {}, 0, -1, false);
  Harness ha(&all);
  ASSERT_TRUE(ha.Push(MakeChunk(kTypes, {R("a", 5, 1), R("b", 9, 2)})).ok());
  StateWriter wa;
  ASSERT_TRUE(all.WriteSnapshot(&wa).ok());
  StateReader ra(wa.data(), "limit");
  Status st = limit.Restore(&ra);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("more than its LIMIT keeps"), std::string::npos) << st.message();
}

// ------------------------------------------------------------------------------------------------
// Incremental checkpoints: a full snapshot and deltas restore to the state that wrote them.

using snapshot_chain::Delta;
using snapshot_chain::FullSnapshot;
using snapshot_chain::RestoreChain;
using snapshot_chain::RestoreDelta;
using snapshot_chain::RestoreFull;

// Pushes `rows` in chunks of `chunk` rows.
void PushAll(Harness& h, const std::vector<Row>& rows, size_t chunk = 7) {
  Status st = PushInChunks(h, kTypes, rows, chunk);
  ASSERT_TRUE(st.ok()) << st.ToString();
}

// The rows emitted since row `from` of the sink.
Lines Since(const Harness& h, size_t from) {
  return Lines(h.sink.rows.begin() + static_cast<std::ptrdiff_t>(from), h.sink.rows.end());
}

// Insert-only rows with rowtimes in [lo, hi] (ms); values 0..9 make ties on (ts, value).
std::vector<Row> TimedRows(std::mt19937& rng, size_t n, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> ts(lo, hi);
  std::uniform_int_distribution<int32_t> v(0, 9);
  std::vector<Row> out;
  for (size_t i = 0; i < n; ++i) out.push_back(R("k" + std::to_string(rng() % 1000), v(rng), ts(rng)));
  return out;
}

std::unique_ptr<TemporalSortOperator> MakeTemporalSort(JobContext* ctx = nullptr) {
  // ORDER BY ts, value DESC.
  auto op = std::make_unique<TemporalSortOperator>("TemporalSort", kTypes, std::vector<SortSpec>{{2, true, true}, {1, false, false}},
                                                   /*rowtime=*/true);
  if (ctx != nullptr) {
    EXPECT_TRUE(op->Open(ctx).ok());
  }
  return op;
}

TEST(TemporalSortOperatorTest, FullSnapshotPlusDeltasRestoresTheSameState) {
  std::mt19937 rng(5);
  auto a = MakeTemporalSort();
  Harness ha(a.get(), 5);
  ASSERT_TRUE(ha.open_status.ok());
  EXPECT_FALSE(a->CanSnapshotDelta());  // no base yet
  PushAll(ha, TimedRows(rng, 1000, 0, 1000));
  ASSERT_TRUE(ha.Watermark(200).ok());
  const std::string full = FullSnapshot(*a);
  // Appends (some late, some behind the watermark), then rows of the base and new ones leave.
  PushAll(ha, TimedRows(rng, 80, 150, 1200));
  ASSERT_TRUE(ha.Watermark(300).ok());
  const std::string d1 = Delta(*a);
  // Only rows leaving.
  ASSERT_TRUE(ha.Watermark(350).ok());
  const std::string d2 = Delta(*a);
  // Only appends.
  PushAll(ha, TimedRows(rng, 60, 340, 1500));
  const std::string d3 = Delta(*a);
  // Nothing at all.
  const std::string d4 = Delta(*a);
  EXPECT_GT(a->metrics().late_rows_dropped, 0);
  for (const std::string* d : {&d1, &d2, &d3, &d4}) EXPECT_LT(d->size(), full.size() / 4);

  auto b = MakeTemporalSort();
  Harness hb(b.get(), 5);
  ASSERT_TRUE(hb.open_status.ok());
  RestoreChain(*b, {full, d1, d2, d3, d4});
  EXPECT_EQ(b->state_rows(), a->state_rows());
  EXPECT_TRUE(b->CanSnapshotDelta());
  EXPECT_EQ(FullSnapshot(*a), FullSnapshot(*b));

  // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
  JobContext ctx;
  snapshot_chain::ExpectFailedDeltasDropTheState([&] { return MakeTemporalSort(&ctx); }, {full, d1});
  snapshot_chain::ExpectFailedDeltasDropTheState([&] { return MakeTemporalSort(&ctx); }, {full, d1, d2, d3});

  // Both go on alike: the same output for the same input, and equal deltas after it.
  const size_t a_from = ha.sink.rows.size();
  const std::vector<Row> more = TimedRows(rng, 100, 360, 1600);
  PushAll(ha, more);
  PushAll(hb, more);
  ASSERT_TRUE(ha.Watermark(700).ok());
  ASSERT_TRUE(hb.Watermark(700).ok());
  EXPECT_EQ(Delta(*a), Delta(*b));
  ASSERT_TRUE(ha.End().ok());
  ASSERT_TRUE(hb.End().ok());
  EXPECT_GT(hb.sink.rows.size(), 100u);
  EXPECT_EQ(Since(ha, a_from), hb.sink.rows);
}

TEST(TemporalSortOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  std::mt19937 rng(9);
  auto a = MakeTemporalSort();
  Harness ha(a.get());
  PushAll(ha, TimedRows(rng, 100, 0, 100));
  ASSERT_TRUE(ha.Watermark(20).ok());
  const std::string full = FullSnapshot(*a);
  PushAll(ha, TimedRows(rng, 30, 20, 150));
  ASSERT_TRUE(ha.Watermark(40).ok());
  const std::string d1 = Delta(*a);
  PushAll(ha, TimedRows(rng, 30, 40, 150));
  ASSERT_TRUE(ha.Watermark(60).ok());
  const std::string d2 = Delta(*a);
  const std::string a_state = FullSnapshot(*a);
  auto expect_corrupt = [](const Status& st) {
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("Corrupt state"), std::string::npos) << st.message();
  };
  {  // applied twice
    auto b = MakeTemporalSort();
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    ASSERT_TRUE(RestoreDelta(*b, d1).ok());
    expect_corrupt(RestoreDelta(*b, d1));
  }
  {  // one skipped
    auto b = MakeTemporalSort();
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    expect_corrupt(RestoreDelta(*b, d2));
    // Refused before anything changed: the chain goes on.
    ASSERT_TRUE(RestoreDelta(*b, d1).ok());
    ASSERT_TRUE(RestoreDelta(*b, d2).ok());
    EXPECT_EQ(FullSnapshot(*b), a_state);
  }
  {  // on an operator restored from nothing
    auto b = MakeTemporalSort();
    Harness hb(b.get());
    EXPECT_FALSE(RestoreDelta(*b, d1).ok());
  }
  {  // on a state that changed since its restore
    auto b = MakeTemporalSort();
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    PushAll(hb, TimedRows(rng, 3, 500, 600));
    expect_corrupt(RestoreDelta(*b, d1));
  }
  {  // a Sort's delta on a temporal sort
    SortOperator sort("Sort", kTypes, {{1, true, true}}, 0, -1, false);
    Harness hs(&sort);
    PushAll(hs, TimedRows(rng, 10, 0, 10));
    const std::string sort_full = FullSnapshot(sort);
    PushAll(hs, TimedRows(rng, 10, 0, 10));
    const std::string sort_delta = Delta(sort);
    auto b = MakeTemporalSort();
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    EXPECT_FALSE(RestoreDelta(*b, sort_delta).ok());
  }
}

TEST(TemporalSortOperatorTest, CompactionStopsDeltasUntilTheNextFullSnapshot) {
  std::mt19937 rng(3);
  auto a = MakeTemporalSort();
  Harness ha(a.get());
  // Enough rows leave at once for the arena to be rebuilt (renumbering the waiting rows).
  std::vector<Row> rows = TimedRows(rng, 70000, 0, 10000);
  PushAll(ha, rows, 1024);
  const std::string full = FullSnapshot(*a);
  EXPECT_TRUE(a->CanSnapshotDelta());
  ASSERT_TRUE(ha.Watermark(9990).ok());
  EXPECT_FALSE(a->CanSnapshotDelta());
  const std::string full2 = FullSnapshot(*a);
  EXPECT_TRUE(a->CanSnapshotDelta());
  EXPECT_LT(full2.size(), full.size() / 10);  // the rows that left are no longer stored
  PushAll(ha, TimedRows(rng, 50, 9995, 10100));
  ASSERT_TRUE(ha.Watermark(10000).ok());
  const std::string d1 = Delta(*a);
  auto b = MakeTemporalSort();
  Harness hb(b.get());
  RestoreChain(*b, {full2, d1});
  EXPECT_EQ(FullSnapshot(*a), FullSnapshot(*b));
  ASSERT_TRUE(ha.End().ok());
  ASSERT_TRUE(hb.End().ok());
  EXPECT_EQ(Since(ha, ha.sink.rows.size() - hb.sink.rows.size()), hb.sink.rows);
}

TEST(TemporalSortOperatorTest, ProctimeSortWritesEmptyDeltas) {
  TemporalSortOperator a("TemporalSort", kTypes, {{2, true, true}}, /*rowtime=*/false);
  Harness ha(&a);
  const std::string full = FullSnapshot(a);
  ASSERT_TRUE(ha.Push(MakeChunk(kTypes, {R("x", 3, 10), R("y", 1, 10)})).ok());
  const std::string d1 = Delta(a);
  TemporalSortOperator b("TemporalSort", kTypes, {{2, true, true}}, /*rowtime=*/false);
  Harness hb(&b);
  RestoreChain(b, {full, d1});
  EXPECT_EQ(FullSnapshot(a), FullSnapshot(b));
  EXPECT_EQ(b.state_rows(), 0u);
}

// A changelog of rows from a small domain (so equal rows repeat): +I of new rows, -D and -U/+U of
// live ones (the test keeps what is live), and now and then a retraction of a row never seen.
class SortChangelog {
 public:
  SortChangelog(bool retract, uint32_t seed) : retract_(retract), rng_(seed) {}
  std::vector<Row> Next(size_t n) {
    std::vector<Row> out;
    while (out.size() < n) {
      const uint32_t dice = rng_() % 10;
      if (!retract_ || live_.empty() || dice < 5) {
        Row r = NewRow();
        live_.push_back(r.values);
        out.push_back(std::move(r));
      } else if (dice < 8) {
        const size_t i = rng_() % live_.size();
        out.push_back(D(live_[i]));
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (dice < 9) {
        const size_t i = rng_() % live_.size();
        out.push_back(UB(live_[i]));
        Row r = NewRow();
        r.kind = RowKind::kUpdateAfter;
        live_[i] = r.values;
        out.push_back(std::move(r));
      } else {
        out.push_back(D({Str("never"), Int(-1), Ts(0)}));
      }
    }
    return out;
  }

 private:
  Row NewRow() {
    return R(std::string(1, static_cast<char>('a' + rng_() % 4)), static_cast<int32_t>(rng_() % 6),
             static_cast<int64_t>(rng_() % 3));
  }
  bool retract_;
  std::mt19937 rng_;
  std::vector<std::vector<Value>> live_;
};

struct SortConfig {
  std::vector<SortSpec> order;
  int64_t offset, fetch;
  bool retract;
};

std::unique_ptr<SortOperator> MakeSort(const SortConfig& c, JobContext* ctx = nullptr) {
  auto op = std::make_unique<SortOperator>("Sort", kTypes, c.order, c.offset, c.fetch, c.retract);
  if (ctx != nullptr) {
    EXPECT_TRUE(op->Open(ctx).ok());
  }
  return op;
}

const std::vector<SortConfig> kSortConfigs = {
    {{{1, false, false}, {0, true, true}}, 1, 5, true},  // SortLimit over an updating input
    {{{1, true, true}}, 0, -1, true},                    // Sort over an updating input
    {{{2, true, true}, {1, false, true}}, 0, -1, false}, // Sort over an insert-only input
    {{}, 2, 150, false},                                 // Limit: keeps only its first 152 rows
    {{}, 0, -1, true},                                   // no ORDER BY, no limit, updating input
};

TEST(SortOperatorTest, FullSnapshotPlusDeltasRestoresTheSameState) {
  for (size_t c = 0; c < kSortConfigs.size(); ++c) {
    SCOPED_TRACE("config " + std::to_string(c));
    const SortConfig& cfg = kSortConfigs[c];
    SortChangelog gen(cfg.retract, static_cast<uint32_t>(17 + c));
    auto a = MakeSort(cfg);
    Harness ha(a.get(), 3);
    ASSERT_TRUE(ha.open_status.ok());
    EXPECT_FALSE(a->CanSnapshotDelta());
    PushAll(ha, gen.Next(400));
    const std::string full = FullSnapshot(*a);
    PushAll(ha, gen.Next(40));
    const std::string d1 = Delta(*a);
    PushAll(ha, gen.Next(40));
    const std::string d2 = Delta(*a);
    const std::string d3 = Delta(*a);  // nothing changed
    PushAll(ha, gen.Next(40));
    const std::string d4 = Delta(*a);
    for (const std::string* d : {&d1, &d2, &d3, &d4}) EXPECT_LT(d->size(), full.size() / 2);

    auto b = MakeSort(cfg);
    Harness hb(b.get(), 3);
    ASSERT_TRUE(hb.open_status.ok());
    RestoreChain(*b, {full, d1, d2, d3, d4});
    EXPECT_EQ(b->state_rows(), a->state_rows());
    EXPECT_EQ(FullSnapshot(*a), FullSnapshot(*b));

    JobContext ctx;
    snapshot_chain::ExpectFailedDeltasDropTheState([&] { return MakeSort(cfg, &ctx); }, {full, d1});
    snapshot_chain::ExpectFailedDeltasDropTheState([&] { return MakeSort(cfg, &ctx); }, {full, d1, d2, d3, d4});

    // Both go on alike, folding retractions of rows of the restored state, and emit the same result.
    const std::vector<Row> more = gen.Next(60);
    PushAll(ha, more);
    PushAll(hb, more);
    EXPECT_EQ(Delta(*a), Delta(*b));
    EXPECT_EQ(b->metrics().retractions_without_state, a->metrics().retractions_without_state);
    ASSERT_TRUE(ha.End().ok());
    ASSERT_TRUE(hb.End().ok());
    EXPECT_GT(hb.sink.rows.size(), 1u);
    EXPECT_EQ(ha.sink.rows, hb.sink.rows);
  }
}

TEST(SortOperatorTest, FullSnapshotDropsManyReleasedRowsAndDeltasReleaseRestoredOnes) {
  const SortConfig cfg{{{1, true, true}}, 0, -1, true};
  auto a = MakeSort(cfg);
  Harness ha(a.get());
  // 6 rows, 2 released: more than an eighth, so the snapshot renumbers the 4 live rows.
  PushAll(ha, {R("a", 1, 1), R("b", 2, 1), R("a", 1, 1), R("c", 3, 1), R("d", 4, 1), R("e", 5, 1)});
  PushAll(ha, {D({Str("a"), Int(1), Ts(1)}), D({Str("d"), Int(4), Ts(1)})});
  const std::string full = FullSnapshot(*a);
  // The base's rows leave (the remaining copy of a, then c), new ones come and go.
  PushAll(ha, {D({Str("a"), Int(1), Ts(1)}), R("f", 0, 1), R("c", 3, 1), D({Str("c"), Int(3), Ts(1)}),
               D({Str("c"), Int(3), Ts(1)}), R("g", 9, 1)});
  const std::string d1 = Delta(*a);
  EXPECT_EQ(a->state_rows(), 4u);  // b e f g
  auto b = MakeSort(cfg);
  Harness hb(b.get());
  RestoreChain(*b, {full, d1});
  EXPECT_EQ(FullSnapshot(*a), FullSnapshot(*b));
  // A restore of the first snapshot holds only the live rows.
  auto c = MakeSort(cfg);
  Harness hc(c.get());
  ASSERT_TRUE(RestoreFull(*c, full).ok());
  EXPECT_EQ(c->state_rows(), 4u);
  ASSERT_TRUE(ha.End().ok());
  ASSERT_TRUE(hb.End().ok());
  EXPECT_EQ(hb.sink.rows, (Lines{"+I[f, 0, 1]", "+I[b, 2, 1]", "+I[e, 5, 1]", "+I[g, 9, 1]", "WM[+inf]"}));
  EXPECT_EQ(ha.sink.rows, hb.sink.rows);
}

TEST(SortOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  const SortConfig cfg = kSortConfigs[0];
  SortChangelog gen(true, 4);
  auto a = MakeSort(cfg);
  Harness ha(a.get());
  PushAll(ha, gen.Next(100));
  const std::string full = FullSnapshot(*a);
  PushAll(ha, gen.Next(20));
  const std::string d1 = Delta(*a);
  PushAll(ha, gen.Next(20));
  const std::string d2 = Delta(*a);
  const std::string a_state = FullSnapshot(*a);
  {  // applied twice
    auto b = MakeSort(cfg);
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    ASSERT_TRUE(RestoreDelta(*b, d1).ok());
    Status st = RestoreDelta(*b, d1);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("Corrupt state"), std::string::npos) << st.message();
  }
  {  // one skipped, then the right one
    auto b = MakeSort(cfg);
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    EXPECT_FALSE(RestoreDelta(*b, d2).ok());
    ASSERT_TRUE(RestoreDelta(*b, d1).ok());
    ASSERT_TRUE(RestoreDelta(*b, d2).ok());
    EXPECT_EQ(FullSnapshot(*b), a_state);
  }
  {  // on an operator restored from nothing
    auto b = MakeSort(cfg);
    Harness hb(b.get());
    EXPECT_FALSE(RestoreDelta(*b, d1).ok());
  }
  {  // on a state that changed since its restore
    auto b = MakeSort(cfg);
    Harness hb(b.get());
    ASSERT_TRUE(RestoreFull(*b, full).ok());
    PushAll(hb, {R("new", 1, 1)});
    Status st = RestoreDelta(*b, d1);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("changed since"), std::string::npos) << st.message();
  }
}

}  // namespace
}  // namespace sluice
