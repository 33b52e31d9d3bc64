// IcebergFilter: the filter expressions the Iceberg source pushes into scan planning, as Iceberg's
// expression API has them (Expressions: and/or, isNull/notNull, lt/ltEq/gt/gtEq/eq/notEq, in/notIn,
// startsWith), bound to field ids of the table schema with literals of the fields' Iceberg types.
//
// ConvertIcebergFilter turns one pushed-down conjunct (a Sluice Expr over the table's physical
// columns) into one, as Flink's FlinkFilters.convert does: comparisons of a column with a literal
// (either side), IS [NOT] NULL, IN, BETWEEN, NOT, AND, OR, LIKE 'prefix%' (startsWith), a bare
// BOOLEAN column; columns of the primitive types Iceberg keeps statistics for (not BINARY/BYTES,
// CHAR, nested types). Anything else is not convertible, and the conjunct is not accepted.
//
// NOT is pushed to the leaves at conversion (NOT(a < 5) is a >= 5, NOT(a AND b) is NOT a OR NOT b),
// which keeps SQL's meaning for NULLs (a comparison with NULL is never true either way). For FLOAT
// and DOUBLE columns NOT of an ordering comparison is not converted: NaN fails both a < 5 and a >= 5.
// A literal is converted to the column's Iceberg type only when the value is exact there (5.5 for an
// INT column is not); NaN literals are not converted.
//
// Threading: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "connectors/iceberg/iceberg_literal.h"
#include "connectors/iceberg/iceberg_types.h"
#include "function/expression.h"
#include "types/schema.h"

namespace sluice {

enum class IcebergOp : uint8_t {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kIsNull,
  kNotNull,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
};

struct IcebergFilter {
  IcebergOp op = IcebergOp::kTrue;
  std::vector<IcebergFilter> children;  // kAnd, kOr
  // Predicates: the field (a field id of the table schema, or, after partition projection, the
  // position of a partition field in its spec) and the literals (one; several for IN / NOT IN).
  int32_t field = 0;
  std::vector<IcebergLiteral> literals;

  static IcebergFilter True() { return {}; }
  static IcebergFilter False() { return {IcebergOp::kFalse, {}, 0, {}}; }
  static IcebergFilter Predicate(IcebergOp op, int32_t field, std::vector<IcebergLiteral> literals = {}) {
    return {op, {}, field, std::move(literals)};
  }
  // And/Or that fold true and false children away.
  static IcebergFilter And(std::vector<IcebergFilter> children);
  static IcebergFilter Or(std::vector<IcebergFilter> children);
  bool IsPredicate() const { return op >= IcebergOp::kIsNull; }
};

// `filter` over `physical` columns (ordinals), bound to `schema`'s top-level field of the same name.
// nullopt when the filter is not convertible. Without a schema (planning, before the table is
// loaded), the columns' Iceberg types are derived from their Flink types and field ids are ordinals:
// use it only to decide whether the filter is accepted.
[[nodiscard]] std::optional<IcebergFilter> ConvertIcebergFilter(const Expr& filter, const Schema& physical,
                                                                const IcebergSchema* schema);

// Orders two values of one column (a bound, a partition value and a literal): numbers by value
// (int and long alike, float and double as IEEE doubles), decimals by unscaled value, strings and
// binary as unsigned bytes. nullopt when either is NaN: the caller must assume a match.
std::optional<int> CompareIcebergValues(const IcebergLiteral& a, const IcebergLiteral& b);

}  // namespace sluice
