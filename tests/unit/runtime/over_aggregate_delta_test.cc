// OverAggregateOperator's incremental checkpoints (issue 5): a full snapshot followed by deltas
// restores, in a fresh operator, the state of the operator that wrote them (its full snapshot bytes
// equal) and both produce the same output afterwards; for ROWS and RANGE frames, bounded and
// unbounded, event and processing time, with and without DISTINCT calls (inline and encoded values,
// with a FILTER), with partitions that leave their frames and are freed, rows waiting for the
// watermark (also out of order, across pending blocks) and stored ROWS rows compacted (then no delta
// until the next full snapshot). A delta on the wrong base (skipped, applied twice, to a fresh
// operator, or of another operator's chain) is refused; a cut or damaged delta is refused or reads as
// a valid state, never crashes, and a refused one leaves the operator empty.
//
// Rows are (key STRING, value INT, ts TIMESTAMP(3), flag BOOLEAN, tag STRING), partitioned by key,
// ordered by ts. Calls: COUNT(*), SUM(value), MAX(value) (with retraction when the frame is bounded:
// a state with heap memory and its own serialization), and with DISTINCT also COUNT(DISTINCT value)
// and COUNT(DISTINCT tag) FILTER (WHERE flag).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "rank_dedup_test_util.h"
#include "runtime/operators/over_aggregate_operator.h"
#include "snapshot_chain_util.h"

