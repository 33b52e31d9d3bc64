// Tests for the regular join's event-time state retention (JoinOptions::left_bound_column): a left row
// whose time minus the bound is at or below the right input's watermark is dropped; rows arriving
// behind the bound still join the stored right rows; checkpoints keep the dropped state dropped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/join_operator.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using snapshot_chain::FullSnapshot;
using snapshot_chain::RestoreChain;

class CountSink final : public Operator {
 public:
  CountSink() : Operator("Sink", 1) {}
  Status Process(int, Chunk& chunk) override {
    rows += static_cast<int64_t>(chunk.size());
    return Status::OK();
  }
  int64_t rows = 0;
};

Value T(int64_t micros) { return Value::Int(LogicalType::Timestamp(3), micros); }

// Left (k INT, t TIMESTAMP) joins right (k INT, end TIMESTAMP) on k; the planner's promise: right
// rows still to come have end above the right watermark, and the condition needs t >= end - 10.
struct BoundJoin {
  BoundJoin() : op("Join", JoinKind::kInner, Types(), Types(), {0}, {0}, nullptr, Options()) {
    ctx.eval = &eval;
    op.AddOutput(&sink, 0);
    EXPECT_TRUE(op.Open(&ctx).ok());
  }
  static std::vector<LogicalType> Types() { return {LogicalType::Integer(), LogicalType::Timestamp(3)}; }
  static JoinOptions Options() {
    JoinOptions o;
    o.left_bound_column = 1;
    o.left_bound_micros = -10;
    return o;
  }
  int64_t Feed(int input, const std::vector<std::pair<int32_t, int64_t>>& rows) {
    Chunk chunk(Types(), 0);
    for (const auto& [k, t] : rows) chunk.AppendValues({Value::Integer(k), T(t)}, RowKind::kInsert);
    const int64_t before = sink.rows;
    EXPECT_TRUE(op.Process(input, chunk).ok());
    return sink.rows - before;
  }
  EvalContext eval;
  JobContext ctx;
  JoinOperator op;
  CountSink sink;
};

TEST(JoinStateBoundTest, DropsLeftRowsTheRightWatermarkPassed) {
  BoundJoin j;
  std::vector<std::pair<int32_t, int64_t>> left;
  for (int32_t i = 0; i < 10000; ++i) left.push_back({i % 5000, i});
  EXPECT_EQ(j.Feed(0, left), 0);
  EXPECT_EQ(j.op.stored_rows(0), 10000);
  // Deadlines are t + 10: rows with t <= 4990 go.
  ASSERT_TRUE(j.op.ReceiveWatermark(1, 5000).ok());
  EXPECT_EQ(j.op.stored_rows(0), 10000 - 4991);
  // A right row matches the kept left rows of its key only (key 4995: rows 4995 and 9995).
  EXPECT_EQ(j.Feed(1, {{4995, 6000}}), 2);
  EXPECT_EQ(j.Feed(1, {{10, 6000}}), 1);  // row 10 was dropped; 5010 is kept
  EXPECT_EQ(j.Feed(1, {{20000, 6000}}), 0);
  // A left row behind the bound still joins the stored right rows. Rows go in arrival order, up to the
  // first one still needed, so it stays until the rows before it went.
  EXPECT_EQ(j.Feed(0, {{4995, 1}}), 1);
  ASSERT_TRUE(j.op.ReceiveWatermark(1, 5001).ok());
  EXPECT_EQ(j.op.stored_rows(0), 10000 - 4992 + 1);
  // The right side keeps everything.
  EXPECT_EQ(j.op.stored_rows(1), 3);

  // A checkpoint and a restore keep what is kept; dropping goes on after the restore.
  const std::string full = FullSnapshot(j.op);
  BoundJoin r;
  RestoreChain(r.op, {full});
  EXPECT_EQ(r.op.stored_rows(0), j.op.stored_rows(0));
  EXPECT_EQ(FullSnapshot(r.op), FullSnapshot(j.op));
  for (BoundJoin* x : {&j, &r}) {
    ASSERT_TRUE(x->op.ReceiveWatermark(1, 9000).ok());
    EXPECT_EQ(x->op.stored_rows(0), 10000 - 8991 + 1);
    // Rows 9995 and the late one (this test has no residual condition to tell them apart).
    EXPECT_EQ(x->Feed(1, {{4995, 9500}}), 2);
    ASSERT_TRUE(x->op.ReceiveWatermark(1, 20000).ok());
    EXPECT_EQ(x->op.stored_rows(0), 0);
    EXPECT_EQ(x->Feed(0, {{7, 20000}}), 0);
  }
  EXPECT_EQ(FullSnapshot(r.op), FullSnapshot(j.op));
}

}  // namespace
}  // namespace sluice
