// libFuzzer target: the Parquet reader on arbitrary file content (tests/fuzz/README.md). The input
// is the whole file; it is opened, and every column read with its own schema, a few rows at a time
// (the count from the input's size), once more with row positions and only the first column. A
// malformed file must end in a Status, never a crash, a sanitizer report or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/file_io.h"
#include "formats/parquet/parquet_reader.h"

namespace {

class MemoryFile : public sluice::RandomAccessFile {
 public:
  MemoryFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  const std::string& location() const override { return location_; }
  uint64_t size() const override { return size_; }
  sluice::Status ReadAt(uint64_t offset, size_t length, std::string* out) override {
    if (offset > size_ || length > size_ - offset) return sluice::Status::IOError("read past the end of fuzz.parquet");
    out->assign(reinterpret_cast<const char*>(data_) + offset, length);
    return sluice::Status::OK();
  }

 private:
  const uint8_t* data_;
  size_t size_;
  std::string location_ = "fuzz.parquet";
};

void ReadAll(sluice::parquet::ParquetReader* reader, size_t chunk_rows) {
  sluice::Chunk chunk;
  for (int i = 0; i < 100000; ++i) {
    if (!reader->ReadNext(chunk_rows, &chunk).ok() || chunk.size() == 0) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  MemoryFile file(data, size);
  auto reader = sluice::parquet::ParquetReader::Open(&file);
  if (!reader.ok()) return 0;
  ReadAll(reader->get(), 1 + size % 13);
  sluice::Schema schema = (*reader)->sluice_schema();
  if (schema.size() == 0) return 0;
  sluice::Schema first;
  first.Add(schema.field(0).name, schema.field(0).type);
  sluice::parquet::ParquetReadOptions options;
  options.row_positions = true;
  if ((*reader)->Select(first, {}, options).ok()) ReadAll(reader->get(), 1000);
  return 0;
}
