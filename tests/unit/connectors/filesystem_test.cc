#include "connectors/filesystem/filesystem_connector.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "common/clock.h"
#include "common/time_util.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector.h"
#include "connectors/sink_time_listener.h"
#include "types/value.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, named after it (deterministic, removed first).
std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) / (std::string("sluice_fs_") + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void WriteFile(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << text;
}

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

ConnectorContext Context(const std::string& path, const std::string& format,
                         std::map<std::string, std::string> extra = {}) {
  ConnectorContext ctx;
  ctx.table_name = "pos";
  ctx.physical_schema = Schema({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  ctx.options = {{"connector", "filesystem"}, {"path", path}, {"format", format}};
  for (auto& [k, v] : extra) ctx.options[k] = v;
  return ctx;
}

const ConnectorFactory& Filesystem() { return **ConnectorRegistry::Builtin().Find("filesystem"); }

struct ReadResult {
  Status status;
  std::vector<std::string> rows;
  std::vector<std::string> split_ids;
  int64_t skipped = 0;
  size_t chunks = 0;
};

ReadResult ReadAll(const ConnectorContext& ctx, size_t chunk_rows = 1024) {
  ReadResult res;
  auto source = Filesystem().CreateSource(ctx);
  if (!source.ok()) {
    res.status = source.status();
    return res;
  }
  EXPECT_TRUE((*source)->bounded());
  auto splits = (*source)->CreateSplits();
  if (!splits.ok()) {
    res.status = splits.status();
    return res;
  }
  Schema projected = ProjectedSchema(ctx);
  for (auto& split : *splits) {
    res.split_ids.push_back(split->id());
    while (true) {
      Chunk chunk(projected);
      auto more = split->Read(chunk_rows, &chunk);
      if (!more.ok()) {
        res.status = more.status();
        return res;
      }
      if (!*more) {
        EXPECT_EQ(chunk.size(), 0u);
        break;
      }
      EXPECT_GT(chunk.size(), 0u);
      EXPECT_LE(chunk.size(), chunk_rows);
      ++res.chunks;
      for (size_t r = 0; r < chunk.size(); ++r) {
        std::string row;
        for (size_t c = 0; c < chunk.num_columns(); ++c) {
          if (c) row += ",";
          AppendVectorText(chunk.column(c), r, &row);
        }
        res.rows.push_back(row);
      }
    }
    res.skipped += split->records_skipped();
  }
  return res;
}

TEST(FilesystemTest, DirectorySplitsAreSortedRecursiveAndSkipHiddenFiles) {
  std::string dir = TestDir();
  WriteFile(fs::path(dir) / "b.json", "{\"sku\":\"b\",\"qty\":2}\n");
  WriteFile(fs::path(dir) / "a.json", "{\"sku\":\"a\",\"qty\":1}\n");
  WriteFile(fs::path(dir) / "sub" / "c.json", "{\"sku\":\"c\",\"qty\":3}\n");
  WriteFile(fs::path(dir) / ".hidden.json", "garbage\n");
  WriteFile(fs::path(dir) / "_SUCCESS", "garbage\n");
  WriteFile(fs::path(dir) / "_tmp" / "x.json", "garbage\n");
  auto files = ListSourceFiles(dir);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0], (fs::path(dir) / "a.json").string());
  EXPECT_EQ((*files)[1], (fs::path(dir) / "b.json").string());
  EXPECT_EQ((*files)[2], (fs::path(dir) / "sub" / "c.json").string());
  ReadResult r = ReadAll(Context(dir, "json"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (std::vector<std::string>{"a,1", "b,2", "c,3"}));
  EXPECT_EQ(r.split_ids, *files);
  // Flink's URI spelling of a local path reads the same files.
  ReadResult uri = ReadAll(Context("file://" + dir, "json"));
  ASSERT_TRUE(uri.status.ok()) << uri.status.ToString();
  EXPECT_EQ(uri.rows, r.rows);
}

TEST(FilesystemTest, MissingPathNamesTableAndPath) {
  std::string dir = TestDir();
  ReadResult r = ReadAll(Context(dir + "/nope", "json"));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(),
            "Unable to create a source for reading table 'pos': path '" + dir + "/nope' does not exist");
}

TEST(FilesystemTest, LargeFileAcrossBlocksWithSmallChunksAndErrorLineNumbers) {
  std::string dir = TestDir();
  std::string text;
  const int kRows = 40000;  // ~2 MB: more than one 1 MiB block
  for (int i = 0; i < kRows; ++i) {
    text += "{\"sku\":\"SKU-" + std::to_string(i) + "\",\"qty\":" + std::to_string(i) + ",\"pad\":\"" +
            std::string(10, 'x') + "\"}\n";
  }
  text += "{\"sku\":\"bad\",\"qty\":\"x\"}\n";
  WriteFile(fs::path(dir) / "big.json", text);
  ReadResult r = ReadAll(Context(dir, "json"), 777);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(), "Failed to deserialize JSON '{\"sku\":\"bad\",\"qty\":\"x\"}' at " + dir +
                                    "/big.json:" + std::to_string(kRows + 1) + ": field 'qty': expected INT, got string \"x\"");
  // Chunks are filled to the requested size; the chunk holding the bad record is not returned.
  ASSERT_EQ(r.rows.size(), static_cast<size_t>(kRows) / 777 * 777);
  EXPECT_EQ(r.chunks, static_cast<size_t>(kRows) / 777);
  EXPECT_EQ(r.rows[12345], "SKU-12345,12345");

  ReadResult skip = ReadAll(Context(dir, "json", {{"json.ignore-parse-errors", "true"}}), 1000);
  ASSERT_TRUE(skip.status.ok()) << skip.status.ToString();
  EXPECT_EQ(skip.rows.size(), static_cast<size_t>(kRows));
  EXPECT_EQ(skip.skipped, 1);
  EXPECT_EQ(skip.rows.back(), "SKU-39999,39999");
}

