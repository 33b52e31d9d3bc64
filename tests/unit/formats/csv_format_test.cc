#include "formats/csv/csv_format.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "common/time_util.h"
#include "formats/text_values.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

struct Decoded {
  Status status;
  Chunk chunk;
  int64_t skipped = 0;
  size_t records = 0;
};

// Cuts `text` into records with the decoder's own splitter and decodes them all.
Decoded DecodeText(const Schema& schema, const std::string& text, std::map<std::string, std::string> options = {},
                   std::vector<int> projection = {}) {
  OptionReader reader("pos", &options);
  auto decoder = CsvFormatFactory().CreateDecoder(schema, projection, reader);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  Schema projected;
  if (projection.empty()) {
    projected = schema;
  } else {
    for (int i : projection) projected.Add(schema.field(i).name, schema.field(i).type);
  }
  Decoded d{Status::OK(), Chunk(projected), 0, 0};
  std::vector<TextRecord> records;
  int64_t line = 1;
  size_t used = (*decoder)->SplitRecords(text, true, 1000, &line, &records);
  EXPECT_EQ(used, text.size());
  d.records = records.size();
  RecordBatch batch{records.data(), records.size(), "/data/pos.csv", false};
  d.status = (*decoder)->Decode(batch, &d.chunk);
  d.skipped = (*decoder)->records_skipped();
  return d;
}

TEST(CsvFormatTest, DecodesTypesByPosition) {
  Schema s({{"id", LogicalType::BigInt()},
            {"name", LogicalType::String()},
            {"price", LogicalType::Decimal(10, 2)},
            {"ok", LogicalType::Boolean()},
            {"ts", LogicalType::Timestamp(3)},
            {"day", LogicalType::Date()},
            {"d", LogicalType::Double()},
            {"tags", LogicalType::Array(LogicalType::Integer())}});
  Decoded d = DecodeText(s,
                         "1,plain,12.5,true,2026-08-15 05:00:00.250,2026-08-15,1.5,1;2;3\n"
                         "2,\"quoted, with \"\"quotes\"\"\n and newline\",,FALSE,,,,\n"
                         "3,\"\",0.1,true,2026-08-15 05:00:00,2026-01-01,-1e3,\n");
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  ASSERT_EQ(d.chunk.size(), 3u);
  const Chunk& c = d.chunk;
  EXPECT_EQ(c.column(0).data<int64_t>()[0], 1);
  EXPECT_EQ(c.column(2).GetValue(0).ToString(), "12.50");
  EXPECT_EQ(FormatTimestamp(c.column(4).data<int64_t>()[0], 3), "2026-08-15 05:00:00.250");
  EXPECT_EQ(c.column(7).GetValue(0).ToString(), "[1, 2, 3]");
  EXPECT_EQ(c.column(1).GetString(1), "quoted, with \"quotes\"\n and newline");
  EXPECT_TRUE(c.column(2).IsNull(1));  // empty non-string field -> NULL
  EXPECT_EQ(c.column(3).data<uint8_t>()[1], 0);
  EXPECT_TRUE(c.column(4).IsNull(1));
  EXPECT_TRUE(c.column(7).IsNull(1));
  EXPECT_FALSE(c.column(1).IsNull(2));  // "" is an empty string
  EXPECT_EQ(c.column(1).GetString(2), "");
  EXPECT_EQ(c.column(6).data<double>()[2], -1000.0);
}

