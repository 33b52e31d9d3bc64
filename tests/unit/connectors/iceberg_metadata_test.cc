#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/table_metadata.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// tests/CMakeLists.txt may point this at the vectors next to the repository; tests skip without them.
#ifndef SLUICE_ICEBERG_VECTORS
#define SLUICE_ICEBERG_VECTORS "/work/shared/iceberg-vectors"
#endif
const char* kVectors = SLUICE_ICEBERG_VECTORS;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> MetadataFiles() {
  std::vector<fs::path> out;
  if (!fs::exists(kVectors)) return out;
  for (const auto& e : fs::recursive_directory_iterator(kVectors)) {
    std::string name = e.path().filename().string();
    bool standalone = e.path().parent_path().filename() == "metadata-json";
    if (e.is_regular_file() && (name.ends_with(".metadata.json") || standalone)) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every metadata file the vectors hold parses (except the documented negative case), and writing
// it back and parsing again gives the same metadata.
TEST(IcebergMetadataTest, ParsesAndRoundTripsEveryVector) {
  auto files = MetadataFiles();
  if (files.empty()) GTEST_SKIP() << "no vectors at " << kVectors;
  int parsed = 0;
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    auto md = ParseTableMetadata(ReadFile(p), p.string());
    if (p.filename() == "TableMetadataV2MissingSchemas.json") {
      ASSERT_FALSE(md.ok());
      EXPECT_NE(md.status().message().find("schemas must exist in format v2"), std::string::npos)
          << md.status().ToString();
      continue;
    }
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    ++parsed;
    std::string json = TableMetadataToJson(*md);
    auto again = ParseTableMetadata(json);
    ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << json;
    EXPECT_EQ(TableMetadataToJson(*again), json);
    EXPECT_EQ(again->snapshots.size(), md->snapshots.size());
    EXPECT_EQ(again->current_snapshot_id, md->current_snapshot_id);
    EXPECT_TRUE(again->CurrentSchema().SameSchema(md->CurrentSchema()));
    EXPECT_EQ(again->DefaultSpec(), md->DefaultSpec());
    EXPECT_EQ(again->properties, md->properties);
  }
  EXPECT_GE(parsed, 40);
}

TEST(IcebergMetadataTest, ReadsJavaV2Expectations) {
  fs::path p = fs::path(kVectors) / "apache-iceberg/metadata-json/TableMetadataV2Valid.json";
  if (!fs::exists(p)) GTEST_SKIP();
  auto md = ParseTableMetadata(ReadFile(p));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->format_version, 2);
  EXPECT_EQ(md->schemas.size(), 2u);
  EXPECT_EQ(md->SchemaById(1)->identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(md->current_snapshot_id, 3055729675574597004LL);
  EXPECT_EQ(md->snapshots.size(), 2u);
  EXPECT_EQ(md->DefaultSortOrder().fields.at(1).transform, Transform::Bucket(4));
  ASSERT_NE(md->CurrentSnapshot(), nullptr);
  EXPECT_EQ(md->refs.at("main").snapshot_id, 3055729675574597004LL);
}

TEST(IcebergMetadataTest, ReadsV1FormsAndWritesThemBack) {
  fs::path p = fs::path(kVectors) / "apache-iceberg/metadata-json/TableMetadataV1Valid.json";
  if (!fs::exists(p)) GTEST_SKIP();
  auto md = ParseTableMetadata(ReadFile(p));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->format_version, 1);
  EXPECT_EQ(md->schemas.size(), 1u);
  EXPECT_EQ(md->specs.size(), 1u);
  EXPECT_TRUE(md->DefaultSortOrder().IsUnsorted());
  std::string json = TableMetadataToJson(*md);
  EXPECT_NE(json.find("\"partition-spec\" : ["), std::string::npos);
  EXPECT_NE(json.find("\"schema\" : {"), std::string::npos);
}

