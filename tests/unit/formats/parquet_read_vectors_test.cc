// The Parquet reader on the data and delete files of ../shared/iceberg-vectors (parquet-mr 1.12-1.15,
// pyarrow 20, Impala 4.2; see its README): every file reads completely, and the rows its README
// lists (before deletes are applied) come out. Skipped unless SLUICE_ICEBERG_VECTORS names the
// directory (ctest interop.parquet_read sets it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "unit/formats/parquet_read_test_util.h"

namespace sluice::parquet {
namespace {

using testing::ReadFile;
using testing::ReadResult;

std::string VectorsDir() {
  const char* dir = std::getenv("SLUICE_ICEBERG_VECTORS");
  return dir ? dir : "";
}

std::string S(std::string_view s) { return "s'" + testing::Hex(s) + "'"; }

class ParquetReadVectorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (VectorsDir().empty()) GTEST_SKIP() << "SLUICE_ICEBERG_VECTORS is not set";
  }
  // The rows of every Parquet file under `table`'s data directory whose name contains `part`.
  std::vector<std::string> RowsOf(const std::string& table, const std::string& part = "", std::string* schema = nullptr) {
    std::vector<std::string> rows;
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(VectorsDir() + "/" + table)) {
      std::string p = e.path().string();
      if (e.path().extension() == ".parquet" && p.find(part) != std::string::npos) files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      ReadResult r = ReadFile(f, 1024);
      EXPECT_TRUE(r.status.ok()) << f << ": " << r.status.ToString();
      if (schema) *schema = r.file_schema.ToString();
      rows.insert(rows.end(), r.rows.begin(), r.rows.end());
    }
    return rows;
  }
};

TEST_F(ParquetReadVectorsTest, EveryFileReadsCompletely) {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VectorsDir())) {
    if (e.path().extension() != ".parquet") continue;
    ++files;
    SCOPED_TRACE(e.path().string());
    auto io = NewLocalFileIO();
    auto file = io->OpenRead(e.path().string());
    ASSERT_TRUE(file.ok());
    auto reader = ParquetReader::Open(file->get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    int64_t rows = 0;
    Chunk chunk;
    while (true) {
      Status st = (*reader)->ReadNext(3, &chunk);
      ASSERT_TRUE(st.ok()) << st.ToString();
      if (chunk.size() == 0) break;
      rows += static_cast<int64_t>(chunk.size());
    }
    EXPECT_EQ(rows, (*reader)->num_rows());
  }
  EXPECT_GE(files, 40);
}

TEST_F(ParquetReadVectorsTest, AllSparkTypes) {
  std::string schema;
  auto rows = RowsOf("iceberg-cxx/all_spark_types", "", &schema);
  EXPECT_EQ(schema,
            "(`col0` BOOLEAN, `col1` INT, `col2` BIGINT, `col3` FLOAT, `col4` DOUBLE, `col5` DECIMAL(10, 2), "
            "`col6` STRING, `col7` BYTES, `col8` DATE, `col9` TIMESTAMP_LTZ(6), `col10` TIMESTAMP(6), "
            "`col11` ARRAY<STRING>)");
  ASSERT_EQ(rows.size(), 1u);
  // 2023-10-10 is day 19640; 12:34:56 that day is 1696941296 s after the epoch.
  EXPECT_EQ(rows[0], "true|2147483647|9223372036854775807|3.4028234663852886e+38|1.7976931348623157e+308|1234567d2|" +
                         S("example") + "|b'" + testing::Hex("spark") +
                         "'|d19640|ts1696941296000000|ts1696941296000000|[" + S("item1") + "," + S("item2") + "]");
}

TEST_F(ParquetReadVectorsTest, SparkPositionDeleteTableRows) {
  auto rows = RowsOf("iceberg-cxx/refdeletes3", "-0-00001");
  std::sort(rows.begin(), rows.end());
  std::vector<std::string> want = {"0|12",   "1|123",   "2|2314",   "3|9",          "4|1292", "5|12831",
                                   "6|12381", "7|123999", "8|12318231", "9|999",   "10|1010", "11|11",
                                   "12|1212", "13|1313", "14|91121",   "15|182222"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(rows, want);
  // Position delete files: (file_path, pos); rows a % 3 == 0 are deleted.
  auto deletes = RowsOf("iceberg-cxx/refdeletes3", "-deletes");
  ASSERT_EQ(deletes.size(), 6u);
  EXPECT_EQ(deletes[5], S("s3://warehouse/prod/db/refdeletes3/data/00000-18-948c0a14-fe35-48c1-a74a-494d02a6f065-0-"
                          "00001.parquet") +
                            "|0");
}

TEST_F(ParquetReadVectorsTest, EqualityDeleteTableRows) {
  auto rows = RowsOf("duckdb-iceberg/equality_deletes/mytable/data", "/0000");
  std::sort(rows.begin(), rows.end());
  // ids 1..6 with names a..f and dates 2025-01-01.. (day 20089 is 2025-01-01).
  std::vector<std::string> want;
  for (int i = 1; i <= 6; ++i) {
    want.push_back(std::to_string(i) + "|" + S(std::string(1, static_cast<char>('a' + i - 1))) + "|d" +
                   std::to_string(20088 + i));
  }
  EXPECT_EQ(rows, want);
  auto deletes = RowsOf("duckdb-iceberg/equality_deletes/mytable/data", "/delete-");
  std::sort(deletes.begin(), deletes.end());
  EXPECT_EQ(deletes, (std::vector<std::string>{"1", "3|" + S("c"), S("b"), S("f")}));
}

TEST_F(ParquetReadVectorsTest, PyarrowMapTable) {
  std::string schema;
  auto rows = RowsOf("duckdb-iceberg/map_stats", "", &schema);
  ASSERT_EQ(rows.size(), 2u);
  // 2026-01-01 00:00:00 UTC is 1767225600 s after the epoch.
  EXPECT_EQ(rows[0].substr(0, rows[0].find('|')), "ts1767225600000000");
  EXPECT_NE(rows[0].find("|" + S("hello") + "|" + S("world") + "|{" + S("key") + ":" + S("value1") + "}"),
            std::string::npos)
      << rows[0];
}

TEST_F(ParquetReadVectorsTest, ImpalaTables) {
  auto rows = RowsOf("impala/iceberg_v2_delete_positional/data", "00000-0-");
  EXPECT_EQ(rows, (std::vector<std::string>{"1|" + S("a"), "2|" + S("b"), "3|" + S("c")}));
  auto deletes = RowsOf("impala/iceberg_v2_delete_positional/data", "00191-");
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].substr(deletes[0].size() - 2), "|1");
  auto eq = RowsOf("impala/iceberg_v2_delete_equality/data", "-00001.");
  std::sort(eq.begin(), eq.end());
  EXPECT_EQ(eq, (std::vector<std::string>{"1|" + S("test_1_base"), "2|" + S("test_2_base"), "2|" + S("test_2_updated")}));
}

}  // namespace
}  // namespace sluice::parquet
