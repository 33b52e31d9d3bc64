// Tests of position checkpoints (SourceSplit::CheckpointPosition / SeekToPosition) of the filesystem
// (json, csv, debezium-json), datagen and nexmark splits: a split restored at the position after
// n rows of its k-th read continues with exactly the rows of an uninterrupted read from there, for
// any k and n (inside a Debezium update's -U/+U pair too), whatever the read sizes; skipped
// malformed records keep their count; line numbers of errors stay right; a changed file and a
// garbage position are refused with clear errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector.h"
#include "connectors/datagen/datagen_connector.h"
#include "connectors/nexmark/nexmark_connector.h"
#include "connectors/nexmark/nexmark_generator.h"
#include "types/row_kind.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

using SplitMaker = std::function<std::unique_ptr<SourceSplit>()>;

std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) / (std::string("sluice_pos_") + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

void AppendRows(const Chunk& chunk, std::vector<std::string>* rows) {
  for (size_t r = 0; r < chunk.size(); ++r) {
    std::string row(RowKindShortString(chunk.kinds()[r]));
    for (size_t c = 0; c < chunk.num_columns(); ++c) {
      row += c == 0 ? " " : ",";
      AppendVectorText(chunk.column(c), r, &row);
    }
    rows->push_back(std::move(row));
  }
}

struct ReadRun {
  std::vector<std::string> rows;
  std::vector<size_t> read_sizes;
  int64_t skipped = 0;
};

// Reads `split` to its end with reads of `chunk` rows.
ReadRun ReadToEnd(SourceSplit* split, const Schema& schema, size_t chunk) {
  ReadRun run;
  for (;;) {
    Chunk c(schema);
    auto more = split->Read(chunk, &c);
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !*more) break;
    run.read_sizes.push_back(c.size());
    AppendRows(c, &run.rows);
  }
  run.skipped = split->records_skipped();
  return run;
}

// For checkpoints after several reads and several rows into the last one, a fresh split sought to
// the position reads (in reads of `resume_chunk` rows) exactly the rest of an uninterrupted read.
void ExpectResumesExactly(const SplitMaker& make, const Schema& schema, size_t chunk, size_t resume_chunk) {
  auto first = make();
  const ReadRun full = ReadToEnd(first.get(), schema, chunk);
  ASSERT_GT(full.rows.size(), 0u);
  const size_t reads = full.read_sizes.size();
  std::set<size_t> read_counts = {0, 1, 2, 3, reads / 2, reads - 1, reads};
  for (size_t k : read_counts) {
    if (k > reads) continue;
    const size_t last = k == 0 ? 0 : full.read_sizes[k - 1];
    std::set<size_t> ns = {0, 1, last / 2, last / 2 + 1, last > 0 ? last - 1 : 0, last};
    for (size_t n : ns) {
      if (n > last) continue;
      SCOPED_TRACE("checkpoint after " + std::to_string(n) + " rows of read " + std::to_string(k));
      auto split = make();
      size_t before = 0;
      for (size_t r = 0; r < k; ++r) {
        Chunk c(schema);
        auto more = split->Read(chunk, &c);
        ASSERT_TRUE(more.ok() && *more);
        ASSERT_EQ(c.size(), full.read_sizes[r]);
        if (r + 1 < k) before += c.size();
      }
      const std::string position = split->CheckpointPosition(n);
      ASSERT_FALSE(position.empty());
      auto restored = make();
      Status st = restored->SeekToPosition(position);
      ASSERT_TRUE(st.ok()) << st.ToString();
      // A position taken right after the seek is the same one.
      EXPECT_EQ(restored->CheckpointPosition(0), position);
      const ReadRun rest = ReadToEnd(restored.get(), schema, resume_chunk);
      const std::vector<std::string> expected(full.rows.begin() + static_cast<std::ptrdiff_t>(before + n),
                                              full.rows.end());
      ASSERT_EQ(rest.rows.size(), expected.size());
      for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(rest.rows[i], expected[i]) << "row " << before + n + i;
      EXPECT_EQ(rest.skipped, full.skipped);
    }
  }
}

// ---- filesystem ----------------------------------------------------------------------------

