// fastavro as the independent decoder and encoder of Avro messages (tests/interop/avro_messages_fastavro.py):
// records of every logical type written by the 'avro' and 'avro-confluent' formats are read by fastavro,
// and Confluent-framed records fastavro writes with a different writer schema are read here. Runs when
// SLUICE_PYTHON names the interop venv's python (the ctest entry interop.avro); skipped otherwise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "formats/avro/avro_format.h"
#include "formats/avro_confluent/avro_confluent_format.h"
#include "formats/avro_confluent/schema_registry.h"
#include "formats/json/json_format.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using Options = std::map<std::string, std::string>;
constexpr int kRows = 50;

Schema InteropSchema() {
  return Schema({{"id", LogicalType::BigInt().WithNullable(false)},
                 {"flag", LogicalType::Boolean()},
                 {"small", LogicalType::Integer()},
                 {"ratio", LogicalType::Float()},
                 {"score", LogicalType::Double()},
                 {"name", LogicalType::String()},
                 {"blob", LogicalType::Bytes()},
                 {"price", LogicalType::Decimal(10, 2)},
                 {"day", LogicalType::Date()},
                 {"tod", LogicalType::Time(3)},
                 {"ts3", LogicalType::Timestamp(3)},
                 {"ts6", LogicalType::Timestamp(6)},
                 {"ltz3", LogicalType::TimestampLtz(3)},
                 {"ltz6", LogicalType::TimestampLtz(6)},
                 {"tags", LogicalType::Array(LogicalType::String())},
                 {"attrs", LogicalType::Map(LogicalType::String(), LogicalType::BigInt())},
                 {"r", LogicalType::Row({"a", "b"}, {LogicalType::Integer().WithNullable(false), LogicalType::String()})}});
}

// value(i) of avro_messages_fastavro.py.
std::vector<Value> Row(int i) {
  const Schema s = InteropSchema();
  auto t = [&](size_t c) { return s.field(c).type; };
  const int64_t n = i;
  std::vector<Value> tags;
  for (int j = 0; j < i % 4; ++j) tags.push_back(Value::String("t" + std::to_string(j)));
  std::vector<Value> attrs;
  for (int j = 0; j < i % 3; ++j) {
    attrs.push_back(Value::String("k" + std::to_string(j)));
    attrs.push_back(Value::BigInt(int64_t{j} * i));
  }
  const char blob[3] = {static_cast<char>(i % 256), static_cast<char>((i * 7) % 256), 10};
  return {Value::BigInt(n * 1000003 - 7),
          Value::Boolean(i % 2 == 0),
          Value::Integer(i - 25),
          Value::Float(static_cast<float>(i) / 4.0f),
          Value::Double(i * 1.5 - 0.25),
          i % 5 == 0 ? Value::Null(t(5)) : Value::String("n-" + std::to_string(i) + "-é"),
          Value::Typed(t(6), std::string(blob, 3)),
          i % 7 == 0 ? Value::Null(t(7)) : Value::Decimal(10, 2, n * 12345 - 50000),
          Value::Int(t(8), 19000 + i - 25),
          Value::Int(t(9), (n * 3723123) % 86400000),
          Value::Int(t(10), (n * 1234567891 - 1'000'000'000'000) * 1000),
          Value::Int(t(11), n * 987654321123 - 1'000'000'000'000'000),
          Value::Int(t(12), (n * 7654321 + 1) * 1000),
          Value::Int(t(13), n * 7654321123 - 3),
          Value::List(t(14), std::move(tags)),
          Value::List(t(15), std::move(attrs)),
          i % 6 == 0 ? Value::Null(t(16))
                     : Value::List(t(16), {Value::Integer(i), i % 4 == 0 ? Value::Null(LogicalType::String())
                                                                        : Value::String("b" + std::to_string(i))})};
}

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void WriteRecords(const fs::path& p, const std::string& bytes, const std::vector<size_t>& ends) {
  std::string out;
  size_t begin = 0;
  for (size_t end : ends) {
    const auto n = static_cast<uint32_t>(end - begin);
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
    out.append(bytes, begin, end - begin);
    begin = end;
  }
  std::ofstream(p, std::ios::binary) << out;
}

std::vector<std::string> ReadRecords(const fs::path& p) {
  const std::string data = ReadFile(p);
  std::vector<std::string> out;
  for (size_t pos = 0; pos + 4 <= data.size();) {
    uint32_t n = 0;
    for (int b = 0; b < 4; ++b) n = (n << 8) | static_cast<uint8_t>(data[pos + static_cast<size_t>(b)]);
    out.push_back(data.substr(pos + 4, n));
    pos += 4 + n;
  }
  return out;
}

class AvroMessagesInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* python = std::getenv("SLUICE_PYTHON");
    const char* source = std::getenv("SLUICE_SOURCE_DIR");
    if (python == nullptr || source == nullptr) GTEST_SKIP() << "SLUICE_PYTHON / SLUICE_SOURCE_DIR not set";
    script_ = std::string(python) + " " + source + "/tests/interop/avro_messages_fastavro.py";
    dir_ = fs::path(::testing::TempDir()) / "sluice_avro_messages";
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A registry that gives every schema the id 7 and knows fastavro's writer schema as id 5.
    SetSchemaRegistryHttp([this](const RegistryHttpRequest& r) -> Result<RegistryHttpResponse> {
      if (r.method == "POST") return RegistryHttpResponse{200, R"({"id":7})"};
      if (r.url == "http://registry/schemas/ids/5") {
        std::string body = "{\"schema\":";
        AppendJsonString(ReadFile(dir_ / "fastavro-schema.json"), &body);
        return RegistryHttpResponse{200, body + "}"};
      }
      return RegistryHttpResponse{404, R"({"error_code":40403,"message":"Schema not found"})"};
    });
  }
  void TearDown() override { SetSchemaRegistryHttp(nullptr); }
  int Run(const std::string& command) { return std::system((script_ + " " + command + " " + dir_.string()).c_str()); }

  std::string script_;
  fs::path dir_;
};

