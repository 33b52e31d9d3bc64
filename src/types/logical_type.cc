#include "types/logical_type.h"

#include "common/check.h"

namespace sluice {

namespace {
const std::vector<LogicalType>& EmptyTypes() {
  static const std::vector<LogicalType> kEmpty;
  return kEmpty;
}
const std::vector<std::string>& EmptyNames() {
  static const std::vector<std::string> kEmpty;
  return kEmpty;
}
}  // namespace

LogicalType LogicalType::Decimal(int precision, int scale) {
  LogicalType t(TypeId::kDecimal);
  t.precision_ = precision;
  t.scale_ = scale;
  return t;
}
LogicalType LogicalType::Char(int32_t length) {
  LogicalType t(TypeId::kChar);
  t.precision_ = length;
  return t;
}
LogicalType LogicalType::VarChar(int32_t length) {
  LogicalType t(TypeId::kVarChar);
  t.precision_ = length;
  return t;
}
LogicalType LogicalType::Binary(int32_t length) {
  LogicalType t(TypeId::kBinary);
  t.precision_ = length;
  return t;
}
LogicalType LogicalType::VarBinary(int32_t length) {
  LogicalType t(TypeId::kVarBinary);
  t.precision_ = length;
  return t;
}
LogicalType LogicalType::Time(int precision) {
  LogicalType t(TypeId::kTime);
  t.precision_ = precision;
  return t;
}
LogicalType LogicalType::Timestamp(int precision) {
  LogicalType t(TypeId::kTimestamp);
  t.precision_ = precision;
  return t;
}
LogicalType LogicalType::TimestampLtz(int precision) {
  LogicalType t(TypeId::kTimestampLtz);
  t.precision_ = precision;
  return t;
}
LogicalType LogicalType::IntervalDayTime(int precision, int fraction) {
  LogicalType t(TypeId::kIntervalDayTime);
  t.precision_ = precision;
  t.scale_ = fraction;
  return t;
}
LogicalType LogicalType::IntervalYearMonth(int precision) {
  LogicalType t(TypeId::kIntervalYearMonth);
  t.precision_ = precision;
  return t;
}
LogicalType LogicalType::Array(LogicalType element) {
  LogicalType t(TypeId::kArray);
  t.children_ = std::make_shared<const Children>(Children{{}, {std::move(element)}});
  return t;
}
LogicalType LogicalType::Multiset(LogicalType element) {
  LogicalType t(TypeId::kMultiset);
  t.children_ = std::make_shared<const Children>(Children{{}, {std::move(element)}});
  return t;
}
LogicalType LogicalType::Map(LogicalType key, LogicalType value) {
  LogicalType t(TypeId::kMap);
  t.children_ = std::make_shared<const Children>(Children{{}, {std::move(key), std::move(value)}});
  return t;
}
LogicalType LogicalType::Row(std::vector<std::string> names, std::vector<LogicalType> types) {
  SLUICE_CHECK_EQ(names.size(), types.size());
  LogicalType t(TypeId::kRow);
  t.children_ = std::make_shared<const Children>(Children{std::move(names), std::move(types)});
  return t;
}

LogicalType LogicalType::WithNullable(bool nullable) const {
  LogicalType t = *this;
  t.nullable_ = nullable;
  return t;
}

LogicalType LogicalType::WithTimeAttribute(TimeAttribute attr) const {
  LogicalType t = *this;
  t.time_attr_ = attr;
  return t;
}

const std::vector<LogicalType>& LogicalType::children() const {
  return children_ ? children_->types : EmptyTypes();
}
const std::vector<std::string>& LogicalType::field_names() const {
  return children_ ? children_->names : EmptyNames();
}

bool LogicalType::IsNumeric() const { return IsIntegral() || IsApproximate() || id_ == TypeId::kDecimal; }
bool LogicalType::IsIntegral() const {
  return id_ == TypeId::kTinyInt || id_ == TypeId::kSmallInt || id_ == TypeId::kInteger || id_ == TypeId::kBigInt;
}
bool LogicalType::IsTemporal() const {
  return id_ == TypeId::kDate || id_ == TypeId::kTime || IsTimestamp();
}
bool LogicalType::IsNested() const { return IsList() || id_ == TypeId::kRow; }

size_t LogicalType::PhysicalWidth() const {
  switch (id_) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return 1;
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger: return 4;
    case TypeId::kBigInt: return 8;
    case TypeId::kFloat: return 4;
    case TypeId::kDouble: return 8;
    case TypeId::kDecimal: return 16;
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: return sizeof(std::string_view);
    case TypeId::kDate: return 4;
    case TypeId::kTime: return 4;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: return 8;
    case TypeId::kIntervalDayTime: return 8;
    case TypeId::kIntervalYearMonth: return 4;
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kMultiset: return sizeof(ListEntry);
    case TypeId::kRow: return 0;
  }
  return 0;
}

