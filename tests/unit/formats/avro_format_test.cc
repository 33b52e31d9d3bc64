// The 'avro', 'avro-confluent' and 'raw' formats: Flink's schema derivation, exact bytes, round
// trips of every type, schema evolution through a fake schema registry, errors and skipping.
#include "formats/avro/avro_format.h"

#include <gtest/gtest.h>

#include <simdjson.h>

#include <map>

#include "formats/avro/avro_row.h"
#include "formats/avro/avro_binary.h"
#include "formats/avro_confluent/avro_confluent_format.h"
#include "formats/avro_confluent/debezium_avro_confluent_format.h"
#include "formats/avro_confluent/schema_registry.h"
#include "formats/raw/raw_format.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

using Options = std::map<std::string, std::string>;

LogicalType NotNull(LogicalType t) { return t.WithNullable(false); }

// One column of every type Flink maps, nullable unless named *_nn.
Schema AllTypes() {
  return Schema({{"b", LogicalType::Boolean()},
                 {"ti", LogicalType::TinyInt()},
                 {"si", LogicalType::SmallInt()},
                 {"i_nn", NotNull(LogicalType::Integer())},
                 {"bi", LogicalType::BigInt()},
                 {"f", LogicalType::Float()},
                 {"d", LogicalType::Double()},
                 {"s", LogicalType::String()},
                 {"by", LogicalType::Bytes()},
                 {"dec", LogicalType::Decimal(10, 2)},
                 {"dt", LogicalType::Date()},
                 {"tm", LogicalType::Time(3)},
                 {"ts", LogicalType::Timestamp(3)},
                 {"arr", LogicalType::Array(LogicalType::Integer())},
                 {"m", LogicalType::Map(LogicalType::String(), LogicalType::BigInt())},
                 {"r", LogicalType::Row({"x", "y"}, {NotNull(LogicalType::Integer()), LogicalType::String()})}});
}

std::vector<Value> AllTypesRow(int i) {
  const Schema s = AllTypes();
  auto t = [&](size_t c) { return s.field(c).type; };
  return {Value::Boolean(i % 2 == 0),
          Value::Int(t(1), -i),
          Value::Int(t(2), 300 + i),
          Value::Integer(i),
          Value::BigInt(int64_t{1} << 40 | i),
          Value::Float(1.5f * i),
          Value::Double(-0.25 * i),
          Value::String("é-" + std::to_string(i)),
          Value::Typed(t(8), std::string("\0\xff\n", 3)),
          Value::Decimal(10, 2, -12345 - i),
          Value::Int(t(10), 19000 + i),
          Value::Int(t(11), 3'600'000 + i),
          Value::Int(t(12), -1'000 * (i + 1)),  // before 1970: floors to the millisecond
          Value::List(t(13), {Value::Integer(i), Value::Null(LogicalType::Integer())}),
          Value::List(t(14), {Value::String("k"), Value::BigInt(i)}),
          Value::List(t(15), {Value::Integer(7), Value::Null(LogicalType::String())})};
}

std::vector<Value> NullRow() {
  std::vector<Value> row;
  const Schema s = AllTypes();
  for (const Field& f : s.fields()) row.push_back(Value::Null(f.type));
  row[3] = Value::Integer(0);
  return row;
}

struct Encoded {
  std::string bytes;
  std::vector<size_t> ends;
  std::string record(size_t i) const {
    const size_t begin = i == 0 ? 0 : ends[i - 1];
    return bytes.substr(begin, ends[i] - begin);
  }
};

Result<Encoded> Encode(const FormatFactory& f, const Schema& schema, const Chunk& chunk, Options options = {}) {
  OptionReader reader("t", &options);
  ASSIGN_OR_RETURN(auto encoder, f.CreateEncoder(schema, reader));
  EXPECT_TRUE(encoder->binary());
  Encoded e;
  RETURN_IF_ERROR(encoder->EncodeBinary(chunk, &e.bytes, &e.ends));
  return e;
}

struct Decoded {
  Status status;
  Chunk chunk;
  int64_t skipped = 0;
};

Decoded Decode(const FormatFactory& f, const Schema& schema, const std::vector<std::string>& records,
               Options options = {}, std::vector<int> projection = {}) {
  OptionReader reader("t", &options);
  auto decoder = f.CreateDecoder(schema, projection, reader);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  Schema projected;
  if (projection.empty()) projected = schema;
  for (int p : projection) projected.Add(schema.field(p).name, schema.field(p).type);
  Decoded d{Status::OK(), Chunk(projected), 0};
  if (!decoder.ok()) return d;
  std::vector<TextRecord> recs;
  for (size_t i = 0; i < records.size(); ++i) recs.push_back(TextRecord{records[i], static_cast<int64_t>(100 + i)});
  d.status = (*decoder)->Decode(RecordBatch{recs.data(), recs.size(), "topic 'orders' partition 2 offset", false}, &d.chunk);
  d.skipped = (*decoder)->records_skipped();
  return d;
}

Chunk Rows(const Schema& schema, const std::vector<std::vector<Value>>& rows) {
  Chunk c(schema);
  for (const auto& r : rows) c.AppendValues(r, RowKind::kInsert);
  return c;
}

void ExpectSameRows(const Chunk& a, const Chunk& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const auto ra = a.GetRow(i);
    const auto rb = b.GetRow(i);
    for (size_t c = 0; c < ra.size(); ++c) EXPECT_EQ(ra[c].ToString(), rb[c].ToString()) << "row " << i << " column " << c;
  }
}

