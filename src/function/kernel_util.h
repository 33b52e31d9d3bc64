// Internal helpers for writing scalar kernels and registering built-in functions (not a public API).
//
// The loop templates run a lambda over every row of typed vectors; the result's validity is the AND of
// the arguments' validities (null in, null out), computed once up front so the value loop itself has no
// branches and vectorizes. Lambdas that can fail on a row (division by zero, bad text) use the *Checked
// variants, which call them only on valid rows.
//
// Threading: stateless templates.
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/check.h"
#include "common/status.h"
#include "function/scalar_function.h"
#include "types/logical_type.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice::fn {

// ---- nulls ----

// Sets out's validity to the AND of args' validities. Returns false when no row can be null.
inline bool PropagateNulls(const Vector* const* args, size_t num_args, size_t rows, Vector* out) {
  bool any = false;
  for (size_t a = 0; a < num_args; ++a) any |= args[a]->MayHaveNulls();
  if (!any) return false;
  uint8_t* v = out->mutable_validity();
  std::memset(v, 1, rows);
  for (size_t a = 0; a < num_args; ++a) {
    const uint8_t* av = args[a]->validity();
    if (av == nullptr) continue;
    for (size_t i = 0; i < rows; ++i) v[i] &= av[i];
  }
  return true;
}

inline bool RowValid(const Vector* const* args, size_t num_args, size_t i) {
  for (size_t a = 0; a < num_args; ++a) {
    if (args[a]->IsNull(i)) return false;
  }
  return true;
}

// ---- loops ----

template <typename A, typename R, typename F>
void UnaryLoop(const Vector& a, size_t rows, Vector* out, F f) {
  const Vector* args[1] = {&a};
  PropagateNulls(args, 1, rows, out);
  const A* ad = a.data<A>();
  R* od = out->data<R>();
  for (size_t i = 0; i < rows; ++i) od[i] = f(ad[i]);
}

template <typename A, typename B, typename R, typename F>
void BinaryLoop(const Vector& a, const Vector& b, size_t rows, Vector* out, F f) {
  const Vector* args[2] = {&a, &b};
  PropagateNulls(args, 2, rows, out);
  const A* ad = a.data<A>();
  const B* bd = b.data<B>();
  R* od = out->data<R>();
  for (size_t i = 0; i < rows; ++i) od[i] = f(ad[i], bd[i]);
}

// f(a, b, R* out) -> Status; called only on rows where both are valid. A row f sets to null through
// `set_null` (a bool&) becomes null.
template <typename A, typename B, typename R, typename F>
Status BinaryLoopChecked(const Vector& a, const Vector& b, size_t rows, Vector* out, F f) {
  const Vector* args[2] = {&a, &b};
  bool nulls = PropagateNulls(args, 2, rows, out);
  const A* ad = a.data<A>();
  const B* bd = b.data<B>();
  R* od = out->data<R>();
  for (size_t i = 0; i < rows; ++i) {
    if (nulls && out->IsNull(i)) continue;
    bool is_null = false;
    RETURN_IF_ERROR(f(ad[i], bd[i], &od[i], is_null));
    if (is_null) out->SetNull(i, true);
  }
  return Status::OK();
}

// Row-at-a-time helper for kernels that produce strings or need arbitrary logic: f(i) -> Status, called
// only on rows where every argument is valid; f writes out's row i (or sets it null).
template <typename F>
Status ForEachValidRow(const Vector* const* args, size_t num_args, size_t rows, Vector* out, F f) {
  bool nulls = PropagateNulls(args, num_args, rows, out);
  for (size_t i = 0; i < rows; ++i) {
    if (nulls && out->IsNull(i)) continue;
    RETURN_IF_ERROR(f(i));
  }
  return Status::OK();
}

// ---- string size limit ----

// The largest string a function may build for one value: 256 MiB. Flink's STRING is VARCHAR(2147483647),
// but a value that size would exhaust memory long before it is written anywhere (a chunk holds
// thousands of rows); REPEAT, LPAD, RPAD, REPLACE, CONCAT, || and CONCAT_WS refuse a larger result with
// an error naming the function instead (docs/sql.md, "Limits").
inline constexpr uint64_t kMaxStringValueBytes = uint64_t{256} << 20;

