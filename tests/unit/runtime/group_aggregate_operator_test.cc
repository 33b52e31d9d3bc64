#include "runtime/operators/group_aggregate_operator.h"

#include <gtest/gtest.h>

#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "unit/runtime/rank_dedup_test_util.h"
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
                                                  std::vector<int>{0}, std::move(aggs), out, true, 0, 0, ttl_ms);
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

}  // namespace
}  // namespace sluice
