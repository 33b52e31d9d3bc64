#include <gtest/gtest.h>

#include "common/clock.h"
#include "function_test_util.h"

namespace sluice::testing {
namespace {

const LogicalType kBig = LogicalType::BigInt();
const LogicalType kBool = LogicalType::Boolean();

Chunk Numbers() {
  return MakeChunk({kBig, LogicalType::String()}, {{Value::BigInt(5), Value::String("a")},
                                                   {Value::BigInt(0), Value::String("b")},
                                                   {Value::Null(kBig), Value::Null(LogicalType::String())},
                                                   {Value::BigInt(-2), Value::String("d")}});
}

std::vector<std::string> Texts(const Vector& v) {
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(v.IsNull(i) ? "NULL" : v.GetValue(i).ToString());
  return out;
}

TEST(EvaluatorTest, ProjectsColumnsLiteralsAndCalls) {
  Chunk c = Numbers();
  EvalContext ctx;
  ExprEvaluator ev({Col(1, LogicalType::String()), LitInt(7), Call("*", {Col(0, kBig), LitInt(2)})}, &ctx);
  std::vector<Vector> out;
  ASSERT_TRUE(ev.Evaluate(c, &out).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(Texts(out[0]), (std::vector<std::string>{"a", "b", "NULL", "d"}));
  EXPECT_EQ(Texts(out[1]), (std::vector<std::string>{"7", "7", "7", "7"}));
  EXPECT_EQ(Texts(out[2]), (std::vector<std::string>{"10", "0", "NULL", "-4"}));
  // A second batch reuses the cached literal vectors.
  ASSERT_TRUE(ev.Evaluate(c, &out).ok());
  EXPECT_EQ(Texts(out[2]), (std::vector<std::string>{"10", "0", "NULL", "-4"}));
}

// Literal vectors are cached per row count; batches of many sizes must not drop a cached literal that
// an expression still reads (3 is fetched, then (col + 4) adds a new entry). Nexmark q14 crashed on this.
TEST(EvaluatorTest, LiteralCacheSurvivesManyBatchSizes) {
  EvalContext ctx;
  ExprEvaluator ev({Call("*", {LitInt(3), Call("+", {Col(0, kBig), LitInt(4)})})}, &ctx);
  for (size_t rows = 1; rows <= 600; ++rows) {
    std::vector<std::vector<Value>> data;
    for (size_t r = 0; r < rows; ++r) data.push_back({Value::BigInt(static_cast<int64_t>(r))});
    Chunk c = MakeChunk({kBig}, data);
    Vector out;
    ASSERT_TRUE(ev.EvaluateOne(0, c, &out).ok());
    ASSERT_EQ(out.size(), rows);
    EXPECT_EQ(out.GetValue(rows - 1).ToString(), std::to_string(3 * (static_cast<int64_t>(rows) - 1 + 4)));
  }
}

TEST(EvaluatorTest, FilterSelectsTrueRowsOnly) {
  Chunk c = Numbers();
  EvalContext ctx;
  ExprEvaluator ev({Call(">", {Col(0, kBig), LitInt(-1)})}, &ctx);
  std::vector<uint32_t> sel;
  ASSERT_TRUE(ev.Filter(c, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{0, 1}));
}

TEST(EvaluatorTest, AndShortCircuitsDivisionByZero) {
  Chunk c = Numbers();
  EvalContext ctx;
  // x <> 0 AND 10 / x > 1: row 1 (x = 0) never divides.
  auto pred = Special(ExprKind::kAnd, kBool,
                      {Call("<>", {Col(0, kBig), LitInt(0)}), Call(">", {Call("/", {LitInt(10), Col(0, kBig)}), LitInt(1)})});
  ExprEvaluator ev({pred}, &ctx);
  std::vector<uint32_t> sel;
  ASSERT_TRUE(ev.Filter(c, &sel).ok());
  EXPECT_EQ(sel, (std::vector<uint32_t>{0}));
  std::vector<Vector> out;
  ASSERT_TRUE(ev.Evaluate(c, &out).ok());
  EXPECT_EQ(Texts(out[0]), (std::vector<std::string>{"TRUE", "FALSE", "NULL", "FALSE"}));
  // Without the guard the division fails.
  ExprEvaluator bad({Call("/", {LitInt(10), Col(0, kBig)})}, &ctx);
  EXPECT_FALSE(bad.Evaluate(c, &out).ok());
}

TEST(EvaluatorTest, ThreeValuedLogicOverChunks) {
  // Covers both the gathering path (few undecided rows) and the full-batch path (many).
  Chunk c = MakeChunk({kBool, kBool}, {{Value::Boolean(true), Value::Boolean(true)},
                                       {Value::Boolean(true), Value::Boolean(false)},
                                       {Value::Boolean(true), Value::Null(kBool)},
                                       {Value::Boolean(false), Value::Null(kBool)},
                                       {Value::Null(kBool), Value::Boolean(false)},
                                       {Value::Null(kBool), Value::Boolean(true)},
                                       {Value::Null(kBool), Value::Null(kBool)},
                                       {Value::Boolean(false), Value::Boolean(true)}});
  EvalContext ctx;
  Vector out;
  auto and_ = Special(ExprKind::kAnd, kBool, {Col(0, kBool), Col(1, kBool)});
  ASSERT_TRUE(EvaluateExpr(*and_, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"TRUE", "FALSE", "NULL", "FALSE", "FALSE", "NULL", "NULL", "FALSE"}));
  auto or_ = Special(ExprKind::kOr, kBool, {Col(0, kBool), Col(1, kBool)});
  ASSERT_TRUE(EvaluateExpr(*or_, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"TRUE", "TRUE", "TRUE", "NULL", "NULL", "TRUE", "NULL", "TRUE"}));
  // Mostly decided rows: the second operand runs on the gathered undecided rows only.
  auto few = Special(ExprKind::kAnd, kBool, {Call("IS NULL", {Col(1, kBool)}), Col(0, kBool)});
  ASSERT_TRUE(EvaluateExpr(*few, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"FALSE", "FALSE", "TRUE", "FALSE", "FALSE", "FALSE", "NULL", "FALSE"}));
}