// The error for a `function` result of `bytes` bytes beyond kMaxStringValueBytes; OK otherwise.
inline Status CheckStringResultSize(std::string_view function, uint64_t bytes) {
  if (bytes <= kMaxStringValueBytes) return Status::OK();
  return Status::RuntimeError(std::string(function) + " would build a string of " + std::to_string(bytes) +
                              " bytes, more than the limit of " + std::to_string(kMaxStringValueBytes) +
                              " bytes (256 MiB) for one string value");
}

// ---- moving rows between vectors of the same type (vector_util.cc) ----

// Copies row `src_row` of `src` (value or null) into row `dst_row` of `out`. Strings are shared by
// view: call out->ShareHeapsWith(src) once before copying string rows. Nested rows copy their elements.
void CopyRow(const Vector& src, size_t src_row, Vector* out, size_t dst_row);
// out[sel[k]] = src[k] for k < n (out already sized; types equal ignoring nullability).
void ScatterRows(const Vector& src, const uint32_t* sel, size_t n, Vector* out);
// Sets every row of `out` null.
void SetAllNull(Vector* out, size_t rows);
// Whether row i of a equals row j of b (both valid, same type ignoring nullability; floating point by ==,
// nested values by their boxed Value).
bool RowsEqual(const Vector& a, size_t i, const Vector& b, size_t j);

// ---- UTF-8 ----

// Number of code points in `s` (continuation bytes are not counted).
size_t Utf8Length(std::string_view s);
// Byte length of the first `n` code points of `s` (all of s when it has fewer).
size_t Utf8PrefixBytes(std::string_view s, size_t n);

// ---- physical type dispatch ----

// Calls f(T{}) with T the physical C++ type of `id` for fixed-width scalar types.
template <typename F>
auto DispatchFixed(TypeId id, F f) {
  switch (id) {
    case TypeId::kBoolean: return f(uint8_t{});
    case TypeId::kTinyInt: return f(int8_t{});
    case TypeId::kSmallInt: return f(int16_t{});
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: return f(int32_t{});
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: return f(int64_t{});
    case TypeId::kFloat: return f(float{});
    case TypeId::kDouble: return f(double{});
    case TypeId::kDecimal: return f(__int128{});
    default: return f(std::string_view{});
  }
}

// ---- decimals ----

__int128 Pow10(int n);  // 10^n for 0 <= n <= 38
// Largest unscaled value of precision p (10^p - 1).
inline __int128 MaxUnscaled(int p) { return Pow10(p) - 1; }
inline bool FitsPrecision(__int128 v, int p) { return v <= MaxUnscaled(p) && v >= -MaxUnscaled(p); }
// Rescales an unscaled value from scale `from` to `to`, rounding HALF_UP; false on 128-bit overflow.
bool Rescale(__int128 v, int from, int to, __int128* out);
// Flink's LogicalTypeMerging.adjustPrecisionScale: caps precision at 38 keeping at least min(s, 6)
// fraction digits.
LogicalType AdjustedDecimal(int precision, int scale);
// The DECIMAL an exact numeric type converts to (INT -> DECIMAL(10, 0)); the type itself for DECIMAL.
LogicalType ToDecimalType(const LogicalType& t);

// Adds calendar months to a timestamp (micros), clamping the day of month (arithmetic.cc).
int64_t AddMonthsToMicros(int64_t micros, int64_t months);

// ---- registry internals ----

struct CallInfo {
  const std::string& name;
  const std::vector<LogicalType>& types;
  const std::vector<const Value*>& constants;
  size_t size() const { return types.size(); }
  const LogicalType& type(size_t i) const { return types[i]; }
  // The constant argument i, or nullptr when it is not a constant.
  const Value* constant(size_t i) const { return i < constants.size() ? constants[i] : nullptr; }
  bool AnyNullable() const;
};

// A resolver returns a function, or nullptr when the arguments match none of its overloads (the
// registry then reports "No match found ..."), or an error Status for a bad constant argument.
using Resolver = std::function<Result<std::shared_ptr<ScalarFunction>>(const CallInfo&)>;

struct FunctionFamily {
  std::string name;
  std::vector<std::string> signatures;  // "SUBSTRING(<CHARACTER>, <INTEGER>)", for error messages
  Resolver resolve;
  bool user_callable = true;  // false for internal names ("$FIELD", "ITEM", operators)
};

