// CanCast and CommonType (see cast.h): which casts Flink allows, explicitly and implicitly, and the
// common type of several types.
#include "function/cast.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "function/kernel_util.h"

namespace sluice {

namespace {

int TimestampPrecision(const LogicalType& t) { return t.precision(); }

Status NoCommonType(const std::vector<LogicalType>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i].ToString();
  return Status::BindError("Could not find a common type for arguments: [" + s + "]");
}

}  // namespace

bool CanCast(const LogicalType& from, const LogicalType& to, bool implicit) {
  if (from.id() == TypeId::kNull) return true;
  if (from.EqualsIgnoringNullability(to)) return true;
  const TypeId f = from.id(), t = to.id();
  if (from.IsNumeric() && to.IsNumeric()) {
    if (!implicit) return true;
    if (f == TypeId::kDecimal && t == TypeId::kDecimal) return true;
    return fn::NumericRank(f) <= fn::NumericRank(t);
  }
  if (from.IsCharacterString() && to.IsCharacterString()) return true;
  if (from.IsBinaryString() && to.IsBinaryString()) return true;
  if (from.IsTimestamp() && to.IsTimestamp()) return !implicit || f == t;
  if (f == TypeId::kDate && to.IsTimestamp()) return true;
  if (f == TypeId::kTime && t == TypeId::kTime) return true;
  if (from.IsInterval() && f == t) return true;
  if (implicit) {
    if ((f == TypeId::kArray || f == TypeId::kMultiset) && f == t) return CanCast(from.child(0), to.child(0), true);
    if (f == TypeId::kMap && t == TypeId::kMap) {
      return CanCast(from.child(0), to.child(0), true) && CanCast(from.child(1), to.child(1), true);
    }
    // Flink's constructed casting: a ROW casts to a ROW of as many fields, field by field by
    // position (names are not compared), so ROW(1.5, -2.25) goes into ROW<x DECIMAL(5, 2), y DOUBLE>.
    if (f == TypeId::kRow && t == TypeId::kRow && from.num_children() == to.num_children()) {
      for (size_t i = 0; i < from.num_children(); ++i) {
        if (!CanCast(from.child(i), to.child(i), true)) return false;
      }
      return true;
    }
    return false;
  }
  // Explicit casts.
  if (to.IsCharacterString()) return true;  // everything has a text form
  if (from.IsCharacterString()) {
    return to.IsNumeric() || t == TypeId::kBoolean || to.IsTemporal() || to.IsBinaryString();
  }
  if (from.IsBinaryString()) return false;
  if (f == TypeId::kBoolean) return to.IsNumeric();
  if (from.IsNumeric()) return t == TypeId::kBoolean;
  if (from.IsTimestamp()) return t == TypeId::kDate || t == TypeId::kTime;
  if (f == TypeId::kDate) return to.IsTimestamp();
  if (f == TypeId::kTime) return to.IsTimestamp();
  if ((f == TypeId::kArray || f == TypeId::kMultiset) && f == t) return CanCast(from.child(0), to.child(0), false);
  if (f == TypeId::kMap && t == TypeId::kMap) {
    return CanCast(from.child(0), to.child(0), false) && CanCast(from.child(1), to.child(1), false);
  }
  if (f == TypeId::kRow && t == TypeId::kRow && from.num_children() == to.num_children()) {
    for (size_t i = 0; i < from.num_children(); ++i) {
      if (!CanCast(from.child(i), to.child(i), false)) return false;
    }
    return true;
  }
  return false;
}

namespace {

// The common type of numeric types (nullability aside), as Calcite's leastRestrictive: FLOAT or DOUBLE
// when one is approximate (DOUBLE also with a DECIMAL), else a DECIMAL wide enough when one is DECIMAL,
// else the widest integer type.
std::optional<LogicalType> CommonNumericType(const std::vector<LogicalType>& ts) {
  int rank = 0;
  bool any_decimal = false;
  for (const auto& t : ts) {
    rank = std::max(rank, fn::NumericRank(t.id()));
    any_decimal |= t.id() == TypeId::kDecimal;
  }
  if (rank >= 6) {
    bool dbl = rank == 7 || any_decimal;
    return (dbl ? LogicalType::Double() : LogicalType::Float());
  }
  if (any_decimal) {
    // Calcite's leastRestrictive: keep the integer digits (at most 38), cut the scale to what is
    // left of 38 (DECIMAL(38, 2) and DECIMAL(10, 4) give DECIMAL(38, 2)).
    int scale = 0, int_digits = 0;
    for (const auto& t : ts) {
      LogicalType d = fn::ToDecimalType(t);
      scale = std::max(scale, d.scale());
      int_digits = std::max(int_digits, d.precision() - d.scale());
    }
    int_digits = std::min(int_digits, LogicalType::kMaxDecimalPrecision);
    scale = std::min(scale, LogicalType::kMaxDecimalPrecision - int_digits);
    return LogicalType::Decimal(std::max(int_digits + scale, 1), scale);
  }
  for (const auto& t : ts) {
    if (fn::NumericRank(t.id()) == rank) return t;
  }
  return std::nullopt;
}

}  // namespace