TEST(IcebergMetadataTest, RefusesBrokenMetadataClearly) {
  auto future = ParseTableMetadata(R"({"format-version": 4, "location": "x"})", "v9.metadata.json");
  ASSERT_FALSE(future.ok());
  EXPECT_NE(future.status().message().find("v9.metadata.json"), std::string::npos);
  EXPECT_NE(future.status().message().find("unsupported version 4"), std::string::npos);
  auto garbage = ParseTableMetadata("{not json", "v1.metadata.json");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.status().message().find("malformed JSON"), std::string::npos);
  auto no_location = ParseTableMetadata(R"({"format-version": 2, "table-uuid": "u"})");
  ASSERT_FALSE(no_location.ok());
  EXPECT_NE(no_location.status().message().find("Cannot parse missing string: location"), std::string::npos);
}

IcebergSchema SalesSchema() {
  Schema schema;
  schema.Add("store_id", LogicalType::String().WithNullable(false));
  schema.Add("business_date", LogicalType::Date().WithNullable(false));
  schema.Add("amount", LogicalType::Decimal(12, 2));
  schema.Add("ts", LogicalType::Timestamp(3));
  return *ToIcebergSchema(schema, {"store_id", "business_date"});
}

NewTableOptions SalesTable(int format_version) {
  NewTableOptions options;
  options.location = "file:///wh/stream/store_sales_daily/";
  options.schema = SalesSchema();
  options.spec = *BuildPartitionSpec(options.schema, {{"business_date", Transform::Identity(), ""},
                                                     {"ts", Transform::Day(), ""},
                                                     {"store_id", Transform::Bucket(16), ""}});
  options.properties = {{"format-version", std::to_string(format_version)}, {"write.upsert.enabled", "true"}};
  options.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  options.now_ms = 1786770000000;
  return options;
}

TEST(IcebergMetadataTest, NewTableLikeJava) {
  auto md = NewTableMetadata(SalesTable(2));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->format_version, 2);
  EXPECT_EQ(md->location, "file:///wh/stream/store_sales_daily");
  EXPECT_EQ(md->properties.count("format-version"), 0u);
  EXPECT_EQ(md->Property("write.parquet.compression-codec"), "zstd");
  EXPECT_EQ(md->Property("write.upsert.enabled"), "true");
  EXPECT_EQ(md->last_column_id, 4);
  EXPECT_EQ(md->last_partition_id, 1002);
  const PartitionSpec& spec = md->DefaultSpec();
  ASSERT_EQ(spec.fields().size(), 3u);
  EXPECT_EQ(spec.fields()[0].name, "business_date");
  EXPECT_EQ(spec.fields()[1].name, "ts_day");
  EXPECT_EQ(spec.fields()[2].name, "store_id_bucket");
  EXPECT_EQ(spec.fields()[2].field_id, 1002);
  EXPECT_EQ(md->CurrentSchema().identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(md->CurrentSnapshot(), nullptr);
  std::string json = TableMetadataToJson(*md);
  EXPECT_NE(json.find("\"current-snapshot-id\" : -1"), std::string::npos);
  auto back = ParseTableMetadata(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(TableMetadataToJson(*back), json);

  auto bad = SalesTable(2);
  bad.properties["format-version"] = "5";
  EXPECT_FALSE(NewTableMetadata(bad).ok());

  // Identifier fields must be required (Java's Schema.validateIdentifierField).
  auto optional_key = SalesTable(2);
  std::vector<IcebergField> fields = optional_key.schema.fields();
  optional_key.schema = IcebergSchema(0, fields, {3});  // amount: optional decimal
  auto refused = NewTableMetadata(optional_key);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "Cannot add field amount as an identifier field: not a required field");
}

