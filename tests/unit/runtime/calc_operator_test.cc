// CalcOperator's shared subexpressions (function/common_subexpr.h): a deterministic subexpression
// that the condition and projections repeat is evaluated once per chunk, counted through a test-only
// function; a non-deterministic one never is, and a failing one only where it ran on every row anyway.
#include "runtime/operators/calc_operator.h"

#include <gtest/gtest.h>

#include "function/common_subexpr.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::Big;
using testing::I;
using testing::MakeChunk;
using Lines = std::vector<std::string>;

const LogicalType kBig = LogicalType::BigInt();

// TIMES_TEN(x): x * 10, counting the rows it is evaluated on.
std::shared_ptr<ScalarFunction> TimesTen(int64_t* rows_evaluated, bool deterministic, bool can_fail = false) {
  auto f = std::make_shared<ScalarFunction>();
  f->name = "TIMES_TEN";
  f->arg_types = {kBig};
  f->return_type = kBig;
  f->deterministic = deterministic;
  f->can_fail = can_fail;
  f->kernel = [rows_evaluated](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    *rows_evaluated += static_cast<int64_t>(rows);
    const int64_t* in = args[0]->data<int64_t>();
    int64_t* o = out->data<int64_t>();
    for (size_t i = 0; i < rows; ++i) {
      if (args[0]->IsNull(i)) {
        out->SetNull(i, true);
      } else {
        o[i] = in[i] * 10;
      }
    }
    return Status::OK();
  };
  return f;
}

ExprPtr Call(const std::string& name, std::vector<ExprPtr> args) {
  std::vector<LogicalType> types;
  std::vector<const Value*> consts;
  for (const auto& a : args) {
    types.push_back(a->type);
    consts.push_back(a->kind == ExprKind::kLiteral ? &a->literal : nullptr);
  }
  auto r = ResolveScalar(name, types, consts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return MakeCall(r->function, std::move(args));
}

ExprPtr Lit(int64_t v) { return MakeLiteral(Value::Int(kBig.WithNullable(false), v)); }

ExprPtr Special(ExprKind kind, LogicalType type, std::vector<ExprPtr> args, bool has_else = false) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = std::move(type);
  e->args = std::move(args);
  e->has_else = has_else;
  return e;
}

// WHERE c0 = 99 OR f(c0) > 5, SELECT c0, CASE WHEN f(c0) > 30 THEN f(c0) ELSE -f(c0) END: f(c0)
// occurs four times, three of them on only some rows (a later OR operand, a THEN, an ELSE).
struct Query {
  ExprPtr condition;
  std::vector<ExprPtr> projections;
};

Query MakeQuery(const std::shared_ptr<ScalarFunction>& f) {
  ExprPtr c0 = MakeColumnRef(0, kBig);
  auto fx = [&] { return MakeCall(f, {c0}); };  // a new node per occurrence, as the binder makes them
  Query q;
  q.condition = Special(ExprKind::kOr, LogicalType::Boolean(), {Call("=", {c0, Lit(99)}), Call(">", {fx(), Lit(5)})});
  q.projections = {c0, Special(ExprKind::kCase, kBig, {Call(">", {fx(), Lit(30)}), fx(), Call("NEGATE", {fx()})}, true)};
  return q;
}

struct CalcRun {
  Lines rows;
  int64_t evaluated = 0;
};

CalcRun RunCalc(bool deterministic, size_t chunk_rows) {
  CalcRun run;
  auto f = TimesTen(&run.evaluated, deterministic);
  Query q = MakeQuery(f);
  CalcOperator op("Calc", q.projections, q.condition, 1);
  testing::CollectSink sink;
  JobContext ctx;
  EvalContext eval;
  ctx.eval = &eval;
  op.AddOutput(&sink, 0);
  EXPECT_TRUE(op.Open(&ctx).ok());
  EXPECT_TRUE(sink.Open(&ctx).ok());
  std::vector<testing::Row> rows;
  for (int64_t v = 0; v < 8; ++v) rows.push_back(I({Big(v)}));
  for (size_t b = 0; b < rows.size(); b += chunk_rows) {
    std::vector<testing::Row> part(rows.begin() + static_cast<std::ptrdiff_t>(b),
                                   rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), b + chunk_rows)));
    Chunk c = MakeChunk({kBig}, part);
    EXPECT_TRUE(op.Process(0, c).ok());
  }
  run.rows = sink.Changes();
  return run;
}

const Lines kExpected = {"+I[1, -10]", "+I[2, -20]", "+I[3, -30]", "+I[4, 40]",
                         "+I[5, 50]",  "+I[6, 60]",  "+I[7, 70]"};

TEST(CalcOperatorTest, RepeatedSubexpressionIsEvaluatedOncePerChunk) {
  for (size_t chunk : {size_t{8}, size_t{3}, size_t{1}}) {
    CalcRun run = RunCalc(/*deterministic=*/true, chunk);
    EXPECT_EQ(run.rows, kExpected) << "chunk " << chunk;
    // Once per input row (8), not once per occurrence.
    EXPECT_EQ(run.evaluated, 8) << "chunk " << chunk;
  }
}

TEST(CalcOperatorTest, NonDeterministicCallsAreNeverMerged) {
  CalcRun run = RunCalc(/*deterministic=*/false, 8);
  EXPECT_EQ(run.rows, kExpected);
  // OR's second operand on all 8 rows (its first operand decides none), then, on the 7 rows the filter
  // keeps, the WHEN on 7, the THEN on 4 and the ELSE on 3: every occurrence runs on its own.
  EXPECT_EQ(run.evaluated, 8 + 7 + 4 + 3);
}

TEST(CommonSubexpressionsTest, ProgramHasOneColumnPerDistinctSubexpression) {
  int64_t n = 0;
  Query q = MakeQuery(TimesTen(&n, true));
  CommonSubexpressions p = ExtractCommonSubexpressions({q.condition, q.projections[0], q.projections[1]},
                                                       {true, false, false}, 1);
  ASSERT_EQ(p.common.size(), 1u);
  EXPECT_EQ(p.common[0]->kind, ExprKind::kCall);
  EXPECT_EQ(p.common[0]->function->name, "TIMES_TEN");
  ASSERT_EQ(p.exprs.size(), 3u);
  EXPECT_EQ(p.exprs[0]->ToString(), "OR(($0 = 99), ($1 > 5))");
  EXPECT_EQ(p.exprs[1], q.projections[0]);  // untouched
  EXPECT_EQ(p.exprs[2]->ToString(), "CASE(($1 > 30), $1, -($1))");
}

TEST(CommonSubexpressionsTest, FailingSubexpressionIsSharedOnlyWhenItRunsOnEveryRow) {
  int64_t n = 0;
  Query q = MakeQuery(TimesTen(&n, true, /*can_fail=*/true));
  // Every occurrence is behind a short-circuit or the filter: evaluating it on every row could raise
  // an error the query would not.
  CommonSubexpressions p = ExtractCommonSubexpressions({q.condition, q.projections[1]}, {true, false}, 1);
  EXPECT_TRUE(p.common.empty());
  // The CASE's first WHEN runs on every row when nothing filters them first.
  p = ExtractCommonSubexpressions({q.projections[1]}, {true}, 1);
  EXPECT_EQ(p.common.size(), 1u);
}

TEST(CommonSubexpressionsTest, NestedRepeatsShareTheInnerOneToo) {
  int64_t n = 0;
  auto f = TimesTen(&n, true);
  ExprPtr c0 = MakeColumnRef(0, kBig);
  ExprPtr a = Call("+", {MakeCall(f, {c0}), Lit(1)});
  ExprPtr b = Call("+", {MakeCall(f, {c0}), Lit(1)});
  ExprPtr c = Call("*", {MakeCall(f, {c0}), Lit(2)});
  CommonSubexpressions p = ExtractCommonSubexpressions({a, b, c}, {true, true, true}, 1);
  ASSERT_EQ(p.common.size(), 2u);  // f(c0), then f(c0) + 1 over it
  EXPECT_EQ(p.common[1]->ToString(), "($1 + 1)");
  EXPECT_EQ(p.exprs[0]->ToString(), "$2");
  EXPECT_EQ(p.exprs[2]->ToString(), "($1 * 2)");
}

}  // namespace
}  // namespace sluice
