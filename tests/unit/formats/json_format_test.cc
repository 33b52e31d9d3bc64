#include "formats/json/json_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "common/time_util.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

// Quick throughput sanity (not a test; speed is measured in bench/): decoding 1M Nexmark-like bid
// lines of ~170 bytes with a 1024-row Chunk per batch should take well under half a second per core
// in a release build (>= 2M rows/s).

struct Decoded {
  Status status;
  Chunk chunk;
  int64_t skipped = 0;
};

Decoded DecodeLines(const Schema& schema, const std::vector<std::string>& lines,
                    std::map<std::string, std::string> options = {}, std::vector<int> projection = {},
                    bool padded = false) {
  OptionReader reader("orders", &options);
  auto decoder = JsonFormatFactory().CreateDecoder(schema, projection, reader);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  Schema projected;
  if (projection.empty()) {
    projected = schema;
  } else {
    for (int i : projection) projected.Add(schema.field(i).name, schema.field(i).type);
  }
  Decoded d{Status::OK(), Chunk(projected), 0};
  std::string buffer;
  std::vector<size_t> offsets;
  for (const auto& l : lines) {
    offsets.push_back(buffer.size());
    buffer += l;
    buffer += '\n';
  }
  buffer.append(kRecordPadding, ' ');
  std::vector<TextRecord> records;
  for (size_t i = 0; i < lines.size(); ++i) {
    records.push_back(TextRecord{std::string_view(buffer.data() + offsets[i], lines[i].size()),
                                 static_cast<int64_t>(i + 1)});
  }
  RecordBatch batch{records.data(), records.size(), "/data/orders.json", padded};
  d.status = (*decoder)->Decode(batch, &d.chunk);
  d.skipped = (*decoder)->records_skipped();
  return d;
}

TEST(JsonFormatTest, DecodesScalarTypes) {
  Schema s({{"b", LogicalType::Boolean()},
            {"ti", LogicalType::TinyInt()},
            {"si", LogicalType::SmallInt()},
            {"i", LogicalType::Integer()},
            {"bi", LogicalType::BigInt()},
            {"f", LogicalType::Float()},
            {"d", LogicalType::Double()},
            {"dec", LogicalType::Decimal(10, 2)},
            {"s", LogicalType::String()},
            {"dt", LogicalType::Date()},
            {"t", LogicalType::Time(0)},
            {"ts", LogicalType::Timestamp(3)},
            {"ltz", LogicalType::TimestampLtz(3)},
            {"bytes", LogicalType::Bytes()}});
  Decoded d = DecodeLines(
      s, {R"({"b":true,"ti":-5,"si":300,"i":42,"bi":9007199254740993,"f":1.5,"d":-2.25e3,"dec":12.345,)"
          R"("s":"caf\u00e9 \"q\"","dt":"2026-08-15","t":"05:06:07","ts":"2026-08-15 05:00:00.123",)"
          R"("ltz":"2026-08-15 05:00:00Z","bytes":"AAEC"})",
          R"({"b":"false","ti":"7","si":" 8 ","i":"42","bi":"-1","f":"NaN","d":"1e2","dec":"-0.005",)"
          R"("s":17,"dt":null,"t":"23:59:59","ts":"2026-08-15 05:00:00","ltz":"1970-01-01 00:00:00.5Z"})"});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 2u);
  const Chunk& c = d.chunk;
  EXPECT_EQ(c.column(0).data<uint8_t>()[0], 1);
  EXPECT_EQ(c.column(1).data<int8_t>()[0], -5);
  EXPECT_EQ(c.column(2).data<int16_t>()[0], 300);
  EXPECT_EQ(c.column(3).data<int32_t>()[0], 42);
  EXPECT_EQ(c.column(4).data<int64_t>()[0], 9007199254740993LL);
  EXPECT_EQ(c.column(5).data<float>()[0], 1.5f);
  EXPECT_EQ(c.column(6).data<double>()[0], -2250.0);
  EXPECT_EQ(static_cast<int64_t>(c.column(7).data<__int128>()[0]), 1235);  // half-up to scale 2
  EXPECT_EQ(c.column(8).GetString(0), "caf\xc3\xa9 \"q\"");
  EXPECT_EQ(FormatDate(c.column(9).data<int32_t>()[0]), "2026-08-15");
  EXPECT_EQ(FormatTime(c.column(10).data<int32_t>()[0], 0), "05:06:07");
  EXPECT_EQ(FormatTimestamp(c.column(11).data<int64_t>()[0], 3), "2026-08-15 05:00:00.123");
  EXPECT_EQ(FormatTimestamp(c.column(12).data<int64_t>()[0], 3), "2026-08-15 05:00:00.000");
  EXPECT_EQ(c.column(13).GetString(0), std::string("\x00\x01\x02", 3));
  // Second row: values given as strings, as Flink accepts.
  EXPECT_EQ(c.column(0).data<uint8_t>()[1], 0);
  EXPECT_EQ(c.column(1).data<int8_t>()[1], 7);
  EXPECT_EQ(c.column(2).data<int16_t>()[1], 8);
  EXPECT_EQ(c.column(4).data<int64_t>()[1], -1);
  EXPECT_TRUE(std::isnan(c.column(5).data<float>()[1]));
  EXPECT_EQ(c.column(6).data<double>()[1], 100.0);
  EXPECT_EQ(static_cast<int64_t>(c.column(7).data<__int128>()[1]), -1);  // -0.005 -> -0.01 (half-up)
  EXPECT_EQ(c.column(8).GetString(1), "17");
  EXPECT_TRUE(c.column(9).IsNull(1));
  EXPECT_FALSE(c.column(10).IsNull(1));
  EXPECT_EQ(c.column(12).data<int64_t>()[1], 500000);
}

