// The Parquet reader against files written by pyarrow at test time (tests/interop/
// parquet_read_fixtures.py, run by the `interop.parquet_read` ctest entry, which sets
// SLUICE_PARQUET_FIXTURES) : every type, nulls, nested types, every codec, pages v1 and v2,
// dictionary and plain, DELTA encodings, BYTE_STREAM_SPLIT, many row groups and pages, row
// positions, projection, promotion, field ids and missing columns. Skipped without the fixtures.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "formats/parquet/parquet_reader.h"
#include "formats/parquet/parquet_writer.h"
#include "unit/formats/parquet_read_test_util.h"

namespace sluice::parquet {
namespace {

using testing::ReadFile;
using testing::ReadResult;

std::string FixtureDir() {
  const char* dir = std::getenv("SLUICE_PARQUET_FIXTURES");
  return dir ? dir : "";
}

struct Expected {
  std::string schema;
  std::vector<std::string> rows;
};

Expected LoadExpected(const std::string& path) {
  Expected e;
  std::ifstream in(path);
  std::getline(in, e.schema);
  std::string line;
  while (std::getline(in, line)) e.rows.push_back(line);
  return e;
}

std::vector<std::string> FixtureNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(FixtureDir())) {
    if (entry.path().extension() == ".expected") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Column `name` of the expected rows (split on '|', which canonical text never contains).
std::vector<std::string> ExpectedColumn(const Expected& e, const Schema& file_schema, const std::string& name) {
  size_t idx = *file_schema.IndexOf(name);
  std::vector<std::string> out;
  for (const std::string& row : e.rows) {
    size_t start = 0;
    for (size_t k = 0; k < idx; ++k) start = row.find('|', start) + 1;
    size_t end = row.find('|', start);
    out.push_back(row.substr(start, end == std::string::npos ? std::string::npos : end - start));
  }
  return out;
}

class ParquetReadInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (FixtureDir().empty()) GTEST_SKIP() << "SLUICE_PARQUET_FIXTURES is not set (ctest interop.parquet_read sets it)";
  }
  std::string Path(const std::string& name) { return FixtureDir() + "/" + name + ".parquet"; }
};

TEST_F(ParquetReadInteropTest, EveryFixtureReadsAsPyarrowWroteIt) {
  std::vector<std::string> names = FixtureNames();
  ASSERT_GT(names.size(), 20u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    Expected e = LoadExpected(FixtureDir() + "/" + name + ".expected");
    // A large chunk size and a small odd one (rows then straddle pages and chunks differently).
    for (size_t chunk_rows : {size_t{4096}, size_t{7}}) {
      ReadResult r = ReadFile(Path(name), chunk_rows);
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      EXPECT_EQ(r.file_schema.ToString(), e.schema);
      ASSERT_EQ(r.rows.size(), e.rows.size());
      for (size_t i = 0; i < r.rows.size(); ++i) {
        ASSERT_EQ(r.rows[i], e.rows[i]) << "row " << i << " (chunk size " << chunk_rows << ")";
      }
    }
  }
}

TEST_F(ParquetReadInteropTest, ProjectionPromotionMissingColumnsAndPositions) {
  Expected e = LoadExpected(FixtureDir() + "/prim_zstd_v1_dict.expected");
  ReadResult natural = ReadFile(Path("prim_zstd_v1_dict"), 4096);
  ASSERT_TRUE(natural.status.ok());
  Schema req;
  req.Add("dec", LogicalType::Decimal(20, 2));     // decimal widening
  req.Add("i32", LogicalType::BigInt());           // int -> long
  req.Add("f32", LogicalType::Double());           // float -> double
  req.Add("added_later", LogicalType::Integer());  // not in the file: NULL
  req.Add("s", LogicalType::String());
  ParquetReadOptions opts;
  opts.row_positions = true;
  ReadResult r = ReadFile(Path("prim_zstd_v1_dict"), 300, &req, {}, opts);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  auto dec = ExpectedColumn(e, natural.file_schema, "dec");
  auto i32 = ExpectedColumn(e, natural.file_schema, "i32");
  auto f32 = ExpectedColumn(e, natural.file_schema, "f32");
  auto s = ExpectedColumn(e, natural.file_schema, "s");
  ASSERT_EQ(r.rows.size(), e.rows.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    ASSERT_EQ(r.rows[i], dec[i] + "|" + i32[i] + "|" + f32[i] + "|null|" + s[i] + "|" + std::to_string(i)) << i;
  }
}

