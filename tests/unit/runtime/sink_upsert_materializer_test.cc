// SinkUpsertMaterializerOperator driven directly: rows are (pk STRING, v BIGINT) with the sink's
// primary key pk. Checks the upsert it emits as live rows of one key come and go, and that
// incremental checkpoints (a full snapshot plus deltas) restore exactly the state of the original.
#include "snapshot_chain_util.h"
#include "runtime/operators/sink_upsert_materializer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rank_dedup_test_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using testing::Big;
using testing::CollectSink;
using testing::D;
using testing::I;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::UA;
using testing::UB;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::BigInt()};

std::vector<Value> V(const std::string& pk, int64_t v) { return {Str(pk), Big(v)}; }

struct Materializer {
  Materializer() : op("SinkMaterializer", kTypes, {0}) {
    op.AddOutput(&sink, 0);
    Status st = op.Open(&ctx);
    EXPECT_TRUE(st.ok()) << st.ToString();
    (void)sink.Open(&ctx);
  }
  // Feeds `rows` as one chunk and returns what was emitted.
  Lines Feed(const std::vector<Row>& rows) {
    Chunk c = MakeChunk(kTypes, rows);
    Status st = op.Process(0, c);
    EXPECT_TRUE(st.ok()) << st.ToString();
    Lines out(sink.rows.begin() + static_cast<std::ptrdiff_t>(taken), sink.rows.end());
    taken = sink.rows.size();
    return out;
  }

  JobContext ctx;
  SinkUpsertMaterializerOperator op;
  CollectSink sink;
  size_t taken = 0;
};

TEST(SinkUpsertMaterializerTest, KeepsTheLatestLiveRowPerKey) {
  Materializer m;
  EXPECT_EQ(m.Feed({I(V("a", 1)), I(V("a", 2)), I(V("b", 1))}),
            (Lines{"+I[a, 1]", "+U[a, 2]", "+I[b, 1]"}));
  // Retracting an older row changes nothing; the latest falls back to the one before it.
  EXPECT_EQ(m.Feed({D(V("a", 1))}), Lines{});
  // Updates are +U alone, as Flink's materializer writes them (no before-image).
  EXPECT_EQ(m.Feed({I(V("a", 3)), UB(V("a", 3))}), (Lines{"+U[a, 3]", "+U[a, 2]"}));
  EXPECT_EQ(m.Feed({D(V("a", 2)), D(V("c", 9)), D(V("b", 2))}), (Lines{"-D[a, 2]"}));
  EXPECT_EQ(m.op.metrics().retractions_without_state, 2);
  EXPECT_EQ(m.op.state_rows(), 1u);
  // A key whose rows all left starts over with +I.
  EXPECT_EQ(m.Feed({UA(V("a", 4))}), (Lines{"+I[a, 4]"}));
}

// ---- Incremental checkpoints: a full snapshot plus deltas restores the same state. ----

using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

void ExpectSameOutput(Materializer& a, Materializer& b, const std::vector<std::vector<Row>>& steps) {
  for (const auto& rows : steps) EXPECT_EQ(a.Feed(rows), b.Feed(rows));
}

TEST(SinkUpsertMaterializerTest, DeltaCheckpointsRestoreTheSameState) {
  Materializer a;
  a.Feed({I(V("a", 1)), I(V("a", 2)), I(V("b", 1)), I(V("c", 1)), D(V("c", 1))});
  const std::string full = FullSnapshot(a.op);
  // New keys, rows added to and retracted from old keys, a key emptied, an empty key refilled.
  a.Feed({I(V("d", 1)), I(V("a", 3)), D(V("a", 1)), D(V("b", 1)), I(V("c", 2)), I(V("e", 1))});
  const std::string d1 = Delta(a.op);
  a.Feed({UB(V("a", 3)), UA(V("a", 4)), I(V("b", 5)), D(V("d", 1)), I(V("f", 1)), D(V("zz", 1))});
  const std::string d2 = Delta(a.op);
  const std::string d3 = Delta(a.op);  // nothing new: still a delta
  EXPECT_LT(d3.size(), 200u);

  Materializer b;
  RestoreChain(b.op, {full, d1, d2, d3});
  // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
  JobContext ctx;
  ExpectFailedDeltasDropTheState(
      [&] {
        auto op = std::make_unique<SinkUpsertMaterializerOperator>("SinkMaterializer", kTypes, std::vector<int>{0});
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, d1, d2});
  EXPECT_EQ(b.op.state_rows(), a.op.state_rows());
  EXPECT_EQ(b.op.metrics().retractions_without_state, a.op.metrics().retractions_without_state);
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  ExpectSameOutput(a, b,
                   {{D(V("a", 4)), D(V("a", 2)), I(V("d", 7)), UB(V("e", 1)), UA(V("e", 2))},
                    {D(V("b", 5)), I(V("b", 6)), D(V("f", 1)), I(V("a", 8)), D(V("c", 2))}});
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
}