ConnectorContext FileContext(const std::string& path, const std::string& format,
                             std::map<std::string, std::string> extra = {}, std::vector<Field> metadata = {}) {
  ConnectorContext ctx;
  ctx.table_name = "pos";
  ctx.physical_schema = Schema({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  ctx.options = {{"connector", "filesystem"}, {"path", path}, {"format", format}};
  for (auto& [k, v] : extra) ctx.options[k] = v;
  ctx.metadata = std::move(metadata);
  return ctx;
}

SplitMaker FileSplits(const ConnectorContext& ctx) {
  return [ctx]() -> std::unique_ptr<SourceSplit> {
    auto source = (*ConnectorRegistry::Builtin().Find("filesystem"))->CreateSource(ctx);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    auto splits = (*source)->CreateSplits();
    EXPECT_TRUE(splits.ok());
    EXPECT_EQ(splits->size(), 1u);
    return std::move((*splits)[0]);
  };
}

std::string JsonLines(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    if (i % 13 == 0) text += "\n";  // blank lines are no records
    if (i % 11 == 5) {
      text += "{\"sku\": broken\n";  // malformed (skipped with ignore-parse-errors)
      continue;
    }
    text += "{\"sku\":\"s" + std::to_string(i) + "\",\"qty\":" + std::to_string(i * 7 % 1000) + "}";
    text += i % 5 == 0 ? "\r\n" : "\n";
  }
  return text;
}

TEST(CheckpointPositionTest, JsonFileResumesAtEveryRowWithSkippedRecordsCounted) {
  const std::string path = TestDir() + "/orders.json";
  WriteFile(path, JsonLines(700));
  const auto ctx = FileContext(path, "json", {{"json.ignore-parse-errors", "true"}});
  ExpectResumesExactly(FileSplits(ctx), ProjectedSchema(ctx), 100, 37);
}

TEST(CheckpointPositionTest, JsonFileWithMetadataAndProjection) {
  const std::string path = TestDir() + "/orders.json";
  WriteFile(path, JsonLines(300));
  auto ctx = FileContext(path, "json", {{"json.ignore-parse-errors", "true"}},
                         {{"file.name", LogicalType::String().WithNullable(false)}});
  ctx.projection = {1};
  ExpectResumesExactly(FileSplits(ctx), ProjectedSchema(ctx), 64, 1000);
}

TEST(CheckpointPositionTest, CsvFileWithQuotedNewlinesResumes) {
  const std::string path = TestDir() + "/orders.csv";
  std::string text;
  for (int i = 0; i < 500; ++i) {
    if (i % 9 == 4) {
      text += "x" + std::to_string(i) + ",not-a-number\n";  // malformed
    } else if (i % 7 == 0) {
      text += "\"multi\nline " + std::to_string(i) + "\"," + std::to_string(i) + "\n";
    } else {
      text += "s" + std::to_string(i) + "," + std::to_string(i) + "\n";
    }
  }
  WriteFile(path, text);
  const auto ctx = FileContext(path, "csv", {{"csv.ignore-parse-errors", "true"}});
  ExpectResumesExactly(FileSplits(ctx), ProjectedSchema(ctx), 50, 3);
}

std::string DebeziumLines(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    const std::string a = "{\"sku\":\"s" + std::to_string(i % 40) + "\",\"qty\":" + std::to_string(i) + "}";
    const std::string b = "{\"sku\":\"s" + std::to_string(i % 40) + "\",\"qty\":" + std::to_string(i + 1) + "}";
    if (i % 17 == 8) {
      text += "{\"before\":null,\"after\":" + a + ",\"op\":\"x\"}\n";  // unknown op (skipped)
    } else if (i % 23 == 11) {
      text += "{\"before\": nope\n";  // bad JSON (skipped)
    } else if (i % 3 == 1) {
      text += "{\"before\":" + a + ",\"after\":" + b + ",\"op\":\"u\"}\n";  // two rows: -U, +U
    } else if (i % 10 == 9) {
      text += "{\"before\":" + a + ",\"after\":null,\"op\":\"d\"}\n";
    } else {
      text += "{\"before\":null,\"after\":" + a + ",\"op\":\"c\"}\n";
    }
  }
  return text;
}

