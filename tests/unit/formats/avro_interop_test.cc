// fastavro as the independent reader and writer (tests/interop/avro_fastavro.py): files this writer
// makes with every codec are read by fastavro, and fastavro's files are read here. Runs when
// SLUICE_PYTHON names the interop venv's python (the ctest entry interop.avro sets it through
// scripts/install-python.sh); skipped otherwise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "formats/avro/avro_container.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr char kSchema[] =
    R"({"type":"record","name":"interop","namespace":"sluice.test","fields":[)"
    R"({"name":"id","type":"long","field-id":1},{"name":"flag","type":"boolean","field-id":2},)"
    R"({"name":"small","type":"int","field-id":3},{"name":"ratio","type":"float","field-id":4},)"
    R"({"name":"score","type":"double","field-id":5},)"
    R"({"name":"name","type":["null","string"],"default":null,"field-id":6},)"
    R"({"name":"blob","type":"bytes","field-id":7},)"
    R"({"name":"color","type":{"type":"enum","name":"color","symbols":["RED","GREEN","BLUE"]},"field-id":8},)"
    R"({"name":"tags","type":{"type":"array","items":"string","element-id":10},"field-id":9},)"
    R"({"name":"attrs","type":{"type":"map","values":"long"},"field-id":11},)"
    R"({"name":"fx","type":{"type":"fixed","name":"four","size":4},"field-id":12},)"
    R"({"name":"pairs","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118","fields":[)"
    R"({"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},)"
    R"("logicalType":"map"}],"default":null,"field-id":13}]})";

// The same formula as rows() in avro_fastavro.py.
std::vector<AvroValue> Rows() {
  std::vector<AvroValue> out;
  for (int i = 0; i < 300; ++i) {
    std::vector<AvroValue> tags;
    for (int j = 0; j < i % 4; ++j) tags.push_back(AvroValue::String("t" + std::to_string(j)));
    AvroValue::Entries attrs;
    for (int j = 0; j < i % 3; ++j) attrs.emplace_back("k" + std::to_string(j), AvroValue::Long(int64_t{j} * i));
    std::vector<AvroValue> pairs;
    for (int j = 0; j < i % 3; ++j) pairs.push_back(AvroValue::Record({AvroValue::Int(j), AvroValue::Long(-j)}));
    const uint32_t le = static_cast<uint32_t>(i);
    char fx[4];
    for (int b = 0; b < 4; ++b) fx[b] = static_cast<char>((le >> (8 * b)) & 0xff);
    const char blob[2] = {static_cast<char>(i % 256), static_cast<char>((i * 7) % 256)};
    out.push_back(AvroValue::Record({
        AvroValue::Long(int64_t{i} * 1000003 - 7), AvroValue::Boolean(i % 2 == 0), AvroValue::Int(i - 150),
        AvroValue::Float(static_cast<float>(i) / 4.0f), AvroValue::Double(i * 1.5 - 0.25),
        i % 5 == 0 ? AvroValue::Null() : AvroValue::String("n-" + std::to_string(i) + "-é"),
        AvroValue::Bytes(std::string(blob, 2)), AvroValue::Enum(i % 3), AvroValue::Array(std::move(tags)),
        AvroValue::Map(std::move(attrs)), AvroValue::Fixed(std::string(fx, 4)),
        i % 4 == 0 ? AvroValue::Null() : AvroValue::Array(std::move(pairs)),
    }));
  }
  return out;
}

class AvroInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* python = std::getenv("SLUICE_PYTHON");
    const char* source = std::getenv("SLUICE_SOURCE_DIR");
    if (python == nullptr || source == nullptr) GTEST_SKIP() << "SLUICE_PYTHON / SLUICE_SOURCE_DIR not set";
    python_ = python;
    script_ = std::string(source) + "/tests/interop/avro_fastavro.py";
    dir_ = fs::path(::testing::TempDir()) / "sluice_avro_interop";
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  int RunScript(const std::string& command) {
    const std::string cmd = python_ + " " + script_ + " " + command + " " + dir_.string();
    return std::system(cmd.c_str());
  }
  std::string python_;
  std::string script_;
  fs::path dir_;
};

const AvroCodec kCodecs[] = {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard};

TEST_F(AvroInteropTest, FastavroReadsOurFiles) {
  auto schema = AvroSchema::Parse(kSchema);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto io = NewLocalFileIO();
  for (AvroCodec codec : kCodecs) {
    AvroWriterOptions options;
    options.codec = codec;
    options.block_bytes = 700;
    options.metadata = {{"format-version", "2"}, {"schema-id", "0"}, {"content", "data"}};
    auto file = io->Create((dir_ / ("sluice-" + std::string(AvroCodecName(codec)) + ".avro")).string());
    ASSERT_TRUE(file.ok());
    auto writer = AvroFileWriter::Open(std::move(file).value(), &*schema, options);
    ASSERT_TRUE(writer.ok());
    for (const AvroValue& row : Rows()) ASSERT_TRUE((*writer)->Append(row).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  EXPECT_EQ(RunScript("check"), 0);
}

TEST_F(AvroInteropTest, WeReadFastavroFiles) {
  ASSERT_EQ(RunScript("write"), 0);
  auto io = NewLocalFileIO();
  const auto want = Rows();
  for (AvroCodec codec : kCodecs) {
    const std::string path = (dir_ / ("fastavro-" + std::string(AvroCodecName(codec)) + ".avro")).string();
    auto reader = AvroFileReader::OpenFile(io.get(), path);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->codec(), codec);
    ASSERT_NE((*reader)->FindMetadata("schema-id"), nullptr);
    auto rows = (*reader)->ReadAll();
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->size(), want.size()) << path;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ((*rows)[i], want[i]) << path << " row " << i << ": " << (*rows)[i].DebugString();
    }
    // fastavro keeps the attributes Iceberg reads.
    EXPECT_EQ((*reader)->writer_schema().root().fields[11].field_id(), 13);
  }
}

}  // namespace
}  // namespace sluice
