// LogicalType: a Flink SQL data type (DataTypes in Flink's API), with nullability and parameters.
//
// Types are small immutable values; nested types (ARRAY, MAP, MULTISET, ROW) share their children
// through shared_ptr, so copying a type never copies a tree. ToString() prints Flink's spelling
// ("BIGINT NOT NULL", "VARCHAR(10)", "STRING", "DECIMAL(10, 2)", "TIMESTAMP(3)",
// "TIMESTAMP_LTZ(3)", "ARRAY<INT>", "ROW<`a` INT, `b` STRING>"), which DESCRIBE and errors show.
//
// Physical layout of each type inside a Vector (see vector.h) is fixed here, once:
//   BOOLEAN -> uint8_t (0/1)          TINYINT -> int8_t      SMALLINT -> int16_t
//   INTEGER -> int32_t                BIGINT -> int64_t      FLOAT -> float   DOUBLE -> double
//   DECIMAL(p,s) -> __int128 unscaled value (value * 10^s)
//   CHAR/VARCHAR/BINARY/VARBINARY -> std::string_view into the vector's string heap
//   DATE -> int32_t days since 1970-01-01
//   TIME(p) -> int32_t milliseconds of the day (Flink keeps TIME at millisecond precision)
//   TIMESTAMP(p), TIMESTAMP_LTZ(p) -> int64_t microseconds since 1970-01-01 00:00:00 (UTC for LTZ)
//   INTERVAL DAY TO SECOND -> int64_t milliseconds;  INTERVAL YEAR TO MONTH -> int32_t months
//   ARRAY, MAP, MULTISET -> ListEntry {offset, length} into child vector(s)
//   ROW -> no data of its own; one child vector per field
//   NULL (the type of an untyped NULL literal) -> no data; every row is null
//
// Threading: immutable after construction; safe to share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sluice {

enum class TypeId : uint8_t {
  kNull,
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInteger,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kChar,
  kVarChar,
  kBinary,
  kVarBinary,
  kDate,
  kTime,
  kTimestamp,
  kTimestampLtz,
  kIntervalDayTime,
  kIntervalYearMonth,
  kArray,
  kMap,
  kMultiset,
  kRow,
};

// Time attribute marker carried by a TIMESTAMP/TIMESTAMP_LTZ column, as Flink's *ROWTIME* and
// *PROCTIME* (printed by DESCRIBE and EXPLAIN). Any expression other than a plain reference drops it.
enum class TimeAttribute : uint8_t { kNone, kRowtime, kProctime };

class LogicalType {
 public:
  static constexpr int32_t kMaxVarCharLength = 2147483647;
  static constexpr int kDefaultTimestampPrecision = 6;
  static constexpr int kMaxDecimalPrecision = 38;

  LogicalType() = default;  // NULL type
  static LogicalType Null() { return LogicalType(TypeId::kNull); }
  static LogicalType Boolean() { return LogicalType(TypeId::kBoolean); }
  static LogicalType TinyInt() { return LogicalType(TypeId::kTinyInt); }
  static LogicalType SmallInt() { return LogicalType(TypeId::kSmallInt); }
  static LogicalType Integer() { return LogicalType(TypeId::kInteger); }
  static LogicalType BigInt() { return LogicalType(TypeId::kBigInt); }
  static LogicalType Float() { return LogicalType(TypeId::kFloat); }
  static LogicalType Double() { return LogicalType(TypeId::kDouble); }
  static LogicalType Decimal(int precision, int scale);
  static LogicalType Char(int32_t length);
  static LogicalType VarChar(int32_t length);
  static LogicalType String() { return VarChar(kMaxVarCharLength); }
  static LogicalType Binary(int32_t length);
  static LogicalType VarBinary(int32_t length);
  static LogicalType Bytes() { return VarBinary(kMaxVarCharLength); }
  static LogicalType Date() { return LogicalType(TypeId::kDate); }
  static LogicalType Time(int precision = 0);
  static LogicalType Timestamp(int precision = kDefaultTimestampPrecision);
  static LogicalType TimestampLtz(int precision = kDefaultTimestampPrecision);
  // `precision` is the leading field's precision and `fraction` the second's, as Flink's
  // INTERVAL DAY(p) TO SECOND(f); only printing uses them.
  static LogicalType IntervalDayTime(int precision = 2, int fraction = 6);
  static LogicalType IntervalYearMonth(int precision = 2);
  static LogicalType Array(LogicalType element);
  static LogicalType Multiset(LogicalType element);
  static LogicalType Map(LogicalType key, LogicalType value);
  static LogicalType Row(std::vector<std::string> names, std::vector<LogicalType> types);

