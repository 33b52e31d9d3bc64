#include <gtest/gtest.h>

#include <limits>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

TEST(ArithmeticTest, IntegerOperators) {
  EXPECT_EQ(EvalText(Call("+", {LitInt(2), LitBig(3)})), "5");
  EXPECT_EQ(EvalText(Call("-", {LitInt(2), LitInt(5)})), "-3");
  EXPECT_EQ(EvalText(Call("*", {LitInt(6), LitInt(7)})), "42");
  EXPECT_EQ(EvalText(Call("/", {LitInt(7), LitInt(2)})), "3");
  EXPECT_EQ(EvalText(Call("/", {LitInt(-7), LitInt(2)})), "-3");
  EXPECT_EQ(EvalText(Call("%", {LitInt(-7), LitInt(3)})), "-1");
  EXPECT_EQ(EvalText(Call("MOD", {LitInt(7), LitInt(3)})), "1");
  EXPECT_EQ(EvalText(Call("NEGATE", {LitInt(5)})), "-5");
}

TEST(ArithmeticTest, IntegerOverflowWrapsLikeJava) {
  EXPECT_EQ(EvalText(Call("+", {LitInt(std::numeric_limits<int32_t>::max()), LitInt(1)})), "-2147483648");
  EXPECT_EQ(EvalText(Call("/", {LitInt(std::numeric_limits<int32_t>::min()), LitInt(-1)})), "-2147483648");
  EXPECT_EQ(EvalText(Call("*", {LitBig(std::numeric_limits<int64_t>::max()), LitBig(2)})), "-2");
}

TEST(ArithmeticTest, IntegerDivisionByZeroIsARuntimeError) {
  auto v = Eval(Call("/", {LitInt(1), LitInt(0)}));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kRuntimeError);
  EXPECT_NE(v.status().message().find("by zero"), std::string::npos);
  EXPECT_FALSE(Eval(Call("%", {LitInt(1), LitInt(0)})).ok());
  // NULL divisor: NULL, not an error.
  EXPECT_EQ(EvalText(Call("/", {LitInt(1), LitNull(LogicalType::Integer())})), "NULL");
}

TEST(ArithmeticTest, DoubleDivisionByZeroIsInfinity) {
  EXPECT_EQ(EvalText(Call("/", {LitDouble(1.0), LitDouble(0.0)})), "Infinity");
  EXPECT_EQ(EvalText(Call("/", {LitDouble(0.0), LitDouble(0.0)})), "NaN");
  EXPECT_EQ(EvalText(Call("+", {LitDouble(1.5), LitInt(1)})), "2.5");
}

TEST(ArithmeticTest, DecimalArithmetic) {
  // 1.25 + 2.005 = 3.255 at scale 3.
  EXPECT_EQ(EvalText(Call("+", {LitDecimal(5, 2, 125), LitDecimal(5, 3, 2005)})), "3.255");
  EXPECT_EQ(EvalText(Call("*", {LitDecimal(5, 2, 125), LitDecimal(5, 1, 20)})), "2.500");
  // 1.00 / 3 = 0.333333... with scale max(6, 2 + 10 + 1) = 13.
  EXPECT_EQ(EvalText(Call("/", {LitDecimal(3, 2, 100), LitInt(3)})), "0.3333333333333");
  // 2 / 3 rounds HALF_UP.
  EXPECT_EQ(EvalText(Call("/", {LitDecimal(3, 2, 200), LitInt(3)})), "0.6666666666667");
  EXPECT_EQ(EvalText(Call("-", {LitDecimal(5, 2, 100), LitInt(3)})), "-2.00");
  EXPECT_EQ(EvalText(Call("%", {LitDecimal(5, 2, 725), LitInt(2)})), "1.25");
  EXPECT_EQ(EvalText(Call("NEGATE", {LitDecimal(5, 2, 725)})), "-7.25");
}

TEST(ArithmeticTest, DecimalOverflowIsNull) {
  __int128 big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;  // 10^37, DECIMAL(38, 0)
  EXPECT_EQ(EvalText(Call("*", {LitDecimal(38, 0, big), LitDecimal(38, 0, 100)})), "NULL");
}

TEST(ArithmeticTest, TimestampPlusInterval) {
  auto ts = Lit(Value::Int(LogicalType::Timestamp(3), *ParseTimestamp("2026-01-31 10:00:00")));
  auto one_month = Lit(Value::Int(LogicalType::IntervalYearMonth(), 1));
  auto two_hours = Lit(Value::Int(LogicalType::IntervalDayTime(), 2 * 3600 * 1000));
  EXPECT_EQ(EvalText(Call("+", {ts, one_month})), "2026-02-28 10:00:00.000");
  EXPECT_EQ(EvalText(Call("-", {ts, two_hours})), "2026-01-31 08:00:00.000");
  EXPECT_EQ(EvalText(Call("+", {two_hours, ts})), "2026-01-31 12:00:00.000");
  auto date = Lit(Value::Int(LogicalType::Date(), *ParseDate("2024-02-29")));
  auto year = Lit(Value::Int(LogicalType::IntervalYearMonth(), 12));
  EXPECT_EQ(EvalText(Call("+", {date, year})), "2025-02-28");
}

TEST(ArithmeticTest, VectorizedWithNulls) {
  Chunk c = MakeChunk({LogicalType::BigInt(), LogicalType::BigInt()},
                      {{Value::BigInt(10), Value::BigInt(2)},
                       {Value::Null(LogicalType::BigInt()), Value::BigInt(3)},
                       {Value::BigInt(-9), Value::Null(LogicalType::BigInt())},
                       {Value::BigInt(9), Value::BigInt(0)}});
  EvalContext ctx;
  auto add = Call("+", {Col(0, LogicalType::BigInt()), Col(1, LogicalType::BigInt())});
  Vector out;
  ASSERT_TRUE(EvaluateExpr(*add, c, ctx, &out).ok());
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out.GetValue(0).ToString(), "12");
  EXPECT_TRUE(out.IsNull(1));
  EXPECT_TRUE(out.IsNull(2));
  EXPECT_EQ(out.GetValue(3).ToString(), "9");
  // Division by the zero of row 3 fails.
  auto div = Call("/", {Col(0, LogicalType::BigInt()), Col(1, LogicalType::BigInt())});
  EXPECT_FALSE(EvaluateExpr(*div, c, ctx, &out).ok());
}

}  // namespace
}  // namespace sluice::testing
