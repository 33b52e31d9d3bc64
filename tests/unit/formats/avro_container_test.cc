#include "formats/avro/avro_container.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

constexpr char kSchema[] =
    R"({"type":"record","name":"row","fields":[{"name":"id","type":"long","field-id":1},)"
    R"({"name":"name","type":["null","string"],"default":null,"field-id":2}]})";

std::vector<AvroValue> Rows(int n) {
  std::vector<AvroValue> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back(AvroValue::Record(
        {AvroValue::Long(i), i % 3 == 0 ? AvroValue::Null() : AvroValue::String("name-" + std::to_string(i))}));
  }
  return rows;
}

class AvroContainerCodecTest : public ::testing::TestWithParam<AvroCodec> {};

TEST_P(AvroContainerCodecTest, RoundTripsManyBlocks) {
  auto schema = AvroSchema::Parse(kSchema);
  ASSERT_TRUE(schema.ok());
  AvroWriterOptions options;
  options.codec = GetParam();
  options.block_bytes = 100;  // many blocks
  options.metadata = {{"format-version", "2"}, {"schema-id", "0"}};
  const auto rows = Rows(500);
  auto bytes = EncodeAvroFile(*schema, rows, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto reader = AvroFileReader::Open(*bytes, "mem.avro");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->codec(), GetParam());
  ASSERT_EQ((*reader)->metadata().size(), 4u);
  EXPECT_EQ((*reader)->metadata()[0].first, "avro.schema");
  EXPECT_EQ((*reader)->metadata()[0].second, kSchema);
  EXPECT_EQ((*reader)->metadata()[1].first, "avro.codec");
  EXPECT_EQ((*reader)->metadata()[2].first, "format-version");
  EXPECT_EQ(*(*reader)->FindMetadata("schema-id"), "0");
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, rows);
}

INSTANTIATE_TEST_SUITE_P(Codecs, AvroContainerCodecTest,
                         ::testing::Values(AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy,
                                           AvroCodec::kZstandard),
                         [](const auto& info) { return std::string(AvroCodecName(info.param)); });

TEST(AvroContainerTest, FixedSyncMarkerGivesIdenticalBytesAndEmptyFilesWork) {
  auto schema = AvroSchema::Parse(kSchema);
  AvroWriterOptions options;
  options.sync_marker = std::string(16, 'S');
  auto a = EncodeAvroFile(*schema, Rows(3), options);
  auto b = EncodeAvroFile(*schema, Rows(3), options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  auto empty = EncodeAvroFile(*schema, {}, options);
  ASSERT_TRUE(empty.ok());
  auto reader = AvroFileReader::Open(*empty, "empty.avro");
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
}

TEST(AvroContainerTest, ReaderSchemaResolution) {
  auto schema = AvroSchema::Parse(kSchema);
  auto bytes = EncodeAvroFile(*schema, Rows(4), {});
  auto reader_schema = AvroSchema::Parse(
      R"({"type":"record","name":"x","fields":[{"name":"name","type":["null","string"]},)"
      R"({"name":"extra","type":["null","int"]},{"name":"id","type":"double"}]})");
  ASSERT_TRUE(reader_schema.ok());
  auto reader = AvroFileReader::Open(*bytes, "r.avro");
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->SetReaderSchema(reader_schema->root()).ok());
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[1].DebugString(), R"({"name-1", null, 1})");
}

TEST(AvroContainerTest, CorruptFilesFailNamingFileAndOffset) {
  auto schema = AvroSchema::Parse(kSchema);
  AvroWriterOptions options;
  options.codec = AvroCodec::kSnappy;
  auto good = EncodeAvroFile(*schema, Rows(10), options);
  ASSERT_TRUE(good.ok());
  const auto read_all = [](std::string data) -> Status {
    auto reader = AvroFileReader::Open(std::move(data), "bad.avro");
    if (!reader.ok()) return reader.status();
    return (*reader)->ReadAll().status();
  };
  EXPECT_NE(read_all("PAR1").message().find("not an Avro object container file: bad.avro"), std::string::npos);
  std::string bad_sync = *good;
  bad_sync[bad_sync.size() - 1] ^= 1;
  EXPECT_NE(read_all(bad_sync).message().find("sync marker mismatch"), std::string::npos);
  std::string truncated = good->substr(0, good->size() - 20);
  EXPECT_NE(read_all(truncated).message().find("truncated block"), std::string::npos);
  std::string bad_crc = *good;
  bad_crc[bad_crc.size() - 17] ^= 1;  // the CRC's last byte
  EXPECT_NE(read_all(bad_crc).message().find("CRC-32 mismatch"), std::string::npos) << read_all(bad_crc).ToString();
  // Every prefix and every single-byte change fails cleanly or reads (never crashes).
  for (size_t i = 0; i < good->size(); ++i) {
    read_all(good->substr(0, i)).IgnoreError();
    std::string flipped = *good;
    flipped[i] ^= 0x55;
    read_all(flipped).IgnoreError();
  }
}

TEST(AvroContainerTest, WritesThroughFileIO) {
  auto io = NewLocalFileIO();
  const std::string path = ::testing::TempDir() + "/sluice_avro_fileio.avro";
  auto file = io->Create(path);
  ASSERT_TRUE(file.ok());
  auto schema = AvroSchema::Parse(kSchema);
  auto writer = AvroFileWriter::Open(std::move(file).value(), &*schema, {});
  ASSERT_TRUE(writer.ok());
  for (const auto& row : Rows(7)) ASSERT_TRUE((*writer)->Append(row).ok());
  Status bad = (*writer)->Append(AvroValue::Record({AvroValue::String("x"), AvroValue::Null()}));
  EXPECT_NE(bad.message().find(".id"), std::string::npos) << bad.ToString();
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = AvroFileReader::OpenFile(io.get(), path);
  ASSERT_TRUE(reader.ok());
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, Rows(7));
  auto size = io->ReadAll(path);
  EXPECT_EQ(size->size(), (*writer)->bytes_written());
}

}  // namespace
}  // namespace sluice
