#include "formats/parquet/value_decoders.h"

#include <cstring>
#include <string>

#include "types/vector.h"

namespace sluice::parquet {

namespace {

Status Truncated(std::string_view what) { return Status::InvalidArgument(std::string(what) + " runs past the end of the page"); }

// Reads `width` (<= 64) bits starting at bit `bit` of data[0..size), little-endian bit order as the
// Parquet bit-packing writes them. The caller checked that the bits lie inside the buffer.
inline uint64_t ReadBits(const uint8_t* data, size_t size, uint64_t bit, int width) {
  if (width == 0) return 0;
  size_t byte = bit >> 3;
  int shift = static_cast<int>(bit & 7);
  uint64_t lo = 0;
  size_t avail = size - byte;
  std::memcpy(&lo, data + byte, avail < 8 ? avail : 8);
  uint64_t v = lo >> shift;
  if (shift + width > 64) {
    // The value's top bits are in the ninth byte.
    v |= static_cast<uint64_t>(data[byte + 8]) << (64 - shift);
  }
  return width == 64 ? v : (v & ((uint64_t{1} << width) - 1));
}

}  // namespace

bool ReadUleb128(const uint8_t* data, size_t size, size_t* pos, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= size) return false;
    uint8_t b = data[(*pos)++];
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

// ---- PLAIN ----

Status PlainDecoder::DecodeBooleans(uint8_t* out, size_t n) {
  uint64_t first_bit = static_cast<uint64_t>(pos_) * 8 + bit_;
  if (first_bit + n > static_cast<uint64_t>(size_) * 8) return Truncated("PLAIN BOOLEAN values");
  size_t i = 0;
  // Finish the current byte, then whole bytes at a time.
  while (i < n && bit_ != 0) {
    out[i++] = (data_[pos_] >> bit_) & 1;
    if (++bit_ == 8) {
      bit_ = 0;
      ++pos_;
    }
  }
  while (i + 8 <= n) {
    uint8_t b = data_[pos_++];
    for (int k = 0; k < 8; ++k) out[i + k] = (b >> k) & 1;
    i += 8;
  }
  while (i < n) {
    out[i++] = (data_[pos_] >> bit_) & 1;
    ++bit_;
  }
  return Status::OK();
}

Status PlainDecoder::DecodeFixedWidth(void* out, size_t width, size_t n) {
  if (n > (size_ - pos_) / width) return Truncated("PLAIN values");
  std::memcpy(out, data_ + pos_, n * width);
  pos_ += n * width;
  return Status::OK();
}

Status PlainDecoder::TakeFixed(size_t width, size_t n, const uint8_t** out) {
  if (width == 0 || n > (size_ - pos_) / width) return Truncated("PLAIN values");
  *out = data_ + pos_;
  pos_ += n * width;
  return Status::OK();
}

Status PlainDecoder::DecodeByteArrays(std::string_view* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (size_ - pos_ < 4) return Truncated("PLAIN BYTE_ARRAY length");
    uint32_t len;
    std::memcpy(&len, data_ + pos_, 4);
    pos_ += 4;
    if (len > size_ - pos_) return Truncated("PLAIN BYTE_ARRAY value of " + std::to_string(len) + " bytes");
    out[i] = std::string_view(reinterpret_cast<const char*>(data_ + pos_), len);
    pos_ += len;
  }
  return Status::OK();
}

Status PlainDecoder::DecodeFixedLenByteArrays(std::string_view* out, size_t n) {
  size_t w = static_cast<size_t>(type_length_);
  if (w == 0) {
    for (size_t i = 0; i < n; ++i) out[i] = std::string_view();
    return Status::OK();
  }
  if (n > (size_ - pos_) / w) return Truncated("PLAIN FIXED_LEN_BYTE_ARRAY values");
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::string_view(reinterpret_cast<const char*>(data_ + pos_), w);
    pos_ += w;
  }
  return Status::OK();
}

// ---- BYTE_STREAM_SPLIT ----

Status ByteStreamSplitDecoder::Init(const uint8_t* data, size_t size, size_t width) {
  if (width == 0) return Status::InvalidArgument("BYTE_STREAM_SPLIT needs a fixed value width");
  if (size % width != 0) {
    return Status::InvalidArgument("BYTE_STREAM_SPLIT data of " + std::to_string(size) +
                                   " bytes is not a multiple of the value width " + std::to_string(width));
  }
  data_ = data;
  width_ = width;
  count_ = size / width;
  next_ = 0;
  return Status::OK();
}

