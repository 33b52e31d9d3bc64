#include <gtest/gtest.h>

#include <filesystem>

#include "connectors/iceberg/manifest_avro.h"
#include "connectors/iceberg/manifest_reader.h"
#include "connectors/iceberg/manifest_writer.h"
#include "formats/avro/avro_container.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

const std::string kVectors = SLUICE_ICEBERG_VECTORS;

// Reads a manifest list of a vector table and every manifest it names, with the writer's location
// prefix replaced by the local table directory.
struct LoadedSnapshot {
  ManifestListContents list;
  std::vector<ManifestContents> manifests;
};

LoadedSnapshot Load(const std::string& table, const std::string& prefix, const std::string& list_name) {
  auto io = NewLocalFileIO();
  const std::string dir = kVectors + "/" + table;
  auto list = ReadManifestList(io.get(), dir + "/metadata/" + list_name);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  LoadedSnapshot out;
  if (!list.ok()) return out;
  out.list = *list;
  for (ManifestFile m : list->manifests) {
    EXPECT_EQ(m.manifest_path.rfind(prefix, 0), 0u) << m.manifest_path;
    m.manifest_path = dir + m.manifest_path.substr(prefix.size());
    auto manifest = ReadManifest(io.get(), m);
    EXPECT_TRUE(manifest.ok()) << manifest.status().ToString();
    if (manifest.ok()) out.manifests.push_back(*manifest);
  }
  return out;
}

class IcebergVectorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kVectors)) GTEST_SKIP() << kVectors << " not present";
  }
};

TEST_F(IcebergVectorsTest, ReadsEveryManifestAndManifestList) {
  int lists = 0;
  int manifests = 0;
  int deletes = 0;
  for (const auto& p : fs::recursive_directory_iterator(kVectors)) {
    if (p.path().extension() != ".avro") continue;
    auto io = NewLocalFileIO();
    auto data = io->ReadAll(p.path().string());
    ASSERT_TRUE(data.ok());
    auto reader = AvroFileReader::Open(*data, p.path().string());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    if ((*reader)->writer_schema().root().FieldIndex("manifest_path") >= 0) {
      auto list = ParseManifestList(*data, p.path().string());
      EXPECT_TRUE(list.ok()) << list.status().ToString();
      ++lists;
    } else {
      auto manifest = ParseManifest(*data, p.path().string(), nullptr);
      ASSERT_TRUE(manifest.ok()) << manifest.status().ToString();
      EXPECT_FALSE(manifest->entries.empty()) << p.path();
      // Content comes from the header, or (Impala's files have none) from the entries.
      for (const ManifestEntry& e : manifest->entries) {
        EXPECT_EQ(manifest->content == ManifestContent::kData, e.data_file.content == DataFileContent::kData)
            << p.path();
      }
      for (const IcebergField& f : manifest->partition_type.fields()) EXPECT_GE(f.id, 1000) << p.path();
      ++manifests;
      deletes += manifest->content == ManifestContent::kDeletes ? 1 : 0;
    }
  }
  EXPECT_GE(lists, 25);
  EXPECT_GE(manifests, 30);
  EXPECT_GE(deletes, 10);
}