std::string LogicalType::ToString() const {
  std::string s;
  switch (id_) {
    case TypeId::kNull: s = "NULL"; break;
    case TypeId::kBoolean: s = "BOOLEAN"; break;
    case TypeId::kTinyInt: s = "TINYINT"; break;
    case TypeId::kSmallInt: s = "SMALLINT"; break;
    case TypeId::kInteger: s = "INT"; break;
    case TypeId::kBigInt: s = "BIGINT"; break;
    case TypeId::kFloat: s = "FLOAT"; break;
    case TypeId::kDouble: s = "DOUBLE"; break;
    case TypeId::kDecimal:
      s = "DECIMAL(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
      break;
    case TypeId::kChar: s = "CHAR(" + std::to_string(precision_) + ")"; break;
    case TypeId::kVarChar:
      s = precision_ == kMaxVarCharLength ? "STRING" : "VARCHAR(" + std::to_string(precision_) + ")";
      break;
    case TypeId::kBinary: s = "BINARY(" + std::to_string(precision_) + ")"; break;
    case TypeId::kVarBinary:
      s = precision_ == kMaxVarCharLength ? "BYTES" : "VARBINARY(" + std::to_string(precision_) + ")";
      break;
    case TypeId::kDate: s = "DATE"; break;
    case TypeId::kTime: s = "TIME(" + std::to_string(precision_) + ")"; break;
    case TypeId::kTimestamp: s = "TIMESTAMP(" + std::to_string(precision_) + ")"; break;
    case TypeId::kTimestampLtz: s = "TIMESTAMP_LTZ(" + std::to_string(precision_) + ")"; break;
    case TypeId::kIntervalDayTime:
      s = "INTERVAL DAY(" + std::to_string(precision_) + ") TO SECOND(" + std::to_string(scale_) + ")";
      break;
    case TypeId::kIntervalYearMonth: s = "INTERVAL YEAR(" + std::to_string(precision_) + ") TO MONTH"; break;
    case TypeId::kArray: s = "ARRAY<" + child(0).ToString() + ">"; break;
    case TypeId::kMultiset: s = "MULTISET<" + child(0).ToString() + ">"; break;
    case TypeId::kMap: s = "MAP<" + child(0).ToString() + ", " + child(1).ToString() + ">"; break;
    case TypeId::kRow: {
      s = "ROW<";
      for (size_t i = 0; i < num_children(); ++i) {
        if (i) s += ", ";
        s += "`" + field_name(i) + "` " + child(i).ToString();
      }
      s += ">";
      break;
    }
  }
  if (!nullable_) s += " NOT NULL";
  if (time_attr_ == TimeAttribute::kRowtime) s += " *ROWTIME*";
  if (time_attr_ == TimeAttribute::kProctime) s += " *PROCTIME*";
  return s;
}

bool LogicalType::EqualsIgnoringNullability(const LogicalType& o) const {
  if (id_ != o.id_ || precision_ != o.precision_ || scale_ != o.scale_) return false;
  if (num_children() != o.num_children()) return false;
  for (size_t i = 0; i < num_children(); ++i) {
    if (child(i) != o.child(i)) return false;
    if (id_ == TypeId::kRow && field_name(i) != o.field_name(i)) return false;
  }
  return true;
}

bool LogicalType::operator==(const LogicalType& o) const {
  return nullable_ == o.nullable_ && EqualsIgnoringNullability(o);
}

}  // namespace sluice
