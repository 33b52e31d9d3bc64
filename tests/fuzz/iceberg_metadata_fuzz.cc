// libFuzzer target: Iceberg metadata files Sluice reads (tests/fuzz/README.md): manifests (with
// sequence-number and row-id inheritance), manifest lists, Puffin footers and blobs, and deletion
// vectors (the deletion-vector-v1 blob and the 64-bit portable Roaring form).
//
// Input: a mode byte (mod 5: manifest, manifest list, Puffin file, deletion-vector blob, portable
// vector), then the file's bytes. A deletion vector that reads must serialize and read back to the
// same positions. With SLUICE_FUZZ_WRITE_SEEDS=<dir> the target writes seeds (files Sluice's own
// writers make) into <dir> and exits.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/check.h"
#include "connectors/iceberg/deletion_vector.h"
#include "connectors/iceberg/manifest_reader.h"
#include "connectors/iceberg/manifest_writer.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

void Seed(const std::string& dir, const std::string& name, char mode, const std::string& bytes) {
  std::ofstream(dir + "/" + name, std::ios::binary) << mode << bytes;
}

void WriteSeeds(const std::string& dir) {
  auto io = NewLocalFileIO();
  const std::string tmp = fs::temp_directory_path().string() + "/sluice-iceberg-seeds-" + std::to_string(::getpid());
  fs::create_directories(tmp);
  const IcebergSchema schema(0, {IcebergField(1, "id", true, IcebergType::Primitive(IcebergTypeId::kLong)),
                                 IcebergField(2, "day", false, IcebergType::Primitive(IcebergTypeId::kDate))});
  const PartitionSpec spec(0, {PartitionField{2, 1000, "day", Transform::Identity()}});
  for (int version : {2, 3}) {
    ManifestWriterOptions options;
    options.format_version = version;
    options.schema = schema;
    options.spec = spec;
    options.snapshot_id = 7;
    options.codec = AvroCodec::kNull;
    const std::string m = tmp + "/m" + std::to_string(version) + ".avro";
    auto writer = std::move(ManifestWriter::Open(io.get(), m, options)).value();
    for (int i = 0; i < 3; ++i) {
      DataFile f;
      f.file_path = "file:///d/" + std::to_string(i) + ".parquet";
      f.partition = {IcebergLiteral::Date(i)};
      f.record_count = 10;
      f.file_size_in_bytes = 100;
      f.value_counts = {{1, 10}};
      f.lower_bounds = {{1, IcebergLiteral::Long(0).ToBytes()}};
      f.split_offsets = {4};
      SLUICE_CHECK(writer->Add(f).ok());
    }
    ManifestFile mf = std::move(writer->Close()).value();
    Seed(dir, "manifest-v" + std::to_string(version), 0, std::move(io->ReadAll(m)).value());
    ManifestListOptions list;
    list.format_version = version;
    list.snapshot_id = 7;
    list.sequence_number = 1;
    list.codec = AvroCodec::kNull;
    const std::string l = tmp + "/l" + std::to_string(version) + ".avro";
    SLUICE_CHECK(WriteManifestList(io.get(), l, list, {mf}).ok());
    Seed(dir, "list-v" + std::to_string(version), 1, std::move(io->ReadAll(l)).value());
  }
  DeletionVector dv;
  dv.AddRange(0, 100);
  for (int64_t p = 1000; p < 10000; p += 2) dv.Add(p);
  dv.Add(int64_t{1} << 33);
  dv.RunOptimize();
  const std::string puffin = tmp + "/dv.puffin";
  auto writer = std::move(PuffinWriter::Open(std::move(io->Create(puffin)).value(), {{"created-by", "seed"}})).value();
  SLUICE_CHECK(AddDeletionVectorBlob(writer.get(), dv, "file:///d/0.parquet").ok());
  SLUICE_CHECK(writer->AddBlob("x", {1}, 1, 1, "zstd blob", {}, true).ok());
  SLUICE_CHECK(writer->Close().ok());
  Seed(dir, "puffin", 2, std::move(io->ReadAll(puffin)).value());
  Seed(dir, "dv-blob", 3, dv.SerializeBlob());
  Seed(dir, "dv-portable", 4, dv.SerializePortable());
  fs::remove_all(tmp);
}

void CheckVector(const Result<DeletionVector>& dv) {
  if (!dv.ok()) return;
  auto back = DeletionVector::DeserializePortable(dv->SerializePortable());
  SLUICE_CHECK(back.ok());
  SLUICE_CHECK_EQ(back->Cardinality(), dv->Cardinality());
}

// A RandomAccessFile over the input, for ReadPuffinBlob.
class MemoryFile : public RandomAccessFile {
 public:
  explicit MemoryFile(std::string_view data) : data_(data) {}
  const std::string& location() const override { return location_; }
  uint64_t size() const override { return data_.size(); }
  Status ReadAt(uint64_t offset, size_t length, std::string* out) override {
    if (offset > data_.size() || length > data_.size() - offset) return Status::IOError("read past the end");
    out->assign(data_.substr(offset, length));
    return Status::OK();
  }

 private:
  std::string_view data_;
  std::string location_ = "fuzz.puffin";
};

}  // namespace
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (const char* seeds = std::getenv("SLUICE_FUZZ_WRITE_SEEDS"); seeds != nullptr && *seeds != '\0') {
    sluice::WriteSeeds(seeds);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice;
  if (size < 1) return 0;
  const std::string payload(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 5) {
    case 0: {
      ManifestFile inherit;
      inherit.sequence_number = 3;
      inherit.added_snapshot_id = 9;
      inherit.first_row_id = 100;
      ParseManifest(payload, "fuzz.avro", &inherit).status().IgnoreError();
      break;
    }
    case 1: ParseManifestList(payload, "fuzz.avro").status().IgnoreError(); break;
    case 2: {
      auto footer = ParsePuffinFooter(payload, "fuzz.puffin");
      if (!footer.ok()) break;
      MemoryFile file(payload);
      for (const PuffinBlobMetadata& blob : footer->blobs) {
        auto bytes = ReadPuffinBlob(&file, blob);
        if (bytes.ok() && blob.type == kDeletionVectorBlobType) CheckVector(DeletionVector::DeserializeBlob(*bytes));
      }
      break;
    }
    case 3: CheckVector(DeletionVector::DeserializeBlob(payload)); break;
    default: CheckVector(DeletionVector::DeserializePortable(payload)); break;
  }
  return 0;
}
