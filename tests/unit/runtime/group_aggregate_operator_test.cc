#include "runtime/operators/group_aggregate_operator.h"

#include <gtest/gtest.h>

#include <ostream>

#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "state/state_serde.h"
#include "unit/runtime/rank_dedup_test_util.h"
#include "unit/runtime/snapshot_chain_util.h"
#include "types/value.h"

namespace sluice {
namespace {

using testing::CollectSink;

// COUNT(*) and SUM(v) grouped by k, over (k STRING, v BIGINT).
std::unique_ptr<GroupAggregateOperator> MakeCountSum(int64_t ttl_ms) {
  std::vector<GroupAggregateOperator::Agg> aggs;
  aggs.push_back({*ResolveAggregate("COUNT", {}, {}, true), {}, false, -1});
  aggs.push_back({*ResolveAggregate("SUM", {LogicalType::BigInt()}, {nullptr}, true), {1}, false, -1});
  std::vector<LogicalType> out = {LogicalType::String(), aggs[0].function->result_type, aggs[1].function->result_type};
  return std::make_unique<GroupAggregateOperator>("GroupAggregate", std::vector<LogicalType>{LogicalType::String(), LogicalType::BigInt()},
                                                  std::vector<int>{0}, std::move(aggs), out, true, 0, false, ttl_ms);
}

Chunk Rows(const std::vector<std::tuple<RowKind, std::string, int64_t>>& rows) {
  Chunk c({LogicalType::String(), LogicalType::BigInt()});
  for (const auto& [k, key, v] : rows) c.AppendValues({Value::String(key), Value::BigInt(v)}, k);
  return c;
}

TEST(GroupAggregateOperatorTest, StateTtlForgetsIdleKeysAndCountsLateRetractions) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  JobContext ctx;
  ctx.eval = &eval;
  auto op = MakeCountSum(/*ttl_ms=*/1000);
  CollectSink sink;
  op->AddOutput(&sink, 0);
  ASSERT_TRUE(op->Open(&ctx).ok());
  ASSERT_TRUE(sink.Open(&ctx).ok());

  Chunk a = Rows({{RowKind::kInsert, "a", 5}, {RowKind::kInsert, "b", 1}});
  ASSERT_TRUE(op->Process(0, a).ok());
  clock.Advance(600 * 1000);
  Chunk b = Rows({{RowKind::kInsert, "b", 2}});  // touches b; a stays idle
  ASSERT_TRUE(op->Process(0, b).ok());
  clock.Advance(600 * 1000);  // a idle for 1.2 s: expired; b idle for 0.6 s: kept
  Chunk c = Rows({{RowKind::kDelete, "a", 5}, {RowKind::kInsert, "b", 3}, {RowKind::kInsert, "a", 7}});
  ASSERT_TRUE(op->Process(0, c).ok());

