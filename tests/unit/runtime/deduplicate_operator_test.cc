// DeduplicateOperator driven directly. Expected changelogs follow Flink's harness tests
// (ProcTimeDeduplicateFunctionTest, RowTimeDeduplicateFunctionTest,
// RowTimeDeduplicateKeepFirstRowFunctionTest): rows are (key STRING, value INT, ts TIMESTAMP(3)),
// deduplicated by key, ordered by ts.
#include "runtime/operators/deduplicate_operator.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/clock.h"
#include "function/evaluator.h"
#include "rank_dedup_test_util.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

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

// Incremental checkpoints (delta-brief step 5): full snapshot, more input, a delta, more input,
// another delta; a fresh operator restored from full + delta + delta holds the same state (its full
// snapshot has the same bytes) and continues with the same output. Every variant, with and without
// a state TTL (which expires keys between the snapshots), and ChangelogNormalize.
struct Variant {
  bool keep_last;
  bool rowtime;
  bool changelog;
  int64_t ttl_ms;
};

std::string Describe(const Variant& v) {
  return std::string(v.keep_last ? "keep-last" : "keep-first") + (v.rowtime ? " rowtime" : " proctime") +
         (v.changelog ? " changelog" : "") + " ttl=" + std::to_string(v.ttl_ms);
}

std::unique_ptr<DeduplicateOperator> MakeVariant(const Variant& v) {
  return std::make_unique<DeduplicateOperator>("Deduplicate", kTypes, std::vector<int>{0}, 2, v.keep_last, v.rowtime,
                                               /*emit_update_before=*/true, v.changelog, v.ttl_ms);
}

// Phase p of the input: old keys updated, new keys added, some left idle (they expire under a TTL),
// (changelog) some keys deleted.
Chunk Phase(const Variant& v, int p) {
  Chunk c(kTypes);
  for (int i = 0; i < 40; ++i) {
    const int key = 6 * p + (i * 7 + p) % 24;  // keys slide: 6 new ones per phase, 6 left idle
    const int64_t ts = 1000 * p + (i * 37) % 500;
    RowKind kind = RowKind::kInsert;
    if (v.changelog && i % 9 == 4) kind = i % 2 ? RowKind::kUpdateBefore : RowKind::kDelete;
    c.AppendValues({Str("k" + std::to_string(key)), Int(p * 100 + i), Ts(ts)}, kind);
  }
  return c;
}

struct Driven {
  explicit Driven(const Variant& v) : op(MakeVariant(v)), h(op.get(), 7) { h.ctx.eval = &eval; }
  Status Step(const Variant& v, int p) {
    RETURN_IF_ERROR(h.Push(Phase(v, p)));
    clock.Advance(600 * 1000);  // a key not written for two phases outlives a 1 s TTL
    return h.Watermark(1000 * p + 250);
  }
  std::string Snapshot() {
    StateWriter w;
    EXPECT_TRUE(op->WriteSnapshot(&w).ok());
    return w.Release();
  }
  std::string Delta() {
    EXPECT_TRUE(op->CanSnapshotDelta());
    StateWriter w;
    EXPECT_TRUE(op->WriteDelta(&w).ok());
    return w.Release();
  }
  Status Restore(const std::vector<std::string>& chain) {
    StateReader r(chain[0], "full");
    RETURN_IF_ERROR(op->Restore(&r));
    for (size_t i = 1; i < chain.size(); ++i) {
      StateReader d(chain[i], "delta");
      RETURN_IF_ERROR(op->ApplyDelta(&d));
    }
    return Status::OK();
  }

  ManualClock clock{0};
  EvalContext eval{&clock};
  std::unique_ptr<DeduplicateOperator> op;
  Harness h;
};

