// The built-in scalar function registry: resolves a call by name and argument types to one
// ScalarFunction overload, following Flink's (Calcite's) implicit cast and return type rules.
//
// Resolution takes the upper-cased name, the argument types as bound (with nullability), and for each
// argument either its constant value (a literal; may be a NULL value) or nullptr. It returns the
// ScalarFunction whose `arg_types` say the type each argument must be cast to (the binder inserts a
// kCast where the bound type differs, ignoring nullability) and whose `return_type` is the result type
// (nullable when any argument is nullable unless the function says otherwise, e.g. IS NULL, COALESCE).
//
// Names the binder calls for operators and special syntax (all upper case):
//   arithmetic      "+", "-", "*", "/", "%" (= MOD), "NEGATE" (unary minus); also DATE/TIMESTAMP
//                   +/- INTERVAL (either order for +)
//   comparison      "=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM",
//                   "BETWEEN"(x, lo, hi) (inclusive; wrap in NOT for NOT BETWEEN)
//   logic/null      "NOT", "IS NULL", "IS NOT NULL", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE"
//   IN              "IN"(x, v1, v2, ...) (three-valued like x = v1 OR x = v2 ...)
//   strings         "||", "LIKE"(s, pattern[, escape]), "SIMILAR TO"(s, pattern),
//                   "TRIM"(mode, chars, s) with mode a constant 'BOTH'|'LEADING'|'TRAILING' (also
//                   "TRIM"(s), "LTRIM"(s[, chars]), "RTRIM"(s[, chars])), "POSITION"(needle, s),
//                   "SUBSTRING"(s, from[, len]) (SUBSTRING(s FROM a FOR b) maps here)
//   temporal        "EXTRACT"(unit, x) with unit a constant string (YEAR, QUARTER, MONTH, WEEK, DAY,
//                   DOY, DOW, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, EPOCH, ...),
//                   "FLOOR_TO"(x, unit) and "CEIL_TO"(x, unit) for FLOOR/CEIL(x TO unit),
//                   "TIMESTAMPADD"(unit, n, x), "TIMESTAMPDIFF"(unit, a, b) with unit a constant string
//   collections     "ITEM"(array, index) (1-based; out of range -> NULL) and "ITEM"(map, key);
//                   "ARRAY"(v...), "MAP"(k, v, ...), "ROW"(v...) constructors;
//                   "$FIELD"(row, i) field access with i a constant INT (0-based field index)
// Everything else is called by its SQL name (UPPER, SUBSTR, DATE_FORMAT, CURRENT_TIMESTAMP, ...).
//
// Notes for the binder:
//   - IF(c, a, b) resolves here (type: CommonType of a and b) but a kCall evaluates all arguments
//     eagerly; Flink evaluates IF lazily, so lower IF to a kCase (WHEN c THEN a ELSE b) to keep
//     IF(x <> 0, 10 / x, 0) from dividing by zero. COALESCE and CASE are special forms (kCoalesce,
//     kCase) whose type is CommonType (cast.h) of their value arguments; the evaluator casts a branch
//     whose type differs (ignoring nullability) to the node's type.
//   - A constant argument is passed in `constant_args` as the literal's Value (before the binder's
//     casts); units ('HOUR'), TRIM modes, regexes and formats must be constants of a character type.
//   - Nondeterministic functions (ResolvedCall::deterministic() false) must not be constant-folded.
//   - CAST/TRY_CAST are kCast nodes (cast.h), not calls.
//
// Threading: the registry is built once and immutable; resolution is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "types/logical_type.h"

namespace sluice {

class Value;
struct ScalarFunction;

struct ResolvedCall {
  std::shared_ptr<const ScalarFunction> function;
  // The type each argument must be cast to (equal to function->arg_types).
  const std::vector<LogicalType>& arg_types() const;
  LogicalType return_type() const;
  // True when the binder should not constant-fold the call even if its arguments are constant.
  bool deterministic() const;
};

// Resolves a scalar call. Errors (Status::BindError):
//   unknown name:   "No such function: FOO. Did you mean FLOOR?" (did-you-mean when one is close)
//   wrong args:     "No match found for function signature FOO(<INTEGER>, <CHARACTER>)\nSupported
//                   signatures are:\nFOO(<NUMERIC>)..." (Flink's wording and type families)
//   bad constant:   e.g. an invalid regex or unit, naming it.
[[nodiscard]] Result<ResolvedCall> ResolveScalar(const std::string& name, const std::vector<LogicalType>& arg_types,
                                                 const std::vector<const Value*>& constant_args);

// True when `name` (any case) is one of Flink's built-in aggregate functions (COUNT, SUM, MIN, MAX,
// AVG, FIRST_VALUE, LAST_VALUE, LISTAGG, COLLECT, STDDEV_POP, ...). Aggregates are not resolved here.
bool IsAggregateFunction(const std::string& name);

// True when `name` (any case) is a built-in scalar function or operator name known to ResolveScalar.
bool IsScalarFunction(const std::string& name);

// All scalar function names that a user may call by name (for SHOW FUNCTIONS and did-you-mean).
std::vector<std::string> ScalarFunctionNames();

}  // namespace sluice
