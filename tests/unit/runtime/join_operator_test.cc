// Tests for JoinOperator (Flink's StreamingJoinOperator): exact changelogs for inner and outer joins
// over append-only and updating inputs, and a randomized check that the folded changelog equals the
// join of the final inputs for every join kind.
#include "snapshot_chain_util.h"
#include "runtime/operators/join_operator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <random>
#include <string>
#include <vector>

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_serde.h"
#include "unit/function/function_test_util.h"

namespace sluice {
namespace {

using testing::Call;
using testing::Col;

// Collects what the join emits, one string per row ("+I[1, a, NULL, NULL]"), and the chunk sizes.
class CollectSink final : public Operator {
 public:
  CollectSink() : Operator("Sink", 1) {}
  Status Process(int, Chunk& chunk) override {
    chunk_sizes.push_back(chunk.size());
    for (size_t i = 0; i < chunk.size(); ++i) {
      std::string s(RowKindShortString(chunk.kind(i)));
      s += "[";
      std::vector<Value> row = chunk.GetRow(i);
      for (size_t c = 0; c < row.size(); ++c) {
        if (c > 0) s += ", ";
        s += row[c].ToString();
      }
      s += "]";
      rows.push_back(std::move(s));
    }
    return Status::OK();
  }
  std::vector<std::string> Take() {
    std::vector<std::string> out;
    out.swap(rows);
    return out;
  }
  std::vector<std::string> rows;
  std::vector<size_t> chunk_sizes;
  std::vector<int64_t> watermarks;

 protected:
  Status OnWatermark(int64_t watermark) override {
    watermarks.push_back(watermark);
    return Status::OK();
  }
};

struct Row {
  RowKind kind;
  std::vector<Value> values;
};

Value I(int32_t v) { return Value::Integer(v); }
Value S(const std::string& s) { return Value::String(s); }
Value NullInt() { return Value::Null(LogicalType::Integer()); }
Row Ins(std::vector<Value> v) { return {RowKind::kInsert, std::move(v)}; }
Row Del(std::vector<Value> v) { return {RowKind::kDelete, std::move(v)}; }
Row Ub(std::vector<Value> v) { return {RowKind::kUpdateBefore, std::move(v)}; }
Row Ua(std::vector<Value> v) { return {RowKind::kUpdateAfter, std::move(v)}; }

using Rows = std::vector<std::string>;

// Drives one JoinOperator. By default both sides are (k INT, v STRING) joined on k.
class Harness {
 public:
  explicit Harness(JoinKind kind, ExprPtr residual = nullptr, JoinOptions options = {}, std::vector<int> left_keys = {0},
                   std::vector<int> right_keys = {0},
                   std::vector<LogicalType> left_types = {LogicalType::Integer(), LogicalType::String()},
                   std::vector<LogicalType> right_types = {LogicalType::Integer(), LogicalType::String()},
                   size_t chunk_size = 1024)
      : left_types_(left_types),
        right_types_(right_types),
        op_("Join", kind, std::move(left_types), std::move(right_types), std::move(left_keys), std::move(right_keys),
            std::move(residual), std::move(options)) {
    eval_.clock = &clock_;
    ctx_.eval = &eval_;
    ctx_.chunk_size = chunk_size;
    op_.AddOutput(&sink_, 0);
    Status st = op_.Open(&ctx_);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }

  // Feeds `rows` as one chunk to input `input` and returns what was emitted.
  Rows Feed(int input, const std::vector<Row>& rows) {
    Chunk chunk(input == 0 ? left_types_ : right_types_, 0);
    for (const auto& r : rows) chunk.AppendValues(r.values, r.kind);
    Status st = op_.Process(input, chunk);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return sink_.Take();
  }
  Rows Left(const std::vector<Row>& rows) { return Feed(0, rows); }
  Rows Right(const std::vector<Row>& rows) { return Feed(1, rows); }

  JoinOperator& op() { return op_; }
  CollectSink& sink() { return sink_; }
  // Processing time (state TTL), in milliseconds.
  void SetTimeMs(int64_t ms) { clock_.Set(ms * 1000); }

 private:
  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  ManualClock clock_{0};
  EvalContext eval_;
  JobContext ctx_;
  JoinOperator op_;
  CollectSink sink_;
};

TEST(JoinOperatorTest, InnerInsertOnly) {
  Harness h(JoinKind::kInner);
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{});
  EXPECT_EQ(h.Right({Ins({I(1), S("x")}), Ins({I(2), S("y")})}), Rows{"+I[1, a, 1, x]"});
  EXPECT_EQ(h.Left({Ins({I(2), S("b")}), Ins({I(1), S("c")}), Ins({I(3), S("d")})}),
            (Rows{"+I[2, b, 2, y]", "+I[1, c, 1, x]"}));
  // The stored left rows are visited in arrival order.
  EXPECT_EQ(h.Right({Ins({I(1), S("z")})}), (Rows{"+I[1, a, 1, z]", "+I[1, c, 1, z]"}));
  EXPECT_EQ(h.op().stored_rows(0), 4);
  EXPECT_EQ(h.op().stored_rows(1), 3);
  EXPECT_EQ(h.op().metrics().rows_in, 7);
  EXPECT_EQ(h.op().metrics().rows_out, 5);
}

TEST(JoinOperatorTest, InnerForwardsRetractionKindsFromEitherSide) {
  Harness h(JoinKind::kInner);
  h.Left({Ins({I(1), S("a")})});
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), Rows{"+I[1, a, 1, x]"});
  // An update on the left: the inner join forwards -U/+U, in one output chunk.
  EXPECT_EQ(h.Left({Ub({I(1), S("a")}), Ua({I(1), S("b")})}), (Rows{"-U[1, a, 1, x]", "+U[1, b, 1, x]"}));
  EXPECT_EQ(h.sink().chunk_sizes.back(), 2u);
  // An update on the right.
  EXPECT_EQ(h.Right({Ub({I(1), S("x")}), Ua({I(1), S("y")})}), (Rows{"-U[1, b, 1, x]", "+U[1, b, 1, y]"}));
  // A delete on the right retracts with -D; then the left row has nothing to retract against.
  EXPECT_EQ(h.Right({Del({I(1), S("y")})}), Rows{"-D[1, b, 1, y]"});
  EXPECT_EQ(h.Left({Del({I(1), S("b")})}), Rows{});
  EXPECT_EQ(h.op().stored_rows(0), 0);
  EXPECT_EQ(h.op().stored_rows(1), 0);
  EXPECT_EQ(h.op().retractions_without_state(), 0);
  EXPECT_EQ(h.Right({Ins({I(1), S("z")})}), Rows{});
}

