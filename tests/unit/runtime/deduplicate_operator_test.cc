// DeduplicateOperator driven directly. Expected changelogs follow Flink's harness tests
// (ProcTimeDeduplicateFunctionTest, RowTimeDeduplicateFunctionTest,
// RowTimeDeduplicateKeepFirstRowFunctionTest): rows are (key STRING, value INT, ts TIMESTAMP(3)),
// deduplicated by key, ordered by ts.
#include "runtime/operators/deduplicate_operator.h"

#include <gtest/gtest.h>

#include <algorithm>

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

DeduplicateOperator MakeDedup(bool keep_last, bool rowtime, bool emit_update_before) {
  return DeduplicateOperator("Deduplicate", kTypes, {0}, 2, keep_last, rowtime, emit_update_before);
}

TEST(DeduplicateOperatorTest, ProcTimeKeepFirstEmitsOnlyTheFirstRowPerKey) {
  auto op = MakeDedup(/*keep_last=*/false, /*rowtime=*/false, /*emit_update_before=*/true);
  Harness h(&op);
  ASSERT_TRUE(h.open_status.ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 1, 12), R("book", 2, 19), R("fruit", 4, 33)})).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 4, 11), R("fruit", 3, 44), R("toy", 5, 22)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 1, 12]", "+I[fruit, 4, 33]", "+I[toy, 5, 22]"}));
  EXPECT_EQ(op.num_keys(), 3u);
  EXPECT_EQ(op.state_rows(), 0u);  // keep-first on arrival remembers keys only
}

TEST(DeduplicateOperatorTest, ProcTimeKeepLastWithUpdateBefore) {
  auto op = MakeDedup(true, false, true);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 1, 12), R("book", 2, 19), R("fruit", 4, 33)})).ok());
  // An exact duplicate of the kept row changes nothing (Flink's equaliser check without state TTL).
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 2, 19), R("fruit", 4, 34), R("book", 1, 12)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 1, 12]", "-U[book, 1, 12]", "+U[book, 2, 19]", "+I[fruit, 4, 33]",
                                     "-U[fruit, 4, 33]", "+U[fruit, 4, 34]", "-U[book, 2, 19]", "+U[book, 1, 12]"}));
  EXPECT_EQ(h.sink.split_pairs, 0);
  EXPECT_EQ(op.state_rows(), 2u);
}

// ProcTimeDeduplicateFunctionTest#testWithGenerateUpdateBefore: (STRING, BIGINT, INT) keyed by the
// BIGINT (Flink's harness asserts the same rows sorted; this is their arrival order).
TEST(DeduplicateOperatorTest, ProcTimeKeepLastFlinkHarnessCase) {
  const std::vector<LogicalType> types = {LogicalType::String(), LogicalType::BigInt(), LogicalType::Integer()};
  for (bool update_before : {true, false}) {
    DeduplicateOperator op("Deduplicate", types, {1}, -1, true, false, update_before);
    Harness h(&op);
    ASSERT_TRUE(h.open_status.ok());
    auto row = [](int64_t id, int32_t v) { return I({Str("book"), testing::Big(id), Int(v)}); };
    ASSERT_TRUE(h.Push(MakeChunk(types, {row(1, 12), row(2, 11), row(1, 13)})).ok());
    if (update_before) {
      EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 1, 12]", "+I[book, 2, 11]", "-U[book, 1, 12]", "+U[book, 1, 13]"}));
    } else {
      EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 1, 12]", "+I[book, 2, 11]", "+U[book, 1, 13]"}));
    }
  }
}

TEST(DeduplicateOperatorTest, ProcTimeKeepLastWithoutUpdateBefore) {
  auto op = MakeDedup(true, false, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 1, 12), R("book", 2, 19), R("book", 2, 19), R("fruit", 4, 33)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 1, 12]", "+U[book, 2, 19]", "+I[fruit, 4, 33]"}));
}

// RowTimeDeduplicateFunctionTest#testRowTimeDeduplicateKeepLastRow (without the TTL step).
TEST(DeduplicateOperatorTest, RowTimeKeepLastEmitsAtOnce) {
  auto op = MakeDedup(true, true, true);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 13, 99), R("key1", 12, 100), R("key2", 11, 101)})).ok());
  ASSERT_TRUE(h.Watermark(102).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 12, 300), R("key2", 11, 301), R("key3", 5, 299)})).ok());
  ASSERT_TRUE(h.Watermark(302).ok());
  EXPECT_EQ(h.sink.rows, (Lines{"+I[key1, 13, 99]", "-U[key1, 13, 99]", "+U[key1, 12, 100]", "+I[key2, 11, 101]",
                                "WM[102]", "-U[key1, 12, 100]", "+U[key1, 12, 300]", "-U[key2, 11, 101]",
                                "+U[key2, 11, 301]", "+I[key3, 5, 299]", "WM[302]"}));
  EXPECT_EQ(op.metrics().late_rows_dropped, 0);
}

TEST(DeduplicateOperatorTest, RowTimeKeepLastIgnoresOlderRowsAndReplacesOnEqualRowtime) {
  auto op = MakeDedup(true, true, false);
  Harness h(&op);
  // 98 is older than the kept 99: ignored. 99 again is "newer or equal": replaces (Flink emits it even
  // though the row is identical, as RowTimeDeduplicateFunction has no equaliser).
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 13, 99), R("key1", 7, 98), R("key1", 13, 99), R("key1", 8, 99)})).ok());
  // Behind the watermark but newer than the kept row: Flink's keep-last does not consult the
  // watermark, so it still replaces.
  ASSERT_TRUE(h.Watermark(500).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 9, 120)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[key1, 13, 99]", "+U[key1, 13, 99]", "+U[key1, 8, 99]", "+U[key1, 9, 120]"}));
}

