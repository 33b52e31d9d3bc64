#include <gtest/gtest.h>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

std::string CastText(ExprPtr e, LogicalType to, bool is_try = false, EvalContext* ctx = nullptr) {
  return EvalText(MakeCast(std::move(e), std::move(to), is_try), ctx);
}

TEST(CastTest, StringToNumbers) {
  EXPECT_EQ(CastText(LitStr(" 42 "), LogicalType::Integer()), "42");
  EXPECT_EQ(CastText(LitStr("-7"), LogicalType::BigInt()), "-7");
  EXPECT_EQ(CastText(LitStr("1.9"), LogicalType::Integer()), "1");
  EXPECT_EQ(CastText(LitStr("1.5"), LogicalType::Double()), "1.5");
  EXPECT_EQ(CastText(LitStr("12.345"), LogicalType::Decimal(5, 2)), "12.35");
  EXPECT_EQ(CastText(LitStr("1e2"), LogicalType::Decimal(5, 2)), "100.00");
  // Too many digits for the DECIMAL: Flink 2.2.1 fails the job ("... Overflow."); TRY_CAST gives NULL.
  EXPECT_NE(CastText(LitStr("12345.6"), LogicalType::Decimal(5, 2)).find("For input string: '12345.6'. Overflow."),
            std::string::npos);
  EXPECT_EQ(CastText(LitStr("12345.6"), LogicalType::Decimal(5, 2), true), "NULL");
}

TEST(CastTest, BadTextIsARuntimeErrorUnlessTryCast) {
  auto v = Eval(MakeCast(LitStr("abc"), LogicalType::Integer(), false));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kRuntimeError);
  EXPECT_NE(v.status().message().find("'abc'"), std::string::npos) << v.status().message();
  EXPECT_NE(v.status().message().find("INT"), std::string::npos);
  EXPECT_EQ(CastText(LitStr("abc"), LogicalType::Integer(), true), "NULL");
  EXPECT_EQ(CastText(LitStr("99999999999"), LogicalType::Integer(), true), "NULL");
  EXPECT_EQ(CastText(LitStr("2026-13-01"), LogicalType::Date(), true), "NULL");
  EXPECT_FALSE(Eval(MakeCast(LitStr("maybe"), LogicalType::Boolean(), false)).ok());
}

TEST(CastTest, NumericConversions) {
  EXPECT_EQ(CastText(LitInt(300), LogicalType::TinyInt()), "44");  // wraps like Java
  EXPECT_EQ(CastText(LitDouble(3.99), LogicalType::Integer()), "3");
  EXPECT_EQ(CastText(LitDouble(-3.99), LogicalType::BigInt()), "-3");
  EXPECT_EQ(CastText(LitDouble(1e300), LogicalType::Integer()), "2147483647");
  EXPECT_EQ(CastText(LitDecimal(5, 2, -12345), LogicalType::Integer()), "-123");
  EXPECT_EQ(CastText(LitDecimal(5, 2, 12345), LogicalType::Decimal(4, 1)), "123.5");
  EXPECT_EQ(CastText(LitDecimal(5, 2, 12345), LogicalType::Decimal(3, 1)), "NULL");
  EXPECT_EQ(CastText(LitDouble(2.675), LogicalType::Decimal(5, 2)), "2.68");
  EXPECT_EQ(CastText(LitInt(7), LogicalType::Decimal(5, 2)), "7.00");
  EXPECT_EQ(CastText(LitInt(0), LogicalType::Boolean()), "FALSE");
  EXPECT_EQ(CastText(LitBool(true), LogicalType::Integer()), "1");
}

TEST(CastTest, ToString) {
  EXPECT_EQ(CastText(LitDouble(1.0), LogicalType::String()), "1.0");
  EXPECT_EQ(CastText(LitBool(true), LogicalType::String()), "TRUE");
  EXPECT_EQ(CastText(LitDecimal(5, 2, 125), LogicalType::String()), "1.25");
  auto ts = Lit(Value::Int(LogicalType::Timestamp(3), *ParseTimestamp("2026-08-15 05:00:00")));
  EXPECT_EQ(CastText(ts, LogicalType::String()), "2026-08-15 05:00:00.000");
  EXPECT_EQ(CastText(LitStr("abcdef"), LogicalType::VarChar(3)), "abc");
  EXPECT_EQ(CastText(LitStr("ab"), LogicalType::Char(4)), "ab  ");
}

TEST(CastTest, Temporal) {
  EXPECT_EQ(CastText(LitStr("2026-08-15"), LogicalType::Date()), "2026-08-15");
  EXPECT_EQ(CastText(LitStr("2026-08-15 05:00:00.123456"), LogicalType::Timestamp(3)), "2026-08-15 05:00:00.123");
  EXPECT_EQ(CastText(LitStr("2026-08-15"), LogicalType::Timestamp(0)), "2026-08-15 00:00:00");
  EXPECT_EQ(CastText(LitStr("05:06:07"), LogicalType::Time(0)), "05:06:07");
  auto ts = Lit(Value::Int(LogicalType::Timestamp(3), *ParseTimestamp("2026-08-15 05:00:00")));
  EXPECT_EQ(CastText(ts, LogicalType::Date()), "2026-08-15");
}

