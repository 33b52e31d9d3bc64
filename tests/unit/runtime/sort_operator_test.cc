// TemporalSortOperator and SortOperator driven directly. Rows are (key STRING, value INT,
// ts TIMESTAMP(3)); the temporal sort orders by ts (then by value where a test asks), following
// Flink's RowTimeSortOperator: rows leave as the watermark passes them, and a row at or below the
// largest rowtime already emitted is late.
#include "runtime/operators/sort_operator.h"

#include <gtest/gtest.h>

#include "rank_dedup_test_util.h"
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

}  // namespace
}  // namespace sluice