TEST(AvroFormatTest, DerivesFlinksSchema) {
  Schema s({{"id", NotNull(LogicalType::BigInt())},
            {"name", LogicalType::String()},
            {"price", LogicalType::Decimal(10, 2)},
            {"ts", LogicalType::Timestamp(3)},
            {"r", LogicalType::Row({"a"}, {LogicalType::Date()})}});
  auto json = AvroSchemaJsonForRow(s, true);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  EXPECT_EQ(*json,
            R"({"type":"record","name":"org.apache.flink.avro.generated.record","fields":[)"
            R"({"name":"id","type":"long"},)"
            R"({"name":"name","type":["null","string"],"default":null},)"
            R"({"name":"price","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},)"
            R"({"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},)"
            R"({"name":"r","type":["null",{"type":"record","name":"org.apache.flink.avro.generated.record_r","fields":[)"
            R"({"name":"a","type":["null",{"type":"int","logicalType":"date"}],"default":null}]}],"default":null}]})");
}

TEST(AvroFormatTest, TimestampMappings) {
  Schema micros({{"ts", NotNull(LogicalType::Timestamp(6))}});
  auto legacy = AvroSchemaJsonForRow(micros, true);
  ASSERT_FALSE(legacy.ok());
  EXPECT_NE(legacy.status().message().find("Avro does not support TIMESTAMP type with precision: 6"), std::string::npos);
  auto modern = AvroSchemaJsonForRow(micros, false);
  ASSERT_TRUE(modern.ok());
  EXPECT_NE(modern->find("local-timestamp-micros"), std::string::npos);
  Schema ltz({{"ts", NotNull(LogicalType::TimestampLtz(3))}});
  EXPECT_FALSE(AvroSchemaJsonForRow(ltz, true).ok());
  auto ltz_modern = AvroSchemaJsonForRow(ltz, false);
  ASSERT_TRUE(ltz_modern.ok());
  EXPECT_NE(ltz_modern->find("\"timestamp-millis\""), std::string::npos);
  Schema bad_map({{"m", LogicalType::Map(LogicalType::Integer(), LogicalType::Integer())}});
  EXPECT_NE(AvroSchemaJsonForRow(bad_map, true).status().message().find("non-string as key type of map"), std::string::npos);
}

TEST(AvroFormatTest, ExactBytes) {
  Schema s({{"id", NotNull(LogicalType::Integer())}, {"name", LogicalType::String()}});
  Chunk c = Rows(s, {{Value::Integer(-2), Value::String("ab")}, {Value::Integer(1), Value::Null(LogicalType::String())}});
  auto e = Encode(AvroFormatFactory(), s, c);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->ends.size(), 2u);
  EXPECT_EQ(e->record(0), std::string("\x03\x02\x04" "ab", 5));  // zigzag(-2)=3, branch 1, length 2
  EXPECT_EQ(e->record(1), std::string("\x02\x00", 2));           // zigzag(1)=2, branch 0 (null)
}

TEST(AvroFormatTest, RoundTripsEveryType) {
  const Schema s = AllTypes();
  Chunk c = Rows(s, {AllTypesRow(1), AllTypesRow(2), NullRow()});
  auto e = Encode(AvroFormatFactory(), s, c);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  std::vector<std::string> records;
  for (size_t i = 0; i < e->ends.size(); ++i) records.push_back(e->record(i));
  Decoded d = Decode(AvroFormatFactory(), s, records);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ExpectSameRows(c, d.chunk);
  // A projection decodes only its columns.
  Decoded p = Decode(AvroFormatFactory(), s, records, {}, {7, 0});
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.chunk.GetRow(0)[0].ToString(), "é-1");
}

