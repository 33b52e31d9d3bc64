// ColumnChunkReader: reads one leaf column of one row group, page by page, into Sluice vectors.
//
// The reader owns the column chunk's bytes (read with one ReadAt by the file reader) and walks its
// pages: a dictionary page is decoded once and converted to the target type (so dictionary-encoded
// pages only gather), data pages v1 and v2 are decompressed, their definition/repetition levels
// decoded whole, and their values decoded on demand, a run at a time, straight into the target
// vector's slots (value_decoders.h, then leaf_conversion.h when the physical layout differs).
//
// ReadRows(n) produces exactly n rows: the level entries of those rows (kept for nested columns,
// whose parents are assembled from them, column_assembly.h) and one vector slot per entry whose
// ancestors exist (def >= slot_def), NULL where def < max_def. Rows of a data page v1 may continue
// on the next page; the reader follows them.
//
// Byte-array values are views: page bytes (and dictionaries) of BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY
// columns are kept in StringHeaps that the produced vectors share (Vector::AddHeap).
//
// Every malformed input gives an InvalidArgument naming the file, column, row group and page.
//
// Threading: used by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "formats/parquet/column_assembly.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/leaf_conversion.h"
#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_schema.h"
#include "formats/parquet/rle_bitpacked.h"
#include "formats/parquet/value_decoders.h"
#include "types/vector.h"

namespace sluice::parquet {

class ColumnChunkReader {
 public:
  // `slot_def`: entries with a definition level below it have no slot (an ancestor list is null or
  // empty). `keep_levels`: whether ReadRows returns the levels (needed for nested columns).
  ColumnChunkReader(const ColumnDescriptor& column, LeafConversion conv, int16_t slot_def, bool keep_levels);

  // The buffer the caller reads the next column chunk's bytes into (kept between row groups so its
  // memory is reused).
  std::string* chunk_buffer() { return &chunk_; }
  // Starts a row group whose column chunk is in chunk_buffer(); `context` names the file, column and
  // row group for errors.
  [[nodiscard]] Status Start(const ColumnMetaData& meta, std::string context);

  // Reads the next `num_rows` rows (see the file comment); appends to *levels (when keep_levels)
  // and to *values.
  [[nodiscard]] Status ReadRows(size_t num_rows, LeafLevels* levels, Vector* values);

 private:
  Status Fail(const Status& st) const;
  Status NextPage(bool* done);
  Status LoadDictionary(const PageHeader& h, const uint8_t* body, size_t size);
  Status LoadDataPage(const PageHeader& h, const uint8_t* body, size_t size);
  // Decompresses (or copies) a page section into stable storage; sets *out/*out_size.
  Status PageBytes(const uint8_t* in, size_t in_size, size_t uncompressed_size, bool compressed, const uint8_t** out,
                   size_t* out_size);
  Status DecodeLevels(const uint8_t* data, size_t size, int16_t max_level, size_t n, std::vector<int16_t>* out);
  Status InitValueDecoder();
  Status ConsumeEntries(size_t begin, size_t end, LeafLevels* levels, Vector* values);
  // Decodes n values of the current page into n dense target slots at dst.
  Status DecodeValues(size_t n, uint8_t* dst, Vector* values);
  Status DecodePhysical(size_t n, void* out);

  const ColumnDescriptor column_;
  const LeafConversion conv_;
  const int16_t slot_def_;
  const bool keep_levels_;
  const int16_t max_def_;
  const int16_t max_rep_;
  // Byte-array values kept as views (a string-like target): page bytes live in heaps.
  const bool byte_array_;

  std::string context_;
  std::string chunk_;
  size_t chunk_pos_ = 0;
  int page_index_ = -1;
  int64_t values_left_ = 0;  // level entries the chunk still announces (ColumnMetaData.num_values)
  std::unique_ptr<PageCodec> codec_;
  std::string page_buf_;                   // decompressed page (non-byte-array columns)
  std::shared_ptr<StringHeap> page_heap_;  // page bytes (byte-array columns)

  // The current data page.
  std::vector<int16_t> page_def_;
  std::vector<int16_t> page_rep_;
  size_t page_entries_ = 0;
  size_t page_pos_ = 0;
  Encoding encoding_ = Encoding::PLAIN;
  const uint8_t* values_data_ = nullptr;
  size_t values_size_ = 0;
  bool values_ready_ = false;
  PlainDecoder plain_;
  RleBitPackedDecoder rle_;
  ByteStreamSplitDecoder bss_;
  DeltaBinaryPackedDecoder dbp_;
  DeltaLengthByteArrayDecoder dlba_;
  DeltaByteArrayDecoder dba_;

  // The dictionary, converted to the target type.
  bool has_dict_ = false;
  ByteBuffer dict_;
  size_t dict_size_ = 0;
  std::shared_ptr<StringHeap> dict_heap_;

  ByteBuffer scratch_;
  std::vector<uint32_t> indices_;
};

}  // namespace sluice::parquet