TEST(CsvFormatTest, ErrorsNameFileLineAndField) {
  Schema s({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  Decoded d = DecodeText(s, "a,1\n\"multi\nline\",2\nb,x\n");
  ASSERT_FALSE(d.status.ok());
  EXPECT_EQ(d.status.message(), "Failed to deserialize CSV 'b,x' at /data/pos.csv:4: field 'qty': expected INT, got \"x\"");
  Decoded n = DecodeText(s, "a,1,extra\n");
  EXPECT_EQ(n.status.message(), "Failed to deserialize CSV 'a,1,extra' at /data/pos.csv:1: expected 2 fields, got 3");
  Decoded q = DecodeText(s, "\"open,1\n");
  EXPECT_NE(q.status.message().find("unterminated quoted field"), std::string::npos);
}

TEST(CsvFormatTest, IgnoreParseErrorsAndComments) {
  Schema s({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  Decoded d = DecodeText(s, "# header comment\na,1\nb,x\nc\nd,4\n",
                         {{"csv.ignore-parse-errors", "true"}, {"csv.allow-comments", "true"}});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.skipped, 2);
  ASSERT_EQ(d.chunk.size(), 2u);
  EXPECT_EQ(d.chunk.column(0).GetString(1), "d");
  EXPECT_EQ(d.chunk.column(1).data<int32_t>()[1], 4);
}

TEST(CsvFormatTest, DelimiterNullLiteralEscapeAndProjection) {
  Schema s({{"a", LogicalType::String()}, {"b", LogicalType::Integer()}, {"c", LogicalType::String()}});
  Decoded d = DecodeText(s, "x|NULL|y\\|z\nNULL|2|w\n",
                         {{"csv.field-delimiter", "|"}, {"csv.null-literal", "NULL"}, {"csv.escape-character", "\\"}},
                         {2, 1, 0});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.chunk.column(0).GetString(0), "y|z");
  EXPECT_TRUE(d.chunk.column(1).IsNull(0));
  EXPECT_TRUE(d.chunk.column(2).IsNull(1));
  Decoded tab = DecodeText(s, "x\t1\ty\n", {{"csv.field-delimiter", "\t"}});
  ASSERT_TRUE(tab.status.ok()) << tab.status.ToString();
  EXPECT_EQ(tab.chunk.column(2).GetString(0), "y");
}

TEST(CsvFormatTest, DisabledQuotesTreatQuotesAsText) {
  Schema s({{"a", LogicalType::String()}, {"b", LogicalType::String()}});
  Decoded d = DecodeText(s, "\"x,y\"\n", {{"csv.disable-quote-character", "true"}});
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.chunk.column(0).GetString(0), "\"x");
  std::map<std::string, std::string> both = {{"csv.disable-quote-character", "true"}, {"csv.quote-character", "'"}};
  OptionReader reader("t", &both);
  EXPECT_FALSE(CsvFormatFactory().CreateDecoder(s, {}, reader).ok());
}

TEST(CsvFormatTest, EncodesAndRoundTrips) {
  Schema s({{"id", LogicalType::Integer()},
            {"name", LogicalType::String()},
            {"price", LogicalType::Decimal(10, 2)},
            {"ts", LogicalType::Timestamp(3)},
            {"tags", LogicalType::Array(LogicalType::String())},
            {"ok", LogicalType::Boolean()}});
  Chunk c(s);
  c.AppendValues({Value::Integer(1), Value::String("a,\"b\"\nc"), Value::Decimal(10, 2, 1250),
                  Value::Int(LogicalType::Timestamp(3), *ParseTimestamp("2026-08-15 05:00:00")),
                  Value::List(LogicalType::Array(LogicalType::String()), {Value::String("x"), Value::String("y")}),
                  Value::Boolean(false)},
                 RowKind::kInsert);
  c.AppendValues({Value::Integer(2), Value::Null(LogicalType::String()), Value::Null(LogicalType::Decimal(10, 2)),
                  Value::Null(LogicalType::Timestamp(3)), Value::Null(LogicalType::Array(LogicalType::String())),
                  Value::Boolean(true)},
                 RowKind::kInsert);
  std::map<std::string, std::string> options;
  OptionReader reader("sink", &options);
  auto enc = CsvFormatFactory().CreateEncoder(s, reader);
  ASSERT_TRUE(enc.ok());
  std::string text;
  ASSERT_TRUE((*enc)->Encode(c, &text).ok());
  EXPECT_EQ(text, "1,\"a,\"\"b\"\"\nc\",12.50,\"2026-08-15 05:00:00\",x;y,false\n2,,,,,true\n");
  Decoded back = DecodeText(s, text);
  ASSERT_TRUE(back.status.ok()) << back.status.ToString();
  EXPECT_EQ(back.chunk.GetRow(0), c.GetRow(0));
  EXPECT_EQ(back.chunk.column(1).GetString(1), "");  // NULL strings come back empty, as in Flink
  EXPECT_TRUE(back.chunk.column(2).IsNull(1));
}

// Jackson's loose quoting rule as Flink's csv writer applies it (tests/flink/cases/sink_csv_*): text
// is quoted when longer than 24 characters or holding a character below max(delimiter, quote) + 1 or
// the escape character; numbers never; quotes and escapes are doubled inside quotes.
TEST(CsvFormatTest, QuotesAsFlinksWriter) {
  Schema s({{"s", LogicalType::String()}, {"d", LogicalType::Decimal(10, 2)}, {"t", LogicalType::Time(3)}});
  Chunk c(s);
  for (const char* v : {"plain", "a b", "#x", "+1", "x|y", "abcdefghijklmnopqrstuvwxyz", "", "it's \\ ok"}) {
    c.AppendValues({Value::String(v), Value::Decimal(10, 2, 10000), Value::Int(LogicalType::Time(3), 18000100)},
                   RowKind::kInsert);
  }
  auto encode = [&](std::map<std::string, std::string> options) {
    OptionReader reader("sink", &options);
    auto enc = CsvFormatFactory().CreateEncoder(s, reader);
    EXPECT_TRUE(enc.ok());
    std::string text;
    EXPECT_TRUE((*enc)->Encode(c, &text).ok());
    return text;
  };
  EXPECT_EQ(encode({}),
            "plain,100.00,05:00:00.1\n\"a b\",100.00,05:00:00.1\n\"#x\",100.00,05:00:00.1\n\"+1\",100.00,05:00:00.1\n"
            "x|y,100.00,05:00:00.1\n\"abcdefghijklmnopqrstuvwxyz\",100.00,05:00:00.1\n,100.00,05:00:00.1\n"
            "\"it's \\ ok\",100.00,05:00:00.1\n");
  EXPECT_EQ(encode({{"csv.field-delimiter", "|"}, {"csv.escape-character", "\\"},
                    {"csv.write-bigdecimal-in-scientific-notation", "true"}}),
            "\"plain\"|1E+2|\"05:00:00.1\"\n\"a b\"|1E+2|\"05:00:00.1\"\n\"#x\"|1E+2|\"05:00:00.1\"\n"
            "\"+1\"|1E+2|\"05:00:00.1\"\n\"x|y\"|1E+2|\"05:00:00.1\"\n\"abcdefghijklmnopqrstuvwxyz\"|1E+2|\"05:00:00.1\"\n"
            "|1E+2|\"05:00:00.1\"\n\"it's \\\\ ok\"|1E+2|\"05:00:00.1\"\n");  // '|' makes every letter unsafe
  const std::string unquoted = "plain,100.00,05:00:00.1\na b,100.00,05:00:00.1\n#x,100";
  EXPECT_EQ(encode({{"csv.disable-quote-character", "true"}}).substr(0, unquoted.size()), unquoted);
}

// Doubling inside quotes at the start, the middle and the end of a value, and in a long value whose
// length alone makes it quoted (the scan stops after 24 UTF-16 units; the doubling still reads it all).
TEST(CsvFormatTest, DoublesQuotesAndEscapesAnywhere) {
  Schema s({{"s", LogicalType::String()}});
  Chunk c(s);
  for (const char* v : {"\"x", "a\"b", "x\"", "\"\"", "a value longer than twenty-four characters, then \"q\"",
                        "ümlauts über zwölf Zeichen hinaus, mit Ä"}) {
    c.AppendValues({Value::String(v)}, RowKind::kInsert);
  }
  std::map<std::string, std::string> options = {{"csv.escape-character", "\\"}};
  OptionReader reader("sink", &options);
  auto enc = CsvFormatFactory().CreateEncoder(s, reader);
  ASSERT_TRUE(enc.ok());
  std::string text;
  ASSERT_TRUE((*enc)->Encode(c, &text).ok());
  EXPECT_EQ(text,
            "\"\"\"x\"\n\"a\"\"b\"\n\"x\"\"\"\n\"\"\"\"\"\"\n"
            "\"a value longer than twenty-four characters, then \"\"q\"\"\"\n"
            "\"ümlauts über zwölf Zeichen hinaus, mit Ä\"\n");
}

TEST(CsvFormatTest, RejectsUnsupportedTypes) {
  std::map<std::string, std::string> options;
  OptionReader reader("t", &options);
  auto d = CsvFormatFactory().CreateDecoder(
      Schema({{"r", LogicalType::Row({"x"}, {LogicalType::Integer()})}}), {}, reader);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("column 'r'"), std::string::npos);
}