TEST(AvroFormatTest, MalformedRecordsFailOrAreSkipped) {
  Schema s({{"id", NotNull(LogicalType::BigInt())}, {"name", NotNull(LogicalType::String())}});
  const std::vector<std::string> records = {std::string("\x02\x02" "a", 3), std::string("\x02\x40", 2),
                                            std::string("\x04\x02" "bX", 4)};
  Decoded d = Decode(AvroFormatFactory(), s, records);
  ASSERT_FALSE(d.status.ok());
  EXPECT_NE(d.status.message().find("Failed to deserialize Avro record (2 bytes) at topic 'orders' partition 2 offset 101"),
            std::string::npos)
      << d.status.ToString();
  Decoded skip = Decode(AvroFormatFactory(), s, records, {{"avro.ignore-parse-errors", "true"}});
  ASSERT_TRUE(skip.status.ok()) << skip.status.ToString();
  EXPECT_EQ(skip.chunk.size(), 1u);
  EXPECT_EQ(skip.skipped, 2);  // the short one and the one with a trailing byte
}

TEST(AvroFormatTest, NullIntoNotNullColumnFails) {
  Schema s({{"id", NotNull(LogicalType::BigInt())}});
  Schema nullable({{"id", LogicalType::BigInt()}});
  Chunk c = Rows(nullable, {{Value::Null(LogicalType::BigInt())}});
  auto e = Encode(AvroFormatFactory(), s, c);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("Column 'id' is NULL"), std::string::npos);
}

TEST(RawFormatTest, NumbersStringsAndErrors) {
  Schema ints({{"v", LogicalType::Integer()}});
  Chunk c = Rows(ints, {{Value::Integer(0x01020304)}});
  auto big = Encode(RawFormatFactory(), ints, c);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->bytes, std::string("\x01\x02\x03\x04", 4));
  auto little = Encode(RawFormatFactory(), ints, c, {{"raw.endianness", "little-endian"}});
  ASSERT_TRUE(little.ok());
  EXPECT_EQ(little->bytes, std::string("\x04\x03\x02\x01", 4));
  Decoded d = Decode(RawFormatFactory(), ints, {little->bytes}, {{"raw.endianness", "little-endian"}});
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.chunk.GetRow(0)[0].ToString(), std::to_string(0x01020304));
  Decoded bad = Decode(RawFormatFactory(), ints, {"abc"});
  EXPECT_NE(bad.status.message().find("raw record (3 bytes) at topic 'orders' partition 2 offset 100"), std::string::npos);

  Schema str({{"line", LogicalType::String()}});
  Decoded s = Decode(RawFormatFactory(), str, {std::string("a\nb\0c", 5)});
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.chunk.column(0).GetString(0), std::string_view("a\nb\0c", 5));

  Schema two({{"a", LogicalType::String()}, {"b", LogicalType::String()}});
  Options none;
  OptionReader reader("t", &none);
  auto two_dec = RawFormatFactory().CreateDecoder(two, {}, reader);
  ASSERT_FALSE(two_dec.ok());
  EXPECT_NE(two_dec.status().message().find("only supports single physical column"), std::string::npos);
}

// A Confluent-compatible registry in memory: subjects with their schemas, ids from 1.
class FakeRegistry {
 public:
  FakeRegistry() {
    SetSchemaRegistryHttp([this](const RegistryHttpRequest& r) { return Handle(r); });
  }
  ~FakeRegistry() { SetSchemaRegistryHttp(nullptr); }
  int32_t Add(const std::string& schema) {
    schemas_.push_back(schema);
    return static_cast<int32_t>(schemas_.size());
  }
  std::vector<RegistryHttpRequest> requests;
  bool down = false;