TEST(JoinOperatorTest, LeftJoinPadsAndRetractsPadding) {
  Harness h(JoinKind::kLeft);
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{"+I[1, a, NULL, NULL]"});
  // The first match retracts the padded row, then inserts the joined row.
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), (Rows{"-D[1, a, NULL, NULL]", "+I[1, a, 1, x]"}));
  EXPECT_EQ(h.Right({Ins({I(1), S("y")})}), Rows{"+I[1, a, 1, y]"});
  EXPECT_EQ(h.Right({Del({I(1), S("x")})}), Rows{"-D[1, a, 1, x]"});
  // The last match going away brings the padded row back.
  EXPECT_EQ(h.Right({Del({I(1), S("y")})}), (Rows{"-D[1, a, 1, y]", "+I[1, a, NULL, NULL]"}));
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), Rows{"-D[1, a, NULL, NULL]"});
  // A right row with no left partner emits nothing in a LEFT JOIN.
  EXPECT_EQ(h.Right({Ins({I(2), S("z")})}), Rows{});
}

TEST(JoinOperatorTest, LeftJoinUpdatesOnEitherSide) {
  Harness h(JoinKind::kLeft);
  h.Left({Ins({I(1), S("a")})});
  h.Right({Ins({I(1), S("x")})});
  // An update of the outer (left) side is sent as -D/+I.
  EXPECT_EQ(h.Left({Ub({I(1), S("a")}), Ua({I(1), S("b")})}), (Rows{"-D[1, a, 1, x]", "+I[1, b, 1, x]"}));
  // An update of the inner (right) side keeps the input's -U for the joined row, re-pads the left row
  // when it loses its last match, and inserts the new joined row with +I.
  EXPECT_EQ(h.Right({Ub({I(1), S("x")}), Ua({I(1), S("y")})}),
            (Rows{"-U[1, b, 1, x]", "+I[1, b, NULL, NULL]", "-D[1, b, NULL, NULL]", "+I[1, b, 1, y]"}));
}

TEST(JoinOperatorTest, RightJoinMirrorsLeftJoin) {
  Harness h(JoinKind::kRight);
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), Rows{"+I[NULL, NULL, 1, x]"});
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), (Rows{"-D[NULL, NULL, 1, x]", "+I[1, a, 1, x]"}));
  EXPECT_EQ(h.Left({Ins({I(2), S("b")})}), Rows{});
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), (Rows{"-D[1, a, 1, x]", "+I[NULL, NULL, 1, x]"}));
  EXPECT_EQ(h.Right({Ub({I(1), S("x")}), Ua({I(2), S("y")})}), (Rows{"-D[NULL, NULL, 1, x]", "+I[2, b, 2, y]"}));
}

TEST(JoinOperatorTest, FullJoin) {
  Harness h(JoinKind::kFull);
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{"+I[1, a, NULL, NULL]"});
  EXPECT_EQ(h.Right({Ins({I(2), S("y")})}), Rows{"+I[NULL, NULL, 2, y]"});
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), (Rows{"-D[1, a, NULL, NULL]", "+I[1, a, 1, x]"}));
  // x already has a match: no padding to retract.
  EXPECT_EQ(h.Left({Ins({I(1), S("b")})}), Rows{"+I[1, b, 1, x]"});
  // Deleting x leaves both left rows without a match: each is re-padded right after its retraction.
  EXPECT_EQ(h.Right({Del({I(1), S("x")})}),
            (Rows{"-D[1, a, 1, x]", "+I[1, a, NULL, NULL]", "-D[1, b, 1, x]", "+I[1, b, NULL, NULL]"}));
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), Rows{"-D[1, a, NULL, NULL]"});
  EXPECT_EQ(h.Left({Ins({I(2), S("c")}), Ins({I(2), S("d")})}),
            (Rows{"-D[NULL, NULL, 2, y]", "+I[2, c, 2, y]", "+I[2, d, 2, y]"}));
  // An outer input's retraction is -D even when the input said -U.
  EXPECT_EQ(h.Left({Ub({I(2), S("c")}), Ua({I(3), S("c")})}), (Rows{"-D[2, c, 2, y]", "+I[3, c, NULL, NULL]"}));
}

