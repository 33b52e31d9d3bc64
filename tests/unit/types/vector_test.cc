#include "types/vector.h"

#include <gtest/gtest.h>

#include "types/value.h"

namespace sluice {
namespace {

TEST(VectorTest, AppendFromSelectionSharesStrings) {
  Vector src(LogicalType::String(), 3);
  src.SetString(0, "alpha");
  src.SetString(1, "beta");
  src.SetNull(2, true);
  Vector dst(LogicalType::String());
  uint32_t sel[] = {2, 0};
  dst.AppendFrom(src, sel, 0, 2);
  ASSERT_EQ(dst.size(), 2u);
  EXPECT_TRUE(dst.IsNull(0));
  EXPECT_EQ(dst.GetString(1), "alpha");
  // The view points at the source's bytes (no copy).
  EXPECT_EQ(dst.GetString(1).data(), src.GetString(0).data());
}

// Constants of flat types repeat one converted value (a string's bytes stored once); NULL and nested
// constants take the per-row path.
TEST(VectorTest, ConstantRepeatsTheValue) {
  Vector s = Vector::Constant(Value::String("abc"), 5);
  ASSERT_EQ(s.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(s.IsNull(i));
    EXPECT_EQ(s.GetString(i), "abc");
    EXPECT_EQ(s.GetString(i).data(), s.GetString(0).data());
  }
  Vector n = Vector::Constant(Value::Int(LogicalType::BigInt(), -7), 3);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(n.data<int64_t>()[i], -7);
  Vector null = Vector::Constant(Value::Null(LogicalType::String()), 2);
  EXPECT_TRUE(null.IsNull(0));
  EXPECT_TRUE(null.IsNull(1));
  EXPECT_EQ(Vector::Constant(Value::String("x"), 0).size(), 0u);
}

TEST(VectorTest, NestedArrayOfRowRoundTripsThroughValues) {
  LogicalType line = LogicalType::Row({"sku", "qty"}, {LogicalType::String(), LogicalType::Integer()});
  LogicalType arr = LogicalType::Array(line);
  Value v = Value::List(arr, {Value::List(line, {Value::String("SKU-1"), Value::Integer(2)}),
                              Value::List(line, {Value::String("SKU-2"), Value::Null(LogicalType::Integer())})});
  Vector vec(arr);
  vec.AppendValue(v);
  vec.AppendValue(Value::Null(arr));
  EXPECT_EQ(vec.GetValue(0), v);
  EXPECT_TRUE(vec.GetValue(1).is_null());
  EXPECT_EQ(vec.GetValue(0).ToString(), "[(SKU-1, 2), (SKU-2, NULL)]");
  Vector copy(arr);
  copy.AppendFrom(vec, nullptr, 0, 2);
  EXPECT_EQ(copy.GetValue(0), v);
}

TEST(VectorTest, TypeNamesFollowFlink) {
  EXPECT_EQ(LogicalType::String().ToString(), "STRING");
  EXPECT_EQ(LogicalType::Decimal(10, 2).WithNullable(false).ToString(), "DECIMAL(10, 2) NOT NULL");
  EXPECT_EQ(LogicalType::Timestamp(3).WithTimeAttribute(TimeAttribute::kRowtime).ToString(),
            "TIMESTAMP(3) *ROWTIME*");
  EXPECT_EQ(LogicalType::Map(LogicalType::String(), LogicalType::BigInt()).ToString(), "MAP<STRING, BIGINT>");
}

TEST(ValueTest, DoublesPrintLikeJava) {
  EXPECT_EQ(Value::Double(1.0).ToString(), "1.0");
  EXPECT_EQ(Value::Double(0.1).ToString(), "0.1");
  EXPECT_EQ(Value::Double(12345678.9).ToString(), "1.23456789E7");
  EXPECT_EQ(Value::Double(0.0001).ToString(), "1.0E-4");
  EXPECT_EQ(Value::Decimal(10, 2, -1250).ToString(), "-12.50");
  EXPECT_EQ(Value::Decimal(10, 2, 5).ToString(), "0.05");
}

TEST(ChunkTest, KindsTravelWithRows) {
  Chunk c({LogicalType::BigInt()});
  c.AppendValues({Value::BigInt(1)}, RowKind::kInsert);
  c.AppendValues({Value::BigInt(1)}, RowKind::kUpdateBefore);
  c.AppendValues({Value::BigInt(2)}, RowKind::kUpdateAfter);
  Chunk d({LogicalType::BigInt()});
  uint32_t sel[] = {1, 2};
  d.AppendFrom(c, sel, 0, 2);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.kind(0), RowKind::kUpdateBefore);
  EXPECT_EQ(d.column(0).GetValue(1), Value::BigInt(2));
  EXPECT_FALSE(d.AllInserts());
  EXPECT_EQ(ChangelogMode::All().ToString(), "I,UB,UA,D");
  EXPECT_EQ(ChangelogMode::Upsert().ToString(), "I,UA,D");
}

}  // namespace
}  // namespace sluice