TEST(JsonFormatTest, DecimalFromNumberKeepsDigitsAndOverflowIsNull) {
  Schema s({{"dec", LogicalType::Decimal(38, 18)}, {"small", LogicalType::Decimal(3, 1)}});
  Decoded d = DecodeLines(s, {R"({"dec":12345678901234567890.123456789012345678,"small":99.94})",
                              R"({"dec":1E-3,"small":99.95})"});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  Value v = d.chunk.column(0).GetValue(0);
  EXPECT_EQ(v.ToString(), "12345678901234567890.123456789012345678");
  EXPECT_EQ(d.chunk.column(1).GetValue(0).ToString(), "99.9");
  EXPECT_EQ(d.chunk.column(0).GetValue(1).ToString(), "0.001000000000000000");
  EXPECT_TRUE(d.chunk.column(1).IsNull(1));  // 100.0 needs 4 digits
}

TEST(JsonFormatTest, NestedArraysOfRowsAndMaps) {
  LogicalType line = LogicalType::Row({"line_no", "sku", "qty"},
                                      {LogicalType::Integer(), LogicalType::String(), LogicalType::Integer()});
  Schema s({{"order_id", LogicalType::String()},
            {"lines", LogicalType::Array(line)},
            {"tags", LogicalType::Map(LogicalType::String(), LogicalType::Integer())},
            {"nums", LogicalType::Array(LogicalType::BigInt())},
            {"addr", LogicalType::Row({"city", "zip"}, {LogicalType::String(), LogicalType::Integer()})}});
  Decoded d = DecodeLines(
      s, {R"({"order_id":"o1","lines":[{"line_no":1,"sku":"SKU-1","qty":2},{"qty":3,"sku":"SKU-2","line_no":2}],)"
          R"("tags":{"a":1,"b":null},"nums":[1,2,3],"addr":{"city":"Oslo","zip":123}})",
          R"({"order_id":"o2","lines":[],"tags":{},"nums":null,"addr":null})",
          R"({"order_id":"o3","lines":[{"line_no":1,"sku":"SKU-9"}]})"});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 3u);
  EXPECT_EQ(d.chunk.column(1).GetValue(0).ToString(), "[(1, SKU-1, 2), (2, SKU-2, 3)]");
  EXPECT_EQ(d.chunk.column(2).GetValue(0).ToString(), "{a=1, b=NULL}");
  EXPECT_EQ(d.chunk.column(3).GetValue(0).ToString(), "[1, 2, 3]");
  EXPECT_EQ(d.chunk.column(4).GetValue(0).ToString(), "(Oslo, 123)");
  EXPECT_EQ(d.chunk.column(1).GetValue(1).ToString(), "[]");
  EXPECT_EQ(d.chunk.column(2).GetValue(1).ToString(), "{}");
  EXPECT_TRUE(d.chunk.column(3).IsNull(1));
  EXPECT_TRUE(d.chunk.column(4).IsNull(1));
  // A missing nested field is NULL; missing top-level fields too.
  EXPECT_EQ(d.chunk.column(1).GetValue(2).ToString(), "[(1, SKU-9, NULL)]");
  EXPECT_TRUE(d.chunk.column(2).IsNull(2));
}

