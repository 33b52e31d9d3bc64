#include <gtest/gtest.h>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

std::string M(const std::string& name, std::vector<ExprPtr> args) { return EvalText(Call(name, std::move(args))); }

TEST(MathTest, RoundHalfUpLikeFlink) {
  EXPECT_EQ(M("ROUND", {LitDouble(2.675), LitInt(2)}), "2.68");  // on the decimal text, not the binary value
  EXPECT_EQ(M("ROUND", {LitDouble(-2.5)}), "-3.0");
  EXPECT_EQ(M("ROUND", {LitDouble(2.5)}), "3.0");
  EXPECT_EQ(M("ROUND", {LitDouble(1234.5678), LitInt(-2)}), "1200.0");
  EXPECT_EQ(M("ROUND", {LitInt(1250), LitInt(-2)}), "1300");
  EXPECT_EQ(M("ROUND", {LitInt(-1250), LitInt(-2)}), "-1300");
  EXPECT_EQ(M("ROUND", {LitDecimal(6, 3, 12345), LitInt(2)}), "12.35");
  EXPECT_EQ(M("ROUND", {LitDecimal(6, 3, -12345), LitInt(0)}), "-12");
  EXPECT_EQ(M("TRUNCATE", {LitDouble(2.679), LitInt(2)}), "2.67");
  EXPECT_EQ(M("TRUNCATE", {LitDecimal(6, 3, -12345), LitInt(1)}), "-12.3");
  EXPECT_EQ(M("TRUNCATE", {LitInt(1299), LitInt(-2)}), "1200");
  auto t = ResolveScalar("ROUND", {LogicalType::Decimal(10, 4), LogicalType::Integer()}, {nullptr, nullptr});
  EXPECT_FALSE(t.ok());  // DECIMAL needs constant digits to type the result
}

TEST(MathTest, FloorCeilAbsSign) {
  EXPECT_EQ(M("FLOOR", {LitDouble(-1.5)}), "-2.0");
  EXPECT_EQ(M("CEIL", {LitDouble(-1.5)}), "-1.0");
  EXPECT_EQ(M("FLOOR", {LitDecimal(5, 2, -125)}), "-2");
  EXPECT_EQ(M("CEILING", {LitDecimal(5, 2, 125)}), "2");
  EXPECT_EQ(M("FLOOR", {LitInt(7)}), "7");
  EXPECT_EQ(M("ABS", {LitInt(-7)}), "7");
  EXPECT_EQ(M("ABS", {LitDecimal(5, 2, -125)}), "1.25");
  EXPECT_EQ(M("ABS", {LitDouble(-0.5)}), "0.5");
  EXPECT_EQ(M("SIGN", {LitInt(-7)}), "-1");
  EXPECT_EQ(M("SIGN", {LitDouble(0.0)}), "0.0");
  EXPECT_EQ(M("SIGN", {LitDecimal(5, 2, 125)}), "1.00");
}

TEST(MathTest, ApproximateFunctions) {
  EXPECT_EQ(M("POWER", {LitInt(2), LitInt(10)}), "1024.0");
  EXPECT_EQ(M("SQRT", {LitInt(16)}), "4.0");
  EXPECT_EQ(M("SQRT", {LitInt(-1)}), "NaN");
  EXPECT_EQ(M("LN", {LitInt(1)}), "0.0");
  EXPECT_EQ(M("LOG10", {LitInt(1000)}), "3.0");
  EXPECT_EQ(M("LOG2", {LitInt(8)}), "3.0");
  EXPECT_EQ(M("LOG", {LitInt(2), LitInt(8)}), "3.0");
  EXPECT_EQ(M("EXP", {LitInt(0)}), "1.0");
  EXPECT_EQ(M("PI", {}), "3.141592653589793");
  EXPECT_EQ(M("MOD", {LitInt(-7), LitInt(3)}), "-1");
  EXPECT_EQ(M("POWER", {LitNull(LogicalType::Double()), LitInt(2)}), "NULL");
}

TEST(MathTest, RandIsInRangeAndNotConstant) {
  auto r = Call("RAND", {});
  EXPECT_FALSE(r->IsConstant());
  Chunk c = MakeChunk({LogicalType::Integer()}, std::vector<std::vector<Value>>(100, {Value::Integer(1)}));
  EvalContext ctx;
  Vector out;
  ASSERT_TRUE(EvaluateExpr(*r, c, ctx, &out).ok());
  double lo = 1, hi = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    lo = std::min(lo, out.data<double>()[i]);
    hi = std::max(hi, out.data<double>()[i]);
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_LT(lo, hi);
  // A seeded RAND repeats its sequence for a new resolution with the same seed.
  auto a = Call("RAND", {LitInt(42)});
  auto b = Call("RAND", {LitInt(42)});
  EXPECT_EQ(EvalText(a), EvalText(b));
}

}  // namespace
}  // namespace sluice::testing