TEST(SinkUpsertMaterializerTest, DeltaOnTheWrongBaseIsRefused) {
  Materializer a;
  a.Feed({I(V("a", 1)), I(V("a", 2))});
  const std::string full = FullSnapshot(a.op);
  a.Feed({D(V("a", 1))});  // a dirty key only: no size changes
  const std::string d1 = Delta(a.op);
  a.Feed({I(V("b", 1))});
  const std::string d2 = Delta(a.op);

  Materializer fresh;
  EXPECT_FALSE(RestoreDelta(fresh.op, d1).ok());
  Materializer twice;
  ASSERT_TRUE(RestoreFull(twice.op, full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op, d1).ok());
  Status st = RestoreDelta(twice.op, d1);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("applied to snapshot"), std::string::npos) << st.ToString();
  Materializer skipped;
  ASSERT_TRUE(RestoreFull(skipped.op, full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op, d2).ok());
  Materializer truncated;
  ASSERT_TRUE(RestoreFull(truncated.op, full).ok());
  EXPECT_FALSE(RestoreDelta(truncated.op, d1.substr(0, d1.size() - 3)).ok());

  Materializer ok;
  RestoreChain(ok.op, {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op), FullSnapshot(a.op));
  // Every one-byte corruption of a delta is refused, or gives a state the operator can run on.
  for (size_t i = 0; i < d2.size(); ++i) {
    std::string bad = d2;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    Materializer m;
    ASSERT_TRUE(RestoreFull(m.op, full).ok());
    ASSERT_TRUE(RestoreDelta(m.op, d1).ok());
    if (RestoreDelta(m.op, bad).ok()) m.Feed({D(V("a", 2)), D(V("b", 1)), I(V("b", 2))});
  }
}

TEST(SinkUpsertMaterializerTest, CompactionForcesAFullSnapshot) {
  Materializer a;
  std::vector<Row> ins, del;
  for (int i = 0; i < 80000; ++i) ins.push_back(I(V("k" + std::to_string(i), i)));
  for (int i = 0; i < 80000; ++i) {
    if (i % 10 != 0) del.push_back(D(V("k" + std::to_string(i), i)));
  }
  a.Feed(ins);
  const std::string full = FullSnapshot(a.op);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  a.Feed(del);  // 90% of the rows and keys leave: arena and keys are compacted
  EXPECT_FALSE(a.op.CanSnapshotDelta());
  const std::string full2 = FullSnapshot(a.op);
  EXPECT_LT(full2.size(), full.size() / 5);
  EXPECT_TRUE(a.op.CanSnapshotDelta());
  a.Feed({I(V("k30", 1)), D(V("k40", 40)), I(V("new", 1))});
  const std::string d1 = Delta(a.op);
  Materializer b;
  RestoreChain(b.op, {full2, d1});
  EXPECT_EQ(FullSnapshot(b.op), FullSnapshot(a.op));
  ExpectSameOutput(a, b, {{D(V("k30", 30)), D(V("k30", 1)), I(V("k50", 2)), I(V("k1", 1))}});
  EXPECT_EQ(b.op.state_rows(), a.op.state_rows());
}

}  // namespace
}  // namespace sluice
