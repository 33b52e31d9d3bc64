#include "formats/avro/avro_binary.h"

#include <gtest/gtest.h>

#include "formats/avro/avro_resolve.h"

namespace sluice {
namespace {

AvroSchema Parse(const std::string& json) {
  auto s = AvroSchema::Parse(json);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

TEST(AvroBinaryTest, ZigzagVarints) {
  const std::pair<int64_t, std::string> cases[] = {
      {0, std::string("\x00", 1)}, {-1, "\x01"}, {1, "\x02"}, {-64, "\x7f"}, {64, "\x80\x01"},
      {INT64_MAX, "\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01"}, {INT64_MIN, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"},
  };
  for (const auto& [v, bytes] : cases) {
    std::string out;
    AvroEncoder(&out).WriteLong(v);
    EXPECT_EQ(out, bytes) << v;
    AvroDecoder d(out);
    auto back = d.ReadLong();
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, v);
    EXPECT_TRUE(d.at_end());
  }
}

TEST(AvroBinaryTest, MalformedInputFailsWithOffset) {
  {
    AvroDecoder d("\xff\xff");
    auto v = d.ReadLong();
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.status().message().find("truncated varint at byte 2"), std::string::npos) << v.status().ToString();
  }
  {
    AvroDecoder d("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
    EXPECT_FALSE(d.ReadLong().ok());
  }
  {
    AvroDecoder d("\x0a" "ab");  // length 5, 2 bytes left
    auto v = d.ReadBytes();
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.status().message().find("length 5 exceeds the 2 bytes left"), std::string::npos);
  }
  {
    AvroDecoder d("\x03");  // length -2
    EXPECT_FALSE(d.ReadBytes().ok());
  }
  {
    const std::string data("\x80\x80\x80\x80\x20", 5);  // 2^32: not an int
    AvroDecoder d(data);
    EXPECT_FALSE(d.ReadInt().ok());
  }
  {
    AvroDecoder d("\x02");
    EXPECT_FALSE(d.ReadBoolean().ok());  // byte 2
  }
  // An array of nulls claiming 2^40 items in a 6-byte input.
  AvroSchema s = Parse(R"({"type":"array","items":"null"})");
  std::string data;
  AvroEncoder(&data).WriteLong(int64_t{1} << 40);
  AvroDecoder d(data);
  AvroValue v;
  Status st = DecodeAvroValue(s.root(), &d, &v);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("items in"), std::string::npos) << st.ToString();
}

TEST(AvroBinaryTest, RoundTripsEveryType) {
  AvroSchema s = Parse(
      R"({"type":"record","name":"r","fields":[)"
      R"({"name":"b","type":"boolean"},{"name":"i","type":"int"},{"name":"l","type":"long"},)"
      R"({"name":"f","type":"float"},{"name":"d","type":"double"},{"name":"by","type":"bytes"},)"
      R"({"name":"s","type":"string"},{"name":"fx","type":{"type":"fixed","name":"f4","size":4}},)"
      R"({"name":"e","type":{"type":"enum","name":"e","symbols":["A","B"]}},)"
      R"({"name":"a","type":{"type":"array","items":"long"}},)"
      R"({"name":"m","type":{"type":"map","values":["null","string"]}},)"
      R"({"name":"u","type":["null","int","string"]}]})");
  AvroValue v = AvroValue::Record({
      AvroValue::Boolean(true), AvroValue::Int(-7), AvroValue::Long(int64_t{1} << 40), AvroValue::Float(1.5f),
      AvroValue::Double(-2.25), AvroValue::Bytes(std::string("\x00\xff", 2)), AvroValue::String("héllo"),
      AvroValue::Fixed("abcd"), AvroValue::Enum(1), AvroValue::Array({AvroValue::Long(1), AvroValue::Long(2)}),
      AvroValue::Map({{"k", AvroValue::String("v")}, {"n", AvroValue::Null()}}), AvroValue::String("x")});
  std::string out;
  AvroEncoder e(&out);
  ASSERT_TRUE(EncodeAvroValue(s.root(), v, &e).ok());
  AvroDecoder d(out);
  AvroValue back;
  ASSERT_TRUE(DecodeAvroValue(s.root(), &d, &back).ok());
  EXPECT_TRUE(d.at_end());
  EXPECT_EQ(back, v) << back.DebugString();
  // Skipping consumes exactly the datum.
  AvroDecoder skip(out);
  ASSERT_TRUE(SkipAvroValue(s.root(), &skip).ok());
  EXPECT_TRUE(skip.at_end());
}

TEST(AvroBinaryTest, NegativeBlockCountsCarryTheirSize) {
  AvroSchema s = Parse(R"({"type":"array","items":"int"})");
  // Two blocks: -2 items in 2 bytes (1, 2), then 1 item (3), then 0.
  const std::string data("\x03\x04\x02\x04\x02\x06\x00", 7);
  AvroDecoder d(data);
  AvroValue v;
  ASSERT_TRUE(DecodeAvroValue(s.root(), &d, &v).ok());
  EXPECT_EQ(v.DebugString(), "[1, 2, 3]");
  AvroDecoder skip(data);
  ASSERT_TRUE(SkipAvroValue(s.root(), &skip).ok());
  EXPECT_TRUE(skip.at_end());
  // A block size past the end.
  const std::string bad_data("\x03\x40\x02\x04", 4);
  AvroDecoder bad(bad_data);
  EXPECT_FALSE(DecodeAvroValue(s.root(), &bad, &v).ok());
}

TEST(AvroBinaryTest, EncodeRejectsValuesThatDoNotFit) {
  AvroSchema s = Parse(R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"}]})");
  std::string out;
  AvroEncoder e(&out);
  Status st = EncodeAvroValue(s.root(), AvroValue::Record({AvroValue::String("x")}), &e);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("as Avro int at .a"), std::string::npos) << st.ToString();
}