TEST(JoinOperatorTest, DuplicateRowsAreCounted) {
  Harness h(JoinKind::kInner);
  h.Left({Ins({I(1), S("a")}), Ins({I(1), S("a")})});
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), (Rows{"+I[1, a, 1, x]", "+I[1, a, 1, x]"}));
  EXPECT_EQ(h.op().stored_rows(0), 2);
  // A retraction removes one of the two identical rows.
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), Rows{"-D[1, a, 1, x]"});
  EXPECT_EQ(h.op().stored_rows(0), 1);
  EXPECT_EQ(h.Right({Ins({I(1), S("y")})}), Rows{"+I[1, a, 1, y]"});
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), (Rows{"+I[1, a, 1, x]", "+I[1, a, 1, y]"}));
  EXPECT_EQ(h.Right({Del({I(1), S("x")})}), (Rows{"-D[1, a, 1, x]", "-D[1, a, 1, x]"}));
}

TEST(JoinOperatorTest, DuplicatesOnBothSidesOfALeftJoin) {
  Harness h(JoinKind::kLeft);
  EXPECT_EQ(h.Left({Ins({I(1), S("a")}), Ins({I(1), S("a")})}), (Rows{"+I[1, a, NULL, NULL]", "+I[1, a, NULL, NULL]"}));
  // Each padded copy is retracted.
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}),
            (Rows{"-D[1, a, NULL, NULL]", "+I[1, a, 1, x]", "-D[1, a, NULL, NULL]", "+I[1, a, 1, x]"}));
  // A second identical right row is a second match: no padding changes now or when one copy leaves.
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), (Rows{"+I[1, a, 1, x]", "+I[1, a, 1, x]"}));
  EXPECT_EQ(h.Right({Del({I(1), S("x")})}), (Rows{"-D[1, a, 1, x]", "-D[1, a, 1, x]"}));
  EXPECT_EQ(h.Right({Del({I(1), S("x")})}),
            (Rows{"-D[1, a, 1, x]", "+I[1, a, NULL, NULL]", "-D[1, a, 1, x]", "+I[1, a, NULL, NULL]"}));
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), Rows{"-D[1, a, NULL, NULL]"});
  EXPECT_EQ(h.op().stored_rows(0), 1);
  EXPECT_EQ(h.op().stored_rows(1), 0);
}

TEST(JoinOperatorTest, NullKeysNeverMatch) {
  Harness inner(JoinKind::kInner);
  EXPECT_EQ(inner.Left({Ins({NullInt(), S("a")})}), Rows{});
  EXPECT_EQ(inner.Right({Ins({NullInt(), S("x")})}), Rows{});
  EXPECT_EQ(inner.Left({Del({NullInt(), S("a")})}), Rows{});
  EXPECT_EQ(inner.op().retractions_without_state(), 0);

  Harness full(JoinKind::kFull);
  EXPECT_EQ(full.Left({Ins({NullInt(), S("a")})}), Rows{"+I[NULL, a, NULL, NULL]"});
  EXPECT_EQ(full.Right({Ins({NullInt(), S("x")})}), Rows{"+I[NULL, NULL, NULL, x]"});
  EXPECT_EQ(full.Left({Del({NullInt(), S("a")})}), Rows{"-D[NULL, a, NULL, NULL]"});
  EXPECT_EQ(full.Right({Ins({I(1), S("y")})}), Rows{"+I[NULL, NULL, 1, y]"});
}

TEST(JoinOperatorTest, NullSafeKeysMatchNull) {
  JoinOptions options;
  options.null_safe_keys = {true};
  Harness h(JoinKind::kLeft, nullptr, options);
  EXPECT_EQ(h.Left({Ins({NullInt(), S("a")})}), Rows{"+I[NULL, a, NULL, NULL]"});
  EXPECT_EQ(h.Right({Ins({NullInt(), S("x")})}), (Rows{"-D[NULL, a, NULL, NULL]", "+I[NULL, a, NULL, x]"}));
  EXPECT_EQ(h.Right({Ins({I(1), S("y")})}), Rows{});
}

TEST(JoinOperatorTest, ResidualConditionFiltersPairs) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  ExprPtr residual = Call("<", {Col(1, LogicalType::Integer()), Col(3, LogicalType::Integer())});
  Harness h(JoinKind::kLeft, residual, {}, {0}, {0}, t, t);
  EXPECT_EQ(h.Left({Ins({I(1), I(5)})}), Rows{"+I[1, 5, NULL, NULL]"});
  EXPECT_EQ(h.Right({Ins({I(1), I(3)})}), Rows{});
  EXPECT_EQ(h.Right({Ins({I(1), I(7)}), Ins({I(1), I(9)})}),
            (Rows{"-D[1, 5, NULL, NULL]", "+I[1, 5, 1, 7]", "+I[1, 5, 1, 9]"}));
  EXPECT_EQ(h.Left({Ins({I(1), I(8)}), Ins({I(1), I(1)})}),
            (Rows{"+I[1, 8, 1, 9]", "+I[1, 1, 1, 3]", "+I[1, 1, 1, 7]", "+I[1, 1, 1, 9]"}));
  EXPECT_EQ(h.Right({Del({I(1), I(9)})}), (Rows{"-D[1, 5, 1, 9]", "-D[1, 8, 1, 9]", "+I[1, 8, NULL, NULL]", "-D[1, 1, 1, 9]"}));
  EXPECT_EQ(h.Right({Del({I(1), I(3)})}), Rows{"-D[1, 1, 1, 3]"});
}