TEST(EvaluatorTest, ThreeValuedLogic) {
  EvalContext ctx;
  auto null_bool = LitNull(kBool);
  auto and_ = [&](ExprPtr a, ExprPtr b) { return Special(ExprKind::kAnd, kBool, {a, b}); };
  auto or_ = [&](ExprPtr a, ExprPtr b) { return Special(ExprKind::kOr, kBool, {a, b}); };
  EXPECT_EQ(EvalText(and_(null_bool, LitBool(false))), "FALSE");
  EXPECT_EQ(EvalText(and_(null_bool, LitBool(true))), "NULL");
  EXPECT_EQ(EvalText(and_(LitBool(true), LitBool(true))), "TRUE");
  EXPECT_EQ(EvalText(or_(null_bool, LitBool(true))), "TRUE");
  EXPECT_EQ(EvalText(or_(null_bool, LitBool(false))), "NULL");
  EXPECT_EQ(EvalText(or_(LitBool(false), LitBool(false))), "FALSE");
  EXPECT_EQ(EvalText(Call("NOT", {null_bool})), "NULL");
  EXPECT_EQ(EvalText(Call("IS TRUE", {null_bool})), "FALSE");
  EXPECT_EQ(EvalText(Call("IS NOT FALSE", {null_bool})), "TRUE");
  EXPECT_EQ(EvalText(Call("IS NULL", {LitNull(kBig)})), "TRUE");
  EXPECT_EQ(EvalText(Call("IS DISTINCT FROM", {LitNull(kBig), LitInt(1)})), "TRUE");
  EXPECT_EQ(EvalText(Call("IS NOT DISTINCT FROM", {LitNull(kBig), LitNull(kBig)})), "TRUE");
}

TEST(EvaluatorTest, CaseEvaluatesBranchesOnlyForTheirRows) {
  Chunk c = Numbers();
  EvalContext ctx;
  // CASE WHEN x <> 0 THEN 10 / x WHEN x IS NULL THEN -1 END
  auto e = Special(ExprKind::kCase, kBig,
                   {Call("<>", {Col(0, kBig), LitInt(0)}), Call("/", {LitBig(10), Col(0, kBig)}),
                    Call("IS NULL", {Col(0, kBig)}), LitBig(-1)});
  Vector out;
  ASSERT_TRUE(EvaluateExpr(*e, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"2", "NULL", "-1", "-5"}));
  // With an ELSE.
  auto e2 = Special(ExprKind::kCase, LogicalType::String(),
                    {Call(">", {Col(0, kBig), LitInt(0)}), MakeCast(LitStr("pos"), LogicalType::String(), false),
                     Col(1, LogicalType::String())},
                    true);
  ASSERT_TRUE(EvaluateExpr(*e2, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"pos", "b", "NULL", "d"}));
}

