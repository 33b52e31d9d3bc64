#include "formats/json/debezium_json_format.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

Schema ProductSchema() {
  return Schema({{"id", LogicalType::Integer()}, {"name", LogicalType::String()}, {"tags", LogicalType::Array(LogicalType::String())}});
}

struct Decoded {
  Status status;
  Chunk chunk;
  int64_t skipped = 0;
};

// Decodes `lines` (line numbers from 1) in batches of `batch_size` records into one chunk.
Decoded DecodeLines(const std::vector<std::string>& lines, std::map<std::string, std::string> options = {},
                    std::vector<int> projection = {}, size_t batch_size = 1024) {
  const Schema schema = ProductSchema();
  OptionReader reader("products", &options);
  auto decoder = DebeziumJsonFormatFactory().CreateDecoder(schema, projection, reader);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  Schema projected;
  if (projection.empty()) {
    projected = schema;
  } else {
    for (int i : projection) projected.Add(schema.field(i).name, schema.field(i).type);
  }
  Decoded d{Status::OK(), Chunk(projected), 0};
  std::vector<TextRecord> records;
  for (size_t i = 0; i < lines.size(); ++i) records.push_back(TextRecord{lines[i], static_cast<int64_t>(i + 1)});
  for (size_t b = 0; b < records.size() && d.status.ok(); b += batch_size) {
    RecordBatch batch{records.data() + b, std::min(batch_size, records.size() - b), "/cdc/products.json", false};
    d.status = (*decoder)->Decode(batch, &d.chunk);
  }
  d.skipped = (*decoder)->records_skipped();
  return d;
}

std::vector<std::string> Changes(const Chunk& c) {
  std::vector<std::string> out;
  for (size_t r = 0; r < c.size(); ++r) {
    std::string s(RowKindShortString(c.kind(r)));
    s += "[";
    std::vector<Value> row = c.GetRow(r);
    for (size_t i = 0; i < row.size(); ++i) s += (i ? ", " : "") + row[i].ToString();
    out.push_back(s + "]");
  }
  return out;
}

const std::vector<std::string> kEvents = {
    R"({"before":null,"after":{"id":1,"name":"a","tags":["x"]},"op":"r"})",
    R"({"before":{"id":1,"name":"a","tags":["x"]},"after":{"id":1,"name":"b","tags":["x","y"]},"op":"u"})",
    R"({"before":null,"after":{"id":2,"name":"c","tags":[]},"op":"c"})",
    R"({"before":{"id":1,"name":"b","tags":["x","y"]},"after":null,"op":"d"})",
};

TEST(DebeziumJsonFormatTest, DecodesEveryOpWithNestedColumns) {
  for (size_t batch_size : {size_t{1}, size_t{3}, size_t{1024}}) {
    Decoded d = DecodeLines(kEvents, {}, {}, batch_size);
    ASSERT_TRUE(d.status.ok()) << d.status.ToString();
    EXPECT_EQ(Changes(d.chunk), (std::vector<std::string>{"+I[1, a, [x]]", "-U[1, a, [x]]", "+U[1, b, [x, y]]",
                                                         "+I[2, c, []]", "-D[1, b, [x, y]]"}))
        << "batch size " << batch_size;
  }
}

TEST(DebeziumJsonFormatTest, ProjectsColumns) {
  Decoded d = DecodeLines(kEvents, {}, {1, 0});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(Changes(d.chunk), (std::vector<std::string>{"+I[a, 1]", "-U[a, 1]", "+U[b, 1]", "+I[c, 2]", "-D[b, 1]"}));
}

TEST(DebeziumJsonFormatTest, NamesTheFirstBadRecord) {
  std::vector<std::string> lines = kEvents;
  lines.insert(lines.begin() + 1, R"({"before":null,"after":{"id":9},"op":"z"})");
  lines.insert(lines.begin() + 3, R"({"before":null,"after":{"id":"nine"},"op":"c"})");
  Decoded d = DecodeLines(lines);
  ASSERT_FALSE(d.status.ok());
  EXPECT_EQ(d.status.message(),
            R"(Failed to deserialize Debezium JSON '{"before":null,"after":{"id":9},"op":"z"}' at /cdc/products.json:2: Unknown "op" value "z".)");
  // A malformed JSON record after a good one: the reason is the json decoder's, the format this one's.
  Decoded j = DecodeLines({kEvents[0], R"({"before":null,"after":{"id":"nine"},"op":"c"})"});
  ASSERT_FALSE(j.status.ok());
  EXPECT_EQ(j.status.message(),
            R"(Failed to deserialize Debezium JSON '{"before":null,"after":{"id":"nine"},"op":"c"}' at /cdc/products.json:2: field 'after.id': expected INT, got string "nine")");
}