Status ByteStreamSplitDecoder::DecodeFixedWidth(void* out, size_t n) {
  if (n > count_ - next_) return Truncated("BYTE_STREAM_SPLIT values");
  auto* dst = static_cast<uint8_t*>(out);
  for (size_t k = 0; k < width_; ++k) {
    const uint8_t* stream = data_ + k * count_ + next_;
    for (size_t i = 0; i < n; ++i) dst[i * width_ + k] = stream[i];
  }
  next_ += n;
  return Status::OK();
}

Status ByteStreamSplitDecoder::DecodeFixedLenByteArrays(std::string_view* out, size_t n) {
  if (n > count_ - next_) return Truncated("BYTE_STREAM_SPLIT values");
  if (!heap_) heap_ = std::make_shared<StringHeap>();
  char* buf = heap_->Allocate(n * width_);
  RETURN_IF_ERROR(DecodeFixedWidth(buf, n));
  for (size_t i = 0; i < n; ++i) out[i] = std::string_view(buf + i * width_, width_);
  return Status::OK();
}

// ---- DELTA_BINARY_PACKED ----

Status DeltaBinaryPackedDecoder::Init(const uint8_t* data, size_t size) {
  data_ = data;
  size_ = size;
  pos_ = 0;
  uint64_t first;
  if (!ReadUleb128(data, size, &pos_, &block_size_) || !ReadUleb128(data, size, &pos_, &miniblocks_) ||
      !ReadUleb128(data, size, &pos_, &total_) || !ReadUleb128(data, size, &pos_, &first)) {
    return Truncated("DELTA_BINARY_PACKED header");
  }
  if (block_size_ == 0 || block_size_ % 128 != 0 || miniblocks_ == 0 || block_size_ % miniblocks_ != 0 ||
      (block_size_ / miniblocks_) % 32 != 0 || block_size_ > (1u << 20)) {
    return Status::InvalidArgument("DELTA_BINARY_PACKED header has an invalid block size " + std::to_string(block_size_) +
                                   " with " + std::to_string(miniblocks_) + " miniblocks");
  }
  per_miniblock_ = block_size_ / miniblocks_;
  last_ = (first >> 1) ^ (~(first & 1) + 1);  // zigzag
  emitted_ = 0;
  widths_ = nullptr;
  miniblock_ = miniblocks_;
  left_in_miniblock_ = 0;
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::StartBlock() {
  uint64_t zz;
  if (!ReadUleb128(data_, size_, &pos_, &zz)) return Truncated("DELTA_BINARY_PACKED block header");
  min_delta_ = (zz >> 1) ^ (~(zz & 1) + 1);
  if (miniblocks_ > size_ - pos_) return Truncated("DELTA_BINARY_PACKED miniblock bit widths");
  widths_ = data_ + pos_;
  pos_ += miniblocks_;
  miniblock_ = 0;
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::StartMiniblock() {
  if (widths_ == nullptr || miniblock_ >= miniblocks_) RETURN_IF_ERROR(StartBlock());
  bit_width_ = widths_[miniblock_++];
  if (bit_width_ > 64) return Status::InvalidArgument("DELTA_BINARY_PACKED bit width " + std::to_string(bit_width_) + " exceeds 64");
  uint64_t values = per_miniblock_;
  uint64_t full_bytes = values * bit_width_ / 8;
  // Only the bits of the values still to come must be present (the last miniblock may be short).
  uint64_t needed = total_ - emitted_;
  uint64_t used = std::min<uint64_t>(values, needed);
  uint64_t need_bytes = (used * bit_width_ + 7) / 8;
  if (need_bytes > size_ - pos_) return Truncated("DELTA_BINARY_PACKED miniblock");
  body_ = data_ + pos_;
  body_size_ = std::min<uint64_t>(full_bytes, size_ - pos_);
  pos_ += body_size_;
  body_bit_ = 0;
  left_in_miniblock_ = values;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder::Decode(T* out, size_t n) {
  if (n > total_ - emitted_) return Truncated("DELTA_BINARY_PACKED values");
  size_t i = 0;
  if (n > 0 && emitted_ == 0) {
    out[i++] = static_cast<T>(last_);
    ++emitted_;
  }
  while (i < n) {
    if (left_in_miniblock_ == 0) RETURN_IF_ERROR(StartMiniblock());
    size_t run = std::min<uint64_t>(left_in_miniblock_, n - i);
    const uint64_t md = min_delta_;
    uint64_t v = last_;
    for (size_t k = 0; k < run; ++k) {
      v += md + ReadBits(body_, body_size_, body_bit_, bit_width_);
      body_bit_ += bit_width_;
      out[i + k] = static_cast<T>(v);
    }
    last_ = v;
    i += run;
    left_in_miniblock_ -= run;
    emitted_ += run;
  }
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::DecodeInt64(int64_t* out, size_t n) { return Decode(out, n); }
Status DeltaBinaryPackedDecoder::DecodeInt32(int32_t* out, size_t n) { return Decode(out, n); }

Status DeltaBinaryPackedDecoder::DecodeAll(std::vector<int64_t>* out, size_t* end_offset) {
  uint64_t left = total_ - emitted_;
  // Every block costs at least its header bytes, which bounds what the page can hold (a hostile
  // header must not make us allocate for billions of values).
  if (left > (size_ / (1 + miniblocks_) + 1) * block_size_ + 1) return Truncated("DELTA_BINARY_PACKED values");
  size_t old = out->size();
  out->resize(old + left);
  RETURN_IF_ERROR(Decode(out->data() + old, left));
  *end_offset = pos_;
  return Status::OK();
}

// ---- DELTA_LENGTH_BYTE_ARRAY ----

namespace {

Status CheckAnnounced(const DeltaBinaryPackedDecoder& d, size_t max_values, std::string_view what) {
  if (d.total_values() > max_values) {
    return Status::InvalidArgument(std::string(what) + " announces " + std::to_string(d.total_values()) +
                                   " values; the page has at most " + std::to_string(max_values));
  }
  return Status::OK();
}

}  // namespace

Status DeltaLengthByteArrayDecoder::Init(const uint8_t* data, size_t size, size_t max_values) {
  DeltaBinaryPackedDecoder lengths;
  RETURN_IF_ERROR(lengths.Init(data, size));
  RETURN_IF_ERROR(CheckAnnounced(lengths, max_values, "DELTA_LENGTH_BYTE_ARRAY"));
  lengths_.clear();
  size_t start = 0;
  RETURN_IF_ERROR(lengths.DecodeAll(&lengths_, &start));
  uint64_t total = 0;
  for (int64_t len : lengths_) {
    if (len < 0) return Status::InvalidArgument("DELTA_LENGTH_BYTE_ARRAY has a negative length " + std::to_string(len));
    total += static_cast<uint64_t>(len);
    if (total > size - start) return Truncated("DELTA_LENGTH_BYTE_ARRAY values");
  }
  data_ = data;
  pos_ = start;
  bytes_end_ = start + total;
  next_ = 0;
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::DecodeByteArrays(std::string_view* out, size_t n) {
  if (n > lengths_.size() - next_) return Truncated("DELTA_LENGTH_BYTE_ARRAY values");
  for (size_t i = 0; i < n; ++i) {
    size_t len = static_cast<size_t>(lengths_[next_ + i]);
    out[i] = std::string_view(reinterpret_cast<const char*>(data_ + pos_), len);
    pos_ += len;
  }
  next_ += n;
  return Status::OK();
}

// ---- DELTA_BYTE_ARRAY ----

Status DeltaByteArrayDecoder::Init(const uint8_t* data, size_t size, size_t max_values) {
  DeltaBinaryPackedDecoder prefixes;
  RETURN_IF_ERROR(prefixes.Init(data, size));
  RETURN_IF_ERROR(CheckAnnounced(prefixes, max_values, "DELTA_BYTE_ARRAY"));
  prefixes_.clear();
  size_t start = 0;
  RETURN_IF_ERROR(prefixes.DecodeAll(&prefixes_, &start));
  RETURN_IF_ERROR(suffixes_.Init(data + start, size - start, max_values));
  next_ = 0;
  last_ = std::string_view();
  heap_ = std::make_shared<StringHeap>();
  return Status::OK();
}

Status DeltaByteArrayDecoder::DecodeByteArrays(std::string_view* out, size_t n) {
  if (n > prefixes_.size() - next_) return Truncated("DELTA_BYTE_ARRAY values");
  RETURN_IF_ERROR(suffixes_.DecodeByteArrays(out, n));
  for (size_t i = 0; i < n; ++i) {
    int64_t prefix = prefixes_[next_ + i];
    if (prefix < 0 || static_cast<uint64_t>(prefix) > last_.size()) {
      return Status::InvalidArgument("DELTA_BYTE_ARRAY prefix length " + std::to_string(prefix) +
                                     " exceeds the previous value's " + std::to_string(last_.size()) + " bytes");
    }
    std::string_view suffix = out[i];
    size_t len = static_cast<size_t>(prefix) + suffix.size();
    if (prefix == 0) {
      // No shared prefix: the suffix bytes in the page are the value.
      out[i] = suffix;
    } else {
      char* p = heap_->Allocate(len);
      std::memcpy(p, last_.data(), static_cast<size_t>(prefix));
      if (!suffix.empty()) std::memcpy(p + prefix, suffix.data(), suffix.size());
      out[i] = std::string_view(p, len);
    }
    last_ = out[i];
  }
  next_ += n;
  return Status::OK();
}

}  // namespace sluice::parquet