TEST(CheckpointPositionTest, DebeziumFileResumesInsideAnUpdatePair) {
  const std::string path = TestDir() + "/changes.json";
  WriteFile(path, DebeziumLines(600));
  const auto ctx = FileContext(path, "debezium-json", {{"debezium-json.ignore-parse-errors", "true"}});
  // Odd read sizes put read ends and checkpoints between the -U and +U of updates.
  ExpectResumesExactly(FileSplits(ctx), ProjectedSchema(ctx), 41, 5);
  // Every checkpoint position inside the first reads, with reads of one row (a record's rows still
  // come together, so some reads give two).
  ExpectResumesExactly(FileSplits(ctx), ProjectedSchema(ctx), 1, 64);
}

TEST(CheckpointPositionTest, LargeFileAcrossReadBlocks) {
  const std::string path = TestDir() + "/big.json";
  std::string text;
  for (int i = 0; i < 60000; ++i) {
    text += "{\"sku\":\"a-fairly-long-sku-name-" + std::to_string(i) + "\",\"qty\":" + std::to_string(i) + "}\n";
  }
  ASSERT_GT(text.size(), size_t{2} << 20);  // more than two of the reader's 1 MiB blocks
  WriteFile(path, text);
  const auto ctx = FileContext(path, "json");
  const Schema schema = ProjectedSchema(ctx);
  auto make = FileSplits(ctx);
  // After 40 reads of 1000 rows (past the first block), 500 rows into the 41st.
  auto split = make();
  for (int r = 0; r < 41; ++r) {
    Chunk c(schema);
    ASSERT_TRUE(*split->Read(1000, &c));
  }
  auto restored = make();
  ASSERT_TRUE(restored->SeekToPosition(split->CheckpointPosition(500)).ok());
  ReadRun rest = ReadToEnd(restored.get(), schema, 4096);
  ASSERT_EQ(rest.rows.size(), 60000u - 40500u);
  EXPECT_EQ(rest.rows.front(), "+I a-fairly-long-sku-name-40500,40500");
  EXPECT_EQ(rest.rows.back(), "+I a-fairly-long-sku-name-59999,59999");
}

TEST(CheckpointPositionTest, ErrorsAfterASeekNameTheRightLine) {
  const std::string path = TestDir() + "/orders.json";
  std::string text;
  for (int i = 1; i <= 30; ++i) text += i == 25 ? "{\"sku\": oops}\n" : "{\"sku\":\"s\",\"qty\":1}\n";
  WriteFile(path, text);
  const auto ctx = FileContext(path, "json");
  auto make = FileSplits(ctx);
  auto split = make();
  Chunk c(ProjectedSchema(ctx));
  ASSERT_TRUE(*split->Read(10, &c));
  auto restored = make();
  ASSERT_TRUE(restored->SeekToPosition(split->CheckpointPosition(10)).ok());
  Chunk d(ProjectedSchema(ctx));
  auto more = restored->Read(100, &d);
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.status().message().find(path + ":25:"), std::string::npos) << more.status().ToString();
}

TEST(CheckpointPositionTest, ChangedFileIsRefusedNamingIt) {
  const std::string path = TestDir() + "/orders.json";
  WriteFile(path, JsonLines(50));
  const auto ctx = FileContext(path, "json", {{"json.ignore-parse-errors", "true"}});
  auto make = FileSplits(ctx);
  auto split = make();
  Chunk c(ProjectedSchema(ctx));
  ASSERT_TRUE(*split->Read(10, &c));
  const std::string position = split->CheckpointPosition(10);
  WriteFile(path, JsonLines(51));  // rewritten, longer
  Status st = make()->SeekToPosition(position);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("file '" + path + "' changed since the checkpoint"), std::string::npos) << st.ToString();
}

