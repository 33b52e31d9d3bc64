// IcebergLiteral: one typed primitive value at the metadata level — a partition value, a column's
// lower or upper bound, a default value. Never used per row: data is columnar (types/vector.h) and
// partition transforms run on whole columns (partition_transforms.h).
//
// Representations follow the spec: int/date in `int_value` (32-bit range), long/time/timestamp* in
// `int_value` (micros, or nanos for the _ns types), float/double in `double_value`, decimal as its
// unscaled value, string as UTF-8 bytes, uuid as its 16 bytes (big-endian, as written), fixed and
// binary as bytes.
//
// Serialized forms:
//  - binary ("Appendix D: Single-value serialization"), used by manifests' lower/upper bounds:
//    little-endian ints/longs/floats/doubles, one byte for a boolean, UTF-8 for strings, big-endian
//    16 bytes for uuid, minimal two's-complement big-endian for a decimal's unscaled value.
//    Reading also accepts a 4-byte int for a long column and a 4-byte float for a double column (a
//    promoted column's old bounds).
//  - JSON ("Appendix C: JSON serialization", single values): numbers, decimals as strings "14.20",
//    dates "2017-11-16", times "22:31:08.123456", timestamps "2017-11-16T22:31:08.123456" (+00:00 for
//    timestamptz; 9 fraction digits for the _ns types), uuid in its 8-4-4-4-12 form, fixed and binary
//    as hex.
//  - human (Java's Transform.toHumanString): the text of a partition path before URL-escaping.
//
// Threading: a plain value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "connectors/iceberg/iceberg_types.h"

namespace sluice {

class IcebergLiteral {
 public:
  IcebergLiteral() = default;  // boolean false
  static IcebergLiteral Boolean(bool v);
  static IcebergLiteral Int(int32_t v);
  static IcebergLiteral Long(int64_t v);
  static IcebergLiteral Float(float v);
  static IcebergLiteral Double(double v);
  static IcebergLiteral Decimal(__int128 unscaled, int precision, int scale);
  static IcebergLiteral Date(int32_t days);
  static IcebergLiteral Time(int64_t micros);
  static IcebergLiteral Timestamp(int64_t micros);
  static IcebergLiteral TimestampTz(int64_t micros);
  static IcebergLiteral TimestampNs(int64_t nanos);
  static IcebergLiteral TimestampTzNs(int64_t nanos);
  static IcebergLiteral String(std::string v);
  static IcebergLiteral Uuid(std::string bytes16);
  static IcebergLiteral Fixed(std::string bytes);
  static IcebergLiteral Binary(std::string bytes);
  // Any integer-represented type (int, long, date, time, timestamp*) from its int64 representation.
  static IcebergLiteral OfInt(const IcebergType& type, int64_t v);

  const IcebergType& type() const { return type_; }
  bool bool_value() const { return int_value_ != 0; }
  int64_t int_value() const { return int_value_; }
  double double_value() const { return double_value_; }
  __int128 unscaled() const { return unscaled_; }
  const std::string& bytes() const { return bytes_; }

  // Appendix D binary form.
  std::string ToBytes() const;
  [[nodiscard]] static Result<IcebergLiteral> FromBytes(const IcebergType& type, std::string_view bytes);

  // Appendix C JSON form (the JSON text of the value).
  std::string ToJson() const;
  [[nodiscard]] static Result<IcebergLiteral> FromJson(const IcebergType& type, std::string_view json);

  // Java's toHumanString (identity partition text): "2026-08-15", "2026-08-15T05:00",
  // "2026-08-15T05:00Z", "12.50", base64 for binary/fixed.
  std::string ToHumanString() const;

  // Orders two values of the same type (bounds): strings and binary as unsigned bytes, NaN last.
  int Compare(const IcebergLiteral& other) const;
  bool operator==(const IcebergLiteral& other) const;
  bool operator!=(const IcebergLiteral& other) const { return !(*this == other); }

 private:
  IcebergType type_;
  int64_t int_value_ = 0;
  double double_value_ = 0;
  __int128 unscaled_ = 0;
  std::string bytes_;
};

// Java's LocalDateTime/LocalTime toString shapes used by Iceberg's human strings:
// "HH:mm", then ":ss" when seconds or a fraction are non-zero, then 3, 6 or 9 fraction digits.
void AppendJavaLocalTime(int64_t nanos_of_day, std::string* out);
// A UUID's 16 bytes as "f79c3e09-677c-4bbd-a479-3f349cb785e7", and back.
std::string FormatUuid(std::string_view bytes16);
std::optional<std::string> ParseUuid(std::string_view text);

}  // namespace sluice
