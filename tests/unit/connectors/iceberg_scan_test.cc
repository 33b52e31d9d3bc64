// The Iceberg scan (scan_planner.h, iceberg_scan_reader.h, iceberg_read_options.h) over the tables
// of the interoperability vectors (/work/shared/iceberg-vectors, README there): every table's
// expected rows at its current snapshot and at earlier snapshots, with equality deletes
// (partitioned and not, the same-sequence-number rule), position deletes (paths with another scheme
// and authority than the data files'), and deletion vectors. Paths inside the metadata point at the
// writer's location; a FileIO decorator maps that prefix to the local directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "common/clock.h"
#include "connectors/iceberg/iceberg_pruning.h"
#include "connectors/iceberg/iceberg_read_options.h"
#include "connectors/iceberg/iceberg_streaming_split.h"
#include "connectors/iceberg/iceberg_scan_reader.h"
#include "connectors/iceberg/scan_planner.h"
#include "connectors/iceberg/table_metadata_json.h"
#include "types/value_format.h"

#ifndef SLUICE_ICEBERG_VECTORS
#define SLUICE_ICEBERG_VECTORS "/work/shared/iceberg-vectors"
#endif

namespace sluice {
namespace {

namespace fs = std::filesystem;
const std::string kVectors = SLUICE_ICEBERG_VECTORS;

// Reads `from`-prefixed locations under `to`.
class PrefixMappingFileIO final : public FileIO {
 public:
  PrefixMappingFileIO(std::string from, std::string to)
      : inner_(NewLocalFileIO()), from_(std::move(from)), to_(std::move(to)) {}
  std::string Map(const std::string& l) const {
    return l.rfind(from_, 0) == 0 ? to_ + l.substr(from_.size()) : l;
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& l) override { return inner_->OpenRead(Map(l)); }
  Result<std::unique_ptr<WritableFile>> Create(const std::string& l) override { return inner_->Create(Map(l)); }
  Status WriteAtomically(const std::string& l, std::string_view d, bool o) override {
    return inner_->WriteAtomically(Map(l), d, o);
  }
  Result<bool> Exists(const std::string& l) override { return inner_->Exists(Map(l)); }
  Status Delete(const std::string& l) override { return inner_->Delete(Map(l)); }
  Status DeleteRecursively(const std::string& l) override { return inner_->DeleteRecursively(Map(l)); }
  Result<std::vector<std::string>> ListDirectory(const std::string& l, bool d) override {
    return inner_->ListDirectory(Map(l), d);
  }
  Status CreateDirectories(const std::string& l) override { return inner_->CreateDirectories(Map(l)); }

 private:
  std::unique_ptr<FileIO> inner_;
  std::string from_, to_;
};

struct VectorTable {
  std::string dir;       // under kVectors
  std::string prefix;    // the writer's location
  std::string metadata;  // file name under metadata/
};

class IcebergScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kVectors)) GTEST_SKIP() << kVectors << " is absent";
  }

  void Load(const VectorTable& t) {
    const std::string local = kVectors + "/" + t.dir;
    io_ = std::make_shared<PrefixMappingFileIO>(t.prefix, local);
    auto text = io_->ReadAll(local + "/metadata/" + t.metadata);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    auto md = ParseTableMetadata(*text, t.metadata);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    md_ = std::move(*md);
  }

  // Rows ("a|b|c", sorted) of the files `options` select, columns `columns` (all when empty).
  std::vector<std::string> Read(const IcebergReadOptions& options, std::vector<int> columns = {},
                                IcebergRowBudget budget = nullptr, IcebergScanPruner* pruner = nullptr,
                                IcebergScanMetrics* metrics = nullptr) {
    auto tasks = PlanIcebergRead(io_.get(), md_, options, "t", pruner, metrics);
    EXPECT_TRUE(tasks.ok()) << tasks.status().ToString();
    if (!tasks.ok()) return {};
    Schema physical = ToSluiceSchema(md_.CurrentSchema());
    auto schema = MakeIcebergReadSchema(md_.CurrentSchema(), physical, columns, "t");
    EXPECT_TRUE(schema.ok()) << schema.status().ToString();
    auto shared = std::make_shared<const IcebergReadSchema>(std::move(*schema));
    auto deletes = std::make_shared<IcebergDeleteLoader>(io_, md_.CurrentSchema());
    std::vector<std::string> rows;
    for (const FileScanTask& task : *tasks) {
      auto split = NewIcebergFileSplit(deletes, shared, task, budget);
      while (true) {
        Chunk chunk(shared->output);
        auto more = split->Read(3, &chunk);  // small reads: rows cross chunk boundaries
        EXPECT_TRUE(more.ok()) << more.status().ToString();
        if (!more.ok() || !*more) break;
        for (size_t r = 0; r < chunk.size(); ++r) {
          std::string row;
          for (size_t c = 0; c < chunk.num_columns(); ++c) {
            if (c > 0) row += "|";
            AppendVectorText(chunk.column(c), r, &row);
          }
          rows.push_back(row);
        }
      }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }
  std::vector<std::string> ReadSnapshot(int64_t id, std::vector<int> columns = {}) {
    IcebergReadOptions o;
    o.snapshot_id = id;
    return Read(o, std::move(columns));
  }
  int64_t SnapshotWithSequence(int64_t seq) {
    for (const Snapshot& s : md_.snapshots) {
      if (s.sequence_number == seq) return s.snapshot_id;
    }
    ADD_FAILURE() << "no snapshot with sequence number " << seq;
    return 0;
  }

  std::shared_ptr<FileIO> io_;
  TableMetadata md_;
};

