#include <gtest/gtest.h>

#include "connectors/iceberg/iceberg_literal.h"
#include "connectors/iceberg/iceberg_types.h"

namespace sluice {
namespace {

TEST(IcebergTypesTest, ParsesPrimitiveSpellings) {
  EXPECT_EQ(IcebergType::ParsePrimitive("long")->id(), IcebergTypeId::kLong);
  auto dec = IcebergType::ParsePrimitive("decimal(10, 2)");
  ASSERT_TRUE(dec.ok());
  EXPECT_EQ(dec->precision(), 10);
  EXPECT_EQ(dec->scale(), 2);
  EXPECT_EQ(dec->ToString(), "decimal(10, 2)");
  EXPECT_EQ(IcebergType::ParsePrimitive("decimal(9,3)")->ToString(), "decimal(9, 3)");
  EXPECT_EQ(IcebergType::ParsePrimitive("fixed[16]")->length(), 16);
  EXPECT_EQ(IcebergType::ParsePrimitive("timestamptz_ns")->id(), IcebergTypeId::kTimestampTzNs);
  auto variant = IcebergType::ParsePrimitive("variant");
  ASSERT_FALSE(variant.ok());
  EXPECT_NE(variant.status().message().find("'variant' is not supported"), std::string::npos);
  EXPECT_FALSE(IcebergType::ParsePrimitive("varchar").ok());
}

TEST(IcebergTypesTest, AssignsFreshIdsLikeTypeUtil) {
  // Top-level columns take 1..n first, then each nested type in order.
  Schema schema;
  schema.Add("id", LogicalType::BigInt().WithNullable(false));
  schema.Add("loc", LogicalType::Row({"lat", "lon"}, {LogicalType::Double(), LogicalType::Double()}));
  schema.Add("tags", LogicalType::Array(LogicalType::String().WithNullable(false)));
  schema.Add("props", LogicalType::Map(LogicalType::String(), LogicalType::Integer()));
  schema.Add("small", LogicalType::SmallInt());
  auto converted = ToIcebergSchema(schema, {"id"});
  ASSERT_TRUE(converted.ok()) << converted.status().ToString();
  const IcebergSchema& s = *converted;
  ASSERT_EQ(s.fields().size(), 5u);
  EXPECT_EQ(s.fields()[0].id, 1);
  EXPECT_TRUE(s.fields()[0].required);
  EXPECT_EQ(s.fields()[4].id, 5);
  EXPECT_EQ(s.fields()[4].type.id(), IcebergTypeId::kInt);
  EXPECT_EQ(s.fields()[1].type.fields()[0].id, 6);
  EXPECT_EQ(s.fields()[1].type.fields()[1].id, 7);
  EXPECT_EQ(s.fields()[2].type.element_id(), 8);
  EXPECT_TRUE(s.fields()[2].type.element_required());
  EXPECT_EQ(s.fields()[3].type.key_id(), 9);
  EXPECT_EQ(s.fields()[3].type.value_id(), 10);
  EXPECT_FALSE(s.fields()[3].type.value_required());
  EXPECT_EQ(s.HighestFieldId(), 10);
  EXPECT_EQ(s.identifier_field_ids(), std::vector<int32_t>{1});
  ASSERT_NE(s.FindField("loc.lon"), nullptr);
  EXPECT_EQ(s.FindField("loc.lon")->id, 7);
  EXPECT_EQ(s.FindField(8)->name, "element");
  EXPECT_EQ(s.FindName(10), "props.value");
  EXPECT_EQ(s.FindField(99), nullptr);

  Schema back = ToSluiceSchema(s);
  EXPECT_EQ(back.field(0).type.ToString(), "BIGINT NOT NULL");
  EXPECT_EQ(back.field(2).type.ToString(), "ARRAY<STRING NOT NULL>");
  EXPECT_EQ(back.field(4).type.ToString(), "INT");
}

TEST(IcebergTypesTest, RefusesMultisetByName) {
  Schema schema;
  schema.Add("bag", LogicalType::Multiset(LogicalType::Integer()));
  auto converted = ToIcebergSchema(schema);
  ASSERT_FALSE(converted.ok());
  EXPECT_NE(converted.status().message().find("column 'bag'"), std::string::npos);
  EXPECT_NE(converted.status().message().find("MULTISET<INT>"), std::string::npos);
}

TEST(IcebergLiteralTest, SingleValueBinaryRoundTrips) {
  EXPECT_EQ(IcebergLiteral::Int(1).ToBytes(), std::string("\x01\x00\x00\x00", 4));
  EXPECT_EQ(IcebergLiteral::Long(-1).ToBytes(), std::string(8, '\xff'));
  EXPECT_EQ(IcebergLiteral::Boolean(true).ToBytes(), std::string("\x01", 1));
  // Decimals: minimal two's complement, big-endian.
  EXPECT_EQ(IcebergLiteral::Decimal(0, 10, 2).ToBytes(), std::string("\x00", 1));
  EXPECT_EQ(IcebergLiteral::Decimal(127, 10, 2).ToBytes(), std::string("\x7f", 1));
  EXPECT_EQ(IcebergLiteral::Decimal(128, 10, 2).ToBytes(), std::string("\x00\x80", 2));
  EXPECT_EQ(IcebergLiteral::Decimal(-1, 10, 2).ToBytes(), std::string("\xff", 1));
  EXPECT_EQ(IcebergLiteral::Decimal(-129, 10, 2).ToBytes(), std::string("\xff\x7f", 2));
  for (const IcebergLiteral& l :
       {IcebergLiteral::Int(-7), IcebergLiteral::Long(1234567890123), IcebergLiteral::Float(1.5f),
        IcebergLiteral::Double(-2.25), IcebergLiteral::Decimal(-123456789, 20, 4), IcebergLiteral::Date(20680),
        IcebergLiteral::Time(3600000000LL), IcebergLiteral::TimestampTz(1786770000000000LL),
        IcebergLiteral::String("héllo"), IcebergLiteral::Binary(std::string("\x00\xff", 2)),
        IcebergLiteral::Fixed("abc"), IcebergLiteral::Uuid(std::string(16, '\x11'))}) {
    auto back = IcebergLiteral::FromBytes(l.type(), l.ToBytes());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, l) << l.type().ToString();
  }
  // A promoted column's 4-byte int bound reads as a long.
  auto promoted =
      IcebergLiteral::FromBytes(IcebergType::Primitive(IcebergTypeId::kLong), std::string("\xfe\xff\xff\xff", 4));
  ASSERT_TRUE(promoted.ok());
  EXPECT_EQ(promoted->int_value(), -2);
  EXPECT_FALSE(IcebergLiteral::FromBytes(IcebergType::Primitive(IcebergTypeId::kInt), "abc").ok());
}

TEST(IcebergLiteralTest, JsonForms) {
  EXPECT_EQ(IcebergLiteral::Decimal(1420, 9, 2).ToJson(), "\"14.20\"");
  EXPECT_EQ(IcebergLiteral::Date(17486).ToJson(), "\"2017-11-16\"");
  EXPECT_EQ(IcebergLiteral::Time(81068123456LL).ToJson(), "\"22:31:08.123456\"");
  EXPECT_EQ(IcebergLiteral::Timestamp(1510871468123456LL).ToJson(), "\"2017-11-16T22:31:08.123456\"");
  EXPECT_EQ(IcebergLiteral::TimestampTz(1510871468123456LL).ToJson(), "\"2017-11-16T22:31:08.123456+00:00\"");
  EXPECT_EQ(IcebergLiteral::TimestampNs(1510871468123456789LL).ToJson(), "\"2017-11-16T22:31:08.123456789\"");
  EXPECT_EQ(IcebergLiteral::Binary(std::string("\x00\x01\x02\xff", 4)).ToJson(), "\"000102FF\"");
  std::string uuid_bytes = *ParseUuid("f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(IcebergLiteral::Uuid(uuid_bytes).ToJson(), "\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"");
  for (const IcebergLiteral& l :
       {IcebergLiteral::Int(34), IcebergLiteral::Long(-5), IcebergLiteral::Double(1.25), IcebergLiteral::Boolean(true),
        IcebergLiteral::Decimal(-1420, 9, 2), IcebergLiteral::Date(-3), IcebergLiteral::Time(1),
        IcebergLiteral::Timestamp(-1), IcebergLiteral::TimestampTz(1510871468123456LL),
        IcebergLiteral::TimestampTzNs(7), IcebergLiteral::String("a\"b"), IcebergLiteral::Uuid(uuid_bytes),
        IcebergLiteral::Fixed("xy")}) {
    auto back = IcebergLiteral::FromJson(l.type(), l.ToJson());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, l) << l.ToJson();
  }
  auto offset = IcebergLiteral::FromJson(IcebergType::Primitive(IcebergTypeId::kTimestampTz),
                                         "\"2017-11-16T23:31:08.123456+01:00\"");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(offset->int_value(), 1510871468123456LL);
  EXPECT_FALSE(IcebergLiteral::FromJson(IcebergType::Primitive(IcebergTypeId::kDate), "\"2017-13-01\"").ok());
}

TEST(IcebergLiteralTest, HumanStringsAsJavaPrintsThem) {
  EXPECT_EQ(IcebergLiteral::Date(20680).ToHumanString(), "2026-08-15");
  EXPECT_EQ(IcebergLiteral::Timestamp(1786770000000000LL).ToHumanString(), "2026-08-15T05:00");
  EXPECT_EQ(IcebergLiteral::Timestamp(1786770001500000LL).ToHumanString(), "2026-08-15T05:00:01.500");
  EXPECT_EQ(IcebergLiteral::TimestampTz(1786770000000000LL).ToHumanString(), "2026-08-15T05:00Z");
  EXPECT_EQ(IcebergLiteral::Decimal(1250, 10, 2).ToHumanString(), "12.50");
  EXPECT_EQ(IcebergLiteral::Binary("abc").ToHumanString(), "YWJj");
}

}  // namespace
}  // namespace sluice