TEST(DeduplicateOperatorTest, DeltaChainRestoresTheSameStateForEveryVariant) {
  const std::vector<Variant> variants = {
      {false, false, false, 0}, {true, false, false, 0},   {true, true, false, 0},
      {false, true, false, 0},  {true, false, true, 0},    {false, false, false, 1000},
      {true, false, false, 1000}, {false, true, false, 1000}, {true, true, false, 1000},
      {true, false, true, 1000}};
  for (const Variant& v : variants) {
    SCOPED_TRACE(Describe(v));
    Driven a(v);
    ASSERT_TRUE(a.h.open_status.ok());
    EXPECT_FALSE(a.op->CanSnapshotDelta());  // no base yet
    ASSERT_TRUE(a.Step(v, 0).ok());
    std::vector<std::string> chain = {a.Snapshot()};
    ASSERT_TRUE(a.Step(v, 1).ok());
    chain.push_back(a.Delta());
    ASSERT_TRUE(a.Step(v, 2).ok());
    ASSERT_TRUE(a.Step(v, 3).ok());
    chain.push_back(a.Delta());
    if (v.ttl_ms > 0) {
      EXPECT_GT(a.op->metrics().expired_states, 0);
    }
    if (v.changelog) {
      EXPECT_GT(std::count_if(a.h.sink.rows.begin(), a.h.sink.rows.end(),
                              [](const std::string& r) { return r.rfind("-D[", 0) == 0; }),
                0);
    }

    Driven b(v);
    ASSERT_TRUE(b.h.open_status.ok());
    b.clock.Set(a.clock.NowMicros());
    Status restored = b.Restore(chain);
    ASSERT_TRUE(restored.ok()) << restored.ToString();
    EXPECT_EQ(b.op->num_keys(), a.op->num_keys());
    EXPECT_EQ(b.op->state_rows(), a.op->state_rows());
    const std::string full_a = a.Snapshot();
    EXPECT_EQ(b.Snapshot(), full_a);
    // Both continue alike (the snapshot just taken is their new common base).
    const size_t before = a.h.sink.rows.size();
    for (int p = 4; p < 7; ++p) {
      ASSERT_TRUE(a.Step(v, p).ok());
      ASSERT_TRUE(b.Step(v, p).ok());
    }
    ASSERT_TRUE(a.h.End().ok());
    ASSERT_TRUE(b.h.End().ok());
    const Lines tail(a.h.sink.rows.begin() + static_cast<std::ptrdiff_t>(before), a.h.sink.rows.end());
    EXPECT_FALSE(tail.empty());
    EXPECT_EQ(b.h.sink.rows, tail);

    // A delta on any other state than its base is refused: on a fresh operator, skipping a delta,
    // applying one twice.
    Driven c(v);
    StateReader d1(chain[1], "delta");
    Status st = c.op->ApplyDelta(&d1);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("restored from nothing"), std::string::npos) << st.ToString();
    EXPECT_FALSE(c.Restore({chain[0], chain[2]}).ok());
    EXPECT_FALSE(c.Restore({chain[0], chain[1], chain[1]}).ok());
    // The operator is still usable through a good chain afterwards.
    ASSERT_TRUE(c.Restore(chain).ok());
    // A delta that fails halfway (cut short, or damaged) leaves nothing of it, nor a base for
    // further deltas; the chain still restores afterwards.
    JobContext ctx;
    snapshot_chain::ExpectFailedDeltasDropTheState(
        [&] {
          auto op = MakeVariant(v);
          EXPECT_TRUE(op->Open(&ctx).ok());
          return op;
        },
        chain);
  }
}

// Corrupt deltas (any byte changed) give an error or a valid state, never a crash.
TEST(DeduplicateOperatorTest, CorruptDeltasNeverCrash) {
  const Variant v{false, true, false, 1000};
  Driven a(v);
  ASSERT_TRUE(a.Step(v, 0).ok());
  std::vector<std::string> chain = {a.Snapshot()};
  ASSERT_TRUE(a.Step(v, 1).ok());
  ASSERT_TRUE(a.Step(v, 2).ok());
  chain.push_back(a.Delta());
  int refused = 0;
  for (size_t i = 0; i < chain[1].size(); ++i) {
    std::string bad = chain[1];
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    Driven e(v);
    StateReader r(chain[0], "full");
    ASSERT_TRUE(e.op->Restore(&r).ok());
    StateReader d(bad, "delta");
    if (!e.op->ApplyDelta(&d).ok()) {
      ++refused;
      continue;
    }
    ASSERT_TRUE(e.Step(v, 3).ok());
    ASSERT_TRUE(e.h.End().ok());
  }
  EXPECT_GT(refused, 0);
}

