// Avro's binary encoding: zigzag varints, length-prefixed bytes, little-endian floats, blocked
// arrays and maps (a negative block count is followed by the block's byte size), unions as a branch
// index and the branch's datum.
//
// AvroDecoder reads from a byte range it does not own and checks every length against what is
// left, so a malformed or hostile input ends in an InvalidArgument naming the byte offset (these
// decoders are fuzzed). AvroEncoder appends to a std::string.
//
// Threading: encoders and decoders are used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sluice {

// Nesting limit for decoding and encoding (a recursive schema could otherwise recurse without end).
inline constexpr int kMaxAvroDepth = 100;

class AvroDecoder {
 public:
  explicit AvroDecoder(std::string_view data) : data_(data) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }

  Result<int64_t> ReadLong();
  Result<int32_t> ReadInt();
  Result<bool> ReadBoolean();
  Result<float> ReadFloat();
  Result<double> ReadDouble();
  // bytes and string: a long length and that many bytes (a view into the input).
  Result<std::string_view> ReadBytes();
  Result<std::string_view> ReadFixed(size_t size);
  // The item count of the next array or map block (0 ends the array or map). A negative count on
  // the wire is returned as its absolute value and its byte size is read and checked.
  Result<int64_t> ReadBlockCount();
  Status Skip(size_t n);

  // "... at byte N" errors for callers that check what they read.
  Status Error(const std::string& what) const;

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

class AvroEncoder {
 public:
  explicit AvroEncoder(std::string* out) : out_(out) {}

  void WriteLong(int64_t v);
  void WriteInt(int32_t v) { WriteLong(v); }
  void WriteBoolean(bool v) { out_->push_back(v ? 1 : 0); }
  void WriteFloat(float v);
  void WriteDouble(double v);
  void WriteBytes(std::string_view v);
  void WriteFixed(std::string_view v) { out_->append(v); }

 private:
  std::string* out_;
};

// Decodes one datum written with `schema`.
Status DecodeAvroValue(const AvroNode& schema, AvroDecoder* decoder, AvroValue* out, int depth = 0);
// Skips one datum written with `schema`.
Status SkipAvroValue(const AvroNode& schema, AvroDecoder* decoder, int depth = 0);
// Encodes `value` as `schema`; a value that does not fit the schema is an InvalidArgument naming
// the field path.
Status EncodeAvroValue(const AvroNode& schema, const AvroValue& value, AvroEncoder* encoder);

}  // namespace sluice