 private:
  Result<RegistryHttpResponse> Handle(const RegistryHttpRequest& r) {
    requests.push_back(r);
    if (down) return Status::IOError("Connection refused");
    const std::string base = "http://registry:8081";
    if (r.method == "GET" && r.url.rfind(base + "/schemas/ids/", 0) == 0) {
      const int id = std::stoi(r.url.substr(base.size() + 13));
      if (id < 1 || id > static_cast<int>(schemas_.size())) {
        return RegistryHttpResponse{404, R"({"error_code":40403,"message":"Schema not found"})"};
      }
      std::string body = "{\"schema\":";
      AppendQuoted(schemas_[static_cast<size_t>(id - 1)], &body);
      return RegistryHttpResponse{200, body + "}"};
    }
    if (r.method == "POST" && r.url == base + "/subjects/orders-value/versions") {
      simdjson::dom::parser parser;
      std::string_view schema;
      if (parser.parse(r.body)["schema"].get(schema) != simdjson::SUCCESS) return RegistryHttpResponse{422, "{}"};
      return RegistryHttpResponse{200, "{\"id\":" + std::to_string(Add(std::string(schema))) + "}"};
    }
    return RegistryHttpResponse{404, R"({"error_code":404,"message":"HTTP 404 Not Found"})"};
  }
  static void AppendQuoted(const std::string& s, std::string* out) {
    out->push_back('"');
    for (char c : s) {
      if (c == '"' || c == '\\') out->push_back('\\');
      out->push_back(c);
    }
    out->push_back('"');
  }
  std::vector<std::string> schemas_;
};

std::string Framed(int32_t id, const std::string& datum) {
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((id >> shift) & 0xff));
  return out + datum;
}

const Options kRegistry = {{"avro-confluent.url", "http://registry:8081/"}, {"avro-confluent.subject", "orders-value"}};

TEST(AvroConfluentFormatTest, RegistersOnceAndFramesRecords) {
  FakeRegistry registry;
  Schema s({{"id", NotNull(LogicalType::Integer())}, {"name", LogicalType::String()}});
  Chunk c = Rows(s, {{Value::Integer(-2), Value::String("ab")}, {Value::Integer(1), Value::Null(LogicalType::String())}});
  Options o = kRegistry;
  o["avro-confluent.basic-auth.credentials-source"] = "USER_INFO";
  o["avro-confluent.basic-auth.user-info"] = "user:secret";
  auto e = Encode(AvroConfluentFormatFactory(), s, c, o);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(registry.requests.size(), 1u);
  const RegistryHttpRequest& post = registry.requests[0];
  EXPECT_EQ(post.method, "POST");
  EXPECT_NE(post.body.find("org.apache.flink.avro.generated.record"), std::string::npos);
  bool auth = false;
  for (const auto& [k, v] : post.headers) auth |= k == "Authorization" && v == "Basic dXNlcjpzZWNyZXQ=";
  EXPECT_TRUE(auth);
  EXPECT_EQ(e->record(0), Framed(1, std::string("\x03\x02\x04" "ab", 5)));
  EXPECT_EQ(e->record(1), Framed(1, std::string("\x02\x00", 2)));
  // Read back: the writer schema is the table's own, decoded without a resolution plan.
  Decoded d = Decode(AvroConfluentFormatFactory(), s, {e->record(0), e->record(1)}, o);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ExpectSameRows(c, d.chunk);
}