TEST(EvaluatorTest, CoalesceEvaluatesLaterArgumentsOnlyForNullRows) {
  Chunk c = Numbers();
  EvalContext ctx;
  // COALESCE(x, 1 / 0): evaluated only on the NULL row, where it fails; with a safe fallback it works.
  auto safe = Special(ExprKind::kCoalesce, kBig, {Col(0, kBig), LitBig(42)});
  Vector out;
  ASSERT_TRUE(EvaluateExpr(*safe, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"5", "0", "42", "-2"}));
  Chunk no_nulls = MakeChunk({kBig}, {{Value::BigInt(1)}, {Value::BigInt(2)}});
  auto guarded = Special(ExprKind::kCoalesce, kBig, {Col(0, kBig), Call("/", {LitBig(1), LitBig(0)})});
  ASSERT_TRUE(EvaluateExpr(*guarded, no_nulls, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"1", "2"}));
}

TEST(EvaluatorTest, InAndBetween) {
  EXPECT_EQ(EvalText(Call("IN", {LitInt(2), LitInt(1), LitInt(2)})), "TRUE");
  EXPECT_EQ(EvalText(Call("IN", {LitInt(3), LitInt(1), LitInt(2)})), "FALSE");
  EXPECT_EQ(EvalText(Call("IN", {LitInt(3), LitInt(1), LitNull(LogicalType::Integer())})), "NULL");
  EXPECT_EQ(EvalText(Call("IN", {LitStr("b"), LitStr("a"), LitStr("b")})), "TRUE");
  EXPECT_EQ(EvalText(Call("BETWEEN", {LitInt(2), LitInt(1), LitInt(3)})), "TRUE");
  EXPECT_EQ(EvalText(Call("BETWEEN", {LitInt(5), LitNull(LogicalType::Integer()), LitInt(3)})), "FALSE");
  Chunk c = Numbers();
  EvalContext ctx;
  Vector out;
  auto in = Call("IN", {Col(0, kBig), LitInt(0), LitInt(-2), LitInt(9)});
  ASSERT_TRUE(EvaluateExpr(*in, c, ctx, &out).ok());
  EXPECT_EQ(Texts(out), (std::vector<std::string>{"FALSE", "TRUE", "NULL", "TRUE"}));
}

