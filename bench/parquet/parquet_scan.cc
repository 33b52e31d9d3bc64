// parquet_scan: scans every column of a Parquet file with Sluice's reader and prints the
// throughput (bench/parquet/parquet_scan_vs_duckdb.py runs it next to DuckDB on the same file).
//
// Usage: parquet_scan FILE [REPEATS]   -> "rows=<n> seconds=<best of repeats> bytes=<file size>"
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common/file_io.h"
#include "formats/parquet/parquet_reader.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parquet_scan FILE [REPEATS]\n");
    return 2;
  }
  int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  auto io = sluice::NewLocalFileIO();
  double best = 1e30;
  int64_t rows = 0;
  uint64_t bytes = 0;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    auto file = io->OpenRead(argv[1]);
    if (!file.ok()) {
      std::fprintf(stderr, "%s\n", file.status().ToString().c_str());
      return 1;
    }
    bytes = (*file)->size();
    auto reader = sluice::parquet::ParquetReader::Open(file->get());
    if (!reader.ok()) {
      std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
      return 1;
    }
    rows = 0;
    sluice::Chunk chunk;
    while (true) {
      sluice::Status st = (*reader)->ReadNext(sluice::Chunk::kDefaultCapacity * 2, &chunk);
      if (!st.ok()) {
        std::fprintf(stderr, "%s\n", st.ToString().c_str());
        return 1;
      }
      if (chunk.size() == 0) break;
      rows += static_cast<int64_t>(chunk.size());
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s < best) best = s;
  }
  std::printf("rows=%lld seconds=%.6f bytes=%llu\n", static_cast<long long>(rows), best,
              static_cast<unsigned long long>(bytes));
  return 0;
}