TEST(AvroResolveTest, ByNameWithDefaultsPromotionsAndAliases) {
  AvroSchema writer = Parse(
      R"({"type":"record","name":"w","fields":[{"name":"x","type":"int"},{"name":"gone","type":"string"},)"
      R"({"name":"added_data_files_count","type":"int"},{"name":"opt","type":["null","float"]}]})");
  AvroSchema reader = Parse(
      R"({"type":"record","name":"r","fields":[{"name":"opt","type":["null","double"]},)"
      R"({"name":"added_files_count","type":"int","aliases":["added_data_files_count"]},)"
      R"({"name":"x","type":"long"},{"name":"missing_opt","type":["null","long"]},)"
      R"({"name":"with_default","type":"string","default":"dflt"}]})");
  auto plan = AvroReadPlan::Make(writer.root(), reader.root());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  std::string data;
  AvroEncoder e(&data);
  ASSERT_TRUE(EncodeAvroValue(writer.root(),
                              AvroValue::Record({AvroValue::Int(5), AvroValue::String("skip me"), AvroValue::Int(3),
                                                 AvroValue::Float(0.5f)}),
                              &e)
                  .ok());
  AvroDecoder d(data);
  AvroValue v;
  ASSERT_TRUE(plan->Decode(&d, &v).ok());
  EXPECT_TRUE(d.at_end());
  EXPECT_EQ(v.DebugString(), R"({0.5, 3, 5, null, "dflt"})");
  EXPECT_EQ(v.field(2).kind(), AvroValue::Kind::kLong);
  EXPECT_EQ(v.field(0).kind(), AvroValue::Kind::kDouble);

  AvroSchema strict = Parse(R"({"type":"record","name":"r","fields":[{"name":"needed","type":"int"}]})");
  auto refused = AvroReadPlan::Make(writer.root(), strict.root());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(".needed is missing in the writer's schema"), std::string::npos);
  AvroSchema wrong = Parse(R"({"type":"record","name":"r","fields":[{"name":"x","type":"string"}]})");
  EXPECT_FALSE(AvroReadPlan::Make(writer.root(), wrong.root()).ok());
}

}  // namespace
}  // namespace sluice
