// Parquet write throughput (issue 16): ParquetWriter with zstd (level 3, dictionaries on, the
// defaults) writing rows shaped like the Larkspur lines table (strings of low and high
// cardinality, BIGINT, INT, DECIMAL(12, 2), TIMESTAMP(3), DATE) into memory. 256K distinct rows are
// built once and written four times per file (1M rows). items_per_second is rows/s; bytes_per_second
// counts the Parquet file's bytes.
//
// The first run also leaves the file at /tmp/sluice-parquet-bench-lines.parquet (or
// $SLUICE_PARQUET_BENCH_FILE), so bench/parquet_write_pyarrow.py can write the same rows with
// pyarrow for comparison (bench/run.sh does both and prints the ratio). PQ_CODEC_NONE=1 writes
// uncompressed pages instead, to tell the encoding's share from zstd's.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "common/file_io.h"
#include "formats/parquet/parquet_writer.h"
#include "types/vector.h"

namespace sluice {
namespace {

using parquet::ParquetWriter;
using parquet::ParquetWriterOptions;

class MemoryFile final : public WritableFile {
 public:
  MemoryFile() { data_.reserve(64 << 20); }
  const std::string& location() const override { return location_; }
  Status Append(std::string_view d) override {
    data_.append(d);
    return Status::OK();
  }
  uint64_t bytes_written() const override { return data_.size(); }
  Status Close() override { return Status::OK(); }
  void Abort() override {}
  const std::string& data() const { return data_; }
  void Reset() { data_.clear(); }

 private:
  std::string location_ = "memory:lines.parquet";
  std::string data_;
};

Schema LinesSchema() {
  Schema s;
  s.Add("event_id", LogicalType::String());
  s.Add("basket_id", LogicalType::String());
  s.Add("store_id", LogicalType::String());
  s.Add("till_id", LogicalType::String());
  s.Add("country", LogicalType::String());
  s.Add("currency", LogicalType::String());
  s.Add("event_ts", LogicalType::Timestamp(3));
  s.Add("uploaded_at", LogicalType::Timestamp(3));
  s.Add("line_no", LogicalType::Integer());
  s.Add("sku", LogicalType::String());
  s.Add("qty", LogicalType::Integer());
  s.Add("unit_price_minor", LogicalType::BigInt());
  s.Add("discount_minor", LogicalType::BigInt());
  s.Add("net", LogicalType::Decimal(12, 2));
  s.Add("business_date", LogicalType::Date());
  return s;
}

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::vector<Chunk> MakeLines(size_t rows) {
  static const char* kCountries[] = {"DE", "FR", "SG", "US", "GB", "JP"};
  static const char* kCurrencies[] = {"EUR", "EUR", "SGD", "USD", "GBP", "JPY"};
  std::vector<Chunk> chunks;
  const Schema schema = LinesSchema();
  char buf[64];
  for (size_t start = 0; start < rows; start += 1024) {
    size_t n = std::min<size_t>(1024, rows - start);
    Chunk c(schema, n);
    for (size_t k = 0; k < n; ++k) {
      uint64_t i = start + k;
      uint64_t h = Mix(i);
      uint64_t basket = i / 4;
      uint64_t store = Mix(basket) % 400;
      std::snprintf(buf, sizeof(buf), "ev-%016llx", static_cast<unsigned long long>(h));
      c.column(0).SetString(k, buf);
      std::snprintf(buf, sizeof(buf), "bk-%012llx", static_cast<unsigned long long>(Mix(basket) >> 16));
      c.column(1).SetString(k, buf);
      std::snprintf(buf, sizeof(buf), "SG-%04llu", static_cast<unsigned long long>(store));
      c.column(2).SetString(k, buf);
      std::snprintf(buf, sizeof(buf), "till-%llu", static_cast<unsigned long long>(store * 8 + basket % 8));
      c.column(3).SetString(k, buf);
      c.column(4).SetString(k, kCountries[store % 6]);
      c.column(5).SetString(k, kCurrencies[store % 6]);
      int64_t ts = 1786000000000000LL + static_cast<int64_t>(basket) * 350000 / 1000 * 1000;
      c.column(6).data<int64_t>()[k] = ts;
      c.column(7).data<int64_t>()[k] = ts + static_cast<int64_t>(h % 600000) * 1000;
      c.column(8).data<int32_t>()[k] = static_cast<int32_t>(i % 4 + 1);
      std::snprintf(buf, sizeof(buf), "SKU-%06llu", static_cast<unsigned long long>(h % 20000));
      c.column(9).SetString(k, buf);
      int32_t qty = static_cast<int32_t>(h % 5 + 1);
      c.column(10).data<int32_t>()[k] = qty;
      int64_t price = static_cast<int64_t>(Mix(h % 20000) % 10000 + 99);
      c.column(11).data<int64_t>()[k] = price;
      int64_t discount = h % 7 == 0 ? price / 10 : 0;
      c.column(12).data<int64_t>()[k] = discount;
      c.column(13).data<__int128>()[k] = static_cast<__int128>((price - discount) * qty);
      c.column(14).data<int32_t>()[k] = static_cast<int32_t>(ts / 86400000000LL);
      if (h % 10 == 0) c.column(12).SetNull(k, true);
    }
    chunks.push_back(std::move(c));
  }
  return chunks;
}

void BM_ParquetWriteLines(benchmark::State& state) {
  const std::vector<Chunk> chunks = MakeLines(256 * 1024);
  const Schema schema = LinesSchema();
  MemoryFile file;
  int64_t rows = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    file.Reset();
    ParquetWriterOptions options;
    if (std::getenv("PQ_CODEC_NONE")) options.codec = parquet::CompressionCodec::UNCOMPRESSED;
    auto writer = ParquetWriter::Open(&file, schema, {}, options);
    if (!writer.ok()) std::abort();
    for (int rep = 0; rep < 4; ++rep) {
      for (const Chunk& c : chunks) {
        if (!(*writer)->Write(c).ok()) std::abort();
        rows += static_cast<int64_t>(c.size());
      }
    }
    auto metrics = (*writer)->Close();
    if (!metrics.ok()) std::abort();
    bytes += static_cast<int64_t>(metrics->file_size);
  }
  state.SetItemsProcessed(rows);
  state.SetBytesProcessed(bytes);
  state.counters["file_MB"] = static_cast<double>(file.data().size()) / 1e6;
  const char* path = std::getenv("SLUICE_PARQUET_BENCH_FILE");
  std::ofstream(path ? path : "/tmp/sluice-parquet-bench-lines.parquet", std::ios::binary) << file.data();
}
BENCHMARK(BM_ParquetWriteLines)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