// Compactions between snapshots (rows renumbered) are replayed from the segments they recorded:
// 100000 live keys, then enough updates to compact once during the second delta's interval.
TEST(DeduplicateOperatorTest, DeltaSpanningACompaction) {
  auto op = MakeDedup(/*keep_last=*/true, /*rowtime=*/true, /*emit_update_before=*/false);
  Harness h(&op);
  auto feed = [&](int from, int to, int keys) {
    for (int b = from; b < to; b += 1000) {
      Chunk c(kTypes);
      for (int i = b; i < std::min(to, b + 1000); ++i) {
        c.AppendValues({Str("k" + std::to_string(i % keys)), Int(i), Ts(i)}, RowKind::kInsert);
      }
      ASSERT_TRUE(h.Push(std::move(c)).ok());
    }
  };
  const int kKeys = 100000;
  feed(0, kKeys, kKeys);
  std::vector<std::string> chain;
  StateWriter full;
  ASSERT_TRUE(op.WriteSnapshot(&full).ok());
  chain.push_back(full.Release());
  feed(kKeys, kKeys + 60000, kKeys);  // 60000 released rows: no compaction yet
  ASSERT_TRUE(op.CanSnapshotDelta());
  StateWriter d1;
  ASSERT_TRUE(op.WriteDelta(&d1).ok());
  chain.push_back(d1.Release());
  feed(kKeys + 60000, kKeys + 120000, kKeys);  // compacts at 100000 released rows
  ASSERT_TRUE(op.CanSnapshotDelta());
  StateWriter d2;
  ASSERT_TRUE(op.WriteDelta(&d2).ok());
  chain.push_back(d2.Release());

  auto restored = MakeDedup(true, true, false);
  Harness h2(&restored);
  StateReader r(chain[0], "full");
  ASSERT_TRUE(restored.Restore(&r).ok());
  for (size_t i = 1; i < chain.size(); ++i) {
    StateReader d(chain[i], "delta");
    Status st = restored.ApplyDelta(&d);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(restored.state_rows(), static_cast<size_t>(kKeys));
  StateWriter wa;
  StateWriter wb;
  ASSERT_TRUE(op.WriteSnapshot(&wa).ok());
  ASSERT_TRUE(restored.WriteSnapshot(&wb).ok());
  EXPECT_TRUE(wa.data() == wb.data());
  // The delta after the compaction is about the rows since the first delta, not the whole state.
  EXPECT_LT(chain[2].size(), chain[0].size());
}

// Checkpoints write the rows of a snapshot (and of the segments compactions record) on their own
// thread, later (deferred parts, state_serde.h): written after the operator went on, compacting and
// growing meanwhile, they are byte for byte what an immediate snapshot wrote at the same moment.
TEST(DeduplicateOperatorTest, DeferredSnapshotsEqualImmediateOnesAcrossCompactions) {
  auto a = MakeDedup(/*keep_last=*/true, /*rowtime=*/true, /*emit_update_before=*/false);
  auto b = MakeDedup(true, true, false);
  Harness ha(&a);
  Harness hb(&b);
  auto feed = [&](int from, int to, int keys) {
    for (int start = from; start < to; start += 1000) {
      Chunk c(kTypes);
      for (int i = start; i < std::min(to, start + 1000); ++i) {
        c.AppendValues({Str("k" + std::to_string(i % keys)), Int(i), Ts(i)}, RowKind::kInsert);
      }
      Chunk copy = c;
      ASSERT_TRUE(ha.Push(std::move(c)).ok());
      ASSERT_TRUE(hb.Push(std::move(copy)).ok());
    }
  };
  struct Deferred {
    std::string bytes;
    std::vector<DeferredPart> parts;
  };
  std::vector<std::string> immediate;
  std::vector<Deferred> deferred;
  auto snapshot = [&](bool delta) {
    StateWriter wa;
    ASSERT_TRUE((delta ? a.WriteDelta(&wa) : a.WriteSnapshot(&wa)).ok());
    immediate.push_back(wa.Release());
    StateWriter wb;
    wb.AllowDeferred();
    ASSERT_TRUE((delta ? b.WriteDelta(&wb) : b.WriteSnapshot(&wb)).ok());
    Deferred d;
    d.bytes = wb.Release(&d.parts);
    deferred.push_back(std::move(d));
  };
  const int kKeys = 100000;
  feed(0, kKeys, kKeys);
  snapshot(/*delta=*/false);
  feed(kKeys, kKeys + 60000, kKeys);
  snapshot(true);
  feed(kKeys + 60000, kKeys + 120000, kKeys);  // compacts once: a segment with deferred rows
  snapshot(true);
  feed(kKeys + 120000, kKeys + 400000, kKeys);  // more compactions and growth before they are written
  EXPECT_FALSE(deferred[0].parts.empty());
  EXPECT_FALSE(deferred[2].parts.empty());
  for (size_t i = 0; i < immediate.size(); ++i) {
    EXPECT_TRUE(Materialize(std::move(deferred[i].bytes), std::move(deferred[i].parts)) == immediate[i]) << i;
  }
  // And the chain restores the state.
  auto restored = MakeDedup(true, true, false);
  Harness hr(&restored);
  StateReader r(immediate[0], "full");
  ASSERT_TRUE(restored.Restore(&r).ok());
  for (size_t i = 1; i < immediate.size(); ++i) {
    StateReader d(immediate[i], "delta");
    Status st = restored.ApplyDelta(&d);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(restored.state_rows(), static_cast<size_t>(kKeys));
}

// Churn over few keys: several compactions within one delta's interval, each recorded as a small
// segment (only the rows still kept), replayed on restore.
TEST(DeduplicateOperatorTest, SeveralCompactionsInOneDelta) {
  auto op = MakeDedup(true, false, false);
  Harness h(&op);
  StateWriter full;
  ASSERT_TRUE(op.WriteSnapshot(&full).ok());
  for (int b = 0; b < 150000; b += 1000) {
    Chunk c(kTypes);
    for (int i = b; i < b + 1000; ++i) {
      c.AppendValues({Str("k" + std::to_string(i % 3)), Int(i), Ts(i)}, RowKind::kInsert);
    }
    ASSERT_TRUE(h.Push(std::move(c)).ok());
  }
  ASSERT_TRUE(op.CanSnapshotDelta());
  StateWriter delta;
  ASSERT_TRUE(op.WriteDelta(&delta).ok());
  EXPECT_LT(delta.size(), 4096u);  // 3 kept rows per segment, not the 150000 appended

  auto restored = MakeDedup(true, false, false);
  Harness h2(&restored);
  StateReader r(full.data(), "full");
  ASSERT_TRUE(restored.Restore(&r).ok());
  StateReader d(delta.data(), "delta");
  Status st = restored.ApplyDelta(&d);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(restored.state_rows(), 3u);
  StateWriter wa;
  StateWriter wb;
  ASSERT_TRUE(op.WriteSnapshot(&wa).ok());
  ASSERT_TRUE(restored.WriteSnapshot(&wb).ok());
  EXPECT_TRUE(wa.data() == wb.data());
}

// Mini-batch (Flink's KeyedMapBundleOperator with the mini-batch dedup functions): a bundle of 3 rows.
DeduplicateOperator MakeMiniBatchDedup(bool keep_last, bool rowtime, bool changelog = false) {
  return DeduplicateOperator("Deduplicate", kTypes, {0}, 2, keep_last, rowtime, /*emit_update_before=*/true, changelog,
                             /*state_ttl_ms=*/0, /*mini_batch_size=*/3);
}

TEST(DeduplicateOperatorTest, MiniBatchProcTimeKeepLastAppliesTheLastRowOfEachKey) {
  auto op = MakeMiniBatchDedup(/*keep_last=*/true, /*rowtime=*/false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 1, 12), R("fruit", 2, 19)})).ok());
  EXPECT_EQ(h.sink.Changes(), Lines{});  // the bundle is still open
  // The third row closes it: book's last row is row 3, fruit's row 2.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 3, 13), R("book", 4, 14)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[book, 3, 13]", "+I[fruit, 2, 19]"}));
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("book", 5, 15)})).ok());
  // A watermark closes the bundle of rows 4-5: one update of book.
  ASSERT_TRUE(h.Watermark(100).ok());
  EXPECT_EQ(h.sink.rows, (Lines{"+I[book, 3, 13]", "+I[fruit, 2, 19]", "-U[book, 3, 13]", "+U[book, 5, 15]",
                                "WM[100]"}));
}