TEST(FilesystemTest, LastLineWithoutNewlineAndCrLfAndLongRecord) {
  std::string dir = TestDir();
  std::string long_sku(3 << 20, 'k');  // longer than one read block
  WriteFile(fs::path(dir) / "f.json",
            "{\"sku\":\"a\",\"qty\":1}\r\n\n{\"sku\":\"" + long_sku + "\",\"qty\":2}\n{\"sku\":\"z\",\"qty\":3}");
  ReadResult r = ReadAll(Context(dir + "/f.json", "json"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0], "a,1");
  EXPECT_EQ(r.rows[1].size(), long_sku.size() + 2);
  EXPECT_EQ(r.rows[2], "z,3");
}

TEST(FilesystemTest, ProjectionAndMetadataColumns) {
  std::string dir = TestDir();
  WriteFile(fs::path(dir) / "a.csv", "s1,1\ns2,2\n");
  ConnectorContext ctx = Context(dir, "csv");
  ctx.projection = {1};
  ctx.metadata = {{"file.name", LogicalType::String()}, {"file.size", LogicalType::BigInt()}};
  ReadResult r = ReadAll(ctx);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (std::vector<std::string>{"1,a.csv,10", "2,a.csv,10"}));
  ctx.metadata = {{"file.owner", LogicalType::String()}};
  auto bad = Filesystem().CreateSource(ctx);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("offers no metadata key 'file.owner'"), std::string::npos);
}

Chunk Rows(std::vector<std::pair<std::string, int>> rows) {
  Chunk c(Schema({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}}));
  for (auto& [s, q] : rows) c.AppendValues({Value::String(s), Value::Integer(q)}, RowKind::kInsert);
  return c;
}

TEST(FilesystemTest, SinkWritesPartFilesAndAppendsOnNextRun) {
  std::string dir = TestDir() + "/out";
  ConnectorContext ctx = Context(dir, "json");
  auto sink = Filesystem().CreateSink(ctx);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  EXPECT_TRUE((*sink)->accepted_changelog_mode().IsInsertOnly());
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(Rows({{"SG-0042", 1}, {"a\"b", 2}})).ok());
  ASSERT_TRUE((*writer)->Write(Rows({{"x", 3}})).ok());
  // Until Finish the data is only in a hidden in-progress file (or still buffered).
  EXPECT_FALSE(fs::exists(fs::path(dir) / "part-0-0.json"));
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ(ReadFile(fs::path(dir) / "part-0-0.json"),
            "{\"sku\":\"SG-0042\",\"qty\":1}\n{\"sku\":\"a\\\"b\",\"qty\":2}\n{\"sku\":\"x\",\"qty\":3}\n");
  // The output reads back through the source.
  ReadResult r = ReadAll(Context(dir, "json"));
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.rows, (std::vector<std::string>{"SG-0042,1", "a\"b,2", "x,3"}));

  auto sink2 = Filesystem().CreateSink(ctx);
  ASSERT_TRUE(sink2.ok());
  auto w2 = (*sink2)->CreateWriter();
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE((*w2)->Write(Rows({{"y", 4}})).ok());
  ASSERT_TRUE((*w2)->Finish().ok());
  EXPECT_EQ(ReadFile(fs::path(dir) / "part-0-1.json"), "{\"sku\":\"y\",\"qty\":4}\n");
  EXPECT_EQ(ReadFile(fs::path(dir) / "part-0-0.json"),
            "{\"sku\":\"SG-0042\",\"qty\":1}\n{\"sku\":\"a\\\"b\",\"qty\":2}\n{\"sku\":\"x\",\"qty\":3}\n");

  Chunk update = Rows({{"z", 5}});
  update.kinds()[0] = RowKind::kUpdateAfter;
  auto w3 = (*sink2)->CreateWriter();
  ASSERT_TRUE(w3.ok());
  EXPECT_FALSE((*w3)->Write(update).ok());
}