TEST(JsonFormatTest, MissingFieldsAreNullOrFailWhenAsked) {
  Schema s({{"id", LogicalType::Integer()}, {"qty", LogicalType::Integer()}});
  Decoded d = DecodeLines(s, {R"({"id":1})", R"({"qty":2,"extra":[1,{"x":2}]})"});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_TRUE(d.chunk.column(1).IsNull(0));
  EXPECT_TRUE(d.chunk.column(0).IsNull(1));
  EXPECT_EQ(d.chunk.column(1).data<int32_t>()[1], 2);

  Decoded f = DecodeLines(s, {R"({"id":1,"qty":1})", R"({"id":1})"}, {{"json.fail-on-missing-field", "true"}});
  ASSERT_FALSE(f.status.ok());
  EXPECT_EQ(f.status.message(),
            "Failed to deserialize JSON '{\"id\":1}' at /data/orders.json:2: field 'qty': field is missing "
            "('json.fail-on-missing-field' is true)");
}

TEST(JsonFormatTest, MalformedRecordNamesFileLineAndReason) {
  Schema s({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  Decoded d = DecodeLines(s, {R"({"sku":"a","qty":1})", R"({"sku":"b","qty":"x"})"});
  ASSERT_FALSE(d.status.ok());
  EXPECT_EQ(d.status.message(),
            "Failed to deserialize JSON '{\"sku\":\"b\",\"qty\":\"x\"}' at /data/orders.json:2: field 'qty': expected "
            "INT, got string \"x\"");
  // The rows before the bad record stay; the chunk is consistent.
  EXPECT_EQ(d.chunk.size(), 1u);

  Decoded e = DecodeLines(s, {R"({"sku":"a","qty":true})"});
  EXPECT_NE(e.status.message().find("field 'qty': expected INT, got boolean true"), std::string::npos);
  Decoded g = DecodeLines(s, {R"({"sku":"a",)"});
  EXPECT_NE(g.status.message().find("/data/orders.json:1: malformed JSON"), std::string::npos)
      << g.status.message();
  Decoded nj = DecodeLines(s, {"not json"});
  EXPECT_EQ(nj.status.message(),
            "Failed to deserialize JSON 'not json' at /data/orders.json:1: malformed JSON (expected a JSON object)");
  Decoded nl = DecodeLines(s, {"null"});
  EXPECT_NE(nl.status.message().find("expected a JSON object, got null"), std::string::npos);
  Decoded h = DecodeLines(s, {R"([1,2])"});
  EXPECT_NE(h.status.message().find("expected a JSON object, got array"), std::string::npos);
  Decoded i = DecodeLines(s, {R"({"sku":"a"} {"sku":"b"})"});
  EXPECT_NE(i.status.message().find("unexpected text after the JSON object"), std::string::npos);
  std::string long_line = R"({"sku":")" + std::string(200, 'z') + R"(","qty":"x"})";
  Decoded j = DecodeLines(s, {long_line});
  EXPECT_NE(j.status.message().find("'" + long_line.substr(0, 100) + "...' at"), std::string::npos);
}

TEST(JsonFormatTest, NestedErrorPath) {
  LogicalType line = LogicalType::Row({"sku", "qty"}, {LogicalType::String(), LogicalType::Integer()});
  Schema s({{"lines", LogicalType::Array(line)}});
  Decoded d = DecodeLines(s, {R"({"lines":[{"sku":"a","qty":1},{"sku":"b","qty":"many"}]})"});
  ASSERT_FALSE(d.status.ok());
  EXPECT_NE(d.status.message().find(": field 'lines[1].qty': expected INT, got string \"many\""), std::string::npos)
      << d.status.message();
}

TEST(JsonFormatTest, IgnoreParseErrorsSkipsAndCountsAndRollsBackNestedRows) {
  LogicalType line = LogicalType::Row({"sku", "qty"}, {LogicalType::String(), LogicalType::Integer()});
  Schema s({{"id", LogicalType::Integer()}, {"lines", LogicalType::Array(line)}});
  Decoded d = DecodeLines(s,
                          {R"({"id":1,"lines":[{"sku":"a","qty":1}]})", R"({"id":2,"lines":[{"sku":"b","qty":1},{"qty":"x"}]})",
                           R"(not json)", R"({"id":3,"lines":[{"sku":"c","qty":3}]})"},
                          {{"json.ignore-parse-errors", "true"}});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.skipped, 2);
  ASSERT_EQ(d.chunk.size(), 2u);
  EXPECT_EQ(d.chunk.column(0).data<int32_t>()[1], 3);
  EXPECT_EQ(d.chunk.column(1).GetValue(1).ToString(), "[(c, 3)]");
  EXPECT_EQ(d.chunk.column(1).child(0).size(), 2u);  // the failed record's elements were undone
}

TEST(JsonFormatTest, TimestampStandards) {
  Schema s({{"ts", LogicalType::Timestamp(3)}});
  Decoded sql = DecodeLines(s, {R"({"ts":"2026-08-15T05:00:00"})"});
  ASSERT_FALSE(sql.status.ok());
  EXPECT_NE(sql.status.message().find("expected TIMESTAMP(3), got string \"2026-08-15T05:00:00\""), std::string::npos)
      << sql.status.message();
  Decoded iso = DecodeLines(s, {R"({"ts":"2026-08-15T05:00:00.5"})", R"({"ts":"2026-08-15T05:00:00Z"})"},
                            {{"json.timestamp-format.standard", "ISO-8601"}});
  ASSERT_TRUE(iso.status.ok()) << iso.status.ToString();
  EXPECT_EQ(FormatTimestamp(iso.chunk.column(0).data<int64_t>()[0], 3), "2026-08-15 05:00:00.500");
  std::map<std::string, std::string> bad = {{"json.timestamp-format.standard", "RFC"}};
  OptionReader reader("orders", &bad);
  auto decoder = JsonFormatFactory().CreateDecoder(s, {}, reader);
  ASSERT_FALSE(decoder.ok());
  EXPECT_EQ(decoder.status().message(),
            "Invalid value for option 'json.timestamp-format.standard' of table 'orders': 'RFC' is not one of 'SQL', "
            "'ISO-8601'");
}

TEST(JsonFormatTest, ProjectionReadsOnlySomeColumnsAndUnpaddedInput) {
  Schema s({{"a", LogicalType::Integer()}, {"b", LogicalType::String()}, {"c", LogicalType::Double()}});
  Decoded d = DecodeLines(s, {R"({"a":1,"b":"x","c":1.5})", R"({"c":2.5,"b":"y","a":2})"}, {}, {2, 0}, false);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.num_columns(), 2u);
  EXPECT_EQ(d.chunk.column(0).data<double>()[1], 2.5);
  EXPECT_EQ(d.chunk.column(1).data<int32_t>()[1], 2);
  Decoded p = DecodeLines(s, {R"({"a":1,"b":"x","c":1.5})"}, {}, {1}, true);
  ASSERT_TRUE(p.status.ok());
  EXPECT_EQ(p.chunk.column(0).GetString(0), "x");
}