  TypeId id() const { return id_; }
  bool nullable() const { return nullable_; }
  // Copy with the given nullability ("INT NOT NULL" vs "INT").
  LogicalType WithNullable(bool nullable) const;
  TimeAttribute time_attribute() const { return time_attr_; }
  LogicalType WithTimeAttribute(TimeAttribute attr) const;

  // DECIMAL precision, TIME/TIMESTAMP precision, CHAR/VARCHAR/BINARY length (all in one slot).
  int32_t precision() const { return precision_; }
  int32_t length() const { return precision_; }
  int32_t scale() const { return scale_; }

  // ARRAY/MULTISET element; MAP key is child(0) and value child(1); ROW fields.
  size_t num_children() const { return children_ ? children_->types.size() : 0; }
  const LogicalType& child(size_t i) const { return children_->types[i]; }
  const std::string& field_name(size_t i) const { return children_->names[i]; }
  const std::vector<LogicalType>& children() const;
  const std::vector<std::string>& field_names() const;

  bool IsNumeric() const;       // TINYINT..DOUBLE and DECIMAL
  bool IsIntegral() const;      // TINYINT..BIGINT
  bool IsApproximate() const { return id_ == TypeId::kFloat || id_ == TypeId::kDouble; }
  bool IsCharacterString() const { return id_ == TypeId::kChar || id_ == TypeId::kVarChar; }
  bool IsBinaryString() const { return id_ == TypeId::kBinary || id_ == TypeId::kVarBinary; }
  bool IsStringLike() const { return IsCharacterString() || IsBinaryString(); }
  bool IsTimestamp() const { return id_ == TypeId::kTimestamp || id_ == TypeId::kTimestampLtz; }
  bool IsInterval() const { return id_ == TypeId::kIntervalDayTime || id_ == TypeId::kIntervalYearMonth; }
  bool IsTemporal() const;      // DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ
  bool IsNested() const;        // ARRAY, MAP, MULTISET, ROW
  bool IsList() const { return id_ == TypeId::kArray || id_ == TypeId::kMap || id_ == TypeId::kMultiset; }

  // Bytes per row in a Vector's data buffer (0 for ROW and NULL).
  size_t PhysicalWidth() const;

  // Flink's spelling (see the file comment). The time attribute is printed as " *ROWTIME*".
  std::string ToString() const;

  // Equality ignores the time attribute; EqualsIgnoringNullability also ignores nullability.
  bool operator==(const LogicalType& other) const;
  bool operator!=(const LogicalType& other) const { return !(*this == other); }
  bool EqualsIgnoringNullability(const LogicalType& other) const;

 private:
  explicit LogicalType(TypeId id) : id_(id) {}
  struct Children {
    std::vector<std::string> names;  // ROW field names; empty otherwise
    std::vector<LogicalType> types;
  };
  TypeId id_ = TypeId::kNull;
  bool nullable_ = true;
  TimeAttribute time_attr_ = TimeAttribute::kNone;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  std::shared_ptr<const Children> children_;
};

// The physical element of ARRAY/MAP/MULTISET rows.
struct ListEntry {
  uint32_t offset;
  uint32_t length;
};

}  // namespace sluice
