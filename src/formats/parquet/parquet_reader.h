// ParquetReader: reads a Parquet file into Chunks of a requested Sluice schema.
//
// Open reads and validates the footer (the "PAR1" magic at both ends, the footer length, the
// FileMetaData and its schema tree) and exposes the metadata as parsed (row groups with their
// column statistics, for the Iceberg layer's pruning) and the file's schema (ParquetSchema, and as
// a Sluice Schema). Select then says what to read: a requested schema (columns matched by Iceberg
// field id when the file has ids, else by name; missing columns read as NULL; INT -> BIGINT,
// FLOAT -> DOUBLE and DECIMAL widening), the row groups to read (pruning) and whether to append each
// row's 0-based position in the file (Iceberg's `_pos`, which position deletes refer to) as a last
// BIGINT NOT NULL column. ReadNext fills a Chunk with up to max_rows rows of the selected row
// groups, in file order, and gives 0 rows at the end.
//
// Reading is columnar: each selected leaf column chunk is read with one RandomAccessFile::ReadAt
// per row group and decoded a page at a time into typed vectors (column_reader.h); nested columns
// are assembled from their levels (column_assembly.h). String values are views into page buffers
// shared with the chunk (no per-value copies).
//
// Errors (malformed files, unsupported encodings, types that do not match) are Statuses naming the
// file, and where it applies the column, row group and page; the reader never crashes on bad input.
//
// Threading: one reader is used by one thread. The RandomAccessFile must outlive the reader.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "formats/parquet/column_reader.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_schema.h"
#include "formats/parquet/read_plan.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice::parquet {

struct ParquetReadOptions {
  // Row groups to read, as indices into metadata().row_groups, read in the given order; unset reads
  // every row group.
  std::optional<std::vector<int>> row_groups;
  // Appends a BIGINT NOT NULL column holding each row's position in the file (0-based, counted over
  // all row groups, selected or not).
  bool row_positions = false;
};

class ParquetReader {
 public:
  // The name of the position column appended when ParquetReadOptions::row_positions is set.
  static constexpr const char* kRowPositionColumn = "_pos";

  static Result<std::unique_ptr<ParquetReader>> Open(RandomAccessFile* file);
  // The same, keeping the file open for as long as the reader lives.
  static Result<std::unique_ptr<ParquetReader>> Open(std::unique_ptr<RandomAccessFile> file);

  const FileMetaData& metadata() const { return metadata_; }
  const ParquetSchema& schema() const { return schema_; }
  // The file's columns as Sluice types (columns without a Sluice type have the NULL type).
  Schema sluice_schema() const { return schema_.ToSluiceSchema(); }
  int64_t num_rows() const { return metadata_.num_rows; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }

  // Chooses the columns, row groups and options of the following ReadNext calls and starts from the
  // first selected row group. `field_ids` is empty (match by name) or holds one tree per requested
  // column. Without a Select, ReadNext reads every column of sluice_schema() by name.
  [[nodiscard]] Status Select(const Schema& requested, const std::vector<FieldIdTree>& field_ids,
                              const ParquetReadOptions& options = {});
  // The schema of the chunks ReadNext produces (the requested columns, then `_pos` if asked for).
  const Schema& output_schema() const { return output_schema_; }

  // Replaces *out with the next up to max_rows (> 0) rows; out->size() == 0 at the end.
  [[nodiscard]] Status ReadNext(size_t max_rows, Chunk* out);

 private:
  ParquetReader(RandomAccessFile* file, FileMetaData metadata, ParquetSchema schema)
      : file_(file), metadata_(std::move(metadata)), schema_(std::move(schema)) {}
  Status Validate() const;
  Status StartRowGroup(int rg);

  RandomAccessFile* file_;
  std::unique_ptr<RandomAccessFile> owned_file_;
  FileMetaData metadata_;
  ParquetSchema schema_;
  std::vector<int64_t> first_row_;  // position of each row group's first row

  bool selected_ = false;
  ReadPlan plan_;
  ParquetReadOptions options_;
  Schema output_schema_;
  std::vector<int> row_groups_;
  std::vector<ColumnChunkReader> leaves_;
  size_t next_group_ = 0;  // index into row_groups_ of the next group to start
  int current_group_ = -1;
  int64_t group_rows_left_ = 0;
  int64_t next_position_ = 0;
  std::vector<LeafLevels> levels_;
  std::vector<Vector> values_;
};

}  // namespace sluice::parquet
