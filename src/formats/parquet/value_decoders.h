// Parquet value decoders for one data page's value section: PLAIN (every physical type),
// BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
//
// Each decoder is a cursor over bytes it does not own (a decompressed page that outlives it) and
// writes physical values in bulk: `Decode(out, n)` fills n values or fails, so callers make one call
// per page run, never one per value. Physical values are laid out as:
//   BOOLEAN -> uint8_t 0/1, INT32 -> int32_t, INT64 -> int64_t, INT96 -> Int96, FLOAT -> float,
//   DOUBLE -> double, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY -> std::string_view
// String views point into the page bytes, except DELTA_BYTE_ARRAY's and BYTE_STREAM_SPLIT's
// FIXED_LEN_BYTE_ARRAY values, which are rebuilt into the decoder's own StringHeap (heap()): the
// caller keeps that heap alive with the vectors holding the views (Vector::AddHeap).
//
// Every read is bounds-checked: malformed input yields a Status saying what was malformed (the
// column reader adds the file, column and page), never a read past the buffer.
//
// Threading: a decoder is used by one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice {
class StringHeap;
}

namespace sluice::parquet {

// A raw INT96 value: 8 bytes of nanoseconds within the day, then 4 bytes of Julian day (little endian).
struct Int96 {
  uint8_t bytes[12];
};

// Reads a ULEB128 varint at data[*pos..size); advances *pos.
bool ReadUleb128(const uint8_t* data, size_t size, size_t* pos, uint64_t* out);

class PlainDecoder {
 public:
  PlainDecoder() = default;
  // `type_length` is the width of FIXED_LEN_BYTE_ARRAY values (unused otherwise).
  PlainDecoder(const uint8_t* data, size_t size, int type_length = 0)
      : data_(data), size_(size), type_length_(type_length) {}

  [[nodiscard]] Status DecodeBooleans(uint8_t* out, size_t n);
  // INT32, INT64, FLOAT, DOUBLE and INT96: `width` bytes each, copied as they are (little endian).
  [[nodiscard]] Status DecodeFixedWidth(void* out, size_t width, size_t n);
  [[nodiscard]] Status DecodeByteArrays(std::string_view* out, size_t n);
  [[nodiscard]] Status DecodeFixedLenByteArrays(std::string_view* out, size_t n);
  // The next n values of `width` bytes as one contiguous run (no copy).
  [[nodiscard]] Status TakeFixed(size_t width, size_t n, const uint8_t** out);

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int type_length_ = 0;
  size_t pos_ = 0;
  int bit_ = 0;  // next bit within data_[pos_] for BOOLEAN
};

// BYTE_STREAM_SPLIT: byte k of value i sits at stream k, position i; the page holds size/width values.
class ByteStreamSplitDecoder {
 public:
  [[nodiscard]] Status Init(const uint8_t* data, size_t size, size_t width);
  // Fixed-width values of `width_` bytes each (FLOAT, DOUBLE, INT32, INT64).
  [[nodiscard]] Status DecodeFixedWidth(void* out, size_t n);
  // FIXED_LEN_BYTE_ARRAY values, reassembled into heap().
  [[nodiscard]] Status DecodeFixedLenByteArrays(std::string_view* out, size_t n);
  const std::shared_ptr<StringHeap>& heap() const { return heap_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t width_ = 0;
  size_t count_ = 0;
  size_t next_ = 0;
  std::shared_ptr<StringHeap> heap_;
};

// DELTA_BINARY_PACKED for INT32 and INT64 (arithmetic wraps at 64 bits; INT32 callers truncate,
// which gives the writer's 32-bit wrapping result).
class DeltaBinaryPackedDecoder {
 public:
  [[nodiscard]] Status Init(const uint8_t* data, size_t size);
  // Values announced by the header (including the first value).
  uint64_t total_values() const { return total_; }
  [[nodiscard]] Status DecodeInt64(int64_t* out, size_t n);
  [[nodiscard]] Status DecodeInt32(int32_t* out, size_t n);
  // Decodes every remaining value and returns the offset just past the last miniblock holding
  // values: where the bytes that follow the encoded integers start (DELTA_LENGTH_BYTE_ARRAY).
  [[nodiscard]] Status DecodeAll(std::vector<int64_t>* out, size_t* end_offset);

 private:
  template <typename T>
  Status Decode(T* out, size_t n);
  Status StartBlock();
  Status StartMiniblock();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;  // next unread byte (block header or miniblock body)
  uint64_t block_size_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t per_miniblock_ = 0;
  uint64_t total_ = 0;
  uint64_t emitted_ = 0;
  uint64_t last_ = 0;
  uint64_t min_delta_ = 0;
  const uint8_t* widths_ = nullptr;  // this block's miniblock bit widths
  uint64_t miniblock_ = 0;           // index of the current miniblock within the block
  uint64_t left_in_miniblock_ = 0;   // values left in the current miniblock
  int bit_width_ = 0;
  const uint8_t* body_ = nullptr;    // current miniblock body
  size_t body_size_ = 0;
  uint64_t body_bit_ = 0;
};

// DELTA_LENGTH_BYTE_ARRAY: the lengths (DELTA_BINARY_PACKED), then all bytes concatenated.
class DeltaLengthByteArrayDecoder {
 public:
  // `max_values`: the most values the page can hold (its level entries); a header announcing more
  // is malformed (and must not make the decoder allocate for it).
  [[nodiscard]] Status Init(const uint8_t* data, size_t size, size_t max_values);
  [[nodiscard]] Status DecodeByteArrays(std::string_view* out, size_t n);
  // Offset just past the last value's bytes (where DELTA_BYTE_ARRAY's data would end).
  size_t end_offset() const { return bytes_end_; }

 private:
  const uint8_t* data_ = nullptr;
  std::vector<int64_t> lengths_;
  size_t next_ = 0;
  size_t pos_ = 0;
  size_t bytes_end_ = 0;
};

// DELTA_BYTE_ARRAY: prefix lengths (DELTA_BINARY_PACKED), then suffixes (DELTA_LENGTH_BYTE_ARRAY);
// each value is the previous value's prefix followed by its suffix, rebuilt into heap().
class DeltaByteArrayDecoder {
 public:
  [[nodiscard]] Status Init(const uint8_t* data, size_t size, size_t max_values);
  [[nodiscard]] Status DecodeByteArrays(std::string_view* out, size_t n);
  const std::shared_ptr<StringHeap>& heap() const { return heap_; }

 private:
  std::vector<int64_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  size_t next_ = 0;
  std::string_view last_;
  std::shared_ptr<StringHeap> heap_;
};

}  // namespace sluice::parquet