TEST(IcebergMetadataTest, SnapshotsCarrySummaryTotals) {
  auto md = NewTableMetadata(SalesTable(2));
  ASSERT_TRUE(md.ok());
  NewSnapshot first;
  first.snapshot_id = 11;
  first.timestamp_ms = 1786770001000;
  first.manifest_list = "file:///wh/stream/store_sales_daily/metadata/snap-11-1-a.avro";
  first.changes.added_data_files = 2;
  first.changes.added_records = 100;
  first.changes.added_files_size = 4096;
  first.extra_summary = {{"flink.max-committed-checkpoint-id", "1"}};
  auto v2 = AddSnapshot(*md, first);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_EQ(v2->current_snapshot_id, 11);
  EXPECT_EQ(v2->last_sequence_number, 1);
  const Snapshot* s1 = v2->CurrentSnapshot();
  EXPECT_EQ(s1->operation(), "append");
  EXPECT_EQ(s1->SummaryValue("flink.max-committed-checkpoint-id"), "1");
  EXPECT_EQ(s1->SummaryValue("added-data-files"), "2");
  EXPECT_EQ(s1->SummaryValue("total-records"), "100");
  EXPECT_EQ(s1->SummaryValue("total-delete-files"), "0");
  EXPECT_EQ(s1->SummaryValue("added-delete-files"), "");

  NewSnapshot second;
  second.snapshot_id = 12;
  second.timestamp_ms = 1786770002000;
  second.operation = "overwrite";
  second.manifest_list = "file:///wh/stream/store_sales_daily/metadata/snap-12-1-b.avro";
  second.changes.added_data_files = 1;
  second.changes.added_records = 10;
  second.changes.added_files_size = 1000;
  second.changes.added_equality_delete_files = 1;
  second.changes.added_equality_deletes = 7;
  second.changes.added_position_delete_files = 1;
  second.changes.added_position_deletes = 3;
  auto v3 = AddSnapshot(*v2, second);
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  const Snapshot* s2 = v3->CurrentSnapshot();
  EXPECT_EQ(s2->parent_snapshot_id, 11);
  EXPECT_EQ(s2->sequence_number, 2);
  EXPECT_EQ(s2->SummaryValue("added-delete-files"), "2");
  EXPECT_EQ(s2->SummaryValue("total-records"), "110");
  EXPECT_EQ(s2->SummaryValue("total-data-files"), "3");
  EXPECT_EQ(s2->SummaryValue("total-delete-files"), "2");
  EXPECT_EQ(s2->SummaryValue("total-equality-deletes"), "7");
  EXPECT_EQ(s2->SummaryValue("total-position-deletes"), "3");
  EXPECT_EQ(s2->SummaryValue("total-files-size"), "5096");
  EXPECT_EQ(v3->snapshot_log.size(), 2u);
  EXPECT_FALSE(AddSnapshot(*v3, second).ok());  // the id is taken

  auto back = ParseTableMetadata(TableMetadataToJson(*v3));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->CurrentSnapshot()->summary, s2->summary);
}

TEST(IcebergMetadataTest, V3TracksRowIds) {
  auto md = NewTableMetadata(SalesTable(3));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->next_row_id, 0);
  NewSnapshot s;
  s.snapshot_id = 5;
  s.timestamp_ms = 1;
  s.manifest_list = "m";
  s.added_rows = 42;
  auto next = AddSnapshot(*md, s);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->CurrentSnapshot()->first_row_id, 0);
  EXPECT_EQ(next->next_row_id, 42);
  std::string json = TableMetadataToJson(*md);
  EXPECT_EQ(json.find("current-snapshot-id"), std::string::npos);  // v3 writes no -1
  auto back = ParseTableMetadata(TableMetadataToJson(*next));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->CurrentSnapshot()->added_rows, 42);
}

TEST(IcebergMetadataTest, MetadataLogKeepsPreviousVersionsMax) {
  auto md = NewTableMetadata(SalesTable(2));
  ASSERT_TRUE(md.ok());
  md->properties["write.metadata.previous-versions-max"] = "2";
  TableMetadata current = *md;
  std::vector<MetadataLogEntry> dropped_all;
  for (int v = 1; v <= 4; ++v) {
    TableMetadata next = current;
    next.last_updated_ms = current.last_updated_ms + 1;
    auto dropped = UpdateMetadataLog(&next, current, "v" + std::to_string(v) + ".metadata.json");
    ASSERT_TRUE(dropped.ok());
    for (auto& d : *dropped) dropped_all.push_back(d);
    current = next;
  }
  ASSERT_EQ(current.metadata_log.size(), 2u);
  EXPECT_EQ(current.metadata_log[0].metadata_file, "v3.metadata.json");
  EXPECT_EQ(current.metadata_log[1].metadata_file, "v4.metadata.json");
  ASSERT_EQ(dropped_all.size(), 2u);
  EXPECT_EQ(dropped_all[0].metadata_file, "v1.metadata.json");
}