class FunctionTable {
 public:
  void Add(FunctionFamily f);
  void Alias(const std::string& alias, const std::string& target);
  const FunctionFamily* Find(const std::string& upper_name) const;
  std::vector<std::string> Names(bool user_callable_only) const;

 private:
  std::vector<std::unique_ptr<FunctionFamily>> families_;
  std::vector<std::pair<std::string, const FunctionFamily*>> index_;
};

// Builds a ScalarFunction.
std::shared_ptr<ScalarFunction> MakeFunction(std::string name, std::vector<LogicalType> args, LogicalType ret,
                                             ScalarKernel kernel, bool deterministic = true);

// Marks a function whose kernel never fails (see ScalarFunction::can_fail) and returns it.
inline std::shared_ptr<ScalarFunction> NeverFails(std::shared_ptr<ScalarFunction> f) {
  if (f) f->can_fail = false;
  return f;
}

// Registration entry points, one per file.
void RegisterArithmeticFunctions(FunctionTable* t);
void RegisterComparisonFunctions(FunctionTable* t);
void RegisterStringFunctions(FunctionTable* t);
void RegisterMathFunctions(FunctionTable* t);
void RegisterTemporalFunctions(FunctionTable* t);
void RegisterCollectionFunctions(FunctionTable* t);
void RegisterStringExtraFunctions(FunctionTable* t);  // string_extra_functions.cc
void RegisterUrlFunctions(FunctionTable* t);          // url_functions.cc
void RegisterHashFunctions(FunctionTable* t);         // hash_functions.cc
void RegisterArrayFunctions(FunctionTable* t);        // array_functions.cc
void RegisterCodecFunctions(FunctionTable* t);        // codec_functions.cc
void RegisterJsonFunctions(FunctionTable* t);         // json_functions.cc

// Type helpers for resolvers.
bool IsStringType(const LogicalType& t);  // CHAR/VARCHAR
bool IsIntegerLike(const LogicalType& t);  // TINYINT..BIGINT
// The result type of an arithmetic between two numeric types (Flink/Calcite rules); op is one of
// "+", "-", "*", "/", "%". Decimal results use AdjustedDecimal.
LogicalType ArithmeticResultType(const LogicalType& a, const LogicalType& b, char op);
// Rank of exact/approximate numeric types for widening (TINYINT < SMALLINT < INT < BIGINT < DECIMAL <
// FLOAT < DOUBLE).
int NumericRank(TypeId id);
// "<INTEGER>", "<CHARACTER>", ... as Flink prints argument types in signatures.
std::string TypeFamilyName(const LogicalType& t);
// A call as Calcite's validator prints one no function matches, the arguments by their SqlTypeFamily:
// "NOPE(<CHARACTER>, <NUMERIC>, <TIMESTAMP>)" (Flink: "No match found for function signature ...").
std::string SqlFamilySignature(const std::string& name, const std::vector<LogicalType>& arg_types);
// Argument coercions for resolvers: set *cast to the type the argument is cast to and return true when
// the argument fits (a NULL-typed argument fits every family).
bool AsString(const LogicalType& t, LogicalType* cast);   // CHAR/VARCHAR (kept as is)
bool AsInt(const LogicalType& t, LogicalType* cast);      // integral -> INT
bool AsBigInt(const LogicalType& t, LogicalType* cast);   // integral -> BIGINT
bool AsDouble(const LogicalType& t, LogicalType* cast);   // numeric -> DOUBLE
bool AsBoolean(const LogicalType& t, LogicalType* cast);  // BOOLEAN
// STRING with the given nullability.
inline LogicalType StringType(bool nullable) { return LogicalType::String().WithNullable(nullable); }
using Coerce = bool (*)(const LogicalType&, LogicalType*);
// One fixed signature: nullptr when the arity or an argument family does not match; the result type is
// `ret` made nullable when any argument is (or always, when the function may return NULL on non-null
// input: `may_return_null`).
std::shared_ptr<ScalarFunction> Simple(const CallInfo& c, const std::vector<Coerce>& sig, const LogicalType& ret,
                                       ScalarKernel kernel, bool may_return_null = false, bool deterministic = true);
// Reads a constant string argument (nullptr when not a non-null string constant).
const std::string* ConstantString(const CallInfo& c, size_t i);

}  // namespace sluice::fn
