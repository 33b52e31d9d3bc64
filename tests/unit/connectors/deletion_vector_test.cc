#include "connectors/iceberg/deletion_vector.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "connectors/iceberg/manifest_reader.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

const std::string kDv = std::string(SLUICE_ICEBERG_VECTORS) + "/deletion-vectors";

std::string ReadFile(const std::string& path) {
  auto data = NewLocalFileIO()->ReadAll(path);
  EXPECT_TRUE(data.ok()) << data.status().ToString();
  return data.ok() ? *data : std::string();
}

TEST(DeletionVectorTest, SetOperationsAndRoundTrips) {
  DeletionVector dv;
  for (int64_t p : {int64_t{5}, int64_t{0}, int64_t{65536}, (int64_t{1} << 32) + 3, int64_t{1} << 40}) dv.Add(p);
  dv.AddRange(100, 200);
  dv.AddRange((int64_t{1} << 32) - 2, (int64_t{1} << 32) + 2);  // across a bucket boundary
  EXPECT_EQ(dv.Cardinality(), 5 + 100 + 4);
  EXPECT_TRUE(dv.Contains(150));
  EXPECT_TRUE(dv.Contains((int64_t{1} << 32) + 1));
  EXPECT_FALSE(dv.Contains(200));
  EXPECT_FALSE(dv.Contains(-1));
  dv.RunOptimize();
  auto back = DeletionVector::DeserializeBlob(dv.SerializeBlob());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), dv.ToVector());
  auto portable = DeletionVector::DeserializePortable(dv.SerializePortable());
  ASSERT_TRUE(portable.ok());
  EXPECT_EQ(portable->ToVector(), dv.ToVector());
  DeletionVector other;
  other.Add(7);
  other.Merge(dv);
  EXPECT_EQ(other.Cardinality(), dv.Cardinality() + 1);
  DeletionVector empty;
  auto e = DeletionVector::DeserializeBlob(empty.SerializeBlob());
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->empty());
}

TEST(DeletionVectorTest, HostileBlobsFailCleanly) {
  DeletionVector dv;
  for (int64_t p = 0; p < 5000; p += 2) dv.Add(p);  // a bitmap container
  dv.AddRange(70000, 80000);
  dv.Add(int64_t{3} << 32);
  dv.RunOptimize();
  const std::string blob = dv.SerializeBlob();
  EXPECT_NE(DeletionVector::DeserializeBlob(blob.substr(0, blob.size() - 1)).status().message().find("length"),
            std::string::npos);
  std::string bad_crc = blob;
  bad_crc.back() ^= 1;
  EXPECT_NE(DeletionVector::DeserializeBlob(bad_crc).status().message().find("CRC-32"), std::string::npos);
  // Every single-byte change of the vector (CRC fixed up) either reads or fails with a Status.
  const std::string portable = dv.SerializePortable();
  int failures = 0;
  for (size_t i = 0; i < portable.size(); i += (i < 200 ? 1 : 97)) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string p = portable;
      p[i] = static_cast<char>(p[i] ^ flip);
      failures += DeletionVector::DeserializePortable(p).ok() ? 0 : 1;
    }
  }
  EXPECT_GT(failures, 0);
  std::string negative("\x01\0\0\0\0\0\0\0\x00\x00\x00\x80", 12);
  EXPECT_FALSE(DeletionVector::DeserializePortable(negative).ok());
}