TEST(DebeziumJsonFormatTest, SkipsAndCountsBadRecords) {
  std::vector<std::string> lines = {
      R"({"before":null,"after":{"id":1,"name":"a","tags":null},"op":"c"})",
      R"({"before":null,"after":{"id":"x"},"op":"c"})",  // wrong type
      R"({"before":null,"after":{"id":2},"op":"u"})",     // update without before
      R"(not json)",
      R"({"before":null,"after":{"id":3,"name":"c","tags":["q"]},"op":"c"})",
      R"({"after":{"id":4}})",  // no op
  };
  for (size_t batch_size : {size_t{1}, size_t{4}, size_t{1024}}) {
    Decoded d = DecodeLines(lines, {{"debezium-json.ignore-parse-errors", "true"}}, {}, batch_size);
    ASSERT_TRUE(d.status.ok()) << d.status.ToString();
    EXPECT_EQ(Changes(d.chunk), (std::vector<std::string>{"+I[1, a, NULL]", "+I[3, c, [q]]"}));
    EXPECT_EQ(d.skipped, 4);
  }
}

TEST(DebeziumJsonFormatTest, ReadsThePayloadWithSchemaInclude) {
  Decoded d = DecodeLines({R"({"schema":{"type":"struct"},"payload":{"before":null,"after":{"id":1,"name":"a"},"op":"c"}})"},
                          {{"debezium-json.schema-include", "true"}});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(Changes(d.chunk), (std::vector<std::string>{"+I[1, a, NULL]"}));
}

TEST(DebeziumJsonFormatTest, EncodesEachKindAsFlinkDoes) {
  const Schema schema({{"id", LogicalType::Integer()}, {"name", LogicalType::String()}});
  std::map<std::string, std::string> options;
  auto encoder = DebeziumJsonFormatFactory().CreateEncoder(schema, OptionReader("out", &options));
  ASSERT_TRUE(encoder.ok()) << encoder.status().ToString();
  Chunk c(schema);
  c.AppendValues({Value::Integer(1), Value::String("a")}, RowKind::kInsert);
  c.AppendValues({Value::Integer(1), Value::String("a")}, RowKind::kUpdateBefore);
  c.AppendValues({Value::Integer(1), Value::Null(LogicalType::String())}, RowKind::kUpdateAfter);
  c.AppendValues({Value::Integer(1), Value::Null(LogicalType::String())}, RowKind::kDelete);
  std::string out;
  ASSERT_TRUE((*encoder)->Encode(c, &out).ok());
  EXPECT_EQ(out,
            "{\"before\":null,\"after\":{\"id\":1,\"name\":\"a\"},\"op\":\"c\"}\n"
            "{\"before\":{\"id\":1,\"name\":\"a\"},\"after\":null,\"op\":\"d\"}\n"
            "{\"before\":null,\"after\":{\"id\":1,\"name\":null},\"op\":\"c\"}\n"
            "{\"before\":{\"id\":1,\"name\":null},\"after\":null,\"op\":\"d\"}\n");
}

TEST(DebeziumJsonFormatTest, ReadsAndWritesTimestampsInTheChosenStandard) {
  const Schema schema({{"ts", LogicalType::Timestamp(3)}});
  std::map<std::string, std::string> options = {{"debezium-json.timestamp-format.standard", "ISO-8601"}};
  OptionReader reader("events", &options);
  auto decoder = DebeziumJsonFormatFactory().CreateDecoder(schema, {}, reader);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  std::string line = R"({"before":null,"after":{"ts":"2026-08-15T05:00:00.123"},"op":"c"})";
  TextRecord rec{line, 1};
  Chunk chunk(schema);
  ASSERT_TRUE((*decoder)->Decode(RecordBatch{&rec, 1, "/cdc/events.json", false}, &chunk).ok());
  ASSERT_EQ(chunk.size(), 1u);
  chunk.kinds()[0] = RowKind::kDelete;
  auto encoder = DebeziumJsonFormatFactory().CreateEncoder(schema, reader);
  ASSERT_TRUE(encoder.ok()) << encoder.status().ToString();
  std::string out;
  ASSERT_TRUE((*encoder)->Encode(chunk, &out).ok());
  EXPECT_EQ(out, "{\"before\":{\"ts\":\"2026-08-15T05:00:00.123\"},\"after\":null,\"op\":\"d\"}\n");
  // The SQL standard does not read the ISO form.
  std::map<std::string, std::string> sql_options;
  auto sql = DebeziumJsonFormatFactory().CreateDecoder(schema, {}, OptionReader("events", &sql_options));
  ASSERT_TRUE(sql.ok());
  Chunk other(schema);
  Status st = (*sql)->Decode(RecordBatch{&rec, 1, "/cdc/events.json", false}, &other);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("/cdc/events.json:1: field 'after.ts'"), std::string::npos) << st.message();
}

TEST(DebeziumJsonFormatTest, RefusesSchemaIncludeForWriting) {
  const Schema schema({{"id", LogicalType::Integer()}});
  std::map<std::string, std::string> options = {{"debezium-json.schema-include", "true"}};
  auto encoder = DebeziumJsonFormatFactory().CreateEncoder(schema, OptionReader("out", &options));
  ASSERT_FALSE(encoder.ok());
  EXPECT_NE(encoder.status().message().find(
                "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice
