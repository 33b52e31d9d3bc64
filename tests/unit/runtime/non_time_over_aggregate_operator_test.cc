// NonTimeOverAggregateOperator (Flink's non-time OVER): rows that arrive out of ORDER BY order update
// the later rows' results (and stop at the first unchanged one), retractions remove their row, -U rows
// only when asked, and a snapshot restores to the same state and output.
//
// Rows are (customer STRING, qty INT), partitioned by customer and ordered by qty; calls SUM(qty) or
// MIN(qty) over ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW unless a test says RANGE.
#include <gtest/gtest.h>

#include <memory>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "rank_dedup_test_util.h"
#include "runtime/operators/non_time_over_aggregate_operator.h"
#include "snapshot_chain_util.h"

namespace sluice {
namespace {

using testing::D;
using testing::I;
using testing::Int;
using testing::Row;
using testing::Str;
using testing::UA;
using testing::UB;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Integer()};

Row R(const std::string& key, int32_t qty) { return I({Str(key), Int(qty)}); }

struct OverRun {
  explicit OverRun(const std::string& fn = "SUM", bool rows_frame = true, bool emit_ub = true) {
    auto f = ResolveAggregate(fn, {LogicalType::Integer()}, {nullptr}, true);
    SLUICE_CHECK(f.ok());
    std::vector<LogicalType> out = kTypes;
    out.push_back(LogicalType::Integer());
    op = std::make_unique<NonTimeOverAggregateOperator>("OverAggregate", kTypes, std::vector<int>{0}, 1, rows_frame,
                                                        std::vector<AccumulatorCall>{{*f, {1}, false, -1}}, out,
                                                        emit_ub);
    h = std::make_unique<testing::Harness>(op.get(), 4);
    EXPECT_TRUE(h->open_status.ok());
  }
  void Push(const std::vector<Row>& rows) { ASSERT_TRUE(h->Push(testing::MakeChunk(kTypes, rows)).ok()); }
  std::vector<std::string> Changes() const { return h->sink.Changes(); }

  std::unique_ptr<NonTimeOverAggregateOperator> op;
  std::unique_ptr<testing::Harness> h;
};

TEST(NonTimeOverAggregateTest, OutOfOrderRowUpdatesTheLaterRows) {
  OverRun r;
  r.Push({R("a", 3), R("b", 1), R("a", 2), R("a", 5), R("a", 2)});
  EXPECT_EQ(r.Changes(), (std::vector<std::string>{"+I[a, 3, 3]", "+I[b, 1, 1]", "+I[a, 2, 2]", "-U[a, 3, 3]",
                                                    "+U[a, 3, 5]", "+I[a, 5, 10]", "+I[a, 2, 4]", "-U[a, 3, 5]",
                                                    "+U[a, 3, 7]", "-U[a, 5, 10]", "+U[a, 5, 12]"}));
  EXPECT_EQ(r.h->sink.split_pairs, 0);
  EXPECT_EQ(r.op->state_rows(), 5u);
}

TEST(NonTimeOverAggregateTest, UpdatesStopAtTheFirstUnchangedResult) {
  OverRun r("MIN");
  r.Push({R("a", 3), R("a", 5), R("a", 4)});
  // MIN over (3, 4) is 3 and so is MIN over (3, 4, 5): the row with 5 keeps its result.
  EXPECT_EQ(r.Changes(), (std::vector<std::string>{"+I[a, 3, 3]", "+I[a, 5, 3]", "+I[a, 4, 3]"}));
}

TEST(NonTimeOverAggregateTest, RangePeersShareAResult) {
  OverRun r("SUM", /*rows_frame=*/false);
  r.Push({R("a", 2), R("a", 3), R("a", 2)});
  EXPECT_EQ(r.Changes(), (std::vector<std::string>{"+I[a, 2, 2]", "+I[a, 3, 5]", "-U[a, 2, 2]", "+U[a, 2, 4]",
                                                    "+I[a, 2, 4]", "-U[a, 3, 5]", "+U[a, 3, 7]"}));
}

TEST(NonTimeOverAggregateTest, RetractionRemovesItsRow) {
  OverRun r;
  r.Push({R("a", 1), R("a", 2), D({Str("a"), Int(1)}), D({Str("a"), Int(9)}), UB({Str("c"), Int(1)})});
  EXPECT_EQ(r.Changes(), (std::vector<std::string>{"+I[a, 1, 1]", "+I[a, 2, 3]", "-D[a, 1, 1]", "-U[a, 2, 3]",
                                                    "+U[a, 2, 2]"}));
  EXPECT_EQ(r.op->metrics().retractions_without_state, 2);
  EXPECT_EQ(r.op->state_rows(), 1u);
  r.Push({D({Str("a"), Int(2)}), UA({Str("a"), Int(4)})});
  EXPECT_EQ(r.op->state_rows(), 1u);
  EXPECT_EQ(r.Changes().back(), "+U[a, 4, 4]");
}

TEST(NonTimeOverAggregateTest, NoUpdateBeforeUnlessAsked) {
  OverRun r("SUM", true, /*emit_ub=*/false);
  r.Push({R("a", 3), R("a", 2)});
  EXPECT_EQ(r.Changes(), (std::vector<std::string>{"+I[a, 3, 3]", "+I[a, 2, 2]", "+U[a, 3, 5]"}));
}

TEST(NonTimeOverAggregateTest, SnapshotRestoresTheSameStateAndOutput) {
  for (bool rows_frame : {true, false}) {
    OverRun a("SUM", rows_frame);
    a.Push({R("a", 5), R("b", 3), R("a", 4), R("b", 7), R("a", 4), D({Str("b"), Int(3)})});
    const std::string full = snapshot_chain::FullSnapshot(*a.op);
    OverRun b("SUM", rows_frame);
    b.Push({R("z", 1)});  // state that the restore replaces
    ASSERT_TRUE(snapshot_chain::RestoreFull(*b.op, full).ok());
    EXPECT_EQ(b.op->state_rows(), a.op->state_rows());
    // The operator's base before its tag may differ.
    const std::string again = snapshot_chain::FullSnapshot(*b.op);
    ASSERT_NE(full.find("non-time-over"), std::string::npos);
    EXPECT_EQ(again.substr(again.find("non-time-over")), full.substr(full.find("non-time-over")));
    const size_t a_before = a.Changes().size();
    const size_t b_before = b.Changes().size();
    for (OverRun* run : {&a, &b}) run->Push({R("a", 1), R("b", 9), D({Str("a"), Int(4)}), R("z", 2)});
    const std::vector<std::string> all_a = a.Changes();
    const std::vector<std::string> all_b = b.Changes();
    std::vector<std::string> after_a(all_a.begin() + static_cast<std::ptrdiff_t>(a_before), all_a.end());
    std::vector<std::string> after_b(all_b.begin() + static_cast<std::ptrdiff_t>(b_before), all_b.end());
    EXPECT_FALSE(after_a.empty());
    EXPECT_EQ(after_b, after_a);
  }
}

TEST(NonTimeOverAggregateTest, SnapshotWithRowsOutOfOrderIsRefused) {
  OverRun a;
  a.Push({R("a", 1), R("a", 2)});
  std::string full = snapshot_chain::FullSnapshot(*a.op);
  // The rows are written in order as one INT column: swap the two values (1 and 2) so they are not.
  const std::string one("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  const size_t at = full.find(one);
  ASSERT_NE(at, std::string::npos);
  full.replace(at, one.size(), std::string("\x02\x00\x00\x00\x01\x00\x00\x00", 8));
  OverRun b;
  Status st = snapshot_chain::RestoreFull(*b.op, full);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("non-time OVER rows out of order"), std::string::npos) << st.ToString();
  EXPECT_EQ(b.op->state_rows(), 0u);
}

}  // namespace
}  // namespace sluice