  std::vector<std::string> want = {"+I[a, 1, 5]", "+I[b, 1, 1]", "-U[b, 1, 1]", "+U[b, 2, 3]",
                                   "-U[b, 2, 3]", "+U[b, 3, 6]", "+I[a, 1, 7]"};
  EXPECT_EQ(sink.Changes(), want);
  EXPECT_EQ(op->metrics().retractions_without_state, 1);
  EXPECT_EQ(op->metrics().expired_states, 1);
}

TEST(GroupAggregateOperatorTest, WithoutTtlRetractionsEmptyAGroup) {
  JobContext ctx;
  EvalContext eval;
  ctx.eval = &eval;
  auto op = MakeCountSum(0);
  CollectSink sink;
  op->AddOutput(&sink, 0);
  ASSERT_TRUE(op->Open(&ctx).ok());
  Chunk a = Rows({{RowKind::kInsert, "a", 5}, {RowKind::kUpdateBefore, "a", 5}, {RowKind::kUpdateAfter, "a", 6},
                  {RowKind::kDelete, "a", 6}, {RowKind::kDelete, "zz", 1}});
  ASSERT_TRUE(op->Process(0, a).ok());
  std::vector<std::string> want = {"+I[a, 1, 5]", "-D[a, 1, 5]", "+I[a, 1, 6]", "-D[a, 1, 6]"};
  EXPECT_EQ(sink.Changes(), want);
  EXPECT_EQ(op->metrics().retractions_without_state, 1);
  EXPECT_EQ(op->num_groups(), 0u);
}

// A call without retraction (a split's final MAX over a partial MAX of an insert-only input, which
// only grows: plan/traits.cc) skips the retractions of an updating input, as Flink's generated handler
// does for calls that need none; COUNT(*) next to it still retracts. Here the input breaks that
// monotonicity on purpose (5 is retracted, 4 added), so the skip shows: MAX stays 5.
TEST(GroupAggregateOperatorTest, CallWithoutRetractionSkipsRetractions) {
  JobContext ctx;
  EvalContext eval;
  ctx.eval = &eval;
  std::vector<GroupAggregateOperator::Agg> aggs;
  aggs.push_back({*ResolveAggregate("COUNT", {}, {}, true), {}, false, -1});
  aggs.push_back({*ResolveAggregate("MAX", {LogicalType::BigInt()}, {nullptr}, false), {1}, false, -1});
  ASSERT_FALSE(aggs[1].function->supports_retract);
  std::vector<LogicalType> out = {LogicalType::String(), aggs[0].function->result_type, aggs[1].function->result_type};
  GroupAggregateOperator op("GroupAggregate", {LogicalType::String(), LogicalType::BigInt()}, {0}, std::move(aggs), out,
                            true, 0, false, 0);
  CollectSink sink;
  op.AddOutput(&sink, 0);
  ASSERT_TRUE(op.Open(&ctx).ok());
  Chunk a = Rows({{RowKind::kInsert, "a", 5}, {RowKind::kInsert, "a", 3}});
  ASSERT_TRUE(op.Process(0, a).ok());
  Chunk b = Rows({{RowKind::kUpdateBefore, "a", 5}, {RowKind::kUpdateAfter, "a", 4}});
  ASSERT_TRUE(op.Process(0, b).ok());
  ASSERT_FALSE(sink.Changes().empty());
  EXPECT_EQ(sink.Changes().back(), "+U[a, 2, 5]");
}

// Incremental checkpoints (runtime/operator.h, state/delta.h). Input (k STRING, v BIGINT, s STRING).
const std::vector<LogicalType> kDeltaTypes = {LogicalType::String(), LogicalType::BigInt(), LogicalType::String()};

struct DeltaCase {
  bool heap_states;    // retracting MAX/MIN, COUNT(DISTINCT), LISTAGG: per-key containers
  int64_t mini_batch;  // 0: off
};
void PrintTo(const DeltaCase& c, std::ostream* os) {
  *os << "{heap_states=" << c.heap_states << ", mini_batch=" << c.mini_batch << "}";
}

std::unique_ptr<GroupAggregateOperator> MakeDeltaOp(const DeltaCase& c) {
  std::vector<GroupAggregateOperator::Agg> aggs;
  const LogicalType big = LogicalType::BigInt();
  aggs.push_back({*ResolveAggregate("COUNT", {}, {}, true), {}, false, -1});
  aggs.push_back({*ResolveAggregate("SUM", {big}, {nullptr}, true), {1}, false, -1});
  aggs.push_back({*ResolveAggregate("AVG", {big}, {nullptr}, true), {1}, false, -1});
  if (c.heap_states) {
    aggs.push_back({*ResolveAggregate("MAX", {big}, {nullptr}, true), {1}, false, -1});
    aggs.push_back({*ResolveAggregate("COUNT", {big}, {nullptr}, true), {1}, /*distinct=*/true, -1});
    aggs.push_back({*ResolveAggregate("LISTAGG", {LogicalType::String()}, {nullptr}, true), {2}, false, -1});
    aggs.push_back({*ResolveAggregate("MIN", {LogicalType::String()}, {nullptr}, true), {2}, false, -1});
  }
  std::vector<LogicalType> out = {LogicalType::String()};
  for (const auto& a : aggs) out.push_back(a.function->result_type);
  return std::make_unique<GroupAggregateOperator>("GroupAggregate", kDeltaTypes, std::vector<int>{0}, std::move(aggs),
                                                  out, true, c.mini_batch, /*two_phase=*/false, /*state_ttl_ms=*/1000);
}

Chunk DeltaRows(const std::vector<std::tuple<RowKind, std::string, int64_t, std::string>>& rows) {
  Chunk c(kDeltaTypes);
  for (const auto& [k, key, v, s] : rows) c.AppendValues({Value::String(key), Value::BigInt(v), Value::String(s)}, k);
  return c;
}

// One operator with its sink, on a shared clock.
struct DeltaRun {
  explicit DeltaRun(const DeltaCase& c, JobContext* ctx) : op(MakeDeltaOp(c)) {
    op->AddOutput(&sink, 0);
    EXPECT_TRUE(op->Open(ctx).ok());
    EXPECT_TRUE(sink.Open(ctx).ok());
  }
  void Push(Chunk c) { ASSERT_TRUE(op->Process(0, c).ok()); }
  std::string Full() {
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
  Status Restore(const std::string& bytes) {
    StateReader r(bytes, "test");
    return op->Restore(&r);
  }
  Status Apply(const std::string& bytes) {
    StateReader r(bytes, "test");
    return op->ApplyDelta(&r);
  }
  std::unique_ptr<GroupAggregateOperator> op;
  CollectSink sink;
};

class GroupAggregateDeltaTest : public ::testing::TestWithParam<DeltaCase> {};

TEST_P(GroupAggregateDeltaTest, FullPlusDeltasRestoresTheSameState) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  JobContext ctx;
  ctx.eval = &eval;
  DeltaRun a(GetParam(), &ctx);
  const auto I = RowKind::kInsert, UB = RowKind::kUpdateBefore, UA = RowKind::kUpdateAfter, D = RowKind::kDelete;
  a.Push(DeltaRows({{I, "a", 5, "x"}, {I, "b", 1, "y"}, {I, "c", 7, "z"}, {I, "a", 5, "w"}, {I, "a", 9, "v"}}));
  const std::string full = a.Full();

