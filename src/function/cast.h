// Casts between Flink SQL types: which casts exist, the common (least restrictive) type of several
// types, and the vectorized cast kernel used to evaluate kCast expressions.
//
// Semantics follow Flink >= 1.15: a CAST that fails at runtime (CAST('abc' AS INT)) is a RuntimeError
// naming the value and both types; TRY_CAST returns NULL instead. Integral narrowing wraps as Java does;
// a DECIMAL that does not fit its target precision becomes NULL; float to integral truncates toward
// zero (saturating as Java's (long) cast). Anything casts to a character string using Flink's text form
// (types/value_format.h); CHAR(n) pads with spaces, VARCHAR(n)/CHAR(n) truncate to n characters.
// TIMESTAMP <-> TIMESTAMP_LTZ and string <-> TIMESTAMP_LTZ use the session time zone of the EvalContext.
//
// Threading: pure functions; CastVector writes only to `out`.
#pragma once

#include <vector>

#include "common/status.h"
#include "types/logical_type.h"

namespace sluice {

struct EvalContext;
class Vector;

// Whether a value of `from` can be cast to `to`; `implicit` asks whether the binder may insert the cast
// without the user writing it (widening numeric casts, CHAR->VARCHAR, DATE->TIMESTAMP, NULL->any, ...).
bool CanCast(const LogicalType& from, const LogicalType& to, bool implicit);

// The least restrictive type of `types` (for CASE, COALESCE, IN, UNION, comparisons), as Flink's
// LogicalTypeMerging: numeric types widen (INT, BIGINT -> BIGINT; INT, DECIMAL(10,2) -> DECIMAL(12,2);
// any approximate -> DOUBLE), strings to the longest VARCHAR (CHAR(n)s of different n -> VARCHAR),
// DATE with TIMESTAMP -> TIMESTAMP, TIMESTAMPs to the highest precision, nested types element-wise.
// The result is nullable when any input is. Error (BindError) when the types have no common type.
[[nodiscard]] Result<LogicalType> CommonType(const std::vector<LogicalType>& types);

// Casts every row of `in` to `to` into `out` (re-typed to `to` and sized to in.size()). Null rows stay
// null. On a row that cannot be converted: RuntimeError, or NULL when `is_try`.
[[nodiscard]] Status CastVector(EvalContext& ctx, const Vector& in, const LogicalType& to, bool is_try, Vector* out);

// One value cast (slow path; constant folding and tests).
class Value;
[[nodiscard]] Result<Value> CastValue(EvalContext& ctx, const Value& v, const LogicalType& to, bool is_try);

}  // namespace sluice