TEST(JoinOperatorTest, JoinWithoutKeys) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  Harness cross(JoinKind::kInner, nullptr, {}, {}, {}, t, t);
  cross.Left({Ins({I(1), I(10)}), Ins({I(2), I(20)})});
  EXPECT_EQ(cross.Right({Ins({I(5), I(50)})}), (Rows{"+I[1, 10, 5, 50]", "+I[2, 20, 5, 50]"}));
  EXPECT_EQ(cross.Left({Ub({I(2), I(20)}), Ua({I(3), I(30)})}), (Rows{"-U[2, 20, 5, 50]", "+U[3, 30, 5, 50]"}));

  ExprPtr residual = Call("<", {Col(1, LogicalType::Integer()), Col(3, LogicalType::Integer())});
  Harness h(JoinKind::kFull, residual, {}, {}, {}, t, t);
  EXPECT_EQ(h.Left({Ins({I(1), I(10)}), Ins({I(2), I(20)})}), (Rows{"+I[1, 10, NULL, NULL]", "+I[2, 20, NULL, NULL]"}));
  EXPECT_EQ(h.Right({Ins({I(9), I(15)})}), (Rows{"-D[1, 10, NULL, NULL]", "+I[1, 10, 9, 15]"}));
  EXPECT_EQ(h.Right({Ins({I(8), I(5)})}), Rows{"+I[NULL, NULL, 8, 5]"});
  EXPECT_EQ(h.Left({Del({I(1), I(10)})}), (Rows{"-D[1, 10, 9, 15]", "+I[NULL, NULL, 9, 15]"}));
}

TEST(JoinOperatorTest, OutputChunksNeverSplitAnUpdate) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  Harness h(JoinKind::kInner, nullptr, {}, {}, {}, t, t, /*chunk_size=*/2);
  h.Left({Ins({I(1), I(1)}), Ins({I(2), I(2)}), Ins({I(3), I(3)})});
  h.Right({Ins({I(7), I(7)})});
  EXPECT_EQ(h.sink().chunk_sizes, (std::vector<size_t>{2, 1}));
  h.sink().chunk_sizes.clear();
  Rows out = h.Right({Ub({I(7), I(7)}), Ua({I(8), I(8)}), Ins({I(9), I(9)})});
  EXPECT_EQ(out, (Rows{"-U[1, 1, 7, 7]", "-U[2, 2, 7, 7]", "-U[3, 3, 7, 7]", "+U[1, 1, 8, 8]", "+U[2, 2, 8, 8]",
                       "+U[3, 3, 8, 8]", "+I[1, 1, 9, 9]", "+I[2, 2, 9, 9]", "+I[3, 3, 9, 9]"}));
  EXPECT_EQ(h.sink().chunk_sizes, (std::vector<size_t>{6, 2, 1}));
}

TEST(JoinOperatorTest, UpsertInputWithUniqueKey) {
  JoinOptions options;
  options.right_unique_key = {0};
  Harness h(JoinKind::kLeft, nullptr, options);
  h.Right({Ins({I(1), S("x")})});
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{"+I[1, a, 1, x]"});
  // +U without -U replaces the stored row of the same unique key.
  EXPECT_EQ(h.Right({Ua({I(1), S("y")})}), Rows{"+I[1, a, 1, y]"});
  EXPECT_EQ(h.op().stored_rows(1), 1);
  EXPECT_EQ(h.Left({Ins({I(1), S("b")})}), Rows{"+I[1, b, 1, y]"});
  // The replacement did not count as a second match: one delete re-pads the left rows.
  EXPECT_EQ(h.Right({Del({I(1), S("y")})}),
            (Rows{"-D[1, a, 1, y]", "+I[1, a, NULL, NULL]", "-D[1, b, 1, y]", "+I[1, b, NULL, NULL]"}));
  EXPECT_EQ(h.op().stored_rows(1), 0);
}

TEST(JoinOperatorTest, WithoutUpdateBefore) {
  JoinOptions options;
  options.emit_update_before = false;
  Harness h(JoinKind::kInner, nullptr, options);
  h.Left({Ins({I(1), S("a")})});
  h.Right({Ins({I(1), S("x")})});
  EXPECT_EQ(h.Left({Ub({I(1), S("a")}), Ua({I(1), S("b")})}), Rows{"+U[1, b, 1, x]"});
}

TEST(JoinOperatorTest, RetractionWithoutStateIsCounted) {
  Harness h(JoinKind::kInner);
  h.Right({Ins({I(1), S("x")})});
  // Flink still sends the joined retraction; we count the missing row.
  EXPECT_EQ(h.Left({Del({I(1), S("a")})}), Rows{"-D[1, a, 1, x]"});
  EXPECT_EQ(h.op().retractions_without_state(), 1);
}

TEST(JoinOperatorTest, StateSurvivesArenaCompaction) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  Harness h(JoinKind::kInner, nullptr, {}, {0}, {0}, t, t);
  std::vector<Row> ins, del;
  for (int i = 0; i < 6000; ++i) ins.push_back(Ins({I(i), I(i * 2)}));
  for (int i = 0; i < 6000; ++i) {
    if (i % 10 != 0) del.push_back(Del({I(i), I(i * 2)}));
  }
  h.Left(ins);
  h.Left(del);
  EXPECT_EQ(h.op().stored_rows(0), 600);
  EXPECT_EQ(h.Right({Ins({I(30), I(0)}), Ins({I(31), I(0)}), Ins({I(5990), I(1)})}),
            (Rows{"+I[30, 60, 30, 0]", "+I[5990, 11980, 5990, 1]"}));
  EXPECT_EQ(h.Left({Del({I(30), I(60)})}), Rows{"-D[30, 60, 30, 0]"});
}

// ---- Incremental checkpoints: a full snapshot plus deltas restores the same state. ----

using namespace snapshot_chain;  // FullSnapshot, Delta, RestoreFull, RestoreDelta, RestoreChain