TEST(JsonFormatTest, FieldNamesAreCaseSensitive) {
  Schema s({{"Qty", LogicalType::Integer()}});
  Decoded d = DecodeLines(s, {R"({"qty":1,"Qty":2})"});
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.chunk.column(0).data<int32_t>()[0], 2);
}

TEST(JsonFormatTest, SplitRecordsCutsLinesAndSkipsBlankOnes) {
  std::map<std::string, std::string> options;
  OptionReader reader("t", &options);
  auto decoder = JsonFormatFactory().CreateDecoder(Schema({{"a", LogicalType::Integer()}}), {}, reader);
  ASSERT_TRUE(decoder.ok());
  std::string data = "{\"a\":1}\r\n\n  \n{\"a\":2}\n{\"a\":3";
  std::vector<TextRecord> recs;
  int64_t line = 1;
  size_t used = (*decoder)->SplitRecords(data, false, 100, &line, &recs);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].text, "{\"a\":1}");
  EXPECT_EQ(recs[1].line, 4);
  EXPECT_EQ(used, data.size() - 6);
  EXPECT_EQ(line, 5);
  recs.clear();
  used += (*decoder)->SplitRecords(std::string_view(data).substr(used), true, 100, &line, &recs);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].text, "{\"a\":3");
  EXPECT_EQ(recs[0].line, 5);
  EXPECT_EQ(used, data.size());
}

