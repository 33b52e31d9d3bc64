// AvroValue: one decoded Avro datum of any schema, for metadata-sized data (Iceberg manifests hold
// one record per data file, not per row). Rows of a table never go through it.
//
// A value does not remember its schema. Unions are transparent: a union datum is the value of its
// branch, and the encoder picks the branch from the value's kind (null -> the null branch, otherwise
// the first branch that can hold it). Records hold their fields by position in the schema they
// were decoded with (the reader's schema after resolution); maps hold their entries in file order.
//
// Threading: a plain value.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sluice {

class AvroValue {
 public:
  enum class Kind : uint8_t { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString, kFixed, kEnum,
                              kArray, kMap, kRecord };
  using Entries = std::vector<std::pair<std::string, AvroValue>>;

  AvroValue() = default;
  static AvroValue Null() { return AvroValue(); }
  static AvroValue Boolean(bool v) { return AvroValue(Kind::kBoolean, v); }
  static AvroValue Int(int32_t v) { return AvroValue(Kind::kInt, int64_t{v}); }
  static AvroValue Long(int64_t v) { return AvroValue(Kind::kLong, v); }
  static AvroValue Float(float v) { return AvroValue(Kind::kFloat, v); }
  static AvroValue Double(double v) { return AvroValue(Kind::kDouble, v); }
  static AvroValue Bytes(std::string v) { return AvroValue(Kind::kBytes, std::move(v)); }
  static AvroValue String(std::string v) { return AvroValue(Kind::kString, std::move(v)); }
  static AvroValue Fixed(std::string v) { return AvroValue(Kind::kFixed, std::move(v)); }
  static AvroValue Enum(int32_t index) { return AvroValue(Kind::kEnum, int64_t{index}); }
  static AvroValue Array(std::vector<AvroValue> items) { return AvroValue(Kind::kArray, std::move(items)); }
  static AvroValue Map(Entries entries) { return AvroValue(Kind::kMap, std::move(entries)); }
  static AvroValue Record(std::vector<AvroValue> fields) { return AvroValue(Kind::kRecord, std::move(fields)); }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool boolean() const { return std::get<bool>(data_); }
  // int, long and enum (the symbol's index).
  int64_t integer() const { return std::get<int64_t>(data_); }
  float float_value() const { return std::get<float>(data_); }
  double double_value() const { return std::get<double>(data_); }
  // bytes, string and fixed.
  const std::string& bytes() const { return std::get<std::string>(data_); }
  // array items or record fields.
  const std::vector<AvroValue>& items() const { return std::get<std::vector<AvroValue>>(data_); }
  std::vector<AvroValue>& mutable_items() { return std::get<std::vector<AvroValue>>(data_); }
  const Entries& entries() const { return std::get<Entries>(data_); }
  Entries& mutable_entries() { return std::get<Entries>(data_); }

  // A record's field (by position in its schema).
  const AvroValue& field(size_t i) const { return items()[i]; }

  bool operator==(const AvroValue& other) const { return kind_ == other.kind_ && data_ == other.data_; }

  // A short human-readable form for tests and error messages ({"a": 1, "b": [..]}); bytes as hex.
  std::string DebugString() const;

 private:
  template <typename T>
  AvroValue(Kind kind, T value) : kind_(kind), data_(std::move(value)) {}

  Kind kind_ = Kind::kNull;
  std::variant<std::monostate, bool, int64_t, float, double, std::string, std::vector<AvroValue>, Entries> data_;
};

}  // namespace sluice
