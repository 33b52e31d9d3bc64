// Thrift compact protocol: the encoding of Parquet's footer and page headers (parquet.thrift).
//
// ThriftWriter appends a compact-protocol encoding to a std::string: structs are written as a
// sequence of field headers (the id as a delta from the previous field of the same struct when it
// fits in 4 bits, else the zigzag varint id) and values, closed by a stop byte. Bool fields carry
// their value in the header's type nibble. ThriftWriter never fails.
//
// ThriftReader decodes untrusted bytes (a footer read from any file, fuzzed input): every read is
// bounds-checked, struct/list nesting is bounded (kMaxDepth), and a list claims at most as many
// elements as there are bytes left, so a malformed input yields a Status naming what was wrong and
// the byte offset, never a crash or an unbounded allocation. Unknown fields are skipped with Skip.
//
// Threading: a writer or reader is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice::parquet {

// The compact protocol's type nibbles.
enum class ThriftType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// Varint and zigzag helpers, shared with the RLE hybrid (whose run headers are ULEB128 varints).
void AppendVarint(std::string* out, uint64_t v);
inline uint64_t ZigZagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t ZigZagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

class ThriftWriter {
 public:
  explicit ThriftWriter(std::string* out) : out_(out) {}

  // Struct framing. The top-level value is a struct too: BeginStruct ... EndStruct.
  void BeginStruct();
  void EndStruct();  // writes the stop byte

  void FieldBool(int16_t id, bool v);
  void FieldI8(int16_t id, int8_t v);
  void FieldI16(int16_t id, int16_t v);
  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldDouble(int16_t id, double v);
  void FieldBinary(int16_t id, std::string_view v);
  // A struct-valued field: the header, then BeginStruct; the caller writes the fields and EndStruct.
  void FieldStructBegin(int16_t id);
  // Only the header of a struct-valued field, for a value written by a function that frames the
  // struct itself (BeginStruct ... EndStruct).
  void FieldStructHeader(int16_t id) { FieldHeader(id, ThriftType::kStruct); }
  // A list-valued field: the header and the list header; then `size` elements with the Element*
  // calls (or BeginStruct/EndStruct per element for a list of structs).
  void FieldListBegin(int16_t id, ThriftType element_type, size_t size);

  void ElementI32(int32_t v);
  void ElementI64(int64_t v);
  void ElementBinary(std::string_view v);
  void ElementBool(bool v);

  std::string* out() { return out_; }

 private:
  void FieldHeader(int16_t id, ThriftType type);
  std::string* out_;
  std::vector<int16_t> last_ids_;
  int16_t last_id_ = 0;
};

class ThriftReader {
 public:
  static constexpr int kMaxDepth = 64;

  ThriftReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  ThriftReader(std::string_view bytes)  // NOLINT
      : ThriftReader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) {}

  Status BeginStruct();
  Status EndStruct();
  // Reads the next field header of the current struct; `*type` is kStop at the end.
  Status ReadFieldHeader(int16_t* id, ThriftType* type);

  // Typed reads of a field whose header said `type`: a different type is an error naming the field.
  Status ReadBool(ThriftType type, bool* v);
  Status ReadI8(ThriftType type, int8_t* v);
  Status ReadI16(ThriftType type, int16_t* v);
  Status ReadI32(ThriftType type, int32_t* v);
  Status ReadI64(ThriftType type, int64_t* v);
  Status ReadDouble(ThriftType type, double* v);
  Status ReadBinary(ThriftType type, std::string* v);
  // A list (or set) header; the element count is at most the bytes left.
  Status ReadListBegin(ThriftType type, ThriftType* element_type, size_t* size);

  // List elements (no field header).
  Status ReadElementBool(bool* v);
  Status ReadElementI32(int32_t* v);
  Status ReadElementI64(int64_t* v);
  Status ReadElementBinary(std::string* v);

  // Skips a value of any type (nested containers included, bounded by kMaxDepth).
  Status Skip(ThriftType type);

  size_t position() const { return pos_; }
  // The error every decode failure returns, with the byte offset.
  Status Error(std::string_view what) const;

 private:
  Status ReadByte(uint8_t* b);
  Status ReadVarint(uint64_t* v);
  Status ReadZigZag(int64_t* v);
  Status ExpectType(ThriftType got, ThriftType want);
  Status SkipInternal(ThriftType type, int depth);

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::vector<int16_t> last_ids_;
  int16_t last_id_ = 0;
};

}  // namespace sluice::parquet