const char* kEqPrefix = "data/persistent/equality_deletes/warehouse/mydb/";

TEST_F(IcebergScanTest, EqualityDeletesUnpartitioned) {
  Load({"duckdb-iceberg/equality_deletes/mytable", std::string(kEqPrefix) + "mytable", "v7.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"4|d|2025-01-04", "5|e|2025-01-05"}));
  EXPECT_EQ(ReadSnapshot(SnapshotWithSequence(1), {0}), (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(ReadSnapshot(SnapshotWithSequence(3), {0, 1}), (std::vector<std::string>{"3|c", "4|d"}));
  EXPECT_EQ(ReadSnapshot(SnapshotWithSequence(4), {0, 1}), (std::vector<std::string>{"4|d"}));
  EXPECT_EQ(ReadSnapshot(SnapshotWithSequence(5), {0}), (std::vector<std::string>{"4", "5", "6"}));
  // Projection without the key columns of the deletes (name and id are read to probe them).
  EXPECT_EQ(Read({}, {2}), (std::vector<std::string>{"2025-01-04", "2025-01-05"}));
}

TEST_F(IcebergScanTest, EqualityDeletesPartitioned) {
  Load({"duckdb-iceberg/equality_deletes/mytable_partitioned", std::string(kEqPrefix) + "mytable_partitioned",
        "v6.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"1|a|2025-01-01", "4|d|2025-01-04", "5|e|2025-01-05"}));
  EXPECT_EQ(ReadSnapshot(SnapshotWithSequence(1), {0}), (std::vector<std::string>{"1", "2", "3", "4"}));
}

TEST_F(IcebergScanTest, EqualityDeletesSameSequenceNumberKeepRows) {
  Load({"impala/iceberg_v2_delete_equality", "/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_equality",
        "v4.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"1|test_1_base", "2|test_2_updated"}));
}

TEST_F(IcebergScanTest, PositionDeletesWithOtherScheme) {
  Load({"impala/iceberg_v2_delete_positional",
        "/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_positional", "v2.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"1|a", "3|c"}));
  EXPECT_EQ(ReadSnapshot(6816997371555012807).size(), 3u);
}

TEST_F(IcebergScanTest, PositionDeletesSparkMergeOnRead) {
  Load({"iceberg-cxx/refdeletes3", "s3://warehouse/prod/db/refdeletes3",
        "00002-8dbf0bf0-882a-4822-ae9c-ec1c0f34ef6d.metadata.json"});
  std::vector<std::string> a = Read({}, {0});
  std::vector<int> ids;
  for (const std::string& s : a) ids.push_back(std::stoi(s));
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<int>{1, 2, 4, 5, 7, 8, 10, 11, 13, 14}));
  std::vector<std::string> rows = Read({});
  EXPECT_NE(std::find(rows.begin(), rows.end(), "14|91121"), rows.end());
  EXPECT_NE(std::find(rows.begin(), rows.end(), "2|2314"), rows.end());
}

TEST_F(IcebergScanTest, LimitSharedBySplits) {
  Load({"iceberg-cxx/refdeletes3", "s3://warehouse/prod/db/refdeletes3",
        "00002-8dbf0bf0-882a-4822-ae9c-ec1c0f34ef6d.metadata.json"});
  EXPECT_EQ(Read({}, {0}, std::make_shared<std::atomic<int64_t>>(4)).size(), 4u);  // 6 files, 10 live rows
  EXPECT_EQ(Read({}, {0}, std::make_shared<std::atomic<int64_t>>(0)).size(), 0u);
  EXPECT_EQ(Read({}, {0}, std::make_shared<std::atomic<int64_t>>(100)).size(), 10u);
}

TEST_F(IcebergScanTest, AllSparkTypes) {
  Load({"iceberg-cxx/all_spark_types", "s3://warehouse/types/all_spark_types",
        "00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json"});
  std::vector<std::string> rows = Read({}, {0, 1, 2, 5, 6, 8, 10, 11});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], "TRUE|2147483647|9223372036854775807|12345.67|example|2023-10-10|2023-10-10 12:34:56.000000|[item1, item2]");
}

TEST_F(IcebergScanTest, MapStatsPyIceberg) {
  Load({"duckdb-iceberg/map_stats", "file://data/persistent/map_stats/default.db/map_stats",
        "00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json"});
  std::vector<std::string> rows = Read({}, {1, 2, 3});
  EXPECT_EQ(rows, (std::vector<std::string>{"hello|world|{key=value1}", "hello|world|{key=value1}"}));
}

TEST_F(IcebergScanTest, DeletionVectorsSpark) {
  Load({"deletion-vectors/spark-deletion_vector_sample", "warehouse/deletion_vector/deletion_vector_sample",
        "v3.metadata.json"});
  EXPECT_EQ(Read({}, {0, 1}), (std::vector<std::string>{"1|Name_1", "3|Name_3", "5|Name_5", "7|Name_7", "9|Name_9"}));
}

TEST_F(IcebergScanTest, DeletionVectorsTrinoEverySnapshot) {
  Load({"deletion-vectors/trino-deletion_vectors", "s3a://warehouse/deletion_vectors",
        "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json"});
  auto ids = [](const std::vector<std::string>& rows) {
    std::vector<int> out;
    for (const std::string& s : rows) out.push_back(std::stoi(s));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(ids(Read({}, {0})), (std::vector<int>{2, 5, 8, 9, 11, 12, 14, 15}));
  std::vector<size_t> sizes;
  for (const SnapshotLogEntry& e : md_.snapshot_log) sizes.push_back(ReadSnapshot(e.snapshot_id, {0}).size());
  EXPECT_EQ(sizes, (std::vector<size_t>{0, 8, 5, 13, 8}));
}

TEST_F(IcebergScanTest, DeletionVectorsMultiBlobPuffin) {
  Load({"deletion-vectors/duckdb-multi_blob_deletion_vectors",
        "file:///Users/thijs/DuckDBLabs/duckdb_iceberg/data/persistent/multi_blob_deletion_vectors/warehouse/default/"
        "multi_blob_deletion_vectors",
        "00003-multi-blob.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"1|first", "3|first", "5|second"}));
}

TEST_F(IcebergScanTest, DeletionVectorLegacyBareBlob) {
  Load({"deletion-vectors/duckdb-legacy_bare_deletion_vector",
        "data/persistent/legacy_bare_deletion_vector/warehouse/default/legacy_bare_deletion_vector",
        "00002-legacy-bare-dv.metadata.json"});
  EXPECT_EQ(Read({}), (std::vector<std::string>{"1|legacy", "3|legacy"}));
}

TEST_F(IcebergScanTest, IncrementalAppendRead) {
  Load({"duckdb-iceberg/equality_deletes/mytable", std::string(kEqPrefix) + "mytable", "v7.metadata.json"});
  IcebergReadOptions o;
  // After seq 3 up to the current snapshot: only the append of seq 5 adds files; deletes are not
  // applied by an incremental append read (Flink's IncrementalAppendScan).
  o.start_snapshot_id = SnapshotWithSequence(3);
  EXPECT_EQ(Read(o, {0}), (std::vector<std::string>{"5", "6"}));
  o.start_snapshot_id = SnapshotWithSequence(1);
  o.end_snapshot_id = SnapshotWithSequence(4);
  EXPECT_TRUE(Read(o, {0}).empty());
  // The start must be an ancestor of the end.
  o.start_snapshot_id = SnapshotWithSequence(5);
  o.end_snapshot_id = SnapshotWithSequence(3);
  auto tasks = PlanIcebergRead(io_.get(), md_, o, "t");
  ASSERT_FALSE(tasks.ok());
  EXPECT_NE(tasks.status().message().find("is not a parent ancestor of end snapshot"), std::string::npos);
}

// Pruning by a pushed-down filter (iceberg_pruning.h) on tables other engines wrote: the files kept
// are read with every delete that applies to them.
class IcebergPruningTest : public IcebergScanTest {
 protected:
  std::vector<std::string> ReadPruned(IcebergFilter filter, std::vector<int> columns = {}) {
    IcebergScanPruner pruner(md_, std::move(filter));
    metrics_ = {};
    return Read({}, std::move(columns), nullptr, &pruner, &metrics_);
  }
  int32_t FieldId(const std::string& name) { return md_.CurrentSchema().FindField(name)->id; }
  IcebergScanMetrics metrics_;
};

TEST_F(IcebergPruningTest, IdentityPartitionsWithEqualityDeletes) {
  Load({"duckdb-iceberg/equality_deletes/mytable_partitioned", std::string(kEqPrefix) + "mytable_partitioned",
        "v6.metadata.json"});
  const int32_t name = FieldId("name");
  EXPECT_EQ(ReadPruned(IcebergFilter::Predicate(IcebergOp::kEq, name, {IcebergLiteral::String("a")})),
            (std::vector<std::string>{"1|a|2025-01-01"}));
  EXPECT_EQ(metrics_.result_data_files, 1);
  EXPECT_GE(metrics_.skipped_data_files + metrics_.skipped_data_manifests, 1);
  // The kept file of partition b still has its row deleted by the equality delete of that partition.
  EXPECT_TRUE(ReadPruned(IcebergFilter::Predicate(IcebergOp::kEq, name, {IcebergLiteral::String("b")})).empty());
  EXPECT_EQ(metrics_.result_data_files, 1);
  EXPECT_EQ(ReadPruned(IcebergFilter::Predicate(IcebergOp::kIn, name,
                                                {IcebergLiteral::String("c"), IcebergLiteral::String("e")})),
            (std::vector<std::string>{"5|e|2025-01-05"}));
  EXPECT_EQ(metrics_.result_data_files, 2);
  EXPECT_TRUE(ReadPruned(IcebergFilter::Predicate(IcebergOp::kIsNull, name)).empty());
  EXPECT_EQ(metrics_.result_data_files, 0);
}

TEST_F(IcebergPruningTest, MetricsWithGlobalEqualityDeletes) {
  Load({"duckdb-iceberg/equality_deletes/mytable", std::string(kEqPrefix) + "mytable", "v7.metadata.json"});
  const int32_t id = FieldId("id");
  IcebergLiteral five = IcebergLiteral::OfInt(md_.CurrentSchema().FindField(id)->type, 5);
  EXPECT_EQ(ReadPruned(IcebergFilter::Predicate(IcebergOp::kGtEq, id, {five}), {0}), (std::vector<std::string>{"5"}));
  EXPECT_EQ(metrics_.result_data_files, 1);
  EXPECT_EQ(metrics_.skipped_data_files, 1);
  // NOT IN and <> never prune by metrics.
  EXPECT_EQ(ReadPruned(IcebergFilter::Predicate(IcebergOp::kNotEq, id, {five}), {0}).size(), 2u);
  EXPECT_EQ(metrics_.skipped_data_files, 0);
}

TEST_F(IcebergPruningTest, DayTransformOfTimestamptz) {
  Load({"duckdb-iceberg/map_stats", "file://data/persistent/map_stats/default.db/map_stats",
        "00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json"});
  const int32_t ts = FieldId("timestamp");
  const int64_t jan2 = int64_t{20455} * 86400 * 1000000;  // 2026-01-02 00:00:00 UTC
  auto at = [&](IcebergOp op, int64_t micros) {
    return ReadPruned(IcebergFilter::Predicate(op, ts, {IcebergLiteral::TimestampTz(micros)}), {1});
  };
  EXPECT_EQ(at(IcebergOp::kGtEq, jan2).size(), 1u);
  EXPECT_EQ(metrics_.result_data_files, 1);
  EXPECT_EQ(at(IcebergOp::kLt, jan2).size(), 1u);
  EXPECT_EQ(metrics_.result_data_files, 1);
  EXPECT_EQ(at(IcebergOp::kGt, jan2 + 86400LL * 1000000).size(), 0u);
  EXPECT_EQ(metrics_.result_data_files, 0);
  EXPECT_EQ(at(IcebergOp::kLtEq, jan2).size(), 2u);
}

TEST_F(IcebergPruningTest, PositionDeletesOfKeptFilesApply) {
  Load({"iceberg-cxx/refdeletes3", "s3://warehouse/prod/db/refdeletes3",
        "00002-8dbf0bf0-882a-4822-ae9c-ec1c0f34ef6d.metadata.json"});
  const IcebergField& first = md_.CurrentSchema().fields()[0];
  std::vector<std::string> rows = ReadPruned(
      IcebergFilter::Predicate(IcebergOp::kGt, first.id, {IcebergLiteral::OfInt(first.type, 10)}), {0});
  std::vector<int> ids;
  for (const std::string& r : rows) ids.push_back(std::stoi(r));
  std::sort(ids.begin(), ids.end());
  // Every live row above 10 is there, no deleted one is (3, 6, 9, 12 are deleted in the table).
  for (int want : {11, 13, 14}) EXPECT_NE(std::find(ids.begin(), ids.end(), want), ids.end()) << want;
  EXPECT_EQ(std::find(ids.begin(), ids.end(), 12), ids.end());
  EXPECT_GT(metrics_.skipped_data_files, 0);
}

TEST_F(IcebergScanTest, SnapshotSelectionErrorsAndAsOfTimestamp) {
  Load({"deletion-vectors/trino-deletion_vectors", "s3a://warehouse/deletion_vectors",
        "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json"});
  IcebergReadOptions o;
  o.snapshot_id = 42;
  auto s = SelectIcebergSnapshot(md_, o, "t");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("cannot find snapshot with ID 42"), std::string::npos);
  o = {};
  o.as_of_timestamp = md_.snapshot_log.front().timestamp_ms - 1;
  EXPECT_FALSE(SelectIcebergSnapshot(md_, o, "t").ok());
  // At the timestamp of the third log entry: that snapshot (5 rows).
  o.as_of_timestamp = md_.snapshot_log[2].timestamp_ms;
  EXPECT_EQ(Read(o, {0}).size(), 5u);
  o.branch = "main";
  o.as_of_timestamp.reset();
  EXPECT_EQ(Read(o, {0}).size(), 8u);
  o.branch = "nope";
  EXPECT_FALSE(SelectIcebergSnapshot(md_, o, "t").ok());
}

// Streaming over the Trino table's metadata versions 00000..00004 (append empty, append 8 rows,
// delete, append 8 rows, delete), made visible one by one; a ManualClock drives 'monitor-interval'.
class IcebergStreamingTest : public IcebergScanTest {
 protected:
  void SetUp() override {
    IcebergScanTest::SetUp();
    if (IsSkipped()) return;
    const std::string dir = kVectors + "/deletion-vectors/trino-deletion_vectors/metadata/";
    Load({"deletion-vectors/trino-deletion_vectors", "s3a://warehouse/deletion_vectors",
          "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json"});
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().string().ends_with(".metadata.json")) files_.push_back(entry.path().string());
    }
    std::sort(files_.begin(), files_.end());
    ASSERT_EQ(files_.size(), 5u);
  }

  std::unique_ptr<SourceSplit> NewSplit(IcebergStreamingOptions options) {
    options.monitor_interval_micros = 10'000'000;
    auto loader = [this]() -> Result<TableMetadata> {
      ASSIGN_OR_RETURN(std::string text, io_->ReadAll(files_[visible_]));
      return ParseTableMetadata(text, files_[visible_]);
    };
    Schema physical = ToSluiceSchema(md_.CurrentSchema());
    auto schema = MakeIcebergReadSchema(md_.CurrentSchema(), physical, {0}, "t");
    GeneratorTiming timing;
    timing.clock = clock_;
    timing.sleep_micros = [this](int64_t micros) { clock_->Advance(micros); };
    return NewIcebergStreamingSplit(loader, std::make_shared<IcebergDeleteLoader>(io_, md_.CurrentSchema()),
                                    std::make_shared<const IcebergReadSchema>(std::move(*schema)), options, timing,
                                    "t");
  }

  // Reads until `rows` ids arrived or the split waited through 3 polls without rows (or ended).
  std::vector<int> ReadIds(SourceSplit* split, size_t rows, bool* ended = nullptr) {
    std::vector<int> ids;
    const int64_t give_up = clock_->NowMicros() + 30'000'000;
    while (ids.size() < rows && clock_->NowMicros() <= give_up) {
      Chunk chunk(Schema({{"c1", LogicalType::Integer()}}));
      auto more = split->Read(3, &chunk);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok()) break;
      if (!*more) {
        if (ended) *ended = true;
        break;
      }
      for (size_t r = 0; r < chunk.size(); ++r) ids.push_back(chunk.column(0).data<int32_t>()[r]);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  std::vector<std::string> files_;
  size_t visible_ = 1;
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>(0);
};

TEST_F(IcebergStreamingTest, FollowsAppendsFromEarliest) {
  IcebergStreamingOptions o;
  o.strategy = IcebergStartingStrategy::kIncrementalFromEarliestSnapshot;
  auto split = NewSplit(o);
  EXPECT_EQ(ReadIds(split.get(), 8), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(ReadIds(split.get(), 1).empty());  // nothing new: waits on the clock
  EXPECT_GT(split->PendingDelayMicros(), 0);
  visible_ = 2;  // a delete: skipped by the incremental append scan
  EXPECT_TRUE(ReadIds(split.get(), 1).empty());
  visible_ = 4;
  EXPECT_EQ(ReadIds(split.get(), 8), (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST_F(IcebergStreamingTest, TableScanThenIncrementalAppliesDeletesFirst) {
  IcebergStreamingOptions o;
  o.strategy = IcebergStartingStrategy::kTableScanThenIncremental;
  visible_ = 2;
  auto split = NewSplit(o);
  EXPECT_EQ(ReadIds(split.get(), 5).size(), 5u);  // c1 % 3 = 0 deleted from 0..7
  visible_ = 3;
  EXPECT_EQ(ReadIds(split.get(), 8), (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST_F(IcebergStreamingTest, LatestInclusiveAndEndSnapshotEnds) {
  IcebergStreamingOptions o;  // INCREMENTAL_FROM_LATEST_SNAPSHOT: the latest append is read too
  o.end_snapshot_id = 7026943662205930455;
  visible_ = 1;
  auto split = NewSplit(o);
  EXPECT_EQ(ReadIds(split.get(), 8).size(), 8u);
  visible_ = 4;
  bool ended = false;
  EXPECT_EQ(ReadIds(split.get(), 100, &ended).size(), 8u);
  EXPECT_TRUE(ended);
}

TEST_F(IcebergStreamingTest, EndSnapshotBeforeTheCurrentOne) {
  IcebergStreamingOptions o;
  o.strategy = IcebergStartingStrategy::kIncrementalFromEarliestSnapshot;
  o.end_snapshot_id = 9085912707585491401;
  visible_ = 4;
  auto split = NewSplit(o);
  bool ended = false;
  EXPECT_EQ(ReadIds(split.get(), 100, &ended), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(ended);
}

TEST_F(IcebergStreamingTest, RestoresFromCheckpointPosition) {
  IcebergStreamingOptions o;
  o.strategy = IcebergStartingStrategy::kIncrementalFromEarliestSnapshot;
  visible_ = 3;
  auto split = NewSplit(o);
  // Read 2 reads of up to 3 rows, checkpoint after the first row of the second read.
  std::vector<int> seen;
  Chunk chunk(Schema({{"c1", LogicalType::Integer()}}));
  while (chunk.size() == 0) ASSERT_TRUE(split->Read(3, &chunk).ok());
  for (size_t r = 0; r < chunk.size(); ++r) seen.push_back(chunk.column(0).data<int32_t>()[r]);
  Chunk second(Schema({{"c1", LogicalType::Integer()}}));
  while (second.size() == 0) ASSERT_TRUE(split->Read(3, &second).ok());
  seen.push_back(second.column(0).data<int32_t>()[0]);
  const std::string position = split->CheckpointPosition(1);
  auto restored = NewSplit(o);
  ASSERT_TRUE(restored->SeekToPosition(position).ok());
  std::vector<int> rest = ReadIds(restored.get(), 16 - seen.size());
  seen.insert(seen.end(), rest.begin(), rest.end());
  std::sort(seen.begin(), seen.end());
  std::vector<int> all(16);
  for (int i = 0; i < 16; ++i) all[i] = i;
  EXPECT_EQ(seen, all) << position;
  EXPECT_TRUE(ReadIds(restored.get(), 1).empty());
}

}  // namespace
}  // namespace sluice