TEST(DeduplicateOperatorTest, MiniBatchProcTimeKeepFirstEmitsNewKeysWhenTheBundleCloses) {
  auto op = MakeMiniBatchDedup(/*keep_last=*/false, /*rowtime=*/false);
  Harness h(&op);
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("b", 1, 1), R("a", 2, 2), R("b", 3, 3), R("c", 4, 4)})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[b, 1, 1]", "+I[a, 2, 2]"}));
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.rows, (Lines{"+I[b, 1, 1]", "+I[a, 2, 2]", "+I[c, 4, 4]", "WM[+inf]"}));
}

TEST(DeduplicateOperatorTest, MiniBatchRowTimeKeepFirstUpdatesAtOnceAndDropsNothing) {
  auto op = MakeMiniBatchDedup(/*keep_last=*/false, /*rowtime=*/true);
  Harness h(&op);
  ASSERT_TRUE(h.Watermark(60).ok());
  // Every row of a key in order: a smaller rowtime replaces, an equal one does not; a row behind the
  // watermark is no late row here (Flink's RowTimeMiniBatchDeduplicateFunction never looks at it).
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 100), R("b", 2, 80), R("a", 3, 50)})).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 4, 50), R("b", 5, 10)})).ok());
  ASSERT_TRUE(h.End().ok());
  EXPECT_EQ(h.sink.rows, (Lines{"WM[60]", "+I[a, 1, 100]", "-U[a, 1, 100]", "+U[a, 3, 50]", "+I[b, 2, 80]",
                                "-U[b, 2, 80]", "+U[b, 5, 10]", "WM[+inf]"}));
  EXPECT_EQ(op.metrics().late_rows_dropped, 0);
}