const Options kOptions = {{"avro.timestamp_mapping.legacy", "false"},
                          {"avro-confluent.timestamp_mapping.legacy", "false"},
                          {"avro-confluent.url", "http://registry"},
                          {"avro-confluent.subject", "interop-value"}};

TEST_F(AvroMessagesInteropTest, FastavroReadsOurRecords) {
  const Schema s = InteropSchema();
  Chunk chunk(s);
  for (int i = 0; i < kRows; ++i) chunk.AppendValues(Row(i), RowKind::kInsert);
  OptionReader reader("interop", &kOptions);
  for (const FormatFactory* f : {&AvroFormatFactory(), &AvroConfluentFormatFactory()}) {
    auto encoder = f->CreateEncoder(s, reader);
    ASSERT_TRUE(encoder.ok()) << encoder.status().ToString();
    std::string bytes;
    std::vector<size_t> ends;
    ASSERT_TRUE((*encoder)->EncodeBinary(chunk, &bytes, &ends).ok());
    WriteRecords(dir_ / (f == &AvroFormatFactory() ? "sluice-avro.bin" : "sluice-confluent.bin"), bytes, ends);
  }
  auto codec = AvroRowCodec::Make(s, "", false);
  ASSERT_TRUE(codec.ok());
  std::ofstream(dir_ / "sluice-schema.json") << (*codec)->schema_json();
  EXPECT_EQ(Run("check"), 0);
}

TEST_F(AvroMessagesInteropTest, WeReadFastavroRecords) {
  ASSERT_EQ(Run("write"), 0);
  const Schema s = InteropSchema();
  OptionReader reader("interop", &kOptions);
  auto decoder = AvroConfluentFormatFactory().CreateDecoder(s, {}, reader);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  const std::vector<std::string> records = ReadRecords(dir_ / "fastavro-confluent.bin");
  ASSERT_EQ(records.size(), static_cast<size_t>(kRows));
  std::vector<TextRecord> recs;
  for (size_t i = 0; i < records.size(); ++i) recs.push_back(TextRecord{records[i], static_cast<int64_t>(i)});
  Chunk out(s);
  Status st = (*decoder)->Decode(RecordBatch{recs.data(), recs.size(), "fastavro-confluent.bin", false}, &out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(out.size(), static_cast<size_t>(kRows));
  for (int i = 0; i < kRows; ++i) {
    const std::vector<Value> want = Row(i);
    const std::vector<Value> got = out.GetRow(static_cast<size_t>(i));
    for (size_t c = 0; c < s.size(); ++c) {
      const std::string& name = s.field(c).name;
      const bool written = name == "id" || name == "score" || name == "price" || name == "ts6" || name == "ltz3" ||
                           name == "day" || name == "tags";
      if (written) {
        EXPECT_EQ(got[c].ToString(), want[c].ToString()) << "row " << i << " column " << name;
      } else {
        EXPECT_TRUE(got[c].is_null()) << "row " << i << " column " << name << " = " << got[c].ToString();
      }
    }
  }
}

}  // namespace
}  // namespace sluice