TEST_F(ParquetReadInteropTest, SelectedRowGroupsKeepFilePositions) {
  auto io = NewLocalFileIO();
  auto file = io->OpenRead(Path("prim_pages"));
  ASSERT_TRUE(file.ok());
  auto reader = ParquetReader::Open(file->get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), 4);  // 20000 rows in groups of 6000
  Schema req;
  req.Add("i32", LogicalType::Integer());
  ParquetReadOptions opts;
  opts.row_groups = std::vector<int>{2, 0};
  opts.row_positions = true;
  ASSERT_TRUE((*reader)->Select(req, {}, opts).ok());
  EXPECT_EQ((*reader)->output_schema().ToString(), "(`i32` INT, `_pos` BIGINT NOT NULL)");
  std::vector<int64_t> positions;
  Chunk chunk;
  while (true) {
    ASSERT_TRUE((*reader)->ReadNext(1000, &chunk).ok());
    if (chunk.size() == 0) break;
    for (size_t i = 0; i < chunk.size(); ++i) positions.push_back(chunk.column(1).data<int64_t>()[i]);
  }
  ASSERT_EQ(positions.size(), 12000u);
  EXPECT_EQ(positions[0], 12000);
  EXPECT_EQ(positions[5999], 17999);
  EXPECT_EQ(positions[6000], 0);
  EXPECT_EQ(positions[11999], 5999);
  // Statistics are exposed for pruning.
  const auto& stats = (*reader)->metadata().row_groups[0].columns[3].meta_data->statistics;
  ASSERT_TRUE(stats.has_value());
  EXPECT_TRUE(stats->null_count.has_value());
}

TEST_F(ParquetReadInteropTest, FieldIdsDecideOverNames) {
  // field_ids.parquet: a (id 1) BIGINT, b (id 2) STRING, st (id 3) ROW<x (id 4) INT, y (id 5) STRING>.
  Expected e = LoadExpected(FixtureDir() + "/field_ids.expected");
  Schema req;
  req.Add("renamed_b", LogicalType::String());
  req.Add("a", LogicalType::BigInt());
  req.Add("st", LogicalType::Row({"y_renamed", "gone"}, {LogicalType::String(), LogicalType::Integer()}));
  req.Add("b", LogicalType::Integer());  // the name exists, but its id (9) does not: NULL
  std::vector<FieldIdTree> ids = {{2, {}}, {1, {}}, {3, {{5, {}}, {6, {}}}}, {9, {}}};
  ReadResult r = ReadFile(Path("field_ids"), 100, &req, ids);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.rows.size(), e.rows.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    // Expected rows are a|b|(x,y).
    std::string row = e.rows[i];
    size_t p1 = row.find('|');
    size_t p2 = row.find('|', p1 + 1);
    std::string a = row.substr(0, p1), b = row.substr(p1 + 1, p2 - p1 - 1), st = row.substr(p2 + 1);
    std::string y = st == "null" ? "null" : st.substr(st.find(',') + 1, st.size() - st.find(',') - 2);
    std::string want_st = st == "null" ? "null" : "(" + y + ",null)";
    ASSERT_EQ(r.rows[i], b + "|" + a + "|" + want_st + "|null") << i;
  }
}

TEST_F(ParquetReadInteropTest, StructWithOnlyMissingFieldsKeepsItsNulls) {
  Expected e = LoadExpected(FixtureDir() + "/field_ids.expected");
  Schema req;
  req.Add("st", LogicalType::Row({"gone"}, {LogicalType::Integer()}));
  ReadResult r = ReadFile(Path("field_ids"), 7, &req);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.rows.size(), e.rows.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    bool null_struct = e.rows[i].substr(e.rows[i].rfind('|') + 1) == "null";
    EXPECT_EQ(r.rows[i], null_struct ? "null" : "(null)") << i;
  }
}

