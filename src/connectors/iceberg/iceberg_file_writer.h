// The files an Iceberg sink writes: Parquet data files, equality-delete files and position-delete
// files, named and placed as Flink's OutputFileFactory does (<table location>/data/<partition
// path>/<partition id>-<task id>-<operation uuid>-<file count>.parquet, "00000-0-<uuid>-00001.parquet")
// and rolled at the target file size ('write.target-file-size-bytes').
//
// A RollingFileWriter writes one kind of file for one partition: chunks go to its current Parquet
// file; once the file reaches the target size it is closed and the next write opens a new one.
// Closed files come back as DataFiles with Iceberg's column metrics (value, null and NaN counts,
// lower/upper bounds in the spec's single-value form, strings and binary truncated to 16 as
// Iceberg's default metrics mode 'truncate(16)', column sizes, split offsets).
//
// Threading: one writer task.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"
#include "connectors/iceberg/manifest.h"
#include "formats/parquet/parquet_writer.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

// Field ids of the position-delete file columns (the spec's reserved ids).
inline constexpr int32_t kDeleteFilePathFieldId = 2147483546;
inline constexpr int32_t kDeletePosFieldId = 2147483545;

// Names and places the files of one writer (one sink task): a random operation uuid per writer and a
// file counter shared by every file it writes.
class IcebergFileNamer {
 public:
  IcebergFileNamer(std::string table_location, int partition_id, int64_t task_id);
  // "<location>/data/<partition path>/00000-0-<uuid>-00001.parquet" (no partition path: data/<name>).
  std::string NextLocation(const std::string& partition_path);

 private:
  std::string data_location_;
  std::string prefix_;
  int64_t count_ = 0;
};

// How one kind of file is written: its Sluice columns (nullability as the Iceberg fields), their
// Iceberg field ids, the Parquet options and the file content.
struct IcebergFileSpec {
  DataFileContent content = DataFileContent::kData;
  Schema schema;
  std::vector<parquet::FieldIdTree> field_ids;
  // For bounds: the Iceberg type of each field id that gets bounds (top-level and struct leaves).
  IcebergSchema iceberg_schema;
  std::vector<int32_t> equality_ids;  // equality-delete files
  parquet::ParquetWriterOptions parquet;
  int64_t target_file_size = 512LL << 20;
  int32_t spec_id = 0;
  // Iceberg's default metrics mode truncates string and binary bounds to 16; position-delete files
  // keep full bounds (Java's MetricsConfig for position deletes).
  bool truncate_bounds = true;
};

// Builds the file spec's schema and field ids for the columns `iceberg_fields` of a table schema.
// `sluice_types[i]` is the chunk's type of field i (nullability is taken from the Iceberg field).
[[nodiscard]] Result<IcebergFileSpec> MakeIcebergFileSpec(const IcebergSchema& table_schema,
                                                          const std::vector<int32_t>& field_ids,
                                                          const std::vector<LogicalType>& sluice_types);
// The position-delete schema (file_path STRING NOT NULL, pos BIGINT NOT NULL) with the reserved ids.
IcebergFileSpec PositionDeleteFileSpec();

class RollingFileWriter {
 public:
  RollingFileWriter(FileIO* io, IcebergFileNamer* namer, const IcebergFileSpec* spec, std::string partition_path,
                    std::vector<std::optional<IcebergLiteral>> partition);
  ~RollingFileWriter();

  // Opens the current file when none is open (so current_path is known before a write).
  [[nodiscard]] Status EnsureOpen();
  // Appends the chunk's rows to the current file, then rolls it when it reached the target size.
  [[nodiscard]] Status Write(const Chunk& chunk);
  const std::string& current_path() const { return path_; }
  int64_t current_rows() const;
  // Closes the current file (if any) and returns every file closed since the last call.
  [[nodiscard]] Result<std::vector<DataFile>> Complete();
  // Gives up the open file (nothing becomes visible).
  void Abort();

 private:
  [[nodiscard]] Status CloseCurrent();

  FileIO* io_;
  IcebergFileNamer* namer_;
  const IcebergFileSpec* spec_;
  std::string partition_path_;
  std::vector<std::optional<IcebergLiteral>> partition_;
  std::unique_ptr<WritableFile> file_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  std::string path_;
  std::vector<DataFile> closed_;
};

// The DataFile of a closed Parquet file with the spec's metrics.
DataFile DataFileFromMetrics(const IcebergFileSpec& spec, const std::string& path,
                             std::vector<std::optional<IcebergLiteral>> partition,
                             const parquet::ParquetFileMetrics& metrics);

}  // namespace sluice