namespace sluice {
namespace {

using testing::Int;
using testing::Str;
using testing::Ts;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Integer(), LogicalType::Timestamp(3),
                                         LogicalType::Boolean(), LogicalType::String()};

struct Variant {
  bool rowtime;
  bool rows_frame;
  int64_t preceding;  // -1: UNBOUNDED; ROWS: rows; RANGE: milliseconds
  bool distinct;
  int rows_per_phase;
};

std::string Describe(const Variant& v) {
  return std::string(v.rowtime ? "rowtime" : "proctime") + (v.rows_frame ? " ROWS " : " RANGE ") +
         (v.preceding < 0 ? std::string("UNBOUNDED") : std::to_string(v.preceding)) + (v.distinct ? " DISTINCT" : "") +
         " x" + std::to_string(v.rows_per_phase);
}

AccumulatorCall Call(const std::string& name, std::vector<int> args, bool retract, bool distinct = false,
                     int filter = -1) {
  std::vector<LogicalType> types;
  for (int a : args) types.push_back(kTypes[static_cast<size_t>(a)]);
  std::vector<const Value*> constants(args.size(), nullptr);
  auto f = ResolveAggregate(name, types, constants, retract);
  SLUICE_CHECK(f.ok());
  return AccumulatorCall{*f, std::move(args), distinct, filter};
}

std::unique_ptr<OverAggregateOperator> MakeOperator(const Variant& v) {
  const bool retract = v.preceding >= 0;
  std::vector<AccumulatorCall> calls = {Call("COUNT", {}, retract), Call("SUM", {1}, retract),
                                        Call("MAX", {1}, retract)};
  if (v.distinct) {
    calls.push_back(Call("COUNT", {1}, retract, true));
    calls.push_back(Call("COUNT", {4}, retract, true, 3));
  }
  std::vector<LogicalType> out = kTypes;
  for (const AccumulatorCall& c : calls) out.push_back(c.function->result_type);
  return std::make_unique<OverAggregateOperator>("OverAggregate", kTypes, std::vector<int>{0}, 2, v.rowtime,
                                                 v.rows_frame, v.preceding, std::move(calls), out);
}

// Phase p of the input: keys slide (6 new ones per phase, 6 left idle: their rows leave bounded RANGE
// frames and the partitions are freed), times within a phase a little out of order, some behind the
// watermark of the phase before (dropped as late).
Chunk Phase(const Variant& v, int p) {
  Chunk c(kTypes);
  const int n = v.rows_per_phase;
  for (int i = 0; i < n; ++i) {
    const int key = 6 * p + (i * 7 + p) % 24;
    const int64_t ts = 1000 * p + (static_cast<int64_t>(i) * 997 / n + (i % 5) * 40) % 1000 - 100;
    c.AppendValues({Str("k" + std::to_string(key)), Int((i * 13 + p) % 17), Ts(ts), Value::Boolean(i % 3 != 0),
                    Str("t" + std::to_string((i * 5 + p) % 11))},
                   RowKind::kInsert);
  }
  return c;
}

struct Driven {
  explicit Driven(const Variant& v) : op(MakeOperator(v)), h(op.get(), 7) { h.ctx.eval = &eval; }
  // Phase p, then (event time) a watermark that leaves the phase's later rows waiting.
  void Step(const Variant& v, int p) {
    Status st = h.Push(Phase(v, p));
    ASSERT_TRUE(st.ok()) << st.ToString();
    clock.Advance(600 * 1000);
    if (v.rowtime) {
      st = h.Watermark(1000 * p + 500);
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
  }
  std::string Full() { return snapshot_chain::FullSnapshot(*op); }

  ManualClock clock{0};
  EvalContext eval{&clock};
  std::unique_ptr<OverAggregateOperator> op;
  testing::Harness h;
};

// A full snapshot without the versions before the operator's part (they differ between an operator
// and a twin that took other snapshots).
std::string Body(const std::string& full) {
  const size_t pos = full.find("over-aggregate");
  EXPECT_NE(pos, std::string::npos);
  return full.substr(pos);
}

const std::vector<Variant> kVariants = {
    {true, false, 1500, false, 40},  {true, false, 1500, true, 40},  {true, true, 2, false, 40},
    {true, true, 2, true, 40},       {true, false, -1, false, 40},   {true, true, -1, true, 40},
    {false, false, 1500, false, 40}, {false, false, 1500, true, 40}, {false, true, 3, true, 40},
    {false, false, -1, true, 40},    {true, false, 700, true, 3000}, {true, true, 100, true, 2000},
    {false, true, 100, false, 2000},
};

// Writes a chain (full snapshot, then a delta after each of phases 1..5, a new full snapshot where
// the operator cannot write a delta) while a twin fed the same input takes full snapshots at the same
// points; returns the chain ending at the last point.
TEST(OverAggregateDeltaTest, ChainRestoresTheSameStateAndOutput) {
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(Describe(v));
    Driven a(v), twin(v);
    EXPECT_FALSE(a.op->CanSnapshotDelta());  // no base yet
    a.Step(v, 0);
    twin.Step(v, 0);
    std::vector<std::string> chain = {a.Full()};
    size_t deltas = 0;
    for (int p = 1; p <= 5; ++p) {
      a.Step(v, p);
      twin.Step(v, p);
      if (a.op->CanSnapshotDelta()) {
        chain.push_back(snapshot_chain::Delta(*a.op));
        ++deltas;
      } else {
        chain = {a.Full()};
      }
      const std::string expected = twin.Full();
      Driven b(v);
      snapshot_chain::RestoreChain(*b.op, chain);
      EXPECT_EQ(Body(b.Full()), Body(expected)) << "phase " << p;
      EXPECT_EQ(b.op->state_rows(), twin.op->state_rows());
    }
    EXPECT_GE(deltas, 3u);
    Driven b(v);
    b.clock.Set(a.clock.NowMicros());
    snapshot_chain::RestoreChain(*b.op, chain);
    EXPECT_EQ(b.op->state_rows(), a.op->state_rows());
    if (v.rowtime || v.preceding >= 0) {
      EXPECT_GT(a.op->state_rows(), 0u);
    }
    EXPECT_EQ(b.Full(), a.Full());  // versions included
    // Both continue alike.
    const size_t before = a.h.sink.rows.size();
    for (int p = 6; p < 9; ++p) {
      a.Step(v, p);
      b.Step(v, p);
    }
    ASSERT_TRUE(a.h.End().ok());
    ASSERT_TRUE(b.h.End().ok());
    const std::vector<std::string> after_a(a.h.sink.rows.begin() + static_cast<std::ptrdiff_t>(before),
                                           a.h.sink.rows.end());
    EXPECT_GT(after_a.size(), 0u);
    EXPECT_EQ(b.h.sink.rows, after_a);
  }
}

TEST(OverAggregateDeltaTest, CompactedStoredRowsNeedAFullSnapshot) {
  // ROWS 100 PRECEDING stores every row and releases all but 101 per partition: past 16384 stored
  // rows more than half released, the store is compacted (rows renumbered): no delta until a full
  // snapshot.
  const Variant v{false, true, 100, true, 2000};
  Driven a(v);
  a.Step(v, 0);
  std::vector<std::string> chain = {a.Full()};
  bool compacted = false;
  for (int p = 1; p <= 12 && !compacted; ++p) {
    a.Step(v, p);
    if (a.op->CanSnapshotDelta()) {
      chain.push_back(snapshot_chain::Delta(*a.op));
    } else {
      compacted = true;
    }
  }
  ASSERT_TRUE(compacted);
  ASSERT_GE(chain.size(), 2u);
  chain = {a.Full()};
  EXPECT_TRUE(a.op->CanSnapshotDelta());
  a.Step(v, 9);
  chain.push_back(snapshot_chain::Delta(*a.op));
  Driven b(v);
  snapshot_chain::RestoreChain(*b.op, chain);
  EXPECT_EQ(b.Full(), a.Full());
}

TEST(OverAggregateDeltaTest, StateThatTurnedOverIsWrittenInFull) {
  // ROWS 2 PRECEDING with 2000 rows a phase: the frames hold 3 rows per partition, all stored since
  // the last snapshot (released or not): a delta would be no smaller than a full snapshot.
  const Variant v{false, true, 2, false, 2000};
  Driven a(v);
  a.Step(v, 0);
  const std::string full = a.Full();
  EXPECT_TRUE(a.op->CanSnapshotDelta());  // nothing changed yet
  a.Step(v, 1);
  EXPECT_FALSE(a.op->CanSnapshotDelta());
}

TEST(OverAggregateDeltaTest, DeltaOnTheWrongBaseIsRefused) {
  for (const Variant& v : {kVariants[1], kVariants[3], kVariants[8]}) {
    SCOPED_TRACE(Describe(v));
    Driven a(v);
    a.Step(v, 0);
    const std::string full = a.Full();
    a.Step(v, 1);
    const std::string d1 = snapshot_chain::Delta(*a.op);
    a.Step(v, 2);
    const std::string d2 = snapshot_chain::Delta(*a.op);
    {
      Driven b(v);  // restored from nothing
      EXPECT_FALSE(snapshot_chain::RestoreDelta(*b.op, d1).ok());
    }
    {
      Driven b(v);  // d1 skipped
      ASSERT_TRUE(snapshot_chain::RestoreFull(*b.op, full).ok());
      EXPECT_FALSE(snapshot_chain::RestoreDelta(*b.op, d2).ok());
    }
    {
      Driven b(v);  // d1 twice
      snapshot_chain::RestoreChain(*b.op, {full, d1});
      EXPECT_FALSE(snapshot_chain::RestoreDelta(*b.op, d1).ok());
    }
    {
      // Another operator's full snapshot of the same version (fed one phase less): d1's base
      // version matches, its state does not.
      Driven other(v);
      const std::string other_full = other.Full();
      Driven b(v);
      ASSERT_TRUE(snapshot_chain::RestoreFull(*b.op, other_full).ok());
      Status st = snapshot_chain::RestoreDelta(*b.op, d1);
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.ToString().find("Corrupt state of OverAggregate"), std::string::npos) << st.ToString();
      EXPECT_NE(st.ToString().find("a delta of another state"), std::string::npos) << st.ToString();
      EXPECT_EQ(b.op->state_rows(), 0u);
    }
  }
}

TEST(OverAggregateDeltaTest, CutOrDamagedDeltasAreRefusedWithoutACrash) {
  for (const Variant& v : {kVariants[1], kVariants[3], kVariants[8]}) {
    SCOPED_TRACE(Describe(v));
    Driven a(v);
    a.Step(v, 0);
    a.Step(v, 1);
    std::vector<std::string> chain = {a.Full()};
    a.Step(v, 2);
    chain.push_back(snapshot_chain::Delta(*a.op));
    a.Step(v, 3);
    chain.push_back(snapshot_chain::Delta(*a.op));
    std::vector<std::unique_ptr<Driven>> keep;
    auto make = [&]() {
      keep.push_back(std::make_unique<Driven>(v));
      return std::shared_ptr<OverAggregateOperator>(std::shared_ptr<void>(), keep.back()->op.get());
    };
    snapshot_chain::ExpectFailedDeltasDropTheState(make, chain);
  }
}

}  // namespace
}  // namespace sluice