TEST(CheckpointPositionTest, GarbageFilePositionIsRefused) {
  const std::string path = TestDir() + "/orders.json";
  WriteFile(path, JsonLines(20));
  const auto ctx = FileContext(path, "json", {{"json.ignore-parse-errors", "true"}});
  auto make = FileSplits(ctx);
  const std::string good = make()->CheckpointPosition(0);
  for (const std::string& bad : {std::string(""), std::string("garbage"), std::string("file-v1 1 2 3"),
                                std::string("nexmark-v1 1 2"), good + " 7", std::string("file-v1 10 1 11 1 0 0"),
                                std::string("file-v1 -5 1 0 1 0 0")}) {
    Status st = make()->SeekToPosition(bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("corrupt checkpoint position"), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find(path), std::string::npos) << st.ToString();
  }
  EXPECT_TRUE(make()->SeekToPosition(good).ok());
}

// ---- datagen -------------------------------------------------------------------------------

struct ManualTiming {
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(1767225600000000LL);
  GeneratorTiming timing() {
    GeneratorTiming t;
    t.clock = clock;
    auto c = clock;
    t.sleep_micros = [c](int64_t us) { c->Advance(us); };
    return t;
  }
};

ConnectorContext DatagenContext(std::map<std::string, std::string> options) {
  ConnectorContext ctx;
  ctx.table_name = "gen";
  ctx.physical_schema = Schema({{"id", LogicalType::BigInt()},
                                {"name", LogicalType::VarChar(12)},
                                {"score", LogicalType::Double()},
                                {"tags", LogicalType::Array(LogicalType::Integer())},
                                {"attrs", LogicalType::Map(LogicalType::VarChar(3), LogicalType::Integer())},
                                {"nested", LogicalType::Row({"a", "b"}, {LogicalType::Integer(), LogicalType::String()})},
                                {"seq", LogicalType::BigInt()}});
  options["connector"] = "datagen";
  ctx.options = std::move(options);
  return ctx;
}

SplitMaker DatagenSplits(const ConnectorContext& ctx, GeneratorTiming timing) {
  return [ctx, timing]() -> std::unique_ptr<SourceSplit> {
    auto source = MakeDatagenConnectorFactory(timing)->CreateSource(ctx);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    auto splits = (*source)->CreateSplits();
    return std::move((*splits)[0]);
  };
}

std::map<std::string, std::string> DatagenOptions() {
  return {{"number-of-rows", "3000"},
          {"rows-per-second", "1000000000"},
          {"fields.name.var-len", "true"},
          {"fields.name.null-rate", "0.2"},
          {"fields.score.null-rate", "0.1"},
          {"fields.tags.length", "2"},
          {"fields.attrs.length", "3"},
          {"fields.attrs.key.length", "1"},
          {"fields.nested.null-rate", "0.3"},
          {"fields.nested.b.length", "5"},
          {"fields.seq.kind", "sequence"},
          {"fields.seq.start", "100"},
          {"fields.seq.end", "1000000"},
          {"sluice.seed", "7"}};
}

TEST(CheckpointPositionTest, DatagenResumesWithIdenticalRows) {
  ManualTiming t;
  const auto ctx = DatagenContext(DatagenOptions());
  ExpectResumesExactly(DatagenSplits(ctx, t.timing()), ProjectedSchema(ctx), 256, 100);
}

TEST(CheckpointPositionTest, DatagenRowsDoNotDependOnReadSizes) {
  ManualTiming t;
  const auto ctx = DatagenContext(DatagenOptions());
  auto make = DatagenSplits(ctx, t.timing());
  auto a = make();
  auto b = make();
  const ReadRun x = ReadToEnd(a.get(), ProjectedSchema(ctx), 1000);
  const ReadRun y = ReadToEnd(b.get(), ProjectedSchema(ctx), 7);
  ASSERT_EQ(x.rows.size(), 3000u);
  EXPECT_EQ(x.rows, y.rows);
}

TEST(CheckpointPositionTest, DatagenRefusesGarbageAndPositionsPastItsEnd) {
  ManualTiming t;
  const auto ctx = DatagenContext(DatagenOptions());
  auto make = DatagenSplits(ctx, t.timing());
  for (const std::string& bad : {std::string("datagen-v1"), std::string("datagen-v1 x"), std::string("datagen-v1 -1"),
                                std::string("datagen-v1 5 6"), std::string("file-v1 5")}) {
    Status st = make()->SeekToPosition(bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("corrupt checkpoint position '" + bad + "' of split datagen-0"), std::string::npos)
        << st.ToString();
  }
  Status st = make()->SeekToPosition("datagen-v1 3001");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("split datagen-0 has 3000 rows, the checkpoint had read 3001"), std::string::npos)
      << st.ToString();
  // At the very end: nothing more to read.
  auto end = make();
  ASSERT_TRUE(end->SeekToPosition("datagen-v1 3000").ok());
  Chunk c(ProjectedSchema(ctx));
  EXPECT_FALSE(*end->Read(10, &c));
}