TEST_F(ParquetReadInteropTest, UuidAsString) {
  Schema req;
  req.Add("u", LogicalType::String());
  ReadResult r = ReadFile(Path("uuid"), 100, &req);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.rows.size(), 10u);
  EXPECT_EQ(r.rows[1], "s'" + testing::Hex("9e3779b9-7f4a-7c15-f39c-c0605cedc835") + "'");
}

// Every fixture read by the reader, written again by Sluice's writer (small pages and row groups,
// codecs and dictionaries varied) and read back: the rows pyarrow wrote come out unchanged.
TEST_F(ParquetReadInteropTest, SluiceWriterRoundTrip) {
  auto io = NewLocalFileIO();
  int k = 0;
  for (const std::string& name : FixtureNames()) {
    SCOPED_TRACE(name);
    Expected e = LoadExpected(FixtureDir() + "/" + name + ".expected");
    auto in = io->OpenRead(Path(name));
    ASSERT_TRUE(in.ok());
    auto reader = ParquetReader::Open(in->get());
    ASSERT_TRUE(reader.ok());
    const std::string out_path = FixtureDir() + "/roundtrip.tmp";
    auto out = io->Create(out_path);
    ASSERT_TRUE(out.ok());
    ParquetWriterOptions options;
    options.codec = (++k % 3 == 0) ? CompressionCodec::SNAPPY : (k % 3 == 1) ? CompressionCodec::ZSTD
                                                                            : CompressionCodec::UNCOMPRESSED;
    // Dictionaries on and off, both: empty strings in a dictionary once reached memcpy with a null
    // pointer (undefined behaviour under UBSan).
    options.enable_dictionary = k % 2 == 0;
    options.page_row_limit = 50;
    options.row_group_size_bytes = 4096;
    auto writer = ParquetWriter::Open(out->get(), (*reader)->sluice_schema(), {}, options);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    Chunk chunk;
    while (true) {
      ASSERT_TRUE((*reader)->ReadNext(777, &chunk).ok());
      if (chunk.size() == 0) break;
      ASSERT_TRUE((*writer)->Write(chunk).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    ASSERT_TRUE((*out)->Close().ok());
    ReadResult r = ReadFile(out_path, 100);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_EQ(r.rows.size(), e.rows.size());
    for (size_t i = 0; i < r.rows.size(); ++i) ASSERT_EQ(r.rows[i], e.rows[i]) << "row " << i;
  }
}

// Corrupted copies of real files (deterministic positions and values): each read ends with good rows
// or a Status, never a crash or a hang.
TEST_F(ParquetReadInteropTest, CorruptedFilesNeverCrash) {
  auto io = NewLocalFileIO();
  for (const std::string name : {"nested_v2_pages", "delta", "bss", "prim_snappy_v1_dict", "int96", "decimal_int"}) {
    auto bytes = io->ReadAll(Path(name));
    ASSERT_TRUE(bytes.ok());
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int trial = 0; trial < 400; ++trial) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      std::string bad = *bytes;
      for (int k = 0; k < 1 + trial % 3; ++k) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        bad[(seed >> 20) % bad.size()] = static_cast<char>(seed >> 56);
      }
      std::string path = FixtureDir() + "/corrupt.tmp";
      ASSERT_TRUE(io->WriteAtomically(path, bad, true).ok());
      ReadResult r = ReadFile(path, 37);
      if (!r.status.ok()) {
        EXPECT_NE(r.status.message().find("corrupt.tmp"), std::string::npos) << r.status.ToString();
      }
    }
  }
}

TEST_F(ParquetReadInteropTest, MismatchedTypesAreRefusedByColumn) {
  Schema req;
  req.Add("s", LogicalType::Integer());
  ReadResult r = ReadFile(Path("prim_none_v1_plain"), 100, &req);
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("column 's'"), std::string::npos) << r.status.ToString();
  EXPECT_NE(r.status.message().find("STRING"), std::string::npos) << r.status.ToString();
}

}  // namespace
}  // namespace sluice::parquet