// RowTimeDeduplicateKeepFirstRowFunctionTest#testRowTimeDeduplicateKeepFirstRow (without the TTL step).
TEST(DeduplicateOperatorTest, RowTimeKeepFirstEmitsOnWatermarkAndDropsLateRows) {
  auto op = MakeDedup(false, true, true);
  Harness h(&op);
  ASSERT_TRUE(h.Watermark(50).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 0, 1)})).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 14, 101), R("key1", 13, 99), R("key1", 15, 99), R("key1", 12, 100),
                                        R("key2", 11, 101)}))
                  .ok());
  EXPECT_EQ(h.sink.Changes(), Lines{});  // nothing before the watermark passes
  ASSERT_TRUE(h.Watermark(102).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("key1", 12, 300), R("key2", 11, 301), R("key3", 5, 299)})).ok());
  ASSERT_TRUE(h.Watermark(302).ok());
  EXPECT_EQ(h.sink.rows, (Lines{"WM[50]", "+I[key1, 13, 99]", "+I[key2, 11, 101]", "WM[102]", "+I[key3, 5, 299]",
                                "WM[302]"}));
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  EXPECT_EQ(op.state_rows(), 0u);
}

TEST(DeduplicateOperatorTest, RowTimeKeepFirstWaitsForTheWatermarkToReachTheRowtime) {
  auto op = MakeDedup(false, true, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 100), R("b", 2, 200), R("c", 3, 150)})).ok());
  ASSERT_TRUE(h.Watermark(99).ok());
  EXPECT_EQ(h.sink.Changes(), Lines{});
  ASSERT_TRUE(h.Watermark(150).ok());  // reaches a (100) and c (150), in rowtime order
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 1, 100]", "+I[c, 3, 150]"}));
  // A row exactly at the watermark is not late (Flink drops rowtime < watermark); it waits for the
  // next watermark. A row below it is late.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("d", 4, 150), R("e", 5, 149), R("b", 6, 180)})).ok());
  EXPECT_EQ(op.metrics().late_rows_dropped, 1);
  ASSERT_TRUE(h.Watermark(190).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[a, 1, 100]", "+I[c, 3, 150]", "+I[d, 4, 150]", "+I[b, 6, 180]"}));
}

TEST(DeduplicateOperatorTest, RowTimeKeepFirstFlushesAtEndOfInput) {
  auto op = MakeDedup(false, true, false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 100), R("b", 2, 5000), R("a", 0, 100), R("b", 3, 4000)})).ok());
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.rows, (Lines{"+I[a, 1, 100]", "+I[b, 3, 4000]", "WM[+inf]"}));
  EXPECT_TRUE(h.sink.ended);
}

TEST(DeduplicateOperatorTest, RejectsRetractionsWithAClearError) {
  auto op = MakeDedup(true, false, true);
  Harness h(&op);
  Status st = h.Push(MakeChunk(kTypes, {R("a", 1, 1), testing::UB({Str("a"), Int(1), Ts(1)})}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Deduplicate 'Deduplicate' received a -U change"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("insert-only"), std::string::npos);
}

TEST(DeduplicateOperatorTest, RowTimeRequiresATimestampColumn) {
  DeduplicateOperator op("Deduplicate", kTypes, {0}, 1, false, true, false);
  Harness h(&op);
  EXPECT_FALSE(h.open_status.ok());
}

// The changelog must not depend on how the input is cut into chunks.
TEST(DeduplicateOperatorTest, ChunkingDoesNotChangeTheChangelog) {
  std::vector<Row> rows;
  for (int i = 0; i < 300; ++i) {
    rows.push_back(R("k" + std::to_string(i * 7 % 13), i, 1000 + (i * 37) % 211));
  }
  for (bool keep_last : {false, true}) {
    for (bool rowtime : {false, true}) {
      Lines reference;
      for (size_t chunk : {size_t{1}, size_t{7}, size_t{300}}) {
        auto op = MakeDedup(keep_last, rowtime, true);
        Harness h(&op);
        for (size_t b = 0; b < rows.size(); b += chunk) {
          std::vector<Row> part(rows.begin() + static_cast<std::ptrdiff_t>(b),
                                rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), b + chunk)));
          ASSERT_TRUE(h.Push(MakeChunk(kTypes, part)).ok());
        }
        ASSERT_TRUE(h.End().ok());
        EXPECT_EQ(h.sink.split_pairs, 0);
        if (reference.empty()) {
          reference = h.sink.rows;
          EXPECT_FALSE(reference.empty());
        } else {
          EXPECT_EQ(h.sink.rows, reference) << "keep_last=" << keep_last << " rowtime=" << rowtime << " chunk=" << chunk;
        }
      }
    }
  }
}

// Many updates of few keys: released rows are compacted away and the answer stays right.
TEST(DeduplicateOperatorTest, KeepLastCompactsItsState) {
  auto op = MakeDedup(true, false, false);
  Harness h(&op);
  const int kRows = 150000;
  for (int b = 0; b < kRows; b += 1000) {
    Chunk c(kTypes);
    for (int i = b; i < b + 1000; ++i) {
      c.AppendValues({Str("k" + std::to_string(i % 3)), Int(i), Ts(i)}, RowKind::kInsert);
    }
    ASSERT_TRUE(h.Push(std::move(c)).ok());
  }
  EXPECT_EQ(op.state_rows(), 3u);
  ASSERT_EQ(h.sink.rows.size(), static_cast<size_t>(kRows));
  EXPECT_EQ(h.sink.rows.back(), "+U[k2, 149999, 149999]");
  EXPECT_EQ(h.sink.rows[0], "+I[k0, 0, 0]");
}

}  // namespace
}  // namespace sluice