TEST_F(IcebergVectorsTest, PartitionedEqualityDeletesWithInheritance) {
  const auto snap = Load("duckdb-iceberg/equality_deletes/mytable_partitioned",
                         "data/persistent/equality_deletes/warehouse/mydb/mytable_partitioned",
                         "snap-3138177759849079112-1-ff275eec-b23b-435f-a6a5-1ab7ce1c8749.avro");
  EXPECT_EQ(snap.list.format_version, 2);
  EXPECT_EQ(snap.list.snapshot_id, 3138177759849079112);
  EXPECT_EQ(snap.list.parent_snapshot_id, 883882341917253211);
  EXPECT_EQ(snap.list.sequence_number, 5);
  ASSERT_EQ(snap.list.manifests.size(), 5u);
  const ManifestFile& first = snap.list.manifests[0];
  EXPECT_EQ(first.sequence_number, 4);
  EXPECT_EQ(first.added_files_count, 2);
  ASSERT_TRUE(first.partitions.has_value());
  ASSERT_EQ(first.partitions->size(), 1u);
  EXPECT_EQ((*first.partitions)[0].lower_bound, "e");
  EXPECT_EQ((*first.partitions)[0].upper_bound, "f");
  EXPECT_EQ((*first.partitions)[0].contains_nan, false);
  int data_files = 0;
  int delete_files = 0;
  for (size_t i = 0; i < snap.manifests.size(); ++i) {
    const ManifestContents& m = snap.manifests[i];
    EXPECT_EQ(m.format_version, 2);
    ASSERT_TRUE(m.spec.has_value());
    ASSERT_EQ(m.spec->fields().size(), 1u);
    EXPECT_EQ(m.spec->fields()[0].field_id, 1000);
    ASSERT_TRUE(m.schema.has_value());
    EXPECT_EQ(m.partition_type.fields()[0].id, 1000);
    EXPECT_EQ(m.partition_type.fields()[0].type.id(), IcebergTypeId::kString);
    for (const ManifestEntry& e : m.entries) {
      // Null sequence numbers of ADDED entries come from the manifest list.
      EXPECT_EQ(e.sequence_number, snap.list.manifests[i].sequence_number);
      EXPECT_EQ(e.file_sequence_number, snap.list.manifests[i].sequence_number);
      ASSERT_EQ(e.data_file.partition.size(), 1u);
      ASSERT_TRUE(e.data_file.partition[0].has_value());
      if (m.content == ManifestContent::kData) {
        ++data_files;
        EXPECT_EQ(e.data_file.content, DataFileContent::kData);
      } else {
        ++delete_files;
        EXPECT_EQ(e.data_file.content, DataFileContent::kEqualityDeletes);
        EXPECT_FALSE(e.data_file.equality_ids.empty());
      }
    }
  }
  EXPECT_EQ(data_files, 6);
  EXPECT_EQ(delete_files, 3);
  const DataFile& a = snap.manifests[1].entries[0].data_file;
  EXPECT_EQ(a.partition[0]->bytes(), "a");
  EXPECT_EQ(a.record_count, 1);
  EXPECT_EQ(a.column_sizes.at(2), 46);
  EXPECT_EQ(a.lower_bounds.at(1), std::string("\x01\x00\x00\x00", 4));
  EXPECT_EQ(a.split_offsets, std::vector<int64_t>{4});
  EXPECT_EQ(a.sort_order_id, 0);
  EXPECT_EQ(snap.manifests[3].entries[0].data_file.equality_ids, (std::vector<int32_t>{2, 1}));
}

TEST_F(IcebergVectorsTest, ImpalaRewrittenFilesWithoutHeaderAndOldNames) {
  const auto snap = Load("impala/iceberg_v2_delete_positional",
                         "/test-warehouse/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_positional",
                         "snap-6816997371555012807-1-8cbef400-daea-478a-858a-2baf2438f644.avro");
  EXPECT_EQ(snap.list.format_version, 2);  // inferred: no header
  EXPECT_FALSE(snap.list.snapshot_id.has_value());
  ASSERT_EQ(snap.list.manifests.size(), 1u);
  EXPECT_EQ(snap.list.manifests[0].added_files_count, 1);  // from added_data_files_count
  EXPECT_EQ(snap.list.manifests[0].added_rows_count, 3);
  ASSERT_EQ(snap.manifests.size(), 1u);
  EXPECT_FALSE(snap.manifests[0].spec.has_value());
  ASSERT_EQ(snap.manifests[0].entries.size(), 1u);
  EXPECT_EQ(snap.manifests[0].entries[0].data_file.record_count, 3);
  EXPECT_EQ(snap.manifests[0].entries[0].sequence_number, 1);
  EXPECT_FALSE(snap.manifests[0].entries[0].file_sequence_number.has_value() &&
               *snap.manifests[0].entries[0].file_sequence_number != 1);
}