Result<LogicalType> CommonType(const std::vector<LogicalType>& types) {
  bool nullable = false;
  std::vector<LogicalType> ts;
  for (const auto& t : types) {
    nullable |= t.nullable();
    if (t.id() != TypeId::kNull) ts.push_back(t.WithTimeAttribute(TimeAttribute::kNone));
  }
  if (ts.empty()) return LogicalType::Null();
  const LogicalType& first = ts[0];
  bool all_same = true;
  for (const auto& t : ts) all_same &= t.EqualsIgnoringNullability(first);
  if (all_same) return first.WithNullable(nullable);

  auto all = [&](auto pred) { return std::all_of(ts.begin(), ts.end(), pred); };
  if (all([](const LogicalType& t) { return t.IsNumeric(); })) {
    if (std::optional<LogicalType> n = CommonNumericType(ts)) return n->WithNullable(nullable);
  }
  if (all([](const LogicalType& t) { return t.IsCharacterString(); })) {
    int32_t len = 0;
    for (const auto& t : ts) len = std::max(len, t.length());
    return LogicalType::VarChar(len).WithNullable(nullable);
  }
  if (all([](const LogicalType& t) { return t.IsBinaryString(); })) {
    int32_t len = 0;
    for (const auto& t : ts) len = std::max(len, t.length());
    return LogicalType::VarBinary(len).WithNullable(nullable);
  }
  if (all([](const LogicalType& t) { return t.IsTimestamp() || t.id() == TypeId::kDate; })) {
    int p = 0;
    bool ltz = false;
    for (const auto& t : ts) {
      if (t.IsTimestamp()) p = std::max(p, TimestampPrecision(t));
      ltz |= t.id() == TypeId::kTimestampLtz;
    }
    return (ltz ? LogicalType::TimestampLtz(p) : LogicalType::Timestamp(p)).WithNullable(nullable);
  }
  if (all([](const LogicalType& t) { return t.id() == TypeId::kTime; })) {
    int p = 0;
    for (const auto& t : ts) p = std::max(p, t.precision());
    return LogicalType::Time(p).WithNullable(nullable);
  }
  const TypeId id = first.id();
  if (all([id](const LogicalType& t) { return t.id() == id; })) {
    if (first.IsInterval()) return first.WithNullable(nullable);
    if (id == TypeId::kArray || id == TypeId::kMultiset) {
      std::vector<LogicalType> elems;
      for (const auto& t : ts) elems.push_back(t.child(0));
      ASSIGN_OR_RETURN(LogicalType e, CommonType(elems));
      return (id == TypeId::kArray ? LogicalType::Array(e) : LogicalType::Multiset(e)).WithNullable(nullable);
    }
    if (id == TypeId::kMap) {
      std::vector<LogicalType> ks, vs;
      for (const auto& t : ts) {
        ks.push_back(t.child(0));
        vs.push_back(t.child(1));
      }
      ASSIGN_OR_RETURN(LogicalType k, CommonType(ks));
      ASSIGN_OR_RETURN(LogicalType v, CommonType(vs));
      return LogicalType::Map(k, v).WithNullable(nullable);
    }
    if (id == TypeId::kRow) {
      size_t n = first.num_children();
      std::vector<LogicalType> fields;
      for (size_t f = 0; f < n; ++f) {
        std::vector<LogicalType> fs;
        for (const auto& t : ts) {
          if (t.num_children() != n) return NoCommonType(types);
          fs.push_back(t.child(f));
        }
        ASSIGN_OR_RETURN(LogicalType ft, CommonType(fs));
        fields.push_back(ft);
      }
      return LogicalType::Row(first.field_names(), fields).WithNullable(nullable);
    }
  }
  return NoCommonType(types);
}

}  // namespace sluice