TEST(AvroConfluentFormatTest, ResolvesWriterSchemasById) {
  FakeRegistry registry;
  Schema s({{"id", NotNull(LogicalType::BigInt())}, {"name", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  // Writer 1 has an extra field ('note') and lacks 'qty' (nullable: NULL); writer 2 is int for a long
  // column (promoted) and gives 'qty' a default the reader ignores (the reader's own default is null).
  const int32_t w1 = registry.Add(
      R"({"type":"record","name":"old","fields":[{"name":"note","type":"string"},{"name":"id","type":"long"},)"
      R"({"name":"name","type":["null","string"],"default":null}]})");
  const int32_t w2 = registry.Add(
      R"({"type":"record","name":"new","fields":[{"name":"id","type":"int"},{"name":"qty","type":"int"},)"
      R"({"name":"name","type":"string"}]})");
  const std::vector<std::string> records = {
      Framed(w1, std::string("\x04" "hi" "\x0e\x02\x02" "x", 7)),  // note "hi", id 7, name "x"
      Framed(w2, std::string("\x10\x06\x02" "y", 4)),              // id 8, qty 3, name "y"
  };
  Decoded d = Decode(AvroConfluentFormatFactory(), s, records, kRegistry);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 2u);
  EXPECT_EQ(d.chunk.GetRow(0)[0].ToString(), "7");
  EXPECT_EQ(d.chunk.GetRow(0)[1].ToString(), "x");
  EXPECT_TRUE(d.chunk.column(2).IsNull(0));
  EXPECT_EQ(d.chunk.GetRow(1)[0].ToString(), "8");
  EXPECT_EQ(d.chunk.GetRow(1)[2].ToString(), "3");
  // Each id was fetched once.
  EXPECT_EQ(registry.requests.size(), 2u);
}

TEST(AvroConfluentFormatTest, UnknownIdsAndBadRecordsFailOrAreSkipped) {
  FakeRegistry registry;
  Schema s({{"id", NotNull(LogicalType::BigInt())}});
  const int32_t w = registry.Add(R"({"type":"record","name":"r","fields":[{"name":"id","type":"long"}]})");
  const std::vector<std::string> records = {Framed(w, "\x02"), Framed(42, "\x02"), std::string("\x01\x00\x00\x00\x01\x02", 6),
                                            Framed(w, "\x04")};
  Decoded d = Decode(AvroConfluentFormatFactory(), s, records, kRegistry);
  ASSERT_FALSE(d.status.ok());
  EXPECT_NE(d.status.message().find("at topic 'orders' partition 2 offset 101: the schema id 42 is unknown"),
            std::string::npos)
      << d.status.ToString();
  Options skip = kRegistry;
  skip["avro-confluent.ignore-parse-errors"] = "true";
  Decoded s2 = Decode(AvroConfluentFormatFactory(), s, records, skip);
  ASSERT_TRUE(s2.status.ok()) << s2.status.ToString();
  EXPECT_EQ(s2.chunk.size(), 2u);
  EXPECT_EQ(s2.skipped, 2);
  // An unreachable registry is never skipped.
  registry.down = true;
  Decoded down = Decode(AvroConfluentFormatFactory(), s, {Framed(99, "\x02")}, skip);
  ASSERT_FALSE(down.status.ok());
  EXPECT_NE(down.status.message().find("Connection refused"), std::string::npos);
}

TEST(AvroConfluentFormatTest, OptionsAreChecked) {
  Schema s({{"id", NotNull(LogicalType::BigInt())}});
  Options none;
  OptionReader reader("t", &none);
  auto dec = AvroConfluentFormatFactory().CreateDecoder(s, {}, reader);
  ASSERT_FALSE(dec.ok());
  EXPECT_NE(dec.status().message().find("avro-confluent.url"), std::string::npos);
  Options no_subject = {{"avro-confluent.url", "http://registry:8081"}};
  OptionReader r2("t", &no_subject);
  auto enc = AvroConfluentFormatFactory().CreateEncoder(s, r2);
  ASSERT_FALSE(enc.ok());
  EXPECT_NE(enc.status().message().find("Option avro-confluent.subject is required for serialization"), std::string::npos);
  std::map<std::string, std::string> fo;
  DefaultSchemaRegistrySubject(AvroConfluentFormatFactory(), "orders", false, &fo);
  EXPECT_EQ(fo["avro-confluent.subject"], "orders-value");
  EXPECT_TRUE(IsSecretOptionKey("value.avro-confluent.basic-auth.user-info"));
  EXPECT_TRUE(IsSecretOptionKey("avro-confluent.bearer-auth.token"));
  EXPECT_TRUE(IsSecretOptionKey("avro-confluent.properties.basic.auth.user.info"));
  // A given schema must carry the columns.
  Options given = {{"avro-confluent.url", "http://registry:8081"},
                   {"avro-confluent.schema", R"({"type":"record","name":"r","fields":[{"name":"id","type":"string"}]})"}};
  OptionReader r3("t", &given);
  auto bad = AvroConfluentFormatFactory().CreateDecoder(s, {}, r3);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Column 'id' of type BIGINT NOT NULL cannot be carried by the Avro type string"),
            std::string::npos)
      << bad.status().ToString();
}

TEST(DebeziumAvroConfluentFormatTest, WritesAndReadsChanges) {
  FakeRegistry registry;
  Schema s({{"id", NotNull(LogicalType::BigInt())}, {"name", LogicalType::String()}});
  Chunk c = Rows(s, {{Value::BigInt(1), Value::String("a")}, {Value::BigInt(1), Value::String("a")},
                     {Value::BigInt(1), Value::String("b")}, {Value::BigInt(2), Value::Null(LogicalType::String())}});
  c.kinds()[1] = RowKind::kUpdateBefore;
  c.kinds()[2] = RowKind::kUpdateAfter;
  c.kinds()[3] = RowKind::kDelete;
  Options o = {{"debezium-avro-confluent.url", "http://registry:8081"},
               {"debezium-avro-confluent.subject", "orders-value"}};
  auto e = Encode(DebeziumAvroConfluentFormatFactory(), s, c, o);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_NE(registry.requests[0].body.find("org.apache.flink.avro.generated.record_before"), std::string::npos);
  std::vector<std::string> records;
  for (size_t i = 0; i < e->ends.size(); ++i) records.push_back(e->record(i));
  // Flink's serializer: +I/+U as 'c' with "after", -U/-D as 'd' with "before".
  Decoded d = Decode(DebeziumAvroConfluentFormatFactory(), s, records, o);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 4u);
  const RowKind kinds[] = {RowKind::kInsert, RowKind::kDelete, RowKind::kInsert, RowKind::kDelete};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(d.chunk.kind(i), kinds[i]) << i;
    EXPECT_EQ(d.chunk.GetRow(i)[1].ToString(), c.GetRow(i)[1].ToString()) << i;
  }
}