TEST(CheckpointPositionTest, DatagenThrottleRestartsItsPaceAfterASeek) {
  ManualTiming t;
  auto ctx = DatagenContext({{"rows-per-second", "100"}});
  auto make = DatagenSplits(ctx, t.timing());
  auto split = make();
  ASSERT_TRUE(split->SeekToPosition("datagen-v1 1000000").ok());
  const int64_t before = t.clock->NowMicros();
  Chunk c(ProjectedSchema(ctx));
  // One burst at once, as at a first start: no wait for the 10000 s the earlier rows took.
  ASSERT_TRUE(*split->Read(1024, &c));
  EXPECT_EQ(c.size(), 100u);
  EXPECT_EQ(t.clock->NowMicros(), before);
}

// ---- nexmark -------------------------------------------------------------------------------

ConnectorContext NexmarkContext(std::map<std::string, std::string> options) {
  ConnectorContext ctx;
  ctx.table_name = "datagen";
  ctx.physical_schema = NexmarkGenerator::DdlSchema();
  options["connector"] = "nexmark";
  ctx.options = std::move(options);
  return ctx;
}

SplitMaker NexmarkSplits(const ConnectorContext& ctx, GeneratorTiming timing) {
  return [ctx, timing]() -> std::unique_ptr<SourceSplit> {
    auto source = MakeNexmarkConnectorFactory(timing)->CreateSource(ctx);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    auto splits = (*source)->CreateSplits();
    return std::move((*splits)[0]);
  };
}

TEST(CheckpointPositionTest, NexmarkResumesWithIdenticalEventsAndTimestamps) {
  ManualTiming t;
  const auto ctx = NexmarkContext({{"events.num", "5000"}, {"sluice.seed", "3"}});
  ExpectResumesExactly(NexmarkSplits(ctx, t.timing()), ProjectedSchema(ctx), 512, 300);
}

TEST(CheckpointPositionTest, NexmarkPacedByProcessingTimeContinuesAtItsPace) {
  // 'max-emit-speed' = false at 1000 events/s: after a restore at event 3000 the next event is due
  // 1 ms after the first read, as it was 1 ms after the last emitted one, not 3 s.
  ManualTiming t;
  const auto ctx = NexmarkContext({{"events.num", "5000"}, {"first-event.rate", "1000"}, {"max-emit-speed", "false"}});
  auto make = NexmarkSplits(ctx, t.timing());
  auto split = make();
  ASSERT_TRUE(split->SeekToPosition("nexmark-v1 3000 12345").ok());
  const int64_t before = t.clock->NowMicros();
  Chunk c(ProjectedSchema(ctx));
  ASSERT_TRUE(*split->Read(100, &c));
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(t.clock->NowMicros() - before, 1000);
}

TEST(CheckpointPositionTest, NexmarkRefusesGarbageAndPositionsPastItsEnd) {
  ManualTiming t;
  const auto ctx = NexmarkContext({{"events.num", "5000"}});
  auto make = NexmarkSplits(ctx, t.timing());
  for (const std::string& bad : {std::string("nexmark-v1 5"), std::string("nexmark-v1 5 x"), std::string("garbage"),
                                std::string("nexmark-v1 5 6 7"), std::string("nexmark-v1 -5 6")}) {
    Status st = make()->SeekToPosition(bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("corrupt checkpoint position '" + bad + "' of split nexmark-0"), std::string::npos)
        << st.ToString();
  }
  Status st = make()->SeekToPosition("nexmark-v1 5001 1");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("split nexmark-0 has 5000 events, the checkpoint had read 5001"), std::string::npos)
      << st.ToString();
}

}  // namespace
}  // namespace sluice