// Feeds `steps` (side, rows) to both harnesses and expects the same output.
void ExpectSameOutput(Harness& a, Harness& b, const std::vector<std::pair<int, std::vector<Row>>>& steps) {
  for (const auto& [side, rows] : steps) {
    Rows out_a = a.Feed(side, rows);
    Rows out_b = b.Feed(side, rows);
    EXPECT_EQ(out_a, out_b);
  }
}

TEST(JoinOperatorTest, DeltaCheckpointsOfAnInnerJoin) {
  Harness a(JoinKind::kInner);
  a.Left({Ins({I(1), S("a")}), Ins({I(2), S("b")}), Ins({I(1), S("c")})});
  a.Right({Ins({I(1), S("x")}), Ins({I(3), S("y")})});
  const std::string full = FullSnapshot(a.op());
  // New keys, more rows on old keys (their groups' tails change), duplicates.
  a.Left({Ins({I(3), S("d")}), Ins({I(1), S("e")}), Ins({I(4), S("f")}), Ins({I(4), S("f")})});
  a.Right({Ins({I(2), S("z")}), Ins({I(1), S("w")})});
  const std::string d1 = Delta(a.op());
  // Retractions (the left side becomes indexed; entries are freed and reused), updates, new keys.
  a.Left({Del({I(1), S("a")}), Del({I(4), S("f")}), Ub({I(2), S("b")}), Ua({I(2), S("bb")}), Ins({I(5), S("g")})});
  a.Right({Del({I(3), S("y")}), Ins({I(5), S("v")}), Ins({I(1), S("x")})});
  a.Left({Ins({I(1), S("h")}), Ins({I(6), S("i")})});
  const std::string d2 = Delta(a.op());
  // A delta with nothing new is still a delta.
  const std::string d3 = Delta(a.op());
  EXPECT_LT(d1.size(), full.size() + 1024);

  Harness b(JoinKind::kInner);
  RestoreChain(b.op(), {full, d1, d2, d3});
  EXPECT_EQ(b.op().stored_rows(0), a.op().stored_rows(0));
  EXPECT_EQ(b.op().stored_rows(1), a.op().stored_rows(1));
  EXPECT_EQ(FullSnapshot(b.op()), FullSnapshot(a.op()));
  ExpectSameOutput(a, b,
                   {{0, {Ins({I(1), S("j")}), Del({I(1), S("e")}), Ins({I(2), S("k")})}},
                    {1, {Ins({I(1), S("u")}), Del({I(2), S("z")}), Ins({I(6), S("t")}), Ins({I(4), S("s")})}},
                    {0, {Del({I(4), S("f")}), Del({I(2), S("bb")}), Ins({I(6), S("i")})}}});
  EXPECT_EQ(FullSnapshot(b.op()), FullSnapshot(a.op()));
}

TEST(JoinOperatorTest, DeltaCheckpointsOfAFullJoinWithRetractionsAndTtl) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::String()};
  JoinOptions options;
  options.left_ttl_ms = 1000;
  options.right_ttl_ms = 1500;
  ExprPtr residual = Call("<>", {Col(1, LogicalType::String()), Col(3, LogicalType::String())});
  auto make = [&] { return std::make_unique<Harness>(JoinKind::kFull, residual, options); };
  auto a = make();
  a->SetTimeMs(0);
  a->Left({Ins({I(1), S("a")}), Ins({I(2), S("b")}), Ins({I(1), S("a")})});
  a->Right({Ins({I(1), S("x")}), Ins({I(7), S("y")})});
  a->SetTimeMs(400);
  a->Left({Ins({I(7), S("c")}), Del({I(1), S("a")})});
  const std::string full = FullSnapshot(a->op());
  a->SetTimeMs(900);
  // Association counts of stored rows change (dirty entries), padded rows are retracted and re-sent.
  a->Right({Ins({I(2), S("z")}), Del({I(1), S("x")}), Ins({I(3), S("w")})});
  a->Left({Ub({I(2), S("b")}), Ua({I(2), S("b2")}), Ins({I(3), S("d")})});
  const std::string d1 = Delta(a->op());
  // Left rows written at 0 and 400 expire (ttl 1s); right rows written at 0 expire (ttl 1.5s).
  a->SetTimeMs(1600);
  a->Left({Ins({I(8), S("e")})});
  a->Right({Ins({I(8), S("v")}), Ins({I(3), S("d")})});
  a->SetTimeMs(2000);
  a->Left({Del({I(3), S("d")}), Ins({I(3), S("f")})});
  const std::string d2 = Delta(a->op());
  EXPECT_GT(a->op().metrics().expired_states, 0);

  auto b = make();
  b->SetTimeMs(2000);
  RestoreChain(b->op(), {full, d1, d2});
  EXPECT_EQ(FullSnapshot(b->op()), FullSnapshot(a->op()));
  // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
  ManualClock clock{2000};
  EvalContext eval;
  eval.clock = &clock;
  JobContext ctx;
  ctx.eval = &eval;
  ExpectFailedDeltasDropTheState(
      [&] {
        auto op = std::make_unique<JoinOperator>("Join", JoinKind::kFull, t, t, std::vector<int>{0},
                                                 std::vector<int>{0}, residual, options);
        EXPECT_TRUE(op->Open(&ctx).ok());
        return op;
      },
      {full, d1, d2});
  a->SetTimeMs(2100);
  b->SetTimeMs(2100);
  ExpectSameOutput(*a, *b,
                   {{0, {Ins({I(8), S("g")}), Del({I(2), S("b2")}), Ins({I(1), S("h")})}},
                    {1, {Ins({I(3), S("u")}), Del({I(8), S("v")}), Ins({I(2), S("b9")})}}});
  // Past every TTL: both expire the same rows at the same moment.
  a->SetTimeMs(5000);
  b->SetTimeMs(5000);
  ExpectSameOutput(*a, *b, {{1, {Ins({I(8), S("q")}), Ins({I(3), S("p")})}}, {0, {Ins({I(3), S("o")})}}});
  EXPECT_EQ(b->op().metrics().expired_states, a->op().metrics().expired_states);
  EXPECT_EQ(FullSnapshot(b->op()), FullSnapshot(a->op()));
}

