// fastavro checks Sluice's manifests and manifest lists against the Java-written ones in the
// Iceberg vectors (tests/interop/iceberg_manifest_check.py): header keys, field names, field ids
// and type shapes. Runs when SLUICE_PYTHON and SLUICE_SOURCE_DIR are set (ctest interop.iceberg);
// skipped otherwise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "connectors/iceberg/manifest_writer.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

TEST(IcebergManifestInteropTest, FastavroSeesTheSpecSchemasAndHeaders) {
  const char* python = std::getenv("SLUICE_PYTHON");
  const char* source = std::getenv("SLUICE_SOURCE_DIR");
  if (python == nullptr || source == nullptr) GTEST_SKIP() << "SLUICE_PYTHON / SLUICE_SOURCE_DIR not set";
  if (!fs::exists(SLUICE_ICEBERG_VECTORS)) GTEST_SKIP() << "no Iceberg vectors";
  const fs::path dir = fs::path(::testing::TempDir()) / "sluice_manifest_interop";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto io = NewLocalFileIO();
  const IcebergSchema schema(0, {IcebergField(1, "id", false, IcebergType::Primitive(IcebergTypeId::kInt)),
                                 IcebergField(2, "name", false, IcebergType::Primitive(IcebergTypeId::kString)),
                                 IcebergField(3, "bir", false, IcebergType::Primitive(IcebergTypeId::kDate))});
  const PartitionSpec spec(0, {PartitionField{2, 1000, "name", Transform::Identity()}});
  for (int version : {2, 3}) {
    const std::string v = "v" + std::to_string(version);
    ManifestWriterOptions options;
    options.format_version = version;
    options.schema = schema;
    options.spec = spec;
    options.snapshot_id = 42;
    auto writer = ManifestWriter::Open(io.get(), (dir / (v + "-manifest.avro")).string(), options);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (const char* name : {"a", "b"}) {
      DataFile f;
      f.file_path = std::string("file:///wh/data/name=") + name + "/f.parquet";
      f.partition = {IcebergLiteral::String(name)};
      f.record_count = 1;
      f.file_size_in_bytes = 892;
      f.column_sizes = {{1, 39}, {2, 46}, {3, 45}};
      f.value_counts = {{1, 1}, {2, 1}, {3, 1}};
      f.null_value_counts = {{1, 0}, {2, 0}, {3, 0}};
      f.lower_bounds = {{1, IcebergLiteral::Int(1).ToBytes()}, {2, name}};
      f.upper_bounds = f.lower_bounds;
      f.split_offsets = {4};
      f.sort_order_id = 0;
      ASSERT_TRUE((*writer)->Add(f).ok());
    }
    auto manifest = (*writer)->Close();
    ASSERT_TRUE(manifest.ok());
    ManifestListOptions list;
    list.format_version = version;
    list.snapshot_id = 42;
    list.sequence_number = 1;
    ASSERT_TRUE(WriteManifestList(io.get(), (dir / (v + "-list.avro")).string(), list, {*manifest}).ok());
  }
  const std::string cmd = std::string(python) + " " + source + "/tests/interop/iceberg_manifest_check.py " +
                          SLUICE_ICEBERG_VECTORS + " " + dir.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace sluice