TEST(PuffinTest, WriteAndReadBlobs) {
  auto io = NewLocalFileIO();
  const std::string path = ::testing::TempDir() + "/sluice_dv.puffin";
  auto file = io->Create(path);
  ASSERT_TRUE(file.ok());
  auto writer = PuffinWriter::Open(std::move(file).value(), {{"created-by", "Sluice"}});
  ASSERT_TRUE(writer.ok());
  DeletionVector a;
  a.AddRange(0, 10);
  DeletionVector b;
  b.Add(int64_t{1} << 35);
  auto ma = AddDeletionVectorBlob(writer->get(), a, "file:///d/a.parquet");
  auto mb = AddDeletionVectorBlob(writer->get(), b, "file:///d/b.parquet");
  auto mz = (*writer)->AddBlob("apache-datasketches-theta-v1", {1}, 3, 4, std::string(1000, 'x'), {}, true);
  ASSERT_TRUE(ma.ok() && mb.ok() && mz.ok());
  EXPECT_NE(AddDeletionVectorBlob(writer->get(), DeletionVector(), "file:///d/c.parquet").status().message().find(
                "empty deletion vector"),
            std::string::npos);
  EXPECT_EQ(ma->offset, 4);
  EXPECT_EQ(mb->offset, 4 + ma->length);
  ASSERT_TRUE((*writer)->Close().ok());
  auto in = io->OpenRead(path);
  ASSERT_TRUE(in.ok());
  auto footer = ReadPuffinFooter(in->get());
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  ASSERT_EQ(footer->blobs.size(), 3u);
  EXPECT_EQ(footer->properties[0].second, "Sluice");
  const PuffinBlobMetadata& fa = footer->blobs[0];
  EXPECT_EQ(fa.type, "deletion-vector-v1");
  EXPECT_EQ(fa.fields, std::vector<int32_t>{kRowPositionFieldId});
  EXPECT_EQ(fa.snapshot_id, -1);
  EXPECT_EQ(*fa.FindProperty("cardinality"), "10");
  EXPECT_EQ(*fa.FindProperty("referenced-data-file"), "file:///d/a.parquet");
  EXPECT_FALSE(fa.compression_codec.has_value());
  EXPECT_EQ(footer->blobs[2].compression_codec, "zstd");
  auto z = ReadPuffinBlob(in->get(), footer->blobs[2]);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(*z, std::string(1000, 'x'));
  DataFile f;
  f.file_path = path;
  f.content_offset = footer->blobs[1].offset;
  f.content_size_in_bytes = footer->blobs[1].length;
  f.record_count = 1;
  auto read_b = ReadDeletionVector(io.get(), f);
  ASSERT_TRUE(read_b.ok()) << read_b.status().ToString();
  EXPECT_EQ(read_b->ToVector(), std::vector<int64_t>{int64_t{1} << 35});
  f.record_count = 2;
  EXPECT_NE(ReadDeletionVector(io.get(), f).status().message().find("its manifest entry says 2"), std::string::npos);
  // Truncations and flips of the file never crash the footer reader.
  const std::string bytes = ReadFile(path);
  for (size_t i = 0; i < bytes.size(); ++i) {
    ParsePuffinFooter(bytes.substr(0, i), "cut").status().IgnoreError();
    std::string flipped = bytes;
    flipped[i] ^= 0x20;
    ParsePuffinFooter(flipped, "flip").status().IgnoreError();
  }
}

TEST(PuffinTest, DeletionVectorFileForManyDataFiles) {
  auto io = NewLocalFileIO();
  const std::string path = ::testing::TempDir() + "/sluice_dvs.puffin";
  DataFile a;
  a.file_path = "file:///d/a.parquet";
  a.partition = {IcebergLiteral::Int(3)};
  DataFile b;
  b.file_path = "file:///d/b.parquet";
  b.partition = {IcebergLiteral::Int(4)};
  DataFile c;
  c.file_path = "file:///d/c.parquet";
  DeletionVector da;
  da.AddRange(10, 20);
  DeletionVector db;
  db.Add(int64_t{1} << 32);
  const DeletionVector none;
  auto files = WriteDeletionVectorFile(io.get(), path, {{&a, &da}, {&c, &none}, {&b, &db}}, "Sluice test");
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);  // the empty vector is skipped
  const auto size = static_cast<int64_t>(fs::file_size(path));
  for (const DataFile& f : *files) {
    EXPECT_EQ(f.content, DataFileContent::kPositionDeletes);
    EXPECT_EQ(f.file_format, "PUFFIN");
    EXPECT_EQ(f.file_path, path);
    EXPECT_EQ(f.file_size_in_bytes, size);
  }
  EXPECT_EQ((*files)[0].referenced_data_file, a.file_path);
  EXPECT_EQ((*files)[0].partition, a.partition);
  EXPECT_EQ((*files)[0].record_count, 10);
  EXPECT_EQ((*files)[1].referenced_data_file, b.file_path);
  auto back = ReadDeletionVector(io.get(), (*files)[1]);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), db.ToVector());
}

class DeletionVectorVectorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDv)) GTEST_SKIP() << kDv << " not present";
  }
};

TEST_F(DeletionVectorVectorsTest, RoaringReferenceBitmaps) {
  auto portable = DeletionVector::DeserializePortable(ReadFile(kDv + "/roaring/portable_bitmap64.bin"));
  ASSERT_TRUE(portable.ok()) << portable.status().ToString();
  for (int64_t high : {int64_t{0}, int64_t{1}}) {
    const int64_t base = high << 32;
    EXPECT_TRUE(portable->Contains(base + 0x9000));
    EXPECT_FALSE(portable->Contains(base + 0x9001));
    EXPECT_TRUE(portable->Contains(base + 0xA000));
    EXPECT_TRUE(portable->Contains(base + 0x10000));
    EXPECT_TRUE(portable->Contains(base + 0x20005));
    EXPECT_TRUE(portable->Contains(base + 0x80002));
    EXPECT_FALSE(portable->Contains(base + 0x80003));
  }
  EXPECT_EQ(portable->Cardinality(), 2 * ((0x9000 + 1) + (0x10000 - 0xA000 + 1) + 2 + 0x10000 / 2));
  auto b64 = DeletionVector::DeserializePortable(ReadFile(kDv + "/roaring/bitmap64.bin"));
  ASSERT_TRUE(b64.ok()) << b64.status().ToString();
  EXPECT_EQ(b64->Cardinality(), 32768 + 1000000 + 1);
  EXPECT_TRUE(b64->Contains(int64_t{1} << 48));
  // The 32-bit files, wrapped as one bucket of a 64-bit vector.
  for (const char* name : {"bitmapwithruns.bin", "bitmapwithoutruns.bin"}) {
    std::string wrapped("\x01\0\0\0\0\0\0\0\0\0\0\0", 12);
    wrapped += ReadFile(kDv + "/roaring/" + name);
    auto dv = DeletionVector::DeserializePortable(wrapped);
    ASSERT_TRUE(dv.ok()) << name << ": " << dv.status().ToString();
    EXPECT_EQ(dv->Cardinality(), 100 + 100000 + 100000) << name;
    EXPECT_TRUE(dv->Contains(99000));
    EXPECT_TRUE(dv->Contains(300003));
    EXPECT_FALSE(dv->Contains(300004));
    EXPECT_TRUE(dv->Contains(799999));
  }
}

