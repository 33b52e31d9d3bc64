// LookupJoinOperator's incremental checkpoints (issue 5): a full snapshot taken while the table loads
// and probe messages wait for it, then deltas (more table rows and a longer queue; the rest of the
// table and its end, which replays the queue; probes against the loaded table), restored into a fresh
// operator from any prefix of the chain, give the same further output, and the whole chain the same
// full snapshot; once the table has loaded a delta is a few bytes. A delta on the wrong base is
// refused before it changes anything; a cut or damaged one fails and leaves the operator empty.
//
// Probe rows are (k INT, s STRING, v INT), table rows (id INT, name STRING, price INT); the join key
// is an integral column (indexed by value), a string column or both (indexed by their encoding).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>

#include "function/expression.h"
#include "rank_dedup_test_util.h"
#include "runtime/operators/lookup_join_operator.h"
#include "snapshot_chain_util.h"

namespace sluice {
namespace {

using testing::I;
using testing::Int;
using testing::Row;
using testing::Str;

const std::vector<LogicalType> kProbeTypes = {LogicalType::Integer(), LogicalType::String(), LogicalType::Integer()};
const std::vector<LogicalType> kTableTypes = {LogicalType::Integer(), LogicalType::String(), LogicalType::Integer()};

Row P(int32_t k, const std::string& s, int32_t v) { return I({Int(k), Str(s), Int(v)}); }
Row T(int32_t id, const std::string& name, int32_t price) { return I({Int(id), Str(name), Int(price)}); }
Row NullKeyRow() { return I({Value::Null(LogicalType::Integer()), Value::Null(LogicalType::String()), Int(0)}); }

struct DeltaCase {
  const char* name;
  std::vector<int> keys;  // the same columns on both sides
  bool left_outer;
};

void PrintTo(const DeltaCase& c, std::ostream* os) { *os << c.name; }

std::unique_ptr<LookupJoinOperator> MakeOp(const DeltaCase& c) {
  std::vector<ExprPtr> left_keys;
  for (int k : c.keys) left_keys.push_back(MakeColumnRef(k, kProbeTypes[static_cast<size_t>(k)]));
  return std::make_unique<LookupJoinOperator>("LookupJoin", kProbeTypes, kTableTypes, std::move(left_keys), c.keys,
                                              c.left_outer, nullptr);
}

// One operator wired to a sink.
struct LookupRun {
  explicit LookupRun(const DeltaCase& c) : op(MakeOp(c)), h(op.get(), 3) { EXPECT_TRUE(h.open_status.ok()); }
  void Probe(const std::vector<Row>& rows) { ASSERT_TRUE(h.Push(testing::MakeChunk(kProbeTypes, rows)).ok()); }
  void Load(const std::vector<Row>& rows) { ASSERT_TRUE(op->LoadTable(testing::MakeChunk(kTableTypes, rows)).ok()); }
  void Loaded() { ASSERT_TRUE(op->TableLoaded().ok()); }
  void Watermark(int64_t ms) { ASSERT_TRUE(h.Watermark(ms).ok()); }
  void End() { ASSERT_TRUE(h.End().ok()); }
  std::string Full() { return snapshot_chain::FullSnapshot(*op); }
  std::string Delta() { return snapshot_chain::Delta(*op); }

  std::unique_ptr<LookupJoinOperator> op;
  testing::Harness h;
};

// The input, in steps; the chain is written after each of steps 0-3 (a full snapshot, then deltas).
const std::vector<std::function<void(LookupRun&)>>& Steps() {
  static const std::vector<std::function<void(LookupRun&)>> steps = {
      [](LookupRun& r) {  // part of the table; probes and a watermark wait for the rest
        r.Load({T(1, "a", 10), T(2, "b", 20), NullKeyRow()});
        r.Probe({P(1, "a", 100), P(3, "c", 101), P(9, "z", 102)});
        r.Watermark(5);
      },
      [](LookupRun& r) {  // more of the table (a repeated key), more waiting probes
        r.Load({T(3, "c", 30), T(1, "a", 11)});
        r.Probe({P(2, "b", 103), NullKeyRow(), P(4, "d", 104)});
      },
      [](LookupRun& r) {  // the rest of the table and its end: the queue is replayed
        r.Load({T(4, "d", 40), T(5, "e", 50)});
        r.Loaded();
        r.Probe({P(5, "e", 105), P(1, "a", 106)});
      },
      [](LookupRun& r) {  // probes against the loaded table
        r.Probe({P(3, "c", 107), P(7, "g", 108), P(4, "d", 109)});
        r.Watermark(10);
      },
      [](LookupRun& r) {  // after the chain
        r.Probe({P(1, "a", 110), P(2, "b", 111), NullKeyRow(), P(5, "e", 112), P(6, "f", 113)});
        r.Watermark(20);
        r.End();
      },
  };
  return steps;
}

struct Chain {
  std::vector<std::string> snapshots;
  std::vector<size_t> sink_rows;  // the sink's size when each was written
};

Chain WriteChain(LookupRun& a) {
  Chain chain;
  for (size_t k = 0; k < 4; ++k) {
    Steps()[k](a);
    chain.snapshots.push_back(k == 0 ? a.Full() : a.Delta());
    chain.sink_rows.push_back(a.h.sink.rows.size());
  }
  return chain;
}

class LookupJoinDeltaTest : public ::testing::TestWithParam<DeltaCase> {};

TEST_P(LookupJoinDeltaTest, ChainRestoresTheSameStateAndOutput) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  EXPECT_EQ(chain.sink_rows[1], 0u);  // nothing before the table loaded
  EXPECT_GT(chain.sink_rows[2], 0u);
  LookupRun b(c);
  snapshot_chain::RestoreChain(*b.op, chain.snapshots);
  EXPECT_EQ(b.op->table_rows(), a.op->table_rows());
  EXPECT_EQ(b.op->table_rows(), 7u);
  EXPECT_EQ(b.Full(), a.Full());
  // The same further input gives the same output.
  const size_t a_before = a.h.sink.rows.size();
  Steps()[4](a);
  Steps()[4](b);
  const std::vector<std::string> after_a(a.h.sink.rows.begin() + static_cast<std::ptrdiff_t>(a_before), a.h.sink.rows.end());
  EXPECT_GT(after_a.size(), 3u);
  EXPECT_EQ(b.h.sink.rows, after_a);
  EXPECT_EQ(b.Full(), a.Full());
}

// Every prefix of the chain restores an operator that continues as the original did.
TEST_P(LookupJoinDeltaTest, EveryPrefixContinuesTheSame) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  Steps()[4](a);
  ASSERT_TRUE(a.h.sink.ended);
  for (size_t k = 0; k < 4; ++k) {
    LookupRun b(c);
    snapshot_chain::RestoreChain(*b.op, std::vector<std::string>(chain.snapshots.begin(),
                                                                 chain.snapshots.begin() + static_cast<std::ptrdiff_t>(k + 1)));
    for (size_t s = k + 1; s < Steps().size(); ++s) Steps()[s](b);
    const std::vector<std::string> after_a(a.h.sink.rows.begin() + static_cast<std::ptrdiff_t>(chain.sink_rows[k]),
                                           a.h.sink.rows.end());
    EXPECT_GT(after_a.size(), 3u);
    EXPECT_EQ(b.h.sink.rows, after_a) << "restored from the chain's first " << k + 1;
    EXPECT_TRUE(b.h.sink.ended);
    EXPECT_EQ(b.op->metrics().rows_in, a.op->metrics().rows_in);
  }
}