TEST(DeduplicateOperatorTest, MiniBatchChangelogNormalizeAppliesTheLastChangeOfEachKey) {
  auto op = MakeMiniBatchDedup(/*keep_last=*/true, /*rowtime=*/false, /*changelog=*/true);
  Harness h(&op);
  // Key a: +I then -D in one bundle: nothing. Key b: +I then +U: +I of the last.
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {R("a", 1, 1), R("b", 2, 2), testing::D({Str("a"), Int(1), Ts(1)})})).ok());
  ASSERT_TRUE(h.Push(MakeChunk(kTypes, {testing::UA({Str("b"), Int(3), Ts(3)}), R("c", 4, 4),
                                        testing::D({Str("b"), Value::Null(LogicalType::Integer()), Value::Null(LogicalType::Timestamp(3))})})).ok());
  EXPECT_EQ(h.sink.Changes(), (Lines{"+I[b, 2, 2]", "-D[b, 2, 2]", "+I[c, 4, 4]"}));
}

TEST(DeduplicateOperatorTest, MiniBatchOpenBundleSurvivesASnapshot) {
  auto a = MakeMiniBatchDedup(/*keep_last=*/true, /*rowtime=*/false);
  Harness ha(&a);
  ASSERT_TRUE(ha.Push(MakeChunk(kTypes, {R("a", 1, 1), R("a", 2, 2)})).ok());
  StateWriter w;
  ASSERT_TRUE(a.WriteSnapshot(&w).ok());
  const std::string snapshot = w.Release();
  auto b = MakeMiniBatchDedup(true, false);
  Harness hb(&b);
  StateReader r(snapshot, "full");
  ASSERT_TRUE(b.Restore(&r).ok());
  ASSERT_TRUE(hb.Push(MakeChunk(kTypes, {R("a", 3, 3)})).ok());
  EXPECT_EQ(hb.sink.Changes(), (Lines{"+I[a, 3, 3]"}));
  // A bundle as large as the size would have closed: refused.
  auto c = DeduplicateOperator("Deduplicate", kTypes, {0}, 2, true, false, true, false, 0, /*mini_batch_size=*/2);
  Harness hc(&c);
  StateReader r2(snapshot, "full");
  EXPECT_FALSE(c.Restore(&r2).ok());
}

}  // namespace
}  // namespace sluice