  // New keys, updates and retractions of old keys (a DISTINCT value and the MAX leave), an emptied group.
  clock.Advance(600 * 1000);
  a.Push(DeltaRows({{I, "d", 3, "q"}, {UB, "a", 9, "v"}, {UA, "a", 2, "u"}, {D, "b", 1, "y"}, {I, "e", 4, "p"},
                    {I, "d", 3, "r"}}));
  // c idle for 1.2 s: the TTL expires it; b comes back (under its old key id), f is new.
  clock.Advance(600 * 1000);
  a.Push(DeltaRows({{I, "b", 8, "n"}, {I, "f", 6, "m"}, {D, "a", 5, "x"}, {I, "d", 1, "o"}}));
  EXPECT_GE(a.op->metrics().expired_states, 1);
  const std::string delta1 = a.Delta();

  // Only updates of existing keys.
  a.Push(DeltaRows({{I, "d", 11, "k"}, {D, "a", 5, "w"}, {I, "b", 8, "j"}}));
  const std::string delta2 = a.Delta();
  a.Push(DeltaRows({{I, "e", 4, "i"}}));
  const std::string delta3 = a.Delta();  // nothing new, maybe only an open mini-batch row

  DeltaRun b(GetParam(), &ctx);
  ASSERT_TRUE(b.Restore(full).ok());
  ASSERT_TRUE(b.Apply(delta1).ok());
  ASSERT_TRUE(b.Apply(delta2).ok());
  ASSERT_TRUE(b.Apply(delta3).ok());
  EXPECT_EQ(b.op->num_groups(), a.op->num_groups());
  EXPECT_EQ(b.Full(), a.Full());
  // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
  snapshot_chain::ExpectFailedDeltasDropTheState(
      [&] {
        auto op = MakeDeltaOp(GetParam());
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, delta1, delta2});