TEST_P(LookupJoinDeltaTest, LoadedTableWritesATinyDelta) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  // The operator's own part of the last delta (after the base part): its tag, an empty row tail, the
  // loaded flag and an empty queue, whatever the table holds.
  const std::string& last = chain.snapshots[3];
  const size_t own = last.find("lookup-join delta");
  ASSERT_NE(own, std::string::npos);
  EXPECT_LT(last.size() - own, 40u);
  EXPECT_LT(last.size(), chain.snapshots[1].size());
  EXPECT_LT(last.size(), chain.snapshots[2].size());
}

TEST_P(LookupJoinDeltaTest, DeltaOnTheWrongBaseIsRefused) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  const std::string full_of_b = [&] {
    LookupRun b(c);
    snapshot_chain::RestoreChain(*b.op, {chain.snapshots[0], chain.snapshots[1]});
    return b.Full();
  }();
  {
    LookupRun fresh(c);
    EXPECT_FALSE(snapshot_chain::RestoreDelta(*fresh.op, chain.snapshots[1]).ok());
    EXPECT_EQ(fresh.op->table_rows(), 0u);
  }
  {
    LookupRun twice(c);
    snapshot_chain::RestoreChain(*twice.op, {chain.snapshots[0], chain.snapshots[1]});
    EXPECT_FALSE(snapshot_chain::RestoreDelta(*twice.op, chain.snapshots[1]).ok());
    EXPECT_EQ(twice.Full(), full_of_b);  // refused before it changed anything
  }
  {
    LookupRun skipped(c);
    ASSERT_TRUE(snapshot_chain::RestoreFull(*skipped.op, chain.snapshots[0]).ok());
    EXPECT_FALSE(snapshot_chain::RestoreDelta(*skipped.op, chain.snapshots[2]).ok());
  }
  {
    // Table rows loaded after the restore: the next delta no longer starts where the table ends.
    LookupRun grown(c);
    ASSERT_TRUE(snapshot_chain::RestoreFull(*grown.op, chain.snapshots[0]).ok());
    grown.Load({T(8, "h", 80)});
    EXPECT_FALSE(snapshot_chain::RestoreDelta(*grown.op, chain.snapshots[1]).ok());
    EXPECT_EQ(grown.op->table_rows(), 0u);
  }
}

TEST_P(LookupJoinDeltaTest, FailedDeltasDropTheState) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  JobContext ctx;
  ctx.chunk_size = 3;
  auto make = [&] {
    std::unique_ptr<LookupJoinOperator> op = MakeOp(c);
    EXPECT_TRUE(op->Open(&ctx).ok());
    return op;
  };
  // Table rows and a queue; the table's end; nothing but the base part and a few bytes.
  for (size_t k = 1; k < chain.snapshots.size(); ++k) {
    snapshot_chain::ExpectFailedDeltasDropTheState(
        make, std::vector<std::string>(chain.snapshots.begin(), chain.snapshots.begin() + static_cast<std::ptrdiff_t>(k + 1)));
  }
}

TEST_P(LookupJoinDeltaTest, CutFullSnapshotsAreRefused) {
  const DeltaCase& c = GetParam();
  LookupRun a(c);
  const Chain chain = WriteChain(a);
  const std::string& full = chain.snapshots[0];
  const std::string empty = LookupRun(c).Full();
  for (size_t len = 0; len < full.size(); ++len) {
    LookupRun cut(c);
    EXPECT_FALSE(snapshot_chain::RestoreFull(*cut.op, full.substr(0, len)).ok()) << len;
    EXPECT_EQ(cut.Full(), empty) << len;
  }
}

INSTANTIATE_TEST_SUITE_P(Keys, LookupJoinDeltaTest,
                         ::testing::Values(DeltaCase{"IntegralKey", {0}, false}, DeltaCase{"StringKey", {1}, true},
                                           DeltaCase{"TwoColumnKey", {0, 1}, true}),
                         [](const ::testing::TestParamInfo<DeltaCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace sluice