TEST(JoinOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  Harness a(JoinKind::kLeft);
  a.Left({Ins({I(1), S("a")}), Ins({I(2), S("b")})});
  const std::string full = FullSnapshot(a.op());
  a.Right({Ins({I(1), S("x")})});  // only dirty entries and groups: no size changes
  const std::string d1 = Delta(a.op());
  a.Left({Ins({I(3), S("c")})});
  const std::string d2 = Delta(a.op());

  Harness fresh(JoinKind::kLeft);
  EXPECT_FALSE(RestoreDelta(fresh.op(), d1).ok());
  Harness twice(JoinKind::kLeft);
  ASSERT_TRUE(RestoreFull(twice.op(), full).ok());
  ASSERT_TRUE(RestoreDelta(twice.op(), d1).ok());
  Status st = RestoreDelta(twice.op(), d1);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("applied to snapshot"), std::string::npos) << st.ToString();
  Harness skipped(JoinKind::kLeft);
  ASSERT_TRUE(RestoreFull(skipped.op(), full).ok());
  EXPECT_FALSE(RestoreDelta(skipped.op(), d2).ok());
  // A truncated delta is refused, never half-applied silently.
  Harness truncated(JoinKind::kLeft);
  ASSERT_TRUE(RestoreFull(truncated.op(), full).ok());
  EXPECT_FALSE(RestoreDelta(truncated.op(), d1.substr(0, d1.size() - 3)).ok());
  // Every single corrupted byte of a delta is refused or yields a state that restores without a crash.
  for (size_t pos = 0; pos < d2.size(); ++pos) {
    std::string bad = d2;
    bad[pos] = static_cast<char>(bad[pos] ^ 0x5a);
    Harness h(JoinKind::kLeft);
    ASSERT_TRUE(RestoreFull(h.op(), full).ok());
    ASSERT_TRUE(RestoreDelta(h.op(), d1).ok());
    (void)RestoreDelta(h.op(), bad);  // either outcome is fine; the point is no crash
  }
  // The chain in order works.
  Harness ok(JoinKind::kLeft);
  RestoreChain(ok.op(), {full, d1, d2});
  EXPECT_EQ(FullSnapshot(ok.op()), FullSnapshot(a.op()));
}

TEST(JoinOperatorTest, CompactionForcesAFullSnapshot) {
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  Harness a(JoinKind::kInner, nullptr, {}, {0}, {0}, t, t);
  std::vector<Row> ins, del;
  for (int i = 0; i < 6000; ++i) ins.push_back(Ins({I(i % 100), I(i)}));
  for (int i = 0; i < 6000; ++i) {
    if (i % 10 != 0) del.push_back(Del({I(i % 100), I(i)}));
  }
  a.Left(ins);
  const std::string full = FullSnapshot(a.op());
  EXPECT_TRUE(a.op().CanSnapshotDelta());
  a.Left(del);  // releases 90% of the arena's rows: it is compacted
  EXPECT_FALSE(a.op().CanSnapshotDelta());
  const std::string full2 = FullSnapshot(a.op());
  EXPECT_LT(full2.size(), full.size() / 2);
  EXPECT_TRUE(a.op().CanSnapshotDelta());
  a.Right({Ins({I(30), I(0)})});
  const std::string d1 = Delta(a.op());
  Harness b(JoinKind::kInner, nullptr, {}, {0}, {0}, t, t);
  RestoreChain(b.op(), {full2, d1});
  ExpectSameOutput(a, b, {{1, {Ins({I(30), I(1)}), Ins({I(99), I(1)})}}, {0, {Del({I(30), I(30)})}}});
  EXPECT_EQ(FullSnapshot(b.op()), FullSnapshot(a.op()));
}

// ---- Randomized: the folded changelog equals the join of the final inputs. ----

using Tuple = std::vector<std::optional<int32_t>>;

std::string TupleText(RowKind kind, const Tuple& l, const Tuple& r) {
  std::string s(RowKindShortString(kind));
  s += "[";
  bool first = true;
  for (const Tuple* t : {&l, &r}) {
    for (const auto& v : *t) {
      if (!first) s += ", ";
      first = false;
      s += v ? std::to_string(*v) : "NULL";
    }
  }
  return s + "]";
}