TEST(JsonFormatTest, WritesRowsInFlinkForm) {
  LogicalType line = LogicalType::Row({"sku", "qty"}, {LogicalType::String(), LogicalType::Integer()});
  Schema s({{"store_id", LogicalType::String()},
            {"ts", LogicalType::Timestamp(3)},
            {"ltz", LogicalType::TimestampLtz(0)},
            {"amount", LogicalType::Decimal(10, 2)},
            {"d", LogicalType::Double()},
            {"lines", LogicalType::Array(line)},
            {"m", LogicalType::Map(LogicalType::String(), LogicalType::Integer())},
            {"n", LogicalType::Integer()},
            {"ok", LogicalType::Boolean()},
            {"day", LogicalType::Date()}});
  Chunk c(s);
  int64_t ts = *ParseTimestamp("2026-08-15 05:00:00");
  c.AppendValues({Value::String("SG-0042\"x"), Value::Int(LogicalType::Timestamp(3), ts),
                  Value::Int(LogicalType::TimestampLtz(0), ts), Value::Decimal(10, 2, -1250), Value::Double(1.5),
                  Value::List(LogicalType::Array(line), {Value::List(line, {Value::String("a"), Value::Integer(1)})}),
                  Value::List(LogicalType::Map(LogicalType::String(), LogicalType::Integer()),
                              {Value::String("k"), Value::Integer(7)}),
                  Value::Null(LogicalType::Integer()), Value::Boolean(true),
                  Value::Int(LogicalType::Date(), *ParseDate("2026-08-15"))},
                 RowKind::kUpdateBefore);
  std::string out;
  ASSERT_TRUE(AppendJsonRow(c, 0, s.names(), &out).ok());
  EXPECT_EQ(out,
            R"({"store_id":"SG-0042\"x","ts":"2026-08-15 05:00:00.000","ltz":"2026-08-15 05:00:00Z","amount":-12.50,)"
            R"("d":1.5,"lines":[{"sku":"a","qty":1}],"m":{"k":7},"n":null,"ok":true,"day":"2026-08-15"})");
  out.clear();
  JsonWriteOptions iso;
  iso.timestamp_standard = TimestampStandard::kIso8601;
  ASSERT_TRUE(AppendJsonRow(c, 0, s.names(), &out, iso, "op").ok());
  EXPECT_EQ(out.substr(0, 58), R"({"op":"-U","store_id":"SG-0042\"x","ts":"2026-08-15T05:00:)");

  // The encoder writes one object per line and its output decodes back to the same rows.
  std::map<std::string, std::string> options;
  OptionReader reader("sink", &options);
  auto encoder = JsonFormatFactory().CreateEncoder(s, reader);
  ASSERT_TRUE(encoder.ok());
  std::string text;
  ASSERT_TRUE((*encoder)->Encode(c, &text).ok());
  ASSERT_EQ(text.back(), '\n');
  text.pop_back();
  // The format's text is Flink's json writer's: the shortest fraction, the decimal normalised.
  const std::string head =
      R"({"store_id":"SG-0042\"x","ts":"2026-08-15 05:00:00","ltz":"2026-08-15 05:00:00Z","amount":-12.5,)";
  EXPECT_EQ(text.substr(0, head.size()), head);
  Decoded back = DecodeLines(s, {text});
  ASSERT_TRUE(back.status.ok()) << back.status.ToString();
  EXPECT_EQ(back.chunk.GetRow(0), c.GetRow(0));
}