TEST_F(IcebergVectorsTest, V3DeletionVectorsAndRowIds) {
  const auto snap = Load("deletion-vectors/trino-deletion_vectors", "s3a://warehouse/deletion_vectors",
                         "snap-7777310120628922486-1-c670791d-ace7-4600-a57f-305823486daa.avro");
  EXPECT_EQ(snap.list.format_version, 3);
  EXPECT_EQ(snap.list.first_row_id, 16);
  ASSERT_EQ(snap.manifests.size(), 4u);
  // Data files inherit their manifest's first row id.
  EXPECT_EQ(snap.list.manifests[0].first_row_id, 8);
  EXPECT_EQ(snap.manifests[0].entries[0].data_file.first_row_id, 8);
  EXPECT_EQ(snap.manifests[1].entries[0].data_file.first_row_id, 0);
  const ManifestContents& dvs = snap.manifests[2];
  EXPECT_EQ(dvs.content, ManifestContent::kDeletes);
  ASSERT_EQ(dvs.entries.size(), 2u);
  const DataFile& dv = dvs.entries[1].data_file;
  EXPECT_EQ(dv.file_format, "PUFFIN");
  EXPECT_EQ(dv.content, DataFileContent::kPositionDeletes);
  EXPECT_EQ(dv.content_offset, 48);
  EXPECT_EQ(dv.content_size_in_bytes, 52);
  EXPECT_EQ(dv.record_count, 6);
  ASSERT_TRUE(dv.referenced_data_file.has_value());
  EXPECT_EQ(dvs.entries[1].sequence_number, 5);
  // The DELETED entry keeps its own sequence number.
  EXPECT_EQ(snap.manifests[3].entries[0].status, ManifestEntryStatus::kDeleted);
  EXPECT_EQ(snap.manifests[3].entries[0].sequence_number, 3);
}

// ---- writing ----

IcebergSchema TestSchema() {
  return IcebergSchema(0, {IcebergField(1, "id", true, IcebergType::Primitive(IcebergTypeId::kLong)),
                           IcebergField(2, "name", false, IcebergType::Primitive(IcebergTypeId::kString)),
                           IcebergField(3, "day", false, IcebergType::Primitive(IcebergTypeId::kDate)),
                           IcebergField(4, "price", false, IcebergType::Decimal(10, 2))});
}

PartitionSpec TestSpec() {
  return PartitionSpec(0, {PartitionField{2, 1000, "name", Transform::Identity()},
                           PartitionField{3, 1001, "day", Transform::Identity()},
                           PartitionField{4, 1002, "price", Transform::Identity()},
                           PartitionField{1, 1003, "id_bucket", Transform::Bucket(16)}});
}

DataFile TestFile(int i, DataFileContent content = DataFileContent::kData) {
  DataFile f;
  f.content = content;
  f.file_path = "file:///wh/t/data/f" + std::to_string(i) + ".parquet";
  f.partition = {i == 2 ? std::nullopt : std::optional(IcebergLiteral::String("n" + std::to_string(i))),
                 IcebergLiteral::Date(20000 + i), IcebergLiteral::Decimal(-12345 * i, 10, 2),
                 IcebergLiteral::Int(i % 16)};
  f.record_count = 100 + i;
  f.file_size_in_bytes = 4096 + i;
  f.column_sizes = {{1, 10}, {2, 20}};
  f.value_counts = {{1, 100}, {2, 100}};
  f.null_value_counts = {{1, 0}, {2, 3}};
  f.lower_bounds = {{1, IcebergLiteral::Long(i).ToBytes()}};
  f.upper_bounds = {{1, IcebergLiteral::Long(1000 + i).ToBytes()}};
  f.split_offsets = {4};
  f.sort_order_id = 0;
  if (content == DataFileContent::kEqualityDeletes) f.equality_ids = {1};
  return f;
}

class ManifestRoundTripTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("sluice_manifest_v" + std::to_string(GetParam()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  fs::path dir_;
};

TEST_P(ManifestRoundTripTest, WriteThenReadWithInheritance) {
  const int version = GetParam();
  auto io = NewLocalFileIO();
  ManifestWriterOptions options;
  options.format_version = version;
  options.schema = TestSchema();
  options.spec = TestSpec();
  options.snapshot_id = 77;
  auto writer = ManifestWriter::Open(io.get(), (dir_ / "m0.avro").string(), options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE((*writer)->Add(TestFile(i)).ok());
  ManifestEntry old;
  old.status = ManifestEntryStatus::kExisting;
  old.snapshot_id = 5;
  old.sequence_number = 2;
  old.file_sequence_number = 2;
  old.data_file = TestFile(4);
  if (version >= 3) old.data_file.first_row_id = 0;
  ASSERT_TRUE((*writer)->Existing(old).ok());
  // A delete file cannot go into a data manifest; a wrong partition arity is refused.
  EXPECT_FALSE((*writer)->Add(TestFile(5, DataFileContent::kEqualityDeletes)).ok());
  DataFile bad = TestFile(6);
  bad.partition.pop_back();
  EXPECT_NE((*writer)->Add(bad).message().find("has 3 partition values"), std::string::npos);
  auto manifest = (*writer)->Close();
  ASSERT_TRUE(manifest.ok()) << manifest.status().ToString();
  EXPECT_EQ(manifest->sequence_number, kUnassignedSequenceNumber);
  EXPECT_EQ(manifest->min_sequence_number, 2);
  EXPECT_EQ(manifest->added_files_count, 3);
  EXPECT_EQ(manifest->existing_files_count, 1);
  EXPECT_EQ(manifest->added_rows_count, 101 + 102 + 103);
  EXPECT_EQ(manifest->manifest_length, static_cast<int64_t>(fs::file_size(dir_ / "m0.avro")));
  ASSERT_EQ(manifest->partitions->size(), 4u);
  EXPECT_TRUE((*manifest->partitions)[0].contains_null);
  EXPECT_EQ((*manifest->partitions)[0].lower_bound, "n1");
  EXPECT_EQ((*manifest->partitions)[0].upper_bound, "n4");
  EXPECT_EQ((*manifest->partitions)[2].lower_bound, IcebergLiteral::Decimal(-12345 * 4, 10, 2).ToBytes());

  ManifestListOptions list_options;
  list_options.format_version = version;
  list_options.snapshot_id = 77;
  list_options.parent_snapshot_id = 5;
  list_options.sequence_number = 3;
  list_options.first_row_id = 500;
  const std::string list_path = (dir_ / "snap-77.avro").string();
  auto written = WriteManifestList(io.get(), list_path, list_options, {*manifest});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->manifests[0].sequence_number, 3);
  if (version >= 3) {
    EXPECT_EQ(written->manifests[0].first_row_id, 500);
    EXPECT_EQ(written->next_row_id, 500 + 101 + 102 + 103 + 104);
  }

  auto list = ReadManifestList(io.get(), list_path);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(list->format_version, version);
  EXPECT_EQ(list->snapshot_id, 77);
  EXPECT_EQ(list->parent_snapshot_id, 5);
  EXPECT_EQ(list->sequence_number, 3);
  ASSERT_EQ(list->manifests.size(), 1u);
  EXPECT_EQ(list->manifests[0], written->manifests[0]);

  auto read = ReadManifest(io.get(), list->manifests[0]);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->format_version, version);
  EXPECT_EQ(read->content, ManifestContent::kData);
  ASSERT_TRUE(read->spec.has_value());
  EXPECT_TRUE(read->spec->CompatibleWith(TestSpec()));
  ASSERT_TRUE(read->schema.has_value());
  EXPECT_TRUE(read->schema->SameSchema(TestSchema()));
  ASSERT_EQ(read->entries.size(), 4u);
  int64_t next_row_id = 500;
  for (int i = 0; i < 3; ++i) {
    const ManifestEntry& e = read->entries[i];
    EXPECT_EQ(e.status, ManifestEntryStatus::kAdded);
    EXPECT_EQ(e.snapshot_id, 77);
    EXPECT_EQ(e.sequence_number, 3);
    EXPECT_EQ(e.file_sequence_number, 3);
    DataFile want = TestFile(i + 1);
    if (version >= 3) {
      want.first_row_id = next_row_id;
      next_row_id += want.record_count;
    }
    EXPECT_EQ(e.data_file, want) << i;
  }
  EXPECT_EQ(read->entries[3], old);
  // Without inheritance the ADDED entries' sequence numbers are null, as Java writes them.
  auto raw = ParseManifest(*io->ReadAll(list->manifests[0].manifest_path), "m0", nullptr);
  ASSERT_TRUE(raw.ok());
  EXPECT_FALSE(raw->entries[0].sequence_number.has_value());
  EXPECT_FALSE(raw->entries[0].file_sequence_number.has_value());
}