TEST(TextValuesTest, DecimalsTimestampsAndBigDecimalText) {
  __int128 v;
  bool overflow;
  ASSERT_TRUE(ParseDecimalText("1.23e2", 10, 2, &v, &overflow));
  EXPECT_EQ(static_cast<int64_t>(v), 12300);
  ASSERT_TRUE(ParseDecimalText("-0.0049", 10, 2, &v, &overflow));
  EXPECT_EQ(static_cast<int64_t>(v), 0);
  ASSERT_TRUE(ParseDecimalText("123456", 5, 0, &v, &overflow));
  EXPECT_TRUE(overflow);
  EXPECT_FALSE(ParseDecimalText("1.2.3", 10, 2, &v, &overflow));
  EXPECT_FALSE(ParseDecimalText("", 10, 2, &v, &overflow));
  int64_t ts;
  EXPECT_TRUE(ParseTimestampText("2026-08-15 05:00:00.123456", TimestampStandard::kSql, false, 3, &ts));
  EXPECT_EQ(FormatTimestamp(ts, 6), "2026-08-15 05:00:00.123000");
  EXPECT_FALSE(ParseTimestampText("2026-08-15T05:00:00", TimestampStandard::kSql, false, 3, &ts));
  EXPECT_FALSE(ParseTimestampText("2026-02-30 05:00:00", TimestampStandard::kSql, false, 3, &ts));
  EXPECT_TRUE(ParseTimestampText("2026-8-5 5:00:00", TimestampStandard::kSql, false, 3, &ts));
  EXPECT_EQ(FormatTimestamp(ts, 0), "2026-08-05 05:00:00");
  std::string out;
  AppendJavaBigDecimalText(1, 7, &out);
  EXPECT_EQ(out, "1E-7");
  out.clear();
  AppendJavaBigDecimalText(-1250, 2, &out);
  EXPECT_EQ(out, "-12.50");
  for (auto [unscaled, scale, text] : std::vector<std::tuple<int64_t, int, const char*>>{
           {500, 2, "5"}, {10000, 2, "1E+2"}, {10, 2, "0.1"}, {0, 2, "0"}, {-10, 4, "-0.001"},
           {1200, 10, "1.2E-7"}, {1234567890123456789, 2, "12345678901234567.89"}, {-750, 2, "-7.5"}}) {
    out.clear();
    AppendDecimalValueText(unscaled, scale, DecimalText::kNormalized, &out);
    EXPECT_EQ(out, text);
  }
  out.clear();
  AppendDecimalValueText(10000, 2, DecimalText::kPlain, &out);
  EXPECT_EQ(out, "100.00");
  for (auto [in, text] : std::vector<std::pair<const char*, const char*>>{
           {"2026-08-15 05:00:00", "2026-08-15 05:00:00"}, {"2026-08-15 05:00:00.1", "2026-08-15 05:00:00.1"},
           {"2026-08-15 05:00:00.120", "2026-08-15 05:00:00.12"}, {"2026-08-15 05:00:00.000001", "2026-08-15 05:00:00.000001"}}) {
    out.clear();
    AppendTimestampText(*ParseTimestamp(in), 6, TimestampStandard::kSql, false, FractionText::kShortest, &out);
    EXPECT_EQ(out, text);
  }
  out.clear();
  AppendTimestampText(*ParseTimestamp("2026-08-15 05:00:00"), 3, TimestampStandard::kIso8601, true,
                      FractionText::kShortest, &out);
  EXPECT_EQ(out, "2026-08-15T05:00:00Z");
  out.clear();
  AppendTimestampText(*ParseTimestamp("2026-08-15 05:00:00"), 3, TimestampStandard::kSql, false,
                      FractionText::kPrecision, &out);
  EXPECT_EQ(out, "2026-08-15 05:00:00.000");
  out.clear();
  AppendTimeText(18000000, 3, FractionText::kShortest, &out);
  EXPECT_EQ(out, "05:00:00");
  std::string bytes;
  std::string b64;
  AppendBase64("hello!?", &b64);
  EXPECT_EQ(b64, "aGVsbG8hPw==");
  ASSERT_TRUE(DecodeBase64(b64, &bytes));
  EXPECT_EQ(bytes, "hello!?");
}

