// ColumnWriter: encodes one leaf column of a Parquet row group: levels and values into data pages
// (v1: RLE levels, then PLAIN or RLE_DICTIONARY values), compressed with the file's codec, plus
// the column chunk's dictionary page, metadata and statistics.
//
// One typed implementation per (Sluice vector layout -> Parquet physical type) pair, chosen once
// when the file opens (MakeColumnWriter); each batch is encoded by a loop over the typed vector
// with no per-value virtual call or allocation.
//
// Pages close at record boundaries when they reach the page size or the page row limit. Values
// are dictionary-encoded while the column chunk's dictionary stays under the dictionary size;
// past it, or when the first page shows that the dictionary does not pay (as parquet-mr decides),
// the writer falls back to PLAIN for the rest of the chunk (re-encoding the pending page when no
// dictionary-encoded page was written yet, so no unused dictionary is stored).
//
// Statistics are kept per chunk (for the footer) and per file (for ParquetFileMetrics), in the
// type's order: signed integers and decimals, floats ignoring NaN (with -0.0/+0.0 as the spec asks),
// strings and binaries as unsigned bytes.
//
// Threading: used by the one thread that writes the file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/file_io.h"
#include "common/status.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/level_builder.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_schema.h"

namespace sluice::parquet {

struct ColumnWriterOptions {
  int64_t page_size_bytes = 1 << 20;
  int64_t page_row_limit = 20000;
  int64_t dict_size_bytes = 2 << 20;
  bool enable_dictionary = true;
};

// Min and max as PLAIN-encoded values of the column's physical type (BYTE_ARRAY without its
// length prefix, FIXED_LEN_BYTE_ARRAY as its bytes, BOOLEAN as one byte), with counts.
struct ColumnStatsSummary {
  int64_t null_count = 0;
  int64_t nan_count = 0;
  std::optional<std::string> min;
  std::optional<std::string> max;
};

class ColumnWriter {
 public:
  virtual ~ColumnWriter() = default;

  // Appends a batch: levels and the values of the leaf (see LeafBatch).
  virtual Status Write(const LeafBatch& batch) = 0;
  // Bytes this chunk would take if finished now (pages written, the open page, the dictionary).
  virtual int64_t EstimatedSize() const = 0;
  // Closes the chunk: appends its pages to `file` (the dictionary page first) and describes them
  // in `chunk`, whose offsets start at `file_offset` (the file's size before). The writer is then
  // ready for the next row group.
  virtual Status FinishChunk(int64_t file_offset, WritableFile* file, ColumnChunk* chunk) = 0;
  // Whole-file statistics so far.
  virtual ColumnStatsSummary FileStats() const = 0;
  // Levels (values including nulls) written to the file so far, and compressed bytes.
  virtual int64_t FileValueCount() const = 0;
  virtual int64_t FileCompressedSize() const = 0;
};

// `codec` is shared by the file's column writers (one compression context, warm in cache, for the
// whole file) and must outlive the writer.
Result<std::unique_ptr<ColumnWriter>> MakeColumnWriter(const ColumnDescriptor& column, PageCodec* codec,
                                                       const ColumnWriterOptions& options);

}  // namespace sluice::parquet
