// WatermarkCompactingSinkMaterializerOperator (ON CONFLICT DO ERROR / DO NOTHING) driven directly: rows
// are (pk STRING, uk STRING, v BIGINT) with the sink's primary key pk and the query's upsert key uk
// (or none). Checks that nothing is written before the watermark advances, how buffered changes
// cancel and compact, the two conflict strategies, and that a snapshot taken with changes buffered
// restores them.
#include "runtime/operators/watermark_compacting_sink_materializer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rank_dedup_test_util.h"
#include "runtime/job.h"
#include "snapshot_chain_util.h"
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

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::String(), LogicalType::BigInt()};

std::vector<Value> V(const std::string& pk, const std::string& uk, int64_t v) { return {Str(pk), Str(uk), Big(v)}; }

struct Materializer {
  explicit Materializer(InsertConflictStrategy strategy, std::vector<int> upsert_key = {1})
      : op("SinkMaterializer", kTypes, {0}, {"pk"}, std::move(upsert_key), strategy) {
    op.AddOutput(&sink, 0);
    Status st = op.Open(&ctx);
    EXPECT_TRUE(st.ok()) << st.ToString();
    (void)sink.Open(&ctx);
  }
  // Feeds `rows` as one chunk; nothing may come out before a watermark.
  void Feed(const std::vector<Row>& rows) {
    Chunk c = MakeChunk(kTypes, rows);
    Status st = op.Process(0, c);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(sink.rows.size(), taken);
  }
  // Advances the watermark and returns what was written.
  Result<Lines> Watermark(int64_t w) {
    RETURN_IF_ERROR(op.ReceiveWatermark(0, w));
    Lines out;
    // The rows written, without the watermark the collecting sink records after them.
    for (size_t k = taken; k < sink.rows.size(); ++k) {
      if (sink.rows[k].rfind("WM[", 0) != 0) out.push_back(sink.rows[k]);
    }
    taken = sink.rows.size();
    return out;
  }
  Lines Step(const std::vector<Row>& rows, int64_t w) {
    if (!rows.empty()) Feed(rows);
    auto out = Watermark(w);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? *out : Lines{"error"};
  }

  JobContext ctx;
  WatermarkCompactingSinkMaterializerOperator op;
  CollectSink sink;
  size_t taken = 0;
};

TEST(WatermarkCompactingSinkMaterializerTest, CompactsOnWatermarksAndKeepsTheFirstRow) {
  Materializer m(InsertConflictStrategy::kNothing);
  // A row and its retraction in one watermark step cancel; an update replaces its upsert key's row.
  EXPECT_EQ(m.Step({I(V("a", "x", 1)), I(V("b", "x", 9)), D(V("b", "x", 9)), UB(V("a", "x", 1)), UA(V("a", "x", 2))}, 10),
            (Lines{"+I[a, x, 2]"}));
  // A second upsert key for pk a is a conflict: the held row stays, the other is forgotten.
  EXPECT_EQ(m.Step({I(V("a", "y", 5))}, 20), Lines{});
  EXPECT_EQ(m.Step({UB(V("a", "x", 2)), UA(V("a", "x", 3))}, 30), (Lines{"+U[a, x, 3]"}));
  // An unchanged row writes nothing; retracting the held row deletes the key.
  EXPECT_EQ(m.Step({UB(V("a", "x", 3)), UA(V("a", "x", 3))}, 40), Lines{});
  EXPECT_EQ(m.Step({D(V("a", "x", 3))}, 50), (Lines{"-D[a, x, 3]"}));
  // The forgotten row's retraction finds nothing (counted); two new rows at once: the first wins.
  EXPECT_EQ(m.Step({D(V("a", "y", 5)), I(V("a", "z", 1)), I(V("a", "w", 2))}, 60), (Lines{"+I[a, z, 1]"}));
  EXPECT_EQ(m.op.metrics().retractions_without_state, 1);
  EXPECT_EQ(m.op.state_rows(), 1u);
}

TEST(WatermarkCompactingSinkMaterializerTest, WithoutAnUpsertKeyEveryRowCounts) {
  Materializer m(InsertConflictStrategy::kNothing, {});
  EXPECT_EQ(m.Step({I(V("a", "x", 1))}, 10), (Lines{"+I[a, x, 1]"}));
  // Without an upsert key a new row of the key is a second row, however alike: the held one stays.
  EXPECT_EQ(m.Step({I(V("a", "x", 2))}, 20), Lines{});
  // A retraction removes a row of the same content.
  EXPECT_EQ(m.Step({D(V("a", "x", 1)), I(V("a", "x", 4))}, 30), (Lines{"+U[a, x, 4]"}));
}

TEST(WatermarkCompactingSinkMaterializerTest, DoErrorFailsOnAConflictNamingTheKey) {
  Materializer m(InsertConflictStrategy::kError);
  EXPECT_EQ(m.Step({I(V("a", "x", 1)), I(V("b", "x", 2))}, 10), (Lines{"+I[a, x, 1]", "+I[b, x, 2]"}));
  // A -U and its +U that arrive in either order within one step are no conflict.
  EXPECT_EQ(m.Step({UA(V("a", "y", 7)), UB(V("a", "x", 1))}, 20), (Lines{"+U[a, y, 7]"}));
  m.Feed({I(V("a", "z", 3))});
  auto out = m.Watermark(30);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            "Primary key constraint violation: multiple distinct records with the same primary key detected. "
            "Conflicting key: [pk=a]. Use ON CONFLICT DO NOTHING to keep the first record.");
}

TEST(WatermarkCompactingSinkMaterializerTest, ASnapshotKeepsTheBufferedChanges) {
  Materializer a(InsertConflictStrategy::kNothing);
  EXPECT_EQ(a.Step({I(V("a", "x", 1)), I(V("b", "x", 1))}, 10), (Lines{"+I[a, x, 1]", "+I[b, x, 1]"}));
  a.Feed({UB(V("b", "x", 1)), UA(V("b", "x", 2)), I(V("c", "x", 3)), I(V("a", "y", 9))});
  const std::string snapshot = snapshot_chain::FullSnapshot(a.op);
  Materializer b(InsertConflictStrategy::kNothing);
  Status st = snapshot_chain::RestoreFull(b.op, snapshot);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(b.op.state_rows(), a.op.state_rows());
  // The restored copy compacts what was buffered, in the same order, as the original does.
  EXPECT_EQ(b.Step({}, 20), (Lines{"+U[b, x, 2]", "+I[c, x, 3]"}));
  EXPECT_EQ(a.Step({}, 20), (Lines{"+U[b, x, 2]", "+I[c, x, 3]"}));
  EXPECT_EQ(b.Step({D(V("a", "x", 1))}, 30), (Lines{"-D[a, x, 1]"}));
  // A damaged snapshot is refused, and leaves an empty operator.
  std::string damaged = snapshot.substr(0, snapshot.size() / 2);
  Materializer c(InsertConflictStrategy::kNothing);
  EXPECT_FALSE(snapshot_chain::RestoreFull(c.op, damaged).ok());
  EXPECT_EQ(c.op.state_rows(), 0u);
}

}  // namespace
}  // namespace sluice