// A Debezium-like writer envelope (with 'source' and 'ts_ms', which resolution skips) and every op.
TEST(DebeziumAvroConfluentFormatTest, ReadsDebeziumEnvelopes) {
  FakeRegistry registry;
  const std::string writer_json =
      R"({"type":"record","name":"Envelope","namespace":"dbserver1.inventory.orders","fields":[)"
      R"({"name":"before","type":["null",{"type":"record","name":"Value","fields":[{"name":"id","type":"long"},)"
      R"({"name":"name","type":["null","string"],"default":null}]}],"default":null},)"
      R"({"name":"after","type":["null","Value"],"default":null},)"
      R"({"name":"source","type":{"type":"record","name":"Source","fields":[{"name":"db","type":"string"}]}},)"
      R"({"name":"op","type":"string"},{"name":"ts_ms","type":["null","long"],"default":null}]})";
  const int32_t id = registry.Add(writer_json);
  auto writer = AvroSchema::Parse(writer_json);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  auto row = [](int64_t i, const char* name) {
    return AvroValue::Record({AvroValue::Long(i), name ? AvroValue::String(name) : AvroValue::Null()});
  };
  auto record = [&](AvroValue before, AvroValue after, const char* op) {
    std::string datum;
    AvroEncoder enc(&datum);
    EXPECT_TRUE(EncodeAvroValue(writer->root(),
                                AvroValue::Record({std::move(before), std::move(after), AvroValue::Record({AvroValue::String("db")}),
                                                   AvroValue::String(op), AvroValue::Long(5)}),
                                &enc)
                    .ok());
    return Framed(id, datum);
  };
  Schema s({{"id", NotNull(LogicalType::BigInt())}, {"name", LogicalType::String()}});
  const std::vector<std::string> records = {
      record(AvroValue::Null(), row(1, "a"), "r"), record(row(1, "a"), row(1, "b"), "u"),
      record(row(1, "b"), AvroValue::Null(), "d"), record(AvroValue::Null(), row(2, nullptr), "c")};
  Options o = {{"debezium-avro-confluent.url", "http://registry:8081"}};
  Decoded d = Decode(DebeziumAvroConfluentFormatFactory(), s, records, o);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 5u);
  const RowKind kinds[] = {RowKind::kInsert, RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete, RowKind::kInsert};
  const char* names[] = {"a", "a", "b", "b", nullptr};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(d.chunk.kind(i), kinds[i]) << i;
    if (names[i] == nullptr) {
      EXPECT_TRUE(d.chunk.column(1).IsNull(i));
    } else {
      EXPECT_EQ(d.chunk.column(1).GetString(i), names[i]) << i;
    }
  }
  // An update without "before" and an unknown op are malformed records.
  Decoded bad = Decode(DebeziumAvroConfluentFormatFactory(), s, {record(AvroValue::Null(), row(1, "a"), "u")}, o);
  EXPECT_NE(bad.status.message().find("The \"before\" field of UPDATE message is null"), std::string::npos)
      << bad.status.ToString();
  Options skip = o;
  skip["debezium-avro-confluent.ignore-parse-errors"] = "true";
  Decoded skipped = Decode(DebeziumAvroConfluentFormatFactory(), s, {record(AvroValue::Null(), row(1, "a"), "x")}, skip);
  ASSERT_TRUE(skipped.status.ok());
  EXPECT_EQ(skipped.skipped, 1);
}

}  // namespace
}  // namespace sluice