TEST(FilesystemTest, SinkRollsFilesAndRejectsAFilePath) {
  std::string dir = TestDir();
  ConnectorContext ctx = Context(dir + "/csv", "csv", {{"sink.rolling-policy.file-size", "10b"}});
  auto sink = Filesystem().CreateSink(ctx);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(Rows({{"aaaa", 1}, {"bbbb", 2}})).ok());
  ASSERT_TRUE((*writer)->Write(Rows({{"c", 3}})).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ(ReadFile(fs::path(dir) / "csv" / "part-0-0.csv"), "aaaa,1\nbbbb,2\n");
  EXPECT_EQ(ReadFile(fs::path(dir) / "csv" / "part-0-1.csv"), "c,3\n");

  WriteFile(fs::path(dir) / "file.txt", "x");
  auto file_sink = Filesystem().CreateSink(Context(dir + "/file.txt", "json"));
  ASSERT_TRUE(file_sink.ok());
  auto w = (*file_sink)->CreateWriter();
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("Unable to create a sink for writing table 'pos': the sink path"),
            std::string::npos)
      << w.status().message();
  auto bad_size = Filesystem().CreateSink(Context(dir, "csv", {{"sink.rolling-policy.file-size", "big"}}));
  ASSERT_FALSE(bad_size.ok());
  EXPECT_NE(bad_size.status().message().find("Invalid value for option 'sink.rolling-policy.file-size' of table 'pos'"),
            std::string::npos);
}


// The time-based rolling policies run on Flink's check timer: every check interval from the writer's
// start, whether rows arrive or not (the job calls OnProcessingTime between steps). Decided by a
// manual clock: a part not written for the inactivity interval rolls at the first check after that,
// not before and not at a write.
TEST(FilesystemTest, SinkRollsOnItsCheckTimerWithoutWrites) {
  std::string dir = TestDir() + "/out";
  ConnectorContext ctx = Context(dir, "csv", {{"sink.rolling-policy.inactivity-interval", "3 min"},
                                              {"sink.rolling-policy.rollover-interval", "10 min"},
                                              {"sink.rolling-policy.check-interval", "5 min"}});
  auto sink = Filesystem().CreateSink(ctx);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  auto* timers = dynamic_cast<SinkTimeListener*>(writer->get());
  ASSERT_NE(timers, nullptr);
  constexpr int64_t kMinute = 60 * 1000 * 1000;
  ManualClock clock(1000 * kMinute);  // the writer starts at minute 1000: checks at 1005, 1010, ...
  timers->SetProcessingTimeClock(&clock);
  const fs::path first = fs::path(dir) / "part-0-0.csv";
  ASSERT_TRUE((*writer)->Write(Rows({{"a", 1}})).ok());
  clock.Advance(2 * kMinute);
  ASSERT_TRUE(timers->OnProcessingTime().ok());
  EXPECT_FALSE(fs::exists(first)) << "no check is due before minute 1005";
  ASSERT_TRUE((*writer)->Write(Rows({{"b", 2}})).ok());  // minute 1002: the same part
  clock.Advance(3 * kMinute - 1);
  ASSERT_TRUE(timers->OnProcessingTime().ok());
  EXPECT_FALSE(fs::exists(first));
  clock.Advance(1);  // minute 1005: the part was last written 3 minutes ago
  ASSERT_TRUE(timers->OnProcessingTime().ok());
  EXPECT_EQ(ReadFile(first), "a,1\nb,2\n");
  // The next check is at minute 1010; a row at 1011 finds it due first (its part is new and stays
  // open), a row at 1022 finds the check of 1020 due, which rolls the part of minute 1011.
  clock.Advance(6 * kMinute);
  ASSERT_TRUE((*writer)->Write(Rows({{"c", 3}})).ok());
  const fs::path second = fs::path(dir) / "part-0-1.csv";
  clock.Advance(11 * kMinute);
  ASSERT_TRUE((*writer)->Write(Rows({{"d", 4}})).ok());
  EXPECT_EQ(ReadFile(second), "c,3\n");
  // A part written every 2 minutes is never inactive; the rollover interval (10 min since its first
  // row, minute 1022) rolls it at the check of minute 1035.
  for (int i = 0; i < 6; ++i) {
    clock.Advance(2 * kMinute);  // 1024 ... 1034
    ASSERT_TRUE((*writer)->Write(Rows({{"e", i}})).ok());
  }
  const fs::path third = fs::path(dir) / "part-0-2.csv";
  EXPECT_FALSE(fs::exists(third));
  clock.Advance(kMinute);  // 1035
  ASSERT_TRUE(timers->OnProcessingTime().ok());
  EXPECT_EQ(ReadFile(third), "d,4\ne,0\ne,1\ne,2\ne,3\ne,4\ne,5\n");
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_FALSE(fs::exists(fs::path(dir) / "part-0-3.csv"));
}

}  // namespace
}  // namespace sluice
