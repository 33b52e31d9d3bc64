// pyroaring as the independent reader and writer of deletion vectors
// (tests/interop/dv_pyroaring.py): the 64-bit portable vectors and deletion-vector-v1 blobs this
// code writes are read by pyroaring, and pyroaring's are read here; PyIceberg reads a Puffin file of
// them. Runs when SLUICE_PYTHON and
// SLUICE_SOURCE_DIR are set (ctest interop.iceberg); skipped otherwise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "connectors/iceberg/deletion_vector.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// The same sets as sets() in dv_pyroaring.py.
std::map<std::string, DeletionVector> Sets() {
  std::map<std::string, DeletionVector> out;
  out["empty"];
  DeletionVector& small = out["small"];
  for (int64_t p : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{65535}, int64_t{65536}, int64_t{1} << 31,
                    (int64_t{1} << 33) + 9}) {
    small.Add(p);
  }
  DeletionVector& runs = out["runs"];
  for (int64_t p = 0; p < 100000; p += 3) runs.Add(p);
  runs.AddRange((int64_t{1} << 32) + 5, (int64_t{1} << 32) + 70005);
  runs.Add(int64_t{1} << 40);
  runs.Add((int64_t{1} << 40) + 1);
  runs.AddRange(500000, 600000);
  return out;
}

TEST(DeletionVectorInteropTest, PyroaringBothWays) {
  const char* python = std::getenv("SLUICE_PYTHON");
  const char* source = std::getenv("SLUICE_SOURCE_DIR");
  if (python == nullptr || source == nullptr) GTEST_SKIP() << "SLUICE_PYTHON / SLUICE_SOURCE_DIR not set";
  const fs::path dir = fs::path(::testing::TempDir()) / "sluice_dv_interop";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string script = std::string(python) + " " + source + "/tests/interop/dv_pyroaring.py ";
  auto io = NewLocalFileIO();
  auto sets = Sets();
  auto puffin = io->Create((dir / "sluice.puffin").string());
  ASSERT_TRUE(puffin.ok());
  auto writer = PuffinWriter::Open(std::move(puffin).value(), {{"created-by", "Sluice test"}});
  ASSERT_TRUE(writer.ok());
  for (auto& [name, dv] : sets) {
    dv.RunOptimize();
    ASSERT_TRUE(io->WriteAtomically((dir / ("sluice-" + name + ".bin")).string(), dv.SerializePortable(), true).ok());
    ASSERT_TRUE(io->WriteAtomically((dir / ("sluice-" + name + ".dv")).string(), dv.SerializeBlob(), true).ok());
    if (!dv.empty()) {
      ASSERT_TRUE(AddDeletionVectorBlob(writer->get(), dv, "file:///data/" + name + ".parquet").ok());
    }
  }
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(std::system((script + "check " + dir.string()).c_str()), 0);
  ASSERT_EQ(std::system((script + "write " + dir.string()).c_str()), 0);
  for (const auto& [name, want] : sets) {
    auto bin = io->ReadAll((dir / ("pyroaring-" + name + ".bin")).string());
    ASSERT_TRUE(bin.ok());
    auto dv = DeletionVector::DeserializePortable(*bin);
    ASSERT_TRUE(dv.ok()) << name << ": " << dv.status().ToString();
    EXPECT_EQ(dv->ToVector(), want.ToVector()) << name;
    auto blob = io->ReadAll((dir / ("pyroaring-" + name + ".dv")).string());
    ASSERT_TRUE(blob.ok());
    auto from_blob = DeletionVector::DeserializeBlob(*blob);
    ASSERT_TRUE(from_blob.ok()) << name << ": " << from_blob.status().ToString();
    EXPECT_EQ(from_blob->Cardinality(), want.Cardinality()) << name;
    // Same bitmap, same run optimization: the bytes agree too.
    EXPECT_EQ(want.SerializePortable(), *bin) << name;
  }
}

}  // namespace
}  // namespace sluice
