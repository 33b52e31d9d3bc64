// Iceberg scan throughput with position deletes: reads every column of the data files listed in a
// task file through the Iceberg source's split reader (iceberg_scan_reader.h), each with its
// position delete file, and prints "rows=<n> seconds=<s>" (bench/iceberg/iceberg_scan_vs_duckdb.py
// compares it with DuckDB on the same files).
//
// Usage: iceberg_scan METADATA_JSON TASKS_TSV
//   TASKS_TSV: one line per data file, "<data file path>\t<position delete file path or empty>".
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "connectors/iceberg/iceberg_scan_reader.h"
#include "connectors/iceberg/table_metadata_json.h"

using namespace sluice;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: iceberg_scan METADATA_JSON TASKS_TSV\n";
    return 2;
  }
  std::shared_ptr<FileIO> io = NewLocalFileIO();
  auto text = io->ReadAll(argv[1]);
  if (!text.ok()) return std::cerr << text.status().ToString() << "\n", 1;
  auto md = ParseTableMetadata(*text, argv[1]);
  if (!md.ok()) return std::cerr << md.status().ToString() << "\n", 1;
  std::vector<FileScanTask> tasks;
  std::ifstream in(argv[2]);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string data, deletes;
    std::getline(fields, data, '\t');
    std::getline(fields, deletes, '\t');
    FileScanTask t;
    t.data_file.file_path = data;
    if (!deletes.empty()) {
      ScanDeleteFile d;
      d.file.content = DataFileContent::kPositionDeletes;
      d.file.file_path = deletes;
      t.deletes.push_back(d);
    }
    tasks.push_back(std::move(t));
  }
  const auto start = std::chrono::steady_clock::now();
  auto schema = MakeIcebergReadSchema(md->CurrentSchema(), ToSluiceSchema(md->CurrentSchema()), {}, "bench");
  if (!schema.ok()) return std::cerr << schema.status().ToString() << "\n", 1;
  auto shared = std::make_shared<const IcebergReadSchema>(std::move(*schema));
  auto loader = std::make_shared<IcebergDeleteLoader>(io, md->CurrentSchema());
  int64_t rows = 0;
  Chunk chunk(shared->output);
  for (const FileScanTask& t : tasks) {
    auto split = NewIcebergFileSplit(loader, shared, t);
    while (true) {
      chunk = Chunk(shared->output);
      auto more = split->Read(Chunk::kDefaultCapacity, &chunk);
      if (!more.ok()) return std::cerr << more.status().ToString() << "\n", 1;
      if (!*more) break;
      rows += static_cast<int64_t>(chunk.size());
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "rows=" << rows << " seconds=" << seconds << "\n";
  return 0;
}
