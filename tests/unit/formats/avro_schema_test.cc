#include "formats/avro/avro_schema.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(AvroSchemaTest, ParsesIcebergStyleRecordWithAttributes) {
  const std::string json =
      R"({"type":"record","name":"manifest_entry","fields":[)"
      R"({"name":"status","type":"int","field-id":0},)"
      R"({"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},)"
      R"({"name":"column_sizes","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118",)"
      R"("fields":[{"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},)"
      R"("logicalType":"map"}],"doc":"Map of column id to total size on disk","default":null,"field-id":108}]})";
  auto schema = AvroSchema::Parse(json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const AvroNode& root = schema->root();
  ASSERT_EQ(root.type, AvroType::kRecord);
  EXPECT_EQ(root.name, "manifest_entry");
  ASSERT_EQ(root.fields.size(), 3u);
  EXPECT_EQ(root.fields[0].field_id(), 0);
  EXPECT_EQ(root.fields[1].field_id(), 1);
  EXPECT_EQ(root.fields[1].type->type, AvroType::kUnion);
  EXPECT_EQ(root.fields[1].type->NullBranch(), 0);
  EXPECT_EQ(*root.fields[1].default_json, "null");
  const AvroNode& arr = *root.fields[2].type->branches[1];
  EXPECT_EQ(arr.type, AvroType::kArray);
  ASSERT_NE(arr.Attribute("logicalType"), nullptr);
  EXPECT_EQ(*arr.Attribute("logicalType"), "\"map\"");
  EXPECT_EQ(arr.items->fields[1].field_id(), 118);
  EXPECT_EQ(root.fields[2].doc, "Map of column id to total size on disk");
  // Writing gives back the same document (attribute order kept).
  EXPECT_EQ(schema->ToJson(), json);
}

TEST(AvroSchemaTest, LogicalTypesEnumsFixedMapsAndNames) {
  const std::string json =
      R"({"type":"record","name":"r","namespace":"ns","fields":[)"
      R"({"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}},)"
      R"({"name":"day","type":{"type":"int","logicalType":"date"}},)"
      R"({"name":"t","type":{"type":"long","logicalType":"time-micros"}},)"
      R"({"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true}},)"
      R"({"name":"u","type":{"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"}},)"
      R"({"name":"u2","type":"uuid_fixed"},)"
      R"({"name":"e","type":{"type":"enum","name":"color","symbols":["RED","GREEN"],"default":"RED"}},)"
      R"({"name":"m","type":{"type":"map","values":"string"}},)"
      R"({"name":"bad","type":{"type":"int","logicalType":"decimal","precision":3}}]})";
  auto schema = AvroSchema::Parse(json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const auto& f = schema->root().fields;
  EXPECT_EQ(f[0].type->logical_type, AvroLogicalType::kDecimal);
  EXPECT_EQ(f[0].type->precision, 10);
  EXPECT_EQ(f[0].type->scale, 2);
  EXPECT_EQ(f[1].type->logical_type, AvroLogicalType::kDate);
  EXPECT_EQ(f[2].type->logical_type, AvroLogicalType::kTimeMicros);
  EXPECT_EQ(f[3].type->logical_type, AvroLogicalType::kTimestampMicros);
  EXPECT_EQ(f[4].type->logical_type, AvroLogicalType::kUuid);
  EXPECT_EQ(f[4].type->FullName(), "ns.uuid_fixed");
  EXPECT_EQ(f[5].type, f[4].type);  // a name refers to the one definition
  EXPECT_EQ(f[6].type->symbols.size(), 2u);
  EXPECT_EQ(f[7].type->type, AvroType::kMap);
  EXPECT_EQ(f[8].type->logical_type, AvroLogicalType::kNone);  // decimal on int is ignored
  // The writer prints the named type's definition once, then its full name.
  auto again = AvroSchema::Parse(schema->ToJson());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->ToJson(), schema->ToJson());
  EXPECT_NE(schema->ToJson().find(R"("name":"u2","type":"ns.uuid_fixed")"), std::string::npos) << schema->ToJson();
}

TEST(AvroSchemaTest, RecursiveRecord) {
  auto schema = AvroSchema::Parse(
      R"({"type":"record","name":"node","fields":[{"name":"next","type":["null","node"]}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->root().fields[0].type->branches[1], &schema->root());
  EXPECT_EQ(schema->ToJson(), R"({"type":"record","name":"node","fields":[{"name":"next","type":["null","node"]}]})");
}

TEST(AvroSchemaTest, ErrorsNameThePlace) {
  struct Case {
    std::string json;
    std::string error;
  };
  const Case cases[] = {
      {"{", "not JSON"},
      {R"("nope")", "unknown type 'nope'"},
      {R"({"type":"record","name":"r","fields":[{"name":"a","type":"undefined_t"}]})", "at .a: unknown type"},
      {R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]})",
       "duplicate field name"},
      {R"(["null",["int"]])", "may not contain a union"},
      {R"({"type":"fixed","name":"f"})", "\"size\""},
      {R"({"type":"enum","name":"e","symbols":[]})", "symbols"},
      {R"({"type":"array"})", "missing \"items\""},
      {R"([{"type":"fixed","name":"f","size":1},{"type":"fixed","name":"f","size":2}])", "defined twice"},
  };
  for (const Case& c : cases) {
    auto s = AvroSchema::Parse(c.json);
    ASSERT_FALSE(s.ok()) << c.json;
    EXPECT_NE(s.status().message().find(c.error), std::string::npos) << c.json << " -> " << s.status().ToString();
  }
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += R"({"type":"array","items":)";
  deep += "\"int\"";
  for (int i = 0; i < 200; ++i) deep += "}";
  auto s = AvroSchema::Parse(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("nested deeper"), std::string::npos);
}

}  // namespace
}  // namespace sluice
