// The Sluice side of tests/interop/iceberg_metadata_interop.py: each test runs only when that script
// sets its environment variable (otherwise it is skipped), so the metadata PyIceberg checks is
// written by this code and the metadata PyIceberg writes is read by it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "connectors/iceberg/hadoop_catalog.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

const char* Env(const char* name) { return std::getenv(name); }

// SLUICE_ICEBERG_INTEROP_WAREHOUSE=<dir>: creates db.sales (v2, partitioned by identity, day, bucket
// and truncate, with properties and identifier fields) and commits one snapshot to it.
TEST(IcebergInterop, WriteTableForPyIceberg) {
  const char* warehouse = Env("SLUICE_ICEBERG_INTEROP_WAREHOUSE");
  if (warehouse == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_metadata_interop.py";
  HadoopCatalog catalog(std::shared_ptr<FileIO>(NewLocalFileIO()), std::string("file://") + warehouse,
                        [] { return int64_t{1786770000000}; });
  ASSERT_TRUE(catalog.CreateNamespace({"db"}, {}).ok());
  Schema schema;
  schema.Add("store_id", LogicalType::String().WithNullable(false));
  schema.Add("business_date", LogicalType::Date().WithNullable(false));
  schema.Add("amount", LogicalType::Decimal(12, 2));
  schema.Add("ts", LogicalType::TimestampLtz(3));
  schema.Add("qty", LogicalType::SmallInt());
  schema.Add("tags", LogicalType::Array(LogicalType::String()));
  schema.Add("attrs", LogicalType::Map(LogicalType::String(), LogicalType::BigInt()));
  schema.Add("loc", LogicalType::Row({"lat", "lon"}, {LogicalType::Double(), LogicalType::Double()}));
  NewTableOptions options;
  auto iceberg_schema = ToIcebergSchema(schema, {"store_id", "business_date"});
  ASSERT_TRUE(iceberg_schema.ok()) << iceberg_schema.status().ToString();
  options.schema = *iceberg_schema;
  auto spec = BuildPartitionSpec(options.schema, {{"business_date", Transform::Identity(), ""},
                                                  {"ts", Transform::Day(), ""},
                                                  {"store_id", Transform::Bucket(16), ""},
                                                  {"qty", Transform::Truncate(10), ""}});
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  options.spec = *spec;
  options.sort_order.fields.push_back({Transform::Identity(), options.schema.FindField("ts")->id,
                                       SortDirection::kDesc, NullOrder::kNullsLast});
  options.properties = {{"format-version", "2"}, {"write.upsert.enabled", "true"},
                        {"write.target-file-size-bytes", "134217728"}};
  options.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  auto table = catalog.CreateTable({{"db"}, "sales"}, options);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  NewSnapshot s;
  s.snapshot_id = 4242;
  s.timestamp_ms = 1786770001000;
  s.manifest_list = table->metadata.location + "/metadata/snap-4242-1-none.avro";
  s.changes.added_data_files = 2;
  s.changes.added_records = 5;
  s.changes.added_files_size = 2048;
  s.extra_summary = {{"flink.max-committed-checkpoint-id", "3"}, {"flink.job-id", "j1"}};
  auto next = AddSnapshot(table->metadata, s);
  ASSERT_TRUE(next.ok());
  auto committed = catalog.CommitTable(*table, *next, {TableRequirement::RefSnapshotId("main", std::nullopt)});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->version, 2);

  // The same table in format v1 (no sequence numbers, the v1 compatibility fields) and v3 (row
  // lineage: first-row-id, added-rows, next-row-id).
  for (const char* version : {"1", "3"}) {
    NewTableOptions other = options;
    other.properties["format-version"] = version;
    other.table_uuid.clear();
    auto t = catalog.CreateTable({{"db"}, std::string("sales_v") + version}, other);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    NewSnapshot snap = s;
    snap.manifest_list = t->metadata.location + "/metadata/snap-4242-1-none.avro";
    snap.added_rows = 5;
    auto with_snapshot = AddSnapshot(t->metadata, snap);
    ASSERT_TRUE(with_snapshot.ok());
    ASSERT_TRUE(catalog.CommitTable(*t, *with_snapshot, {}).ok());
  }
}

// SLUICE_ICEBERG_PYICEBERG_METADATA=<file> and SLUICE_ICEBERG_INTEROP_WAREHOUSE=<dir>: reads a
// table PyIceberg created and appended to, places it in a hadoop layout as db.from_py, and commits
// a snapshot on top (reusing PyIceberg's manifest list, so the rows stay the same) plus a property,
// for PyIceberg to read back.
TEST(IcebergInterop, ReadAndCommitPyIcebergTable) {
  const char* metadata = Env("SLUICE_ICEBERG_PYICEBERG_METADATA");
  const char* warehouse = Env("SLUICE_ICEBERG_INTEROP_WAREHOUSE");
  if (metadata == nullptr || warehouse == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_metadata_interop.py";
  auto io = std::shared_ptr<FileIO>(NewLocalFileIO());
  auto text = io->ReadAll(metadata);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto md = ParseTableMetadata(*text, metadata);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  ASSERT_NE(md->CurrentSnapshot(), nullptr);
  EXPECT_EQ(md->CurrentSnapshot()->SummaryValue("total-records"), "3");
  EXPECT_EQ(md->DefaultSpec().fields().size(), 2u);
  // Round trip through Sluice's writer, then commit on top of it in a hadoop layout.
  std::string table_dir = std::string(warehouse) + "/db/from_py";
  fs::create_directories(table_dir + "/metadata");
  ASSERT_TRUE(io->WriteAtomically(table_dir + "/metadata/v1.metadata.json", TableMetadataToJson(*md), false).ok());
  HadoopCatalog catalog(io, std::string("file://") + warehouse, [] { return int64_t{1786770000000}; });
  auto loaded = catalog.LoadTable({{"db"}, "from_py"});
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  NewSnapshot s;
  s.snapshot_id = 777;
  s.timestamp_ms = md->last_updated_ms + 1;
  s.operation = "replace";
  s.manifest_list = md->CurrentSnapshot()->manifest_list;
  s.extra_summary = {{"sluice.note", "same manifests"}};
  auto next = AddSnapshot(loaded->metadata, s);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  next->properties["sluice.committed"] = "true";
  auto committed = catalog.CommitTable(*loaded, *next, {TableRequirement::TableUuid(md->table_uuid)});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->metadata.CurrentSnapshot()->SummaryValue("total-records"), "3");
}

}  // namespace
}  // namespace sluice