// The expected final table of `kind` join over the multisets `left` and `right` (k, v) with key k and
// residual l.v < r.v, as "+I[...]" strings, sorted.
std::vector<std::string> ExpectedJoin(JoinKind kind, const std::vector<Tuple>& left, const std::vector<Tuple>& right) {
  std::vector<std::string> out;
  auto match = [](const Tuple& l, const Tuple& r) { return l[0] && r[0] && *l[0] == *r[0] && *l[1] < *r[1]; };
  Tuple nulls = {std::nullopt, std::nullopt};
  std::vector<bool> right_matched(right.size(), false);
  for (const auto& l : left) {
    bool any = false;
    for (size_t j = 0; j < right.size(); ++j) {
      if (match(l, right[j])) {
        out.push_back(TupleText(RowKind::kInsert, l, right[j]));
        any = true;
        right_matched[j] = true;
      }
    }
    if (!any && (kind == JoinKind::kLeft || kind == JoinKind::kFull)) out.push_back(TupleText(RowKind::kInsert, l, nulls));
  }
  if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
    for (size_t j = 0; j < right.size(); ++j) {
      if (!right_matched[j]) out.push_back(TupleText(RowKind::kInsert, nulls, right[j]));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Folds a changelog into the final table, failing on a retraction of a row that is not there.
std::vector<std::string> Fold(const Rows& changelog) {
  std::multiset<std::string> table;
  for (const auto& row : changelog) {
    std::string body = "+I" + row.substr(2);
    if (row[0] == '+') {
      table.insert(body);
    } else {
      auto it = table.find(body);
      EXPECT_TRUE(it != table.end()) << "retraction of a missing row: " << row;
      if (it != table.end()) table.erase(it);
    }
  }
  return std::vector<std::string>(table.begin(), table.end());
}

class JoinRandomTest : public ::testing::TestWithParam<std::tuple<JoinKind, size_t>> {};

TEST_P(JoinRandomTest, FoldedChangelogEqualsJoinOfFinalInputs) {
  const auto [kind, feed_size] = GetParam();
  std::vector<LogicalType> t = {LogicalType::Integer(), LogicalType::Integer()};
  ExprPtr residual = Call("<", {Col(1, LogicalType::Integer()), Col(3, LogicalType::Integer())});
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    Harness h(kind, residual, {}, {0}, {0}, t, t, /*chunk_size=*/7);
    // Restores its state in place after every feed from a chain of a full snapshot and up to three
    // deltas, as the checkpoint round-trip test mode does; its output must equal h's exactly.
    Harness mirror(kind, residual, {}, {0}, {0}, t, t, /*chunk_size=*/7);
    std::vector<std::string> chain;
    std::mt19937 rng(seed);
    std::vector<Tuple> live[2];
    Rows changelog;
    std::vector<Row> pending;
    int pending_side = 0;
    auto flush = [&] {
      if (pending.empty()) return;
      Rows out = h.Feed(pending_side, pending);
      EXPECT_EQ(mirror.Feed(pending_side, pending), out) << "seed " << seed;
      changelog.insert(changelog.end(), out.begin(), out.end());
      pending.clear();
      if (chain.empty() || chain.size() >= 4 || !mirror.op().CanSnapshotDelta()) {
        chain.clear();
        chain.push_back(FullSnapshot(mirror.op()));
      } else {
        chain.push_back(Delta(mirror.op()));
      }
      RestoreChain(mirror.op(), chain);
    };
    for (int step = 0; step < 400; ++step) {
      int side = static_cast<int>(rng() % 2);
      if (side != pending_side || pending.size() >= feed_size) flush();
      pending_side = side;
      auto& rows = live[side];
      auto value = [&](int32_t v) { return Value::Integer(v); };
      auto to_values = [&](const Tuple& tup) {
        return std::vector<Value>{tup[0] ? value(*tup[0]) : NullInt(), value(*tup[1])};
      };
      uint32_t action = rng() % 10;
      if (action < 6 || rows.empty()) {
        Tuple tup = {rng() % 8 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(rng() % 4)),
                     static_cast<int32_t>(rng() % 5)};
        rows.push_back(tup);
        pending.push_back(Ins(to_values(tup)));
      } else if (action < 8) {
        size_t idx = rng() % rows.size();
        pending.push_back(Del(to_values(rows[idx])));
        rows.erase(rows.begin() + static_cast<ptrdiff_t>(idx));
      } else {
        size_t idx = rng() % rows.size();
        Tuple after = {rows[idx][0], static_cast<int32_t>(rng() % 5)};
        pending.push_back(Ub(to_values(rows[idx])));
        pending.push_back(Ua(to_values(after)));
        rows[idx] = after;
      }
    }
    flush();
    EXPECT_EQ(Fold(changelog), ExpectedJoin(kind, live[0], live[1])) << "seed " << seed;
    EXPECT_EQ(h.op().retractions_without_state(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, JoinRandomTest,
                         ::testing::Combine(::testing::Values(JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight,
                                                              JoinKind::kFull),
                                            ::testing::Values(size_t{1}, size_t{64})));

// Mini-batch (Flink's MiniBatchStreamingJoinOperator): one bundle of 4 rows over both inputs.
TEST(JoinOperatorTest, MiniBatchFoldsEachSideAndAppliesTheRightSideFirst) {
  JoinOptions options;
  options.mini_batch_size = 4;
  Harness h(JoinKind::kLeft, nullptr, options);
  // Left: +I[1, a] and its -U cancel; +U[1, b] stays. Nothing is emitted before the bundle closes.
  EXPECT_EQ(h.Left({Ins({I(1), S("a")}), Ub({I(1), S("a")}), Ua({I(1), S("b")})}), Rows{});
  // The fourth row closes the bundle: the right row is stored first, so the left row joins at once
  // (no NULL-padded row emitted and retracted).
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), Rows{"+I[1, b, 1, x]"});
  // An unmatched left row waits for the next bundle, closed by a watermark.
  EXPECT_EQ(h.Left({Ins({I(2), S("c")})}), Rows{});
  ASSERT_TRUE(h.op().ReceiveWatermark(0, 5).ok());
  ASSERT_TRUE(h.op().ReceiveWatermark(1, 5).ok());
  EXPECT_EQ(h.sink().Take(), Rows{"+I[2, c, NULL, NULL]"});
  EXPECT_EQ(h.op().metrics().rows_in, 5);
}

// As Flink's MiniBatchStreamingJoinOperator (processWatermark1/2): a watermark that advances either
// input's own watermark closes the bundle, though the combined watermark stays; one that does not
// advance it (or the end of the other input, with nothing buffered) leaves the bundle open.
TEST(JoinOperatorTest, MiniBatchBundleClosesAtAWatermarkOfEitherInput) {
  JoinOptions options;
  options.mini_batch_size = 100;
  Harness h(JoinKind::kLeft, nullptr, options);
  ASSERT_TRUE(h.op().ReceiveWatermark(0, 10).ok());
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{});
  // The right input's watermark alone closes the bundle: row 1 is padded.
  ASSERT_TRUE(h.op().ReceiveWatermark(1, 5).ok());
  EXPECT_EQ(h.sink().Take(), Rows{"+I[1, a, NULL, NULL]"});
  EXPECT_EQ(h.sink().watermarks, (std::vector<int64_t>{5}));
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), Rows{});
  // Not an advance of either input: the bundle stays open.
  ASSERT_TRUE(h.op().ReceiveWatermark(0, 10).ok());
  ASSERT_TRUE(h.op().ReceiveWatermark(1, 5).ok());
  EXPECT_EQ(h.sink().Take(), Rows{});
  // The left input's watermark advances, the combined one (the right input's) does not.
  ASSERT_TRUE(h.op().ReceiveWatermark(0, 20).ok());
  EXPECT_EQ(h.sink().Take(), (Rows{"-D[1, a, NULL, NULL]", "+I[1, a, 1, x]"}));
  EXPECT_EQ(h.sink().watermarks, (std::vector<int64_t>{5}));
  // An input's end is its final watermark: it closes the bundle.
  EXPECT_EQ(h.Left({Ins({I(1), S("b")})}), Rows{});
  ASSERT_TRUE(h.op().ReceiveEndOfInput(1).ok());
  EXPECT_EQ(h.sink().Take(), Rows{"+I[1, b, 1, x]"});
  EXPECT_EQ(h.sink().watermarks, (std::vector<int64_t>{5, 20}));
}