TEST(EvaluatorTest, ComparisonsAcrossTypes) {
  EXPECT_EQ(EvalText(Call("=", {LitInt(1), LitDecimal(3, 2, 100)})), "TRUE");
  EXPECT_EQ(EvalText(Call("<", {LitInt(1), LitDouble(1.5)})), "TRUE");
  EXPECT_EQ(EvalText(Call("<", {LitStr("abc"), LitStr("abd")})), "TRUE");
  EXPECT_EQ(EvalText(Call("=", {LitStr("42"), LitInt(42)})), "TRUE");
  EXPECT_EQ(EvalText(Call(">=", {LitBool(true), LitBool(false)})), "TRUE");
  EXPECT_EQ(EvalText(Call("<>", {LitNull(kBig), LitInt(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("IF", {LitBool(false), LitInt(1), LitInt(2)})), "2");
  EXPECT_EQ(EvalText(Call("NULLIF", {LitInt(1), LitInt(1)})), "NULL");
  EXPECT_EQ(EvalText(Call("NULLIF", {LitInt(1), LitInt(2)})), "1");
}

TEST(EvaluatorTest, CurrentTimeComesFromTheClockOncePerBatch) {
  ManualClock clock(*ParseTimestamp("2026-08-15 05:00:00.123456"));
  auto ctx = EvalContext::Make("Asia/Singapore", &clock);
  ASSERT_TRUE(ctx.ok());
  ExprEvaluator ev({Call("CURRENT_TIMESTAMP", {}), Call("LOCALTIMESTAMP", {}), Call("CURRENT_DATE", {})}, ctx->get());
  Chunk one = MakeChunk({kBig}, {{Value::BigInt(1)}});
  std::vector<Vector> out;
  ASSERT_TRUE(ev.Evaluate(one, &out).ok());
  EXPECT_EQ(out[0].data<int64_t>()[0], *ParseTimestamp("2026-08-15 05:00:00.123"));
  EXPECT_EQ(FormatTimestamp(out[1].data<int64_t>()[0], 3), "2026-08-15 13:00:00.123");
  EXPECT_EQ(FormatDate(out[2].data<int32_t>()[0]), "2026-08-15");
  clock.Advance(1000000);
  ASSERT_TRUE(ev.Evaluate(one, &out).ok());
  EXPECT_EQ(out[0].data<int64_t>()[0], *ParseTimestamp("2026-08-15 05:00:01.123"));
  EXPECT_FALSE(Call("CURRENT_TIMESTAMP", {})->IsConstant());
}

TEST(EvaluatorTest, CollectionsAndRows) {
  auto arr = Call("ARRAY", {LitInt(10), LitInt(20), LitInt(30)});
  EXPECT_EQ(EvalText(arr), "[10, 20, 30]");
  EXPECT_EQ(EvalText(Call("ITEM", {arr, LitInt(2)})), "20");
  EXPECT_EQ(EvalText(Call("ITEM", {arr, LitInt(4)})), "NULL");
  EXPECT_EQ(EvalText(Call("CARDINALITY", {arr})), "3");
  auto map = Call("MAP", {LitStr("a"), LitInt(1), LitStr("b"), LitInt(2)});
  EXPECT_EQ(EvalText(Call("ITEM", {map, LitStr("b")})), "2");
  EXPECT_EQ(EvalText(Call("ITEM", {map, LitStr("z")})), "NULL");
  auto row = Call("ROW", {LitInt(1), LitStr("x")});
  EXPECT_EQ(EvalText(Call("$FIELD", {row, LitInt(1)})), "x");
  EXPECT_EQ(EvalText(Call("ELEMENT", {Call("ARRAY", {LitInt(7)})})), "7");
  EXPECT_FALSE(Eval(Call("ELEMENT", {arr})).ok());
  auto m = Call("STR_TO_MAP", {LitStr("a=1,b=2,c")});
  EXPECT_EQ(EvalText(Call("ITEM", {m, LitStr("b")})), "2");
  EXPECT_EQ(EvalText(Call("ITEM", {m, LitStr("c")})), "NULL");
  EXPECT_EQ(EvalText(Call("CARDINALITY", {m})), "3");
  EXPECT_EQ(EvalText(Call("STR_TO_MAP", {LitStr("k:v;x:y"), LitStr(";"), LitStr(":")})), "{k=v, x=y}");
}

TEST(EvaluatorTest, ResultStringsOutliveInputAndEvaluator) {
  std::vector<Vector> out;
  {
    Chunk c = MakeChunk({LogicalType::String(), kBool}, {{Value::String("first string value"), Value::Boolean(true)},
                                                         {Value::String("second string value"), Value::Boolean(false)}});
    EvalContext ctx;
    auto pick = Special(ExprKind::kCase, LogicalType::String(),
                        {Col(1, kBool), Col(0, LogicalType::String()), MakeCast(LitStr("literal"), LogicalType::String(), false)},
                        true);
    ExprEvaluator ev({Col(0, LogicalType::String()), pick, Call("IF", {Col(1, kBool), LitStr("yes"), LitStr("no")}),
                      Call("SUBSTRING", {Col(0, LogicalType::String()), LitInt(8)})},
                     &ctx);
    ASSERT_TRUE(ev.Evaluate(c, &out).ok());
  }
  EXPECT_EQ(Texts(out[0]), (std::vector<std::string>{"first string value", "second string value"}));
  EXPECT_EQ(Texts(out[1]), (std::vector<std::string>{"first string value", "literal"}));
  EXPECT_EQ(Texts(out[2]), (std::vector<std::string>{"yes", "no"}));
  EXPECT_EQ(Texts(out[3]), (std::vector<std::string>{"tring value", "string value"}));
}

TEST(EvaluatorTest, ToStringReadsLikeFlink) {
  std::vector<std::string> names = {"x", "s"};
  auto e = Call("+", {Col(0, kBig), LitInt(1)});
  EXPECT_EQ(e->ToString(&names), "(x + CAST(1 AS BIGINT))");
  EXPECT_EQ(Call("UPPER", {Col(1, LogicalType::String())})->ToString(&names), "UPPER(s)");
}

}  // namespace
}  // namespace sluice::testing