TEST_F(DeletionVectorVectorsTest, EnginesPuffinFiles) {
  auto io = NewLocalFileIO();
  struct Case {
    std::string file;
    std::vector<int64_t> cardinalities;
  };
  const Case cases[] = {
      {"spark-deletion_vector_sample/data/00000-2-766d0c1d-4652-4a59-9721-58fb02898559-00001-deletes.puffin", {5}},
      {"duckdb-multi_blob_deletion_vectors/data/multiple-deletion-vectors.puffin", {1, 2}},
      {"trino-deletion_vectors/data/dv-20260504_111849_00012_8gkte-2ed65adb-8895-4026-bb5e-efcedbf874e5.puffin", {2, 6}},
      {"trino-deletion_vectors/data/dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988.puffin", {3}},
  };
  for (const Case& c : cases) {
    auto in = io->OpenRead(kDv + "/" + c.file);
    ASSERT_TRUE(in.ok());
    auto footer = ReadPuffinFooter(in->get());
    ASSERT_TRUE(footer.ok()) << footer.status().ToString();
    ASSERT_EQ(footer->blobs.size(), c.cardinalities.size()) << c.file;
    for (size_t i = 0; i < c.cardinalities.size(); ++i) {
      const PuffinBlobMetadata& blob = footer->blobs[i];
      EXPECT_EQ(blob.type, kDeletionVectorBlobType);
      auto data = ReadPuffinBlob(in->get(), blob);
      ASSERT_TRUE(data.ok());
      auto dv = DeletionVector::DeserializeBlob(*data);
      ASSERT_TRUE(dv.ok()) << c.file << ": " << dv.status().ToString();
      EXPECT_EQ(dv->Cardinality(), c.cardinalities[i]) << c.file;
      EXPECT_EQ(*blob.FindProperty("cardinality"), std::to_string(c.cardinalities[i]));
    }
  }
  // Spark deleted ids 2, 4, 6, 8, 10 of rows 1..10: positions 1, 3, 5, 7, 9.
  auto in = io->OpenRead(kDv + "/" + cases[0].file);
  auto footer = ReadPuffinFooter(in->get());
  auto dv = DeletionVector::DeserializeBlob(*ReadPuffinBlob(in->get(), footer->blobs[0]));
  EXPECT_EQ(dv->ToVector(), (std::vector<int64_t>{1, 3, 5, 7, 9}));
  // The legacy file is a bare blob without the Puffin container.
  auto legacy = DeletionVector::DeserializeBlob(
      ReadFile(kDv + "/duckdb-legacy_bare_deletion_vector/data/legacy-bare-deletion-vector.puffin"));
  ASSERT_TRUE(legacy.ok()) << legacy.status().ToString();
  EXPECT_GT(legacy->Cardinality(), 0);
}

TEST_F(DeletionVectorVectorsTest, ThroughTheManifest) {
  // The Spark table's delete manifest names the blob by offset and size.
  const std::string table = kDv + "/spark-deletion_vector_sample";
  auto io = NewLocalFileIO();
  auto manifest = ParseManifest(ReadFile(table + "/metadata/a2b5890a-4c9d-427f-9434-b7100abddc2f-m0.avro"), "m", nullptr);
  ASSERT_TRUE(manifest.ok());
  DataFile f = manifest->entries[0].data_file;
  const std::string prefix = "warehouse/deletion_vector/deletion_vector_sample";
  ASSERT_EQ(f.file_path.rfind(prefix, 0), 0u);
  f.file_path = table + f.file_path.substr(prefix.size());
  auto dv = ReadDeletionVector(io.get(), f);
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  EXPECT_EQ(dv->ToVector(), (std::vector<int64_t>{1, 3, 5, 7, 9}));
}

}  // namespace
}  // namespace sluice
