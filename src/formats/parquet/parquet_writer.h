// ParquetWriter: writes Sluice chunks as one Parquet file (the data files of Iceberg tables).
//
// The file is "PAR1", row groups, the footer (FileMetaData, compact protocol), its length and
// "PAR1". Each leaf column is a ColumnWriter (column_writer.h); a row group is buffered in memory
// and written when its estimated size reaches 'write.parquet.row-group-size-bytes' (and at Close).
// Data pages are v1 with RLE levels, PLAIN or RLE_DICTIONARY values, compressed with the codec of
// the options (zstd level 3 by default, as Iceberg's 'write.parquet.compression-codec').
// The footer carries the schema with Iceberg field ids, column statistics (min_value/max_value,
// null_count), the key-value metadata of the options and created_by "sluice version <x>".
//
// Write takes whole column vectors; row kinds are ignored (the caller decides which rows to write).
// ROW/ARRAY/MAP columns are shredded into levels by LevelBuilder. A user-visible problem (a NULL in
// a NOT NULL column, a value too long for BINARY(n)) fails Write with a Status naming the column;
// after a failed Write the file is unusable and the caller aborts it.
//
// The WritableFile is the caller's: Close writes the footer but does not close (publish) the file,
// so the caller decides when it becomes visible.
//
// Threading: one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "formats/parquet/column_writer.h"
#include "formats/parquet/level_builder.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_schema.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice::parquet {

// "sluice version 0.1.0": the footer's created_by.
extern const std::string kCreatedBy;

struct ParquetWriterOptions {
  // 'write.parquet.compression-codec' (zstd | snappy | gzip | uncompressed) and
  // 'write.parquet.compression-level' (0: the codec's default, zstd 3 and gzip 6).
  CompressionCodec codec = CompressionCodec::ZSTD;
  int compression_level = 0;
  int64_t row_group_size_bytes = 128LL << 20;  // 'write.parquet.row-group-size-bytes'
  int64_t page_size_bytes = 1LL << 20;         // 'write.parquet.page-size-bytes'
  int64_t page_row_limit = 20000;              // 'write.parquet.page-row-limit'
  int64_t dict_size_bytes = 2LL << 20;         // 'write.parquet.dict-size-bytes'
  bool enable_dictionary = true;
  std::vector<KeyValue> key_value_metadata;    // e.g. "iceberg.schema"

  // Reads the 'write.parquet.*' keys above from Iceberg table properties (other keys are ignored;
  // a bad value is an error naming the key).
  static Result<ParquetWriterOptions> FromTableProperties(const std::map<std::string, std::string>& properties);
};

// What the Iceberg layer records of a leaf column (its data file's column metrics).
struct ParquetColumnMetrics {
  std::vector<std::string> path;  // path_in_schema
  std::optional<int32_t> field_id;
  Type physical_type = Type::BOOLEAN;
  LogicalType sluice_type;        // the leaf's Sluice type (decides how to read min/max)
  int64_t value_count = 0;        // values including nulls (the number of levels)
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;  // FLOAT and DOUBLE columns only
  int64_t compressed_size = 0;       // bytes of the column's chunks, page headers included
  // Lower and upper bounds over the file, absent when every value is null (or NaN). They are the
  // PLAIN encoding of the physical type: INT32 4 bytes and INT64 8 bytes little-endian (DECIMAL
  // stored as INT32/INT64 too: its unscaled value), FLOAT/DOUBLE IEEE little-endian (NaN ignored;
  // a zero lower bound is -0.0 and a zero upper bound +0.0), BYTE_ARRAY the bytes themselves (no
  // length prefix; strings are UTF-8, compared as unsigned bytes), FIXED_LEN_BYTE_ARRAY the bytes
  // (DECIMAL: big-endian two's complement of the column's width), BOOLEAN one byte 0/1. TIME is
  // microseconds, TIMESTAMP microseconds, DATE days: Iceberg's own units. Never truncated.
  std::optional<std::string> min;
  std::optional<std::string> max;
};

// A bound of ParquetColumnMetrics in Iceberg's single-value serialization: the same bytes, except
// DECIMAL, which Iceberg stores as the unscaled value's big-endian two's complement in the fewest
// bytes.
std::string IcebergBoundBytes(const ParquetColumnMetrics& column, std::string_view bound);

struct ParquetFileMetrics {
  int64_t row_count = 0;
  uint64_t file_size = 0;
  std::vector<int64_t> split_offsets;  // where each row group starts
  std::vector<ParquetColumnMetrics> columns;  // one per leaf column, in file order
};

class ParquetWriter {
 public:
  // `field_ids` is empty or one FieldIdTree per column of `schema` (parquet_schema.h). Writes
  // the leading magic.
  static Result<std::unique_ptr<ParquetWriter>> Open(WritableFile* file, const Schema& schema,
                                                     const std::vector<FieldIdTree>& field_ids,
                                                     ParquetWriterOptions options);
  ~ParquetWriter();

  // Appends the chunk's rows. Its columns must match the schema's types (nullability aside).
  Status Write(const Chunk& chunk);
  // Bytes written so far plus the buffered row group's estimate: what the file would take if it
  // were closed now (before the footer), for rolling files at 'write.target-file-size-bytes'.
  uint64_t EstimatedFileSize() const;
  int64_t rows_written() const { return rows_; }
  const ParquetSchema& schema() const { return schema_; }
  // Writes the last row group and the footer, and returns the file's metrics. The file stays open
  // (see the file comment).
  Result<ParquetFileMetrics> Close();

 private:
  ParquetWriter(WritableFile* file, ParquetSchema schema, Schema sluice_schema, ParquetWriterOptions options);
  Status FlushRowGroup();

  WritableFile* file_;
  ParquetSchema schema_;
  Schema sluice_schema_;
  ParquetWriterOptions options_;
  std::unique_ptr<PageCodec> codec_;
  std::vector<std::unique_ptr<ColumnWriter>> columns_;
  // columns_by_field_[i]: the leaf columns of top-level field i.
  std::vector<std::vector<int>> columns_by_field_;
  LevelBuilder levels_;
  LeafBatch batch_;
  std::vector<RowGroup> row_groups_;
  int64_t rows_ = 0;
  int64_t group_rows_ = 0;
  bool closed_ = false;
};

}  // namespace sluice::parquet
