// Parquet's RLE / bit-packing hybrid encoding: definition and repetition levels, dictionary
// indices, and RLE-encoded booleans.
//
// The encoding is a sequence of runs, each starting with a ULEB128 varint header:
//   header = count << 1        an RLE run: `count` copies of one value stored in ceil(bit_width/8)
//                              little-endian bytes;
//   header = groups << 1 | 1   a bit-packed run of groups * 8 values, packed LSB first, bit_width
//                              bits each (the last group of a page may be padded with zeros).
// Bit widths are 0..32. Data page v1 prefixes levels with their byte length (4 bytes, little
// endian); dictionary indices are prefixed with one byte holding the bit width. These prefixes
// are the callers' (EncodeLevelsV1 writes the first).
//
// The encoder takes all values at once and chooses runs in one pass: a run of 8 or more equal
// values becomes an RLE run (after topping up the pending literal values to a whole group), the
// rest is bit-packed. The decoder checks every length against the data and fails with a Status
// naming the problem on malformed input; it never reads out of bounds.
//
// Threading: stateless functions; a decoder is used by one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.h"

namespace sluice::parquet {

// Bits needed to store values 0..max_value (0 for max_value 0).
int BitWidthOf(uint64_t max_value);

// Appends the hybrid encoding of values[0..n) to `out` (no length prefix). Every value must fit
// in bit_width bits. Instantiated for uint8_t, int16_t, uint16_t and uint32_t.
template <typename T>
void EncodeRleBitPacked(const T* values, size_t n, int bit_width, std::string* out);

// Data page v1 levels: a 4-byte little-endian length, then the hybrid encoding of levels with
// the bit width of max_level. Writes nothing when max_level is 0 (the level is implied).
void EncodeLevelsV1(const int16_t* levels, size_t n, int16_t max_level, std::string* out);

// Bit-packs values[0..n) LSB first, bit_width bits each, appending ceil(n * bit_width / 8) bytes.
void BitPack(const uint32_t* values, size_t n, int bit_width, std::string* out);
// Unpacks n values of bit_width bits from `in`, which must hold ceil(n * bit_width / 8) bytes.
void UnpackBits(const uint8_t* in, size_t n, int bit_width, uint32_t* out);
// Unpacks n values starting at bit `first_bit` of in[0..in_bytes), which must hold them all.
void UnpackBitsAt(const uint8_t* in, size_t in_bytes, size_t first_bit, size_t n, int bit_width, uint32_t* out);

class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width) { Reset(data, size, bit_width); }
  void Reset(const uint8_t* data, size_t size, int bit_width);

  // Decodes the next n values into out (T: uint8_t, int16_t, uint16_t, uint32_t). Fewer than n
  // values left, a bad run header or a value wider than T is an error.
  template <typename T>
  Status Get(T* out, size_t n);
  // Skips n values.
  Status Skip(size_t n);

  // Bytes consumed so far (through the last run header or value read).
  size_t position() const { return pos_; }

 private:
  Status NextRun();
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  int bit_width_ = 0;
  // The current run: an RLE run repeats rle_value_ rle_left_ times; a literal run has
  // literal_left_ values starting at bit literal_bit_ of data_.
  size_t rle_left_ = 0;
  uint32_t rle_value_ = 0;
  size_t literal_left_ = 0;
  size_t literal_bit_ = 0;
};

}  // namespace sluice::parquet