TEST_P(ManifestRoundTripTest, DeleteManifestWithDeletionVector) {
  const int version = GetParam();
  auto io = NewLocalFileIO();
  ManifestWriterOptions options;
  options.format_version = version;
  options.content = ManifestContent::kDeletes;
  options.schema = TestSchema();
  options.spec = PartitionSpec::Unpartitioned();
  options.snapshot_id = 9;
  auto writer = ManifestWriter::Open(io.get(), (dir_ / "d0.avro").string(), options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  DataFile dv;
  dv.content = DataFileContent::kPositionDeletes;
  dv.file_path = "file:///wh/t/data/dv.puffin";
  dv.file_format = "PUFFIN";
  dv.record_count = 5;
  dv.file_size_in_bytes = 476;
  dv.referenced_data_file = "file:///wh/t/data/f1.parquet";
  dv.content_offset = 4;
  dv.content_size_in_bytes = 50;
  Status st = (*writer)->Add(dv);
  if (version < 3) {
    EXPECT_NE(st.message().find("v3 fields"), std::string::npos) << st.ToString();
    return;
  }
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto m = (*writer)->Close();
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->content, ManifestContent::kDeletes);
  m->sequence_number = 4;
  m->min_sequence_number = 4;
  auto read = ReadManifest(io.get(), *m);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->content, ManifestContent::kDeletes);
  ASSERT_EQ(read->entries.size(), 1u);
  EXPECT_EQ(read->entries[0].data_file, dv);
  EXPECT_EQ(read->entries[0].sequence_number, 4);
}

INSTANTIATE_TEST_SUITE_P(FormatVersions, ManifestRoundTripTest, ::testing::Values(2, 3));

TEST(ManifestAvroTest, DecimalSizesAndSchemaShape) {
  EXPECT_EQ(DecimalRequiredBytes(1), 1);
  EXPECT_EQ(DecimalRequiredBytes(2), 1);
  EXPECT_EQ(DecimalRequiredBytes(3), 2);
  EXPECT_EQ(DecimalRequiredBytes(9), 4);
  EXPECT_EQ(DecimalRequiredBytes(10), 5);
  EXPECT_EQ(DecimalRequiredBytes(18), 8);
  EXPECT_EQ(DecimalRequiredBytes(38), 16);
  auto type = TestSpec().PartitionType(TestSchema());
  ASSERT_TRUE(type.ok());
  auto json = ManifestEntryAvroSchema(3, *type);
  ASSERT_TRUE(json.ok());
  auto schema = AvroSchema::Parse(*json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const AvroNode& df = *schema->root().fields[4].type;
  EXPECT_EQ(df.name, "r2");
  const AvroNode& partition = *df.fields[3].type;
  EXPECT_EQ(partition.name, "r102");
  EXPECT_EQ(partition.fields[2].type->branches[1]->name, "decimal_10_2");
  EXPECT_EQ(partition.fields[2].type->branches[1]->fixed_size, 5);
  EXPECT_EQ(partition.fields[1].type->branches[1]->logical_type, AvroLogicalType::kDate);
  EXPECT_EQ(df.fields[6].type->branches[1]->items->name, "k117_v118");
  for (const AvroField& f : df.fields) EXPECT_TRUE(f.field_id().has_value()) << f.name;
  // Partition values survive the Avro form.
  for (const IcebergLiteral& v : {IcebergLiteral::Decimal(-1, 10, 2), IcebergLiteral::Decimal(12345678, 10, 2),
                                  IcebergLiteral::Date(-3), IcebergLiteral::String("x"), IcebergLiteral::Int(7)}) {
    auto back = PartitionValueFromAvro(v.type(), PartitionValueToAvro(v));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, v) << v.ToJson();
  }
}

}  // namespace
}  // namespace sluice