TEST(IcebergMetadataTest, ExpiresSnapshotsLikeJava) {
  auto md = NewTableMetadata(SalesTable(2));
  ASSERT_TRUE(md.ok());
  TableMetadata current = *md;
  for (int64_t id = 1; id <= 5; ++id) {
    NewSnapshot s;
    s.snapshot_id = id;
    s.timestamp_ms = id * 1000;
    s.manifest_list = "m" + std::to_string(id);
    current = *AddSnapshot(current, s);
  }
  current.refs["keep-me"] = SnapshotRef{2, "tag", {}, {}, {}};
  std::vector<Snapshot> removed;
  // Older than 4000 expires unless it is among the newest 1 or tagged: 1 and 3 go.
  auto expired = ExpireSnapshots(current, {4000, 1}, &removed);
  ASSERT_TRUE(expired.ok()) << expired.status().ToString();
  std::vector<int64_t> kept;
  for (const Snapshot& s : expired->snapshots) kept.push_back(s.snapshot_id);
  EXPECT_EQ(kept, (std::vector<int64_t>{2, 4, 5}));
  ASSERT_EQ(removed.size(), 2u);
  EXPECT_EQ(removed[0].manifest_list, "m1");
  // The log keeps only entries after the last expired snapshot's.
  ASSERT_EQ(expired->snapshot_log.size(), 2u);
  EXPECT_EQ(expired->snapshot_log[0].snapshot_id, 4);
  // min-snapshots-to-keep wins over age.
  removed.clear();
  auto kept_three = ExpireSnapshots(current, {1000000, 3}, &removed);
  ASSERT_TRUE(kept_three.ok());
  EXPECT_EQ(kept_three->snapshots.size(), 4u);  // 3, 4, 5 on main and the tagged 2
  auto options = ExpireOptionsFromProperties(current, 432000000 + 3000);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->older_than_ms, 3000);
}

TEST(IcebergMetadataTest, FindsFlinksMaxCommittedCheckpointId) {
  auto md = NewTableMetadata(SalesTable(2));
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(*MaxCommittedCheckpointId(*md, "job", "op"), -1);
  TableMetadata current = *md;
  auto commit = [&](int64_t id, const char* job, const char* checkpoint) {
    NewSnapshot s;
    s.snapshot_id = id;
    s.timestamp_ms = id;
    s.manifest_list = "m";
    s.extra_summary = {{"flink.job-id", job}, {"flink.operator-id", "op"},
                       {"flink.max-committed-checkpoint-id", checkpoint}};
    current = *AddSnapshot(current, s);
  };
  commit(1, "job", "3");
  commit(2, "job", "4");
  commit(3, "other-job", "9");
  EXPECT_EQ(*MaxCommittedCheckpointId(current, "job", "op"), 4);
  EXPECT_EQ(*MaxCommittedCheckpointId(current, "other-job", "op"), 9);
  EXPECT_EQ(*MaxCommittedCheckpointId(current, "job", "another-op"), -1);
  EXPECT_EQ(*MaxCommittedCheckpointId(current, "new-job", "op"), -1);
  std::vector<Snapshot> removed;
  EXPECT_FALSE(ExpireSnapshots(current, {0, 0}, &removed).ok());
}

TEST(IcebergJsonTest, SchemaJsonRoundTrips) {
  Schema schema;
  schema.Add("id", LogicalType::BigInt().WithNullable(false));
  schema.Add("tags", LogicalType::Map(LogicalType::String(), LogicalType::Array(LogicalType::Decimal(9, 2))));
  schema.Add("loc", LogicalType::Row({"lat"}, {LogicalType::Double()}));
  auto s = ToIcebergSchema(schema, {"id"}, 3);
  ASSERT_TRUE(s.ok());
  std::string json = SchemaToJson(*s);
  EXPECT_NE(json.find("\"decimal(9, 2)\""), std::string::npos);
  auto back = SchemaFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->SameSchema(*s));
  EXPECT_EQ(back->schema_id(), 3);
  auto spec = PartitionSpecFromJson(R"([{"name": "id_bucket", "transform": "bucket[8]", "source-id": 1}])", 0);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->fields()[0].field_id, 1000);
  EXPECT_EQ(PartitionFieldsToJson(*spec),
            R"([{"name":"id_bucket","transform":"bucket[8]","source-id":1,"field-id":1000}])");
}

}  // namespace
}  // namespace sluice
