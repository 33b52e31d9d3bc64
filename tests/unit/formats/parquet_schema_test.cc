#include <gtest/gtest.h>

#include "formats/parquet/parquet_schema.h"

namespace sluice::parquet {
namespace {

using K = LogicalTypeAnnotation::Kind;

Schema WideSchema() {
  Schema s;
  s.Add("id", LogicalType::BigInt().WithNullable(false));
  s.Add("t8", LogicalType::TinyInt());
  s.Add("d9", LogicalType::Decimal(9, 2));
  s.Add("d18", LogicalType::Decimal(18, 4));
  s.Add("d38", LogicalType::Decimal(38, 10));
  s.Add("ts", LogicalType::Timestamp(3));
  s.Add("tsz", LogicalType::TimestampLtz(6));
  s.Add("tm", LogicalType::Time(0));
  s.Add("s", LogicalType::VarChar(10));
  s.Add("fx", LogicalType::Binary(16));
  s.Add("arr", LogicalType::Array(LogicalType::Integer()));
  s.Add("m", LogicalType::Map(LogicalType::String(), LogicalType::Array(LogicalType::Double())));
  s.Add("r", LogicalType::Row({"x", "y"}, {LogicalType::Integer().WithNullable(false), LogicalType::String()}));
  return s;
}

std::vector<FieldIdTree> WideIds() {
  std::vector<FieldIdTree> ids;
  for (int i = 1; i <= 13; ++i) ids.push_back({i, {}});
  ids[10].children = {{100, {}}};
  ids[11].children = {{101, {}}, {102, {{103, {}}}}};
  ids[12].children = {{104, {}}, {105, {}}};
  return ids;
}

TEST(ParquetSchemaTest, MapsSluiceTypesAsIcebergDoes) {
  auto ps = ParquetSchema::FromSluice(WideSchema(), WideIds());
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  const auto& cols = ps->columns();
  ASSERT_EQ(cols.size(), 15u);
  auto col = [&](const std::string& path) -> const ColumnDescriptor& {
    for (const auto& c : cols) {
      if (c.DottedPath() == path) return c;
    }
    ADD_FAILURE() << "no column " << path;
    return cols[0];
  };
  EXPECT_EQ(col("id").physical_type, Type::INT64);
  EXPECT_EQ(col("id").max_definition_level, 0);
  EXPECT_EQ(col("t8").physical_type, Type::INT32);
  EXPECT_EQ(ps->node(col("t8").node).element.logical_type, LogicalTypeAnnotation::Integer(8, true));
  EXPECT_EQ(col("d9").physical_type, Type::INT32);
  EXPECT_EQ(col("d18").physical_type, Type::INT64);
  EXPECT_EQ(col("d38").physical_type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(col("d38").type_length, 16);
  EXPECT_EQ(ps->node(col("ts").node).element.logical_type, LogicalTypeAnnotation::Timestamp(false, TimeUnit::MICROS));
  EXPECT_EQ(ps->node(col("tsz").node).element.logical_type, LogicalTypeAnnotation::Timestamp(true, TimeUnit::MICROS));
  EXPECT_EQ(ps->node(col("tm").node).element.logical_type, LogicalTypeAnnotation::Time(false, TimeUnit::MICROS));
  EXPECT_EQ(col("tm").physical_type, Type::INT64);
  EXPECT_EQ(ps->node(col("s").node).element.logical_type.kind, K::STRING);
  EXPECT_EQ(col("fx").type_length, 16);
  const auto& el = col("arr.list.element");
  EXPECT_EQ(el.max_definition_level, 3);
  EXPECT_EQ(el.max_repetition_level, 1);
  EXPECT_EQ(el.field_id, 100);
  const auto& key = col("m.key_value.key");
  EXPECT_EQ(key.max_definition_level, 2);  // the key is required
  EXPECT_EQ(key.field_id, 101);
  const auto& inner = col("m.key_value.value.list.element");
  EXPECT_EQ(inner.max_definition_level, 5);
  EXPECT_EQ(inner.max_repetition_level, 2);
  EXPECT_EQ(inner.field_id, 103);
  EXPECT_EQ(col("r.x").max_definition_level, 1);
  EXPECT_EQ(col("r.y").max_definition_level, 2);
  // The writer's exact types are kept.
  EXPECT_EQ(col("s").sluice_type, LogicalType::VarChar(10));
  EXPECT_EQ(col("ts").sluice_type, LogicalType::Timestamp(3));
  EXPECT_EQ(ps->ToSluiceSchema().field(11).type, WideSchema().field(11).type);
}

TEST(ParquetSchemaTest, ElementsRoundTripToSluiceTypes) {
  auto ps = ParquetSchema::FromSluice(WideSchema(), WideIds());
  ASSERT_TRUE(ps.ok());
  auto back = ParquetSchema::FromElements(ps->ToElements());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  Schema s = back->ToSluiceSchema();
  EXPECT_EQ(s.field(0).type, LogicalType::BigInt().WithNullable(false));
  EXPECT_EQ(s.field(1).type, LogicalType::TinyInt());
  EXPECT_EQ(s.field(4).type, LogicalType::Decimal(38, 10));
  EXPECT_EQ(s.field(5).type, LogicalType::Timestamp(6));
  EXPECT_EQ(s.field(6).type, LogicalType::TimestampLtz(6));
  EXPECT_EQ(s.field(8).type, LogicalType::String());
  EXPECT_EQ(s.field(9).type, LogicalType::Binary(16));
  EXPECT_EQ(s.field(10).type, LogicalType::Array(LogicalType::Integer()));
  EXPECT_EQ(s.field(11).type, LogicalType::Map(LogicalType::String().WithNullable(false),
                                               LogicalType::Array(LogicalType::Double())));
  EXPECT_EQ(s.field(12).type, WideSchema().field(12).type);
  int r = back->FindChild(0, 13, "whatever");
  ASSERT_GE(r, 0);
  EXPECT_EQ(back->node(r).element.name, "r");
  EXPECT_EQ(back->FindChild(0, 99, "r"), -1);  // ids decide when the file has them
  EXPECT_EQ(back->LeavesUnder(r).size(), 2u);
}

TEST(ParquetSchemaTest, LegacyListsAndMaps) {
  auto leaf = [](std::string name, Type t, FieldRepetitionType rep) {
    SchemaElement e;
    e.name = std::move(name);
    e.type = t;
    e.repetition_type = rep;
    return e;
  };
  auto group = [](std::string name, FieldRepetitionType rep, int n, std::optional<ConvertedType> ct = {}) {
    SchemaElement e;
    e.name = std::move(name);
    e.repetition_type = rep;
    e.num_children = n;
    e.converted_type = ct;
    return e;
  };
  SchemaElement root;
  root.name = "schema";
  root.num_children = 4;
  using R = FieldRepetitionType;
  std::vector<SchemaElement> els = {
      root,
      // 2-level list: the repeated primitive is the element.
      group("a", R::OPTIONAL, 1, ConvertedType::LIST), leaf("array", Type::INT32, R::REPEATED),
      // A bare repeated field.
      leaf("b", Type::INT64, R::REPEATED),
      // A list whose repeated group has two fields: a list of structs.
      group("c", R::OPTIONAL, 1, ConvertedType::LIST), group("item", R::REPEATED, 2),
      leaf("x", Type::INT32, R::REQUIRED), leaf("y", Type::INT32, R::OPTIONAL),
      // A legacy map.
      group("d", R::OPTIONAL, 1, ConvertedType::MAP), group("map", R::REPEATED, 2, ConvertedType::MAP_KEY_VALUE),
      leaf("key", Type::BYTE_ARRAY, R::REQUIRED), leaf("value", Type::DOUBLE, R::OPTIONAL),
  };
  els[10].converted_type = ConvertedType::UTF8;
  auto ps = ParquetSchema::FromElements(els);
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  Schema s = ps->ToSluiceSchema();
  EXPECT_EQ(s.field(0).type, LogicalType::Array(LogicalType::Integer().WithNullable(false)));
  EXPECT_EQ(s.field(1).type, LogicalType::Array(LogicalType::BigInt().WithNullable(false)).WithNullable(false));
  EXPECT_EQ(s.field(2).type,
            LogicalType::Array(LogicalType::Row({"x", "y"}, {LogicalType::Integer().WithNullable(false),
                                                             LogicalType::Integer()})
                                   .WithNullable(false)));
  EXPECT_EQ(s.field(3).type, LogicalType::Map(LogicalType::String().WithNullable(false), LogicalType::Double()));
  EXPECT_EQ(ps->columns()[1].max_definition_level, 1);
  EXPECT_EQ(ps->columns()[1].max_repetition_level, 1);
}

TEST(ParquetSchemaTest, RefusesWhatIcebergCannotStoreAndBadTrees) {
  Schema s;
  s.Add("iv", LogicalType::IntervalDayTime());
  auto ps = ParquetSchema::FromSluice(s, {});
  ASSERT_FALSE(ps.ok());
  EXPECT_NE(ps.status().message().find("column 'iv'"), std::string::npos) << ps.status().message();

  SchemaElement root;
  root.name = "schema";
  root.num_children = 3;
  SchemaElement a;
  a.name = "a";
  a.type = Type::INT32;
  a.repetition_type = FieldRepetitionType::OPTIONAL;
  EXPECT_FALSE(ParquetSchema::FromElements({root, a}).ok());  // fewer children than promised
  root.num_children = 1;
  EXPECT_FALSE(ParquetSchema::FromElements({root, a, a}).ok());  // more
  SchemaElement g;
  g.name = "g";
  g.repetition_type = FieldRepetitionType::OPTIONAL;
  EXPECT_FALSE(ParquetSchema::FromElements({root, g}).ok());  // a group without children
  EXPECT_EQ(DecimalByteWidth(9), 4);
  EXPECT_EQ(DecimalByteWidth(10), 5);
  EXPECT_EQ(DecimalByteWidth(18), 8);
  EXPECT_EQ(DecimalByteWidth(19), 9);
  EXPECT_EQ(DecimalByteWidth(38), 16);
}

}  // namespace
}  // namespace sluice::parquet