  // The same further input (past the TTL of some keys) gives the same changes.
  const size_t a_before = a.sink.rows.size();
  clock.Advance(700 * 1000);
  for (DeltaRun* run : {&a, &b}) {
    run->Push(DeltaRows({{I, "a", 1, "h"}, {I, "d", 2, "g"}, {D, "b", 8, "n"}, {I, "g", 3, "f"}, {D, "f", 6, "m"},
                         {I, "e", 5, "e"}, {UB, "d", 11, "k"}, {UA, "d", 12, "k"}}));
    ASSERT_TRUE(run->op->ReceiveEndOfInput(0).ok());
  }
  std::vector<std::string> after_a(a.sink.rows.begin() + static_cast<std::ptrdiff_t>(a_before), a.sink.rows.end());
  EXPECT_FALSE(after_a.empty());
  EXPECT_EQ(b.sink.rows, after_a);
  EXPECT_EQ(b.op->metrics().expired_states, a.op->metrics().expired_states);
  EXPECT_EQ(b.op->metrics().retractions_without_state, a.op->metrics().retractions_without_state);
}

TEST_P(GroupAggregateDeltaTest, DeltaOnTheWrongBaseIsRefused) {
  JobContext ctx;
  EvalContext eval;
  ctx.eval = &eval;
  DeltaRun a(GetParam(), &ctx);
  const auto I = RowKind::kInsert, D = RowKind::kDelete;
  a.Push(DeltaRows({{I, "a", 5, "x"}, {I, "b", 1, "y"}, {I, "c", 2, "z"}}));
  const std::string full = a.Full();
  a.Push(DeltaRows({{I, "d", 3, "q"}, {D, "a", 5, "x"}}));
  const std::string delta1 = a.Delta();
  a.Push(DeltaRows({{I, "b", 4, "q"}}));  // no new key
  const std::string delta2 = a.Delta();

  {
    DeltaRun fresh(GetParam(), &ctx);
    EXPECT_FALSE(fresh.Apply(delta1).ok());
  }
  {
    DeltaRun twice(GetParam(), &ctx);
    ASSERT_TRUE(twice.Restore(full).ok());
    ASSERT_TRUE(twice.Apply(delta1).ok());
    ASSERT_TRUE(twice.Apply(delta2).ok());
    Status again = twice.Apply(delta2);
    EXPECT_FALSE(again.ok());
    EXPECT_NE(again.message().find("applied to snapshot"), std::string::npos) << again.ToString();
  }
  {
    DeltaRun skipped(GetParam(), &ctx);
    ASSERT_TRUE(skipped.Restore(full).ok());
    EXPECT_FALSE(skipped.Apply(delta2).ok());
  }
  {
    // State changed after the restore: the delta's base is gone.
    DeltaRun moved(GetParam(), &ctx);
    ASSERT_TRUE(moved.Restore(full).ok());
    // (Enough rows to close a mini-batch.)
    moved.Push(DeltaRows({{I, "b", 1, "y"}, {I, "b", 2, "y"}, {I, "b", 3, "y"}, {I, "b", 4, "y"}}));
    EXPECT_FALSE(moved.Apply(delta1).ok());
  }
  // Every truncation of a delta is refused, and damaged bytes never crash.
  for (size_t len = 0; len < delta1.size(); ++len) {
    DeltaRun cut(GetParam(), &ctx);
    ASSERT_TRUE(cut.Restore(full).ok());
    EXPECT_FALSE(cut.Apply(delta1.substr(0, len)).ok()) << len;
    // Refused before the operator's part (the base part), or dropped whole: never half restored.
    const size_t groups = cut.op->num_groups();
    EXPECT_TRUE(groups == 3u || groups == 0u) << len << ": " << groups;
  }
  for (size_t len = 0; len < full.size(); ++len) {
    DeltaRun cut(GetParam(), &ctx);
    EXPECT_FALSE(cut.Restore(full.substr(0, len)).ok()) << len;
  }
  for (size_t i = 0; i < delta1.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string bad = delta1;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      DeltaRun damaged(GetParam(), &ctx);
      ASSERT_TRUE(damaged.Restore(full).ok());
      (void)damaged.Apply(bad);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, GroupAggregateDeltaTest,
                         ::testing::Values(DeltaCase{false, 0}, DeltaCase{true, 0}, DeltaCase{false, 4},
                                           DeltaCase{true, 4}),
                         [](const ::testing::TestParamInfo<DeltaCase>& info) {
                           return std::string(info.param.heap_states ? "HeapStates" : "PlainStates") +
                                  (info.param.mini_batch > 0 ? "MiniBatch" : "");
                         });

// A plain-bytes aggregate state is restored as its bytes; a bool field in them holding anything but
// 0 or 1 (state that passed its file's checksum but was written wrong) is refused as corrupt, in a
// full snapshot and in a delta, rather than read as a bool (undefined behaviour).
TEST(GroupAggregateOperatorTest, RawStatesWithAnInvalidBoolAreRefused) {
  auto make = [] {
    std::vector<GroupAggregateOperator::Agg> aggs;
    aggs.push_back({*ResolveAggregate("MAX", {LogicalType::BigInt()}, {nullptr}, false), {1}, false, -1});
    std::vector<LogicalType> out = {LogicalType::String(), aggs[0].function->result_type};
    return std::make_unique<GroupAggregateOperator>("GroupAggregate",
                                                    std::vector<LogicalType>{LogicalType::String(), LogicalType::BigInt()},
                                                    std::vector<int>{0}, std::move(aggs), out, true, 0, 0, 0);
  };
  const int64_t kFirst = 0x1122334455667788;
  const int64_t kMarker = 0x7123456789ABCDEF;  // larger: the new MAX
  auto op = make();
  JobContext ctx;
  ASSERT_TRUE(op->Open(&ctx).ok());
  Chunk a = Rows({{RowKind::kInsert, "a", kFirst}});
  ASSERT_TRUE(op->Process(0, a).ok());
  const std::string full = snapshot_chain::FullSnapshot(*op);
  Chunk b = Rows({{RowKind::kInsert, "a", kMarker}});
  ASSERT_TRUE(op->Process(0, b).ok());
  const std::string delta = snapshot_chain::Delta(*op);
  // MAX's state: the value, then has_value (1): set it to 2.
  auto corrupt = [&](std::string bytes, int64_t value) {
    std::string needle(reinterpret_cast<const char*>(&value), sizeof value);
    needle.push_back('\1');
    const size_t at = bytes.find(needle);
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) bytes[at + sizeof value] = '\2';
    return bytes;
  };
  {
    auto fresh = make();
    ASSERT_TRUE(fresh->Open(&ctx).ok());
    ASSERT_TRUE(snapshot_chain::RestoreFull(*fresh, full).ok());
    ASSERT_TRUE(snapshot_chain::RestoreDelta(*fresh, delta).ok());  // intact: restores
  }
  {
    auto fresh = make();
    ASSERT_TRUE(fresh->Open(&ctx).ok());
    Status st = snapshot_chain::RestoreFull(*fresh, corrupt(full, kFirst));
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("invalid MAX state"), std::string::npos) << st.ToString();
  }
  {
    auto fresh = make();
    ASSERT_TRUE(fresh->Open(&ctx).ok());
    ASSERT_TRUE(snapshot_chain::RestoreFull(*fresh, full).ok());
    Status st = snapshot_chain::RestoreDelta(*fresh, corrupt(delta, kMarker));
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("invalid"), std::string::npos) << st.ToString();
  }
}

}  // namespace
}  // namespace sluice
