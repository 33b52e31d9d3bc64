#include "formats/parquet/rle_bitpacked.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/parquet/thrift_compact.h"

namespace sluice::parquet {

int BitWidthOf(uint64_t max_value) {
  int w = 0;
  while (max_value != 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

void BitPack(const uint32_t* values, size_t n, int bit_width, std::string* out) {
  if (bit_width == 0 || n == 0) return;
  size_t start = out->size();
  out->resize(start + (n * bit_width + 7) / 8);
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  size_t i = 0;
  if (bit_width <= 16) {
    // Whole groups of 8 values fill exactly bit_width bytes: pack each group in one register.
    for (; i + 8 <= n; i += 8) {
      unsigned __int128 group = 0;
      for (int j = 0; j < 8; ++j) group |= static_cast<unsigned __int128>(values[i + j]) << (j * bit_width);
      std::memcpy(dst, &group, bit_width);
      dst += bit_width;
    }
  }
  uint64_t acc = 0;
  int bits = 0;
  for (; i < n; ++i) {
    acc |= static_cast<uint64_t>(values[i]) << bits;
    bits += bit_width;
    while (bits >= 8) {
      *dst++ = static_cast<uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) *dst = static_cast<uint8_t>(acc);
}

void UnpackBitsAt(const uint8_t* in, size_t in_bytes, size_t first_bit, size_t n, int bit_width, uint32_t* out) {
  if (bit_width == 0) {
    std::fill(out, out + n, 0u);
    return;
  }
  const uint64_t mask = bit_width == 32 ? 0xFFFFFFFFull : ((1ull << bit_width) - 1);
  size_t bit = first_bit;
  for (size_t i = 0; i < n; ++i, bit += bit_width) {
    size_t byte = bit >> 3;
    uint64_t word = 0;
    // A value spans at most 5 bytes (32 bits at a shift of up to 7); near the end, load fewer.
    if (byte + 8 <= in_bytes) {
      std::memcpy(&word, in + byte, 8);
    } else {
      std::memcpy(&word, in + byte, in_bytes - byte);
    }
    out[i] = static_cast<uint32_t>((word >> (bit & 7)) & mask);
  }
}

void UnpackBits(const uint8_t* in, size_t n, int bit_width, uint32_t* out) {
  UnpackBitsAt(in, (n * bit_width + 7) / 8, 0, n, bit_width, out);
}

namespace {

template <typename T>
void AppendLiteral(const T* values, size_t n, int bit_width, std::string* out) {
  if (n == 0) return;
  size_t groups = (n + 7) / 8;
  AppendVarint(out, (groups << 1) | 1);
  uint32_t buf[64];
  size_t padded = groups * 8;
  for (size_t i = 0; i < padded; i += 64) {
    size_t m = std::min<size_t>(64, padded - i);
    for (size_t j = 0; j < m; ++j) buf[j] = i + j < n ? static_cast<uint32_t>(values[i + j]) : 0u;
    BitPack(buf, m, bit_width, out);
  }
}

void AppendRle(uint32_t value, size_t count, int bit_width, std::string* out) {
  AppendVarint(out, count << 1);
  int bytes = (bit_width + 7) / 8;
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}


// The end of the run of values equal to values[pos], comparing 8 bytes at a time.
template <typename T>
size_t RunEnd(const T* values, size_t pos, size_t n) {
  const T x = values[pos];
  size_t e = pos + 1;
  constexpr size_t kPerWord = 8 / sizeof(T);
  uint64_t pattern = 0;
  for (size_t i = 0; i < kPerWord; ++i) std::memcpy(reinterpret_cast<char*>(&pattern) + i * sizeof(T), &x, sizeof(T));
  while (e + kPerWord <= n) {
    uint64_t w;
    std::memcpy(&w, values + e, 8);
    if (w != pattern) break;
    e += kPerWord;
  }
  while (e < n && values[e] == x) ++e;
  return e;
}

}  // namespace

template <typename T>
void EncodeRleBitPacked(const T* values, size_t n, int bit_width, std::string* out) {
  size_t literal_start = 0;
  size_t pos = 0;
  while (pos < n) {
    size_t run_end = RunEnd(values, pos, n);
    size_t run = run_end - pos;
    if (run >= 8) {
      // Literal values must come in whole groups of 8 except at the end: top them up from this run.
      size_t pad = (8 - (pos - literal_start) % 8) % 8;
      if (run - pad >= 8) {
        AppendLiteral(values + literal_start, pos + pad - literal_start, bit_width, out);
        AppendRle(static_cast<uint32_t>(values[pos]), run - pad, bit_width, out);
        literal_start = run_end;
      }
    }
    pos = run_end;
  }
  AppendLiteral(values + literal_start, n - literal_start, bit_width, out);
}

template void EncodeRleBitPacked<uint8_t>(const uint8_t*, size_t, int, std::string*);
template void EncodeRleBitPacked<int16_t>(const int16_t*, size_t, int, std::string*);
template void EncodeRleBitPacked<uint16_t>(const uint16_t*, size_t, int, std::string*);
template void EncodeRleBitPacked<uint32_t>(const uint32_t*, size_t, int, std::string*);

void EncodeLevelsV1(const int16_t* levels, size_t n, int16_t max_level, std::string* out) {
  if (max_level == 0) return;
  size_t start = out->size();
  out->append(4, '\0');
  EncodeRleBitPacked(levels, n, BitWidthOf(static_cast<uint64_t>(max_level)), out);
  uint32_t len = static_cast<uint32_t>(out->size() - start - 4);
  std::memcpy(out->data() + start, &len, 4);
}

// ---------------------------------------------------------------------------------------------
// Decoder

void RleBitPackedDecoder::Reset(const uint8_t* data, size_t size, int bit_width) {
  data_ = data;
  size_ = size;
  pos_ = 0;
  bit_width_ = bit_width;
  rle_left_ = 0;
  literal_left_ = 0;
  literal_bit_ = 0;
}

Status RleBitPackedDecoder::NextRun() {
  if (bit_width_ < 0 || bit_width_ > 32) {
    return Status::InvalidArgument("RLE/bit-packed data has bit width " + std::to_string(bit_width_) +
                                   " (at most 32)");
  }
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= size_) return Status::InvalidArgument("RLE/bit-packed data ends before its values do");
    if (shift > 35) return Status::InvalidArgument("RLE/bit-packed run header is too long");
    uint8_t b = data_[pos_++];
    header |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
  }
  if (header & 1) {
    uint64_t count = (header >> 1) * 8;
    if (count == 0) return Status::InvalidArgument("RLE/bit-packed data has an empty bit-packed run");
    size_t avail_bits = (size_ - pos_) * 8;
    size_t needed_bits = count * bit_width_;
    if (needed_bits > avail_bits) {
      // The last run of a page may stop at the last value's byte instead of the group's end.
      count = avail_bits / bit_width_;
      needed_bits = count * bit_width_;
      if (count == 0) return Status::InvalidArgument("RLE/bit-packed run is longer than the data");
    }
    literal_left_ = count;
    literal_bit_ = pos_ * 8;
    pos_ += (needed_bits + 7) / 8;
  } else {
    uint64_t count = header >> 1;
    if (count == 0) return Status::InvalidArgument("RLE/bit-packed data has an empty RLE run");
    int bytes = (bit_width_ + 7) / 8;
    if (size_ - pos_ < static_cast<size_t>(bytes)) {
      return Status::InvalidArgument("RLE run value is cut off by the end of the data");
    }
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += bytes;
    rle_value_ = v;
    rle_left_ = count;
  }
  return Status::OK();
}

template <typename T>
Status RleBitPackedDecoder::Get(T* out, size_t n) {
  constexpr uint64_t kMax = std::numeric_limits<T>::max();
  size_t done = 0;
  uint32_t buf[64];
  while (done < n) {
    if (rle_left_ == 0 && literal_left_ == 0) RETURN_IF_ERROR(NextRun());
    if (rle_left_ > 0) {
      if (rle_value_ > kMax) return Status::InvalidArgument("RLE run value out of range");
      size_t m = std::min(rle_left_, n - done);
      std::fill(out + done, out + done + m, static_cast<T>(rle_value_));
      rle_left_ -= m;
      done += m;
      continue;
    }
    size_t m = std::min<size_t>({literal_left_, n - done, 64});
    UnpackBitsAt(data_, size_, literal_bit_, m, bit_width_, buf);
    for (size_t j = 0; j < m; ++j) {
      if constexpr (sizeof(T) < 4) {
        if (buf[j] > kMax) return Status::InvalidArgument("bit-packed value out of range");
      }
      out[done + j] = static_cast<T>(buf[j]);
    }
    literal_bit_ += m * bit_width_;
    literal_left_ -= m;
    done += m;
  }
  return Status::OK();
}

template Status RleBitPackedDecoder::Get<uint8_t>(uint8_t*, size_t);
template Status RleBitPackedDecoder::Get<int16_t>(int16_t*, size_t);
template Status RleBitPackedDecoder::Get<uint16_t>(uint16_t*, size_t);
template Status RleBitPackedDecoder::Get<uint32_t>(uint32_t*, size_t);

Status RleBitPackedDecoder::Skip(size_t n) {
  uint32_t buf[256];
  while (n > 0) {
    size_t m = std::min<size_t>(n, 256);
    RETURN_IF_ERROR(Get(buf, m));
    n -= m;
  }
  return Status::OK();
}

}  // namespace sluice::parquet
