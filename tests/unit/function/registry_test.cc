#include <gtest/gtest.h>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

TEST(RegistryTest, UnknownFunctionSuggestsCloseName) {
  auto r = ResolveScalar("SUBSTRNG", {LogicalType::String(), LogicalType::Integer()}, {nullptr, nullptr});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kBindError);
  EXPECT_NE(r.status().message().find("No match found for function signature SUBSTRNG("), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("Did you mean SUBSTRING?"), std::string::npos) << r.status().message();
}

TEST(RegistryTest, NoMatchingSignatureListsSupportedOnes) {
  auto r = ResolveScalar("UPPER", {LogicalType::Integer(), LogicalType::String()}, {nullptr, nullptr});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("No match found for function signature UPPER(<INTEGER>, <CHARACTER>)"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("UPPER(<CHARACTER>)"), std::string::npos);
}

TEST(RegistryTest, LowerCaseNamesResolve) {
  auto r = ResolveScalar("upper", {LogicalType::String()}, {nullptr});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->function->name, "UPPER");
}

TEST(RegistryTest, AggregatesAreKnown) {
  EXPECT_TRUE(IsAggregateFunction("count"));
  EXPECT_TRUE(IsAggregateFunction("LISTAGG"));
  EXPECT_TRUE(IsAggregateFunction("stddev_samp"));
  EXPECT_FALSE(IsAggregateFunction("UPPER"));
  EXPECT_TRUE(IsScalarFunction("date_format"));
  auto r = ResolveScalar("SUM", {LogicalType::Integer()}, {nullptr});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Aggregate"), std::string::npos);
}

TEST(RegistryTest, ArithmeticReturnTypes) {
  auto type_of = [](const std::string& op, LogicalType a, LogicalType b) {
    auto r = ResolveScalar(op, {a, b}, {nullptr, nullptr});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->return_type().ToString() : std::string("?");
  };
  auto nn = [](LogicalType t) { return t.WithNullable(false); };
  EXPECT_EQ(type_of("+", nn(LogicalType::Integer()), nn(LogicalType::BigInt())), "BIGINT NOT NULL");
  EXPECT_EQ(type_of("+", LogicalType::Integer(), nn(LogicalType::Integer())), "INT");
  EXPECT_EQ(type_of("/", nn(LogicalType::Integer()), nn(LogicalType::Integer())), "INT NOT NULL");
  EXPECT_EQ(type_of("*", nn(LogicalType::Integer()), nn(LogicalType::Double())), "DOUBLE NOT NULL");
  EXPECT_EQ(type_of("+", nn(LogicalType::Decimal(10, 2)), nn(LogicalType::Decimal(5, 3))), "DECIMAL(12, 3) NOT NULL");
  EXPECT_EQ(type_of("*", nn(LogicalType::Decimal(10, 2)), nn(LogicalType::Decimal(5, 3))), "DECIMAL(16, 5) NOT NULL");
  EXPECT_EQ(type_of("/", nn(LogicalType::Decimal(10, 2)), nn(LogicalType::Decimal(5, 3))), "DECIMAL(19, 8) NOT NULL");
  EXPECT_EQ(type_of("+", nn(LogicalType::Decimal(10, 2)), nn(LogicalType::Integer())), "DECIMAL(13, 2) NOT NULL");
  EXPECT_EQ(type_of("*", nn(LogicalType::Decimal(38, 10)), nn(LogicalType::Decimal(38, 10))), "DECIMAL(38, 6) NOT NULL");
  // MOD and %: the divisor's type, DECIMAL only with a fraction (FlinkTypeSystem.deriveDecimalModType).
  EXPECT_EQ(type_of("%", nn(LogicalType::BigInt()), nn(LogicalType::Integer())), "INT NOT NULL");
  EXPECT_EQ(type_of("%", nn(LogicalType::Integer()), nn(LogicalType::BigInt())), "BIGINT NOT NULL");
  EXPECT_EQ(type_of("%", nn(LogicalType::Decimal(20, 0)), nn(LogicalType::SmallInt())), "SMALLINT NOT NULL");
  EXPECT_EQ(type_of("%", nn(LogicalType::Decimal(10, 2)), nn(LogicalType::Integer())), "DECIMAL(10, 2) NOT NULL");
  EXPECT_FALSE(ResolveScalar("%", {LogicalType::Double(), LogicalType::Integer()}, {nullptr, nullptr}).ok());
}

TEST(RegistryTest, ArgumentCastsFollowTheOverload) {
  auto r = ResolveScalar("+", {LogicalType::Integer(), LogicalType::BigInt()}, {nullptr, nullptr});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->arg_types()[0].id(), TypeId::kBigInt);
  EXPECT_EQ(r->arg_types()[1].id(), TypeId::kBigInt);
  auto cmp = ResolveScalar("=", {LogicalType::Integer(), LogicalType::Decimal(10, 2)}, {nullptr, nullptr});
  ASSERT_TRUE(cmp.ok());
  EXPECT_EQ(cmp->arg_types()[0].ToString(), "DECIMAL(12, 2)");
  EXPECT_EQ(cmp->return_type().ToString(), "BOOLEAN");
}

TEST(RegistryTest, NondeterministicFunctions) {
  auto r = ResolveScalar("RAND", {}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->deterministic());
  auto u = ResolveScalar("UPPER", {LogicalType::String()}, {nullptr});
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->deterministic());
  auto p = ResolveScalar("PROCTIME", {}, {});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->return_type().ToString(), "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*");
}

TEST(RegistryTest, InvalidConstantRegexIsABindError) {
  Value pattern = Value::String("(unclosed");
  auto r = ResolveScalar("REGEXP", {LogicalType::String(), LogicalType::String()}, {nullptr, &pattern});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Invalid regular expression"), std::string::npos);
}

}  // namespace
}  // namespace sluice::testing