// A malformed quote never joins lines: an unterminated quote or text after a closing quote makes its
// own line one bad record, a quote inside an unquoted field is a character, and ok + skipped equals
// the lines of the file (a well-formed multi-line quoted field is still one record).
TEST(CsvFormatTest, MalformedQuotesNeverHideValidLines) {
  Schema s({{"a", LogicalType::Integer()}, {"b", LogicalType::String()}});
  std::map<std::string, std::string> opts = {{"csv.ignore-parse-errors", "true"}};
  Decoded u = DecodeText(s, "1,a\n2,\"b\n3,c\n4,d\n", opts);
  ASSERT_TRUE(u.status.ok()) << u.status.ToString();
  EXPECT_EQ(u.records, 4u);
  EXPECT_EQ(u.chunk.size(), 3u);
  EXPECT_EQ(u.skipped, 1);
  EXPECT_EQ(u.chunk.column(0).data<int32_t>()[1], 3);

  Decoded m = DecodeText(s, "1,a\n2,b\"x\n3,c\n4,\"multi\nline\"\n5,\"bad\"x\n6,\"open\n7,g", opts);
  ASSERT_TRUE(m.status.ok()) << m.status.ToString();
  EXPECT_EQ(m.chunk.size(), 5u);
  EXPECT_EQ(m.skipped, 2);
  EXPECT_EQ(m.chunk.column(1).GetString(1), "b\"x");
  EXPECT_EQ(m.chunk.column(1).GetString(3), "multi\nline");
  EXPECT_EQ(m.chunk.column(0).data<int32_t>()[4], 7);

  Decoded strict = DecodeText(s, "1,a\n2,\"b\n3,c\n");
  ASSERT_FALSE(strict.status.ok());
  EXPECT_NE(strict.status.message().find("pos.csv:2: unterminated quoted field"), std::string::npos)
      << strict.status.message();
}

// The splitter waits for more data instead of guessing at a quote that ends the buffer read so far.
TEST(CsvFormatTest, SplitterWaitsAtBufferEnd) {
  Schema s({{"a", LogicalType::Integer()}, {"b", LogicalType::String()}});
  std::map<std::string, std::string> options;
  OptionReader reader("pos", &options);
  auto decoder = CsvFormatFactory().CreateDecoder(s, {}, reader);
  ASSERT_TRUE(decoder.ok());
  for (std::string partial : {"1,\"x", "1,\"x\"", "1,\"x\n"}) {
    std::vector<TextRecord> records;
    int64_t line = 1;
    EXPECT_EQ((*decoder)->SplitRecords(partial, false, 10, &line, &records), 0u) << partial;
    EXPECT_TRUE(records.empty());
  }
  std::vector<TextRecord> records;
  int64_t line = 1;
  std::string full = "1,\"x\"\"\ny\"\n2,z\n";
  EXPECT_EQ((*decoder)->SplitRecords(full, false, 10, &line, &records), full.size());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].line, 3);
}

}  // namespace
}  // namespace sluice