// The json format writes Flink 2.2.1's text (tests/flink/cases/sink_json_text_*): DECIMAL without
// trailing zeros in BigDecimal's text unless 'json.encode.decimal-as-plain-number', TIMESTAMP with the
// shortest fraction, TIME in whole seconds; and it reads the type-precision text back.
TEST(JsonFormatTest, EncoderWritesFlinkText) {
  Schema s({{"d", LogicalType::Decimal(10, 2)},
            {"ts", LogicalType::Timestamp(6)},
            {"t", LogicalType::Time(3)},
            {"ltz", LogicalType::TimestampLtz(3)}});
  Chunk c(s);
  int64_t ts = *ParseTimestamp("2026-08-15 05:00:00.1");
  c.AppendValues({Value::Decimal(10, 2, 10000), Value::Int(LogicalType::Timestamp(6), ts),
                  Value::Int(LogicalType::Time(3), *ParseTime("05:00:00.123")),
                  Value::Int(LogicalType::TimestampLtz(3), ts)},
                 RowKind::kInsert);
  auto encode = [&](std::map<std::string, std::string> options) {
    OptionReader reader("sink", &options);
    auto encoder = JsonFormatFactory().CreateEncoder(s, reader);
    EXPECT_TRUE(encoder.ok());
    std::string text;
    EXPECT_TRUE((*encoder)->Encode(c, &text).ok());
    return text;
  };
  EXPECT_EQ(encode({}), R"({"d":1E+2,"ts":"2026-08-15 05:00:00.1","t":"05:00:00","ltz":"2026-08-15 05:00:00.1Z"})"
                        "\n");
  EXPECT_EQ(encode({{"json.encode.decimal-as-plain-number", "true"}, {"json.timestamp-format.standard", "ISO-8601"}}),
            R"({"d":100.00,"ts":"2026-08-15T05:00:00.1","t":"05:00:00","ltz":"2026-08-15T05:00:00.1Z"})"
            "\n");
  Decoded back = DecodeLines(s, {R"({"d":100.00,"ts":"2026-08-15 05:00:00.100000","t":"05:00:00.123",)"
                                 R"("ltz":"2026-08-15 05:00:00.100Z"})"});
  ASSERT_TRUE(back.status.ok()) << back.status.ToString();
  EXPECT_EQ(back.chunk.GetRow(0), c.GetRow(0));
}

TEST(JsonFormatTest, MapNullKeyModes) {
  LogicalType m = LogicalType::Map(LogicalType::String(), LogicalType::Integer());
  Schema s({{"m", m}});
  Chunk c(s);
  c.AppendValues({Value::List(m, {Value::Null(LogicalType::String()), Value::Integer(1), Value::String("a"),
                                  Value::Integer(2)})},
                 RowKind::kInsert);
  std::string out;
  Status st = AppendJsonRow(c, 0, s.names(), &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'json.map-null-key.mode'"), std::string::npos);
  JsonWriteOptions drop;
  drop.map_null_key_mode = JsonWriteOptions::MapNullKeyMode::kDrop;
  out.clear();
  ASSERT_TRUE(AppendJsonRow(c, 0, s.names(), &out, drop).ok());
  EXPECT_EQ(out, R"({"m":{"a":2}})");
  JsonWriteOptions lit;
  lit.map_null_key_mode = JsonWriteOptions::MapNullKeyMode::kLiteral;
  lit.map_null_key_literal = "N/A";
  out.clear();
  ASSERT_TRUE(AppendJsonRow(c, 0, s.names(), &out, lit).ok());
  EXPECT_EQ(out, R"({"m":{"N/A":1,"a":2}})");
}

TEST(JsonFormatTest, BothFailAndIgnoreIsRejected) {
  std::map<std::string, std::string> options = {{"json.fail-on-missing-field", "true"},
                                                {"json.ignore-parse-errors", "true"}};
  OptionReader reader("t", &options);
  auto d = JsonFormatFactory().CreateDecoder(Schema({{"a", LogicalType::Integer()}}), {}, reader);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("shouldn't both be true"), std::string::npos);
  std::map<std::string, std::string> bad = {{"json.ignore-parse-errors", "yes"}};
  OptionReader bad_reader("t", &bad);
  auto e = JsonFormatFactory().CreateDecoder(Schema({{"a", LogicalType::Integer()}}), {}, bad_reader);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(),
            "Invalid value for option 'json.ignore-parse-errors' of table 't': 'yes' is not a boolean (expected true "
            "or false)");
}

}  // namespace
// The JSON writer never emits invalid UTF-8: a byte that starts no valid sequence becomes U+FFFD.
TEST(JsonFormatTest, WriterReplacesInvalidUtf8) {
  std::string out;
  AppendJsonString("a\xCA\xFE" "b \xC3\xA9", &out);
  EXPECT_EQ(out, "\"a\xEF\xBF\xBD\xEF\xBF\xBD" "b \xC3\xA9\"");
}

}  // namespace sluice