// A side whose unique key is the join key (Flink's JoinKeyContainsUniqueKeyBundle): per key only the
// last change of a bundle counts, and a -U/+U pair is applied with suppression.
TEST(JoinOperatorTest, MiniBatchUniqueKeyBundleSuppressesPaddingBetweenAnUpdatesHalves) {
  JoinOptions options;
  options.mini_batch_size = 2;
  options.left_unique_key = {0};
  Harness h(JoinKind::kFull, nullptr, options);
  EXPECT_EQ(h.Right({Ins({I(1), S("x")})}), Rows{});
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), (Rows{"+I[NULL, NULL, 1, x]", "-D[NULL, NULL, 1, x]", "+I[1, a, 1, x]"}));
  // Without a unique key: -D[1, a, 1, x], +I[NULL, NULL, 1, x], -D[NULL, NULL, 1, x], +I[1, b, 1, x].
  EXPECT_EQ(h.Left({Ub({I(1), S("a")}), Ua({I(1), S("b")})}), (Rows{"-D[1, a, 1, x]", "+I[1, b, 1, x]"}));
  EXPECT_EQ(h.op().stored_rows(0), 1);
  // +I and -U of a key in one bundle leave nothing; a later +U of a key replaces an earlier one.
  EXPECT_EQ(h.Left({Ins({I(2), S("c")}), Ub({I(2), S("c")})}), Rows{});
  EXPECT_EQ(h.Left({Ub({I(1), S("b")}), Ua({I(1), S("d")})}), (Rows{"-D[1, b, 1, x]", "+I[1, d, 1, x]"}));
  // The right row is still matched once: its retraction pads it back.
  EXPECT_EQ(h.Right({Del({I(1), S("x")}), Ins({I(9), S("z")})}),
            (Rows{"-D[1, d, 1, x]", "+I[1, d, NULL, NULL]", "+I[NULL, NULL, 9, z]"}));
}

// A side with a unique key that is not the join key (Flink's InputSideHasUniqueKeyBundle): folded per
// unique key within each join key.
TEST(JoinOperatorTest, MiniBatchHasUniqueKeyBundleFoldsPerUniqueKey) {
  JoinOptions options;
  options.mini_batch_size = 5;
  options.right_unique_key = {1};
  Harness h(JoinKind::kLeft, nullptr, options);
  EXPECT_EQ(h.Left({Ins({I(1), S("a")})}), Rows{});
  // Key 1 holds unique keys x and y: x's +I, -U and +U fold to its +U, y's +I stays.
  EXPECT_EQ(h.Right({Ins({I(1), S("x")}), Ins({I(1), S("y")}), Ub({I(1), S("x")}), Ua({I(1), S("x")})}),
            (Rows{"+I[1, a, 1, x]", "+I[1, a, 1, y]"}));
  EXPECT_EQ(h.op().stored_rows(1), 2);
}

TEST(JoinOperatorTest, MiniBatchOpenBundleSurvivesASnapshot) {
  JoinOptions options;
  options.mini_batch_size = 3;
  Harness a(JoinKind::kInner, nullptr, options);
  EXPECT_EQ(a.Left({Ins({I(1), S("a")})}), Rows{});
  EXPECT_EQ(a.Right({Ins({I(1), S("x")})}), Rows{});
  StateWriter w;
  ASSERT_TRUE(a.op().WriteSnapshot(&w).ok());
  const std::string snapshot = w.Release();
  Harness b(JoinKind::kInner, nullptr, options);
  StateReader r(snapshot, "full");
  ASSERT_TRUE(b.op().Restore(&r).ok());
  EXPECT_EQ(b.Left({Ins({I(1), S("c")})}), (Rows{"+I[1, a, 1, x]", "+I[1, c, 1, x]"}));
}

}  // namespace
}  // namespace sluice