TEST(CastTest, TimestampLtzUsesTheSessionZone) {
  auto ctx = EvalContext::Make("Asia/Singapore", nullptr);
  ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
  auto ts = Lit(Value::Int(LogicalType::Timestamp(3), *ParseTimestamp("2026-08-15 13:00:00")));
  auto ltz = MakeCast(ts, LogicalType::TimestampLtz(3), false);
  auto v = Eval(ltz, ctx->get());
  ASSERT_TRUE(v.ok());
  // 13:00 in Singapore is 05:00 UTC.
  EXPECT_EQ(v->int_value(), *ParseTimestamp("2026-08-15 05:00:00"));
  EXPECT_EQ(CastText(ltz, LogicalType::String(), false, ctx->get()), "2026-08-15 13:00:00.000");
  EXPECT_EQ(CastText(MakeCast(ltz, LogicalType::Timestamp(3), false), LogicalType::String(), false, ctx->get()),
            "2026-08-15 13:00:00.000");
}

TEST(CastTest, Nested) {
  auto arr = Call("ARRAY", {LitStr("1"), LitStr("22")});
  EXPECT_EQ(CastText(arr, LogicalType::Array(LogicalType::Integer())), "[1, 22]");
  auto row = Call("ROW", {LitInt(1), LitStr("x")});
  EXPECT_EQ(CastText(row, LogicalType::Row({"a", "b"}, {LogicalType::BigInt(), LogicalType::String()})), "(1, x)");
}

TEST(CastTest, CanCast) {
  EXPECT_TRUE(CanCast(LogicalType::Integer(), LogicalType::BigInt(), true));
  EXPECT_FALSE(CanCast(LogicalType::BigInt(), LogicalType::Integer(), true));
  EXPECT_TRUE(CanCast(LogicalType::BigInt(), LogicalType::Integer(), false));
  EXPECT_TRUE(CanCast(LogicalType::Integer(), LogicalType::Decimal(10, 0), true));
  EXPECT_FALSE(CanCast(LogicalType::String(), LogicalType::Integer(), true));
  EXPECT_TRUE(CanCast(LogicalType::String(), LogicalType::Integer(), false));
  EXPECT_TRUE(CanCast(LogicalType::Date(), LogicalType::Timestamp(3), true));
  EXPECT_TRUE(CanCast(LogicalType::Null(), LogicalType::Date(), true));
  EXPECT_FALSE(CanCast(LogicalType::Date(), LogicalType::Integer(), false));
  EXPECT_TRUE(CanCast(LogicalType::Array(LogicalType::Integer()), LogicalType::String(), false));
}

TEST(CastTest, CommonType) {
  auto ct = [](std::vector<LogicalType> ts) {
    auto r = CommonType(ts);
    return r.ok() ? r->ToString() : r.status().message();
  };
  auto nn = [](LogicalType t) { return t.WithNullable(false); };
  EXPECT_EQ(ct({nn(LogicalType::Integer()), nn(LogicalType::BigInt())}), "BIGINT NOT NULL");
  EXPECT_EQ(ct({nn(LogicalType::Integer()), LogicalType::BigInt()}), "BIGINT");
  EXPECT_EQ(ct({nn(LogicalType::Integer()), nn(LogicalType::Decimal(10, 2))}), "DECIMAL(12, 2) NOT NULL");
  EXPECT_EQ(ct({nn(LogicalType::Decimal(5, 1)), nn(LogicalType::Double())}), "DOUBLE NOT NULL");
  EXPECT_EQ(ct({nn(LogicalType::Char(3)), nn(LogicalType::VarChar(10))}), "VARCHAR(10) NOT NULL");
  EXPECT_EQ(ct({nn(LogicalType::Date()), nn(LogicalType::Timestamp(3))}), "TIMESTAMP(3) NOT NULL");
  EXPECT_EQ(ct({nn(LogicalType::Integer()), LogicalType::Null()}), "INT");
  EXPECT_NE(ct({LogicalType::Integer(), LogicalType::Date()}).find("Could not find a common type"), std::string::npos);
}

TEST(CastTest, VectorCastKeepsNulls) {
  Chunk c = MakeChunk({LogicalType::String()}, {{Value::String("1")}, {Value::Null(LogicalType::String())}, {Value::String("x")}});
  EvalContext ctx;
  Vector out;
  ASSERT_TRUE(CastVector(ctx, c.column(0), LogicalType::Integer(), true, &out).ok());
  EXPECT_EQ(out.GetValue(0).ToString(), "1");
  EXPECT_TRUE(out.IsNull(1));
  EXPECT_TRUE(out.IsNull(2));
  EXPECT_FALSE(CastVector(ctx, c.column(0), LogicalType::Integer(), false, &out).ok());
}

}  // namespace
}  // namespace sluice::testing
