// Arithmetic operators: + - * / % (MOD) and unary minus on numeric types, and DATE/TIME/TIMESTAMP
// plus or minus an INTERVAL. Integral arithmetic wraps like Java; integral division by zero is a
// runtime error (Java's ArithmeticException); FLOAT/DOUBLE follow IEEE (Infinity, NaN); DECIMAL results
// that do not fit their precision are NULL, as Flink's DecimalData.
#include <cmath>
#include <type_traits>

#include "common/time_util.h"
#include "function/evaluator.h"
#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

Status DivisionByZero() { return Status::RuntimeError("Division by zero (java.lang.ArithmeticException: / by zero)"); }

template <typename T>
T WrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T>
T WrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T>
T WrapMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  using W = std::conditional_t<(sizeof(T) < 4), uint32_t, U>;
  return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
}

// The first row with a zero divisor, or -1.
template <typename T>
int64_t ZeroDivisorRowT(const Vector& b, size_t rows, const Vector& a) {
  const T* d = b.data<T>();
  size_t zeros = 0;
  for (size_t i = 0; i < rows; ++i) zeros += d[i] == 0;
  if (zeros == 0) return -1;
  // A zero divisor counts only on rows where both operands are valid (null in, null out first).
  for (size_t i = 0; i < rows; ++i) {
    if (d[i] == 0 && b.IsValid(i) && a.IsValid(i)) return static_cast<int64_t>(i);
  }
  return -1;
}

int64_t ZeroDivisorRow(const Vector& b, size_t rows, const Vector& a) {
  switch (b.type().id()) {
    case TypeId::kTinyInt: return ZeroDivisorRowT<int8_t>(b, rows, a);
    case TypeId::kSmallInt: return ZeroDivisorRowT<int16_t>(b, rows, a);
    case TypeId::kInteger: return ZeroDivisorRowT<int32_t>(b, rows, a);
    case TypeId::kBigInt: return ZeroDivisorRowT<int64_t>(b, rows, a);
    case TypeId::kDecimal: return ZeroDivisorRowT<__int128>(b, rows, a);
    default: return -1;
  }
}

// Fails with Java's ArithmeticException text when a valid row divides by zero, telling the evaluator
// which row (EvalContext::failed_row) so the error can name it.
Status CheckDivisor(EvalContext& ctx, const Vector& a, const Vector& b, size_t rows) {
  const int64_t row = ZeroDivisorRow(b, rows, a);
  if (row < 0) return Status::OK();
  ctx.failed_row = row;
  return DivisionByZero();
}

template <typename T>
Status IntegralKernel(EvalContext& ctx, char op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (op) {
    case '+': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return WrapAdd(x, y); }); break;
    case '-': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return WrapSub(x, y); }); break;
    case '*': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return WrapMul(x, y); }); break;
    case '/':
      RETURN_IF_ERROR(CheckDivisor(ctx, a, b, rows));
      BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) -> T {
        if (y == -1) return WrapSub(T{0}, x);
        return static_cast<T>(x / (y == 0 ? T{1} : y));
      });
      break;
    default:
      RETURN_IF_ERROR(CheckDivisor(ctx, a, b, rows));
      BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) -> T {
        if (y == -1 || y == 0) return T{0};
        return static_cast<T>(x % y);
      });
      break;
  }
  return Status::OK();
}

template <typename T>
Status FloatingKernel(char op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (op) {
    case '+': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return x + y; }); break;
    case '-': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return x - y; }); break;
    case '*': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return x * y; }); break;
    case '/': BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return x / y; }); break;
    default: BinaryLoop<T, T, T>(a, b, rows, out, [](T x, T y) { return static_cast<T>(std::fmod(x, y)); }); break;
  }
  return Status::OK();
}

// a / b where a has scale sa and b scale sb, giving scale s, HALF_UP.
bool DecimalDivide(__int128 a, int sa, __int128 b, int sb, int s, __int128* out) {
  int e = s - sa + sb;
  __int128 num = a, den = b;
  if (e >= 0) {
    if (__builtin_mul_overflow(a, Pow10(e), &num)) {
      long double q = static_cast<long double>(a) * std::pow(10.0L, e) / static_cast<long double>(b);
      if (std::fabs(q) >= 1e38L) return false;
      *out = static_cast<__int128>(q < 0 ? q - 0.5L : q + 0.5L);
      return true;
    }
  } else if (__builtin_mul_overflow(b, Pow10(-e), &den)) {
    *out = 0;
    return true;
  }
  __int128 q = num / den, r = num % den;
  if (r < 0) r = -r;
  __int128 ad = den < 0 ? -den : den;
  if (r >= ad - r) q += ((num < 0) != (den < 0)) ? -1 : 1;
  *out = q;
  return true;
}

Status DecimalKernel(EvalContext& ctx, char op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  const int sa = a.type().scale(), sb = b.type().scale();
  const int s = out->type().scale(), p = out->type().precision();
  const __int128 max = MaxUnscaled(p);
  if (op == '/' || op == '%') RETURN_IF_ERROR(CheckDivisor(ctx, a, b, rows));
  const __int128* ad = a.data<__int128>();
  const __int128* bd = b.data<__int128>();
  __int128* od = out->data<__int128>();
  const Vector* args[2] = {&a, &b};
  bool nulls = PropagateNulls(args, 2, rows, out);
  for (size_t i = 0; i < rows; ++i) {
    if (nulls && out->IsNull(i)) continue;
    __int128 x = ad[i], y = bd[i], r = 0;
    bool ok = true;
    switch (op) {
      case '+':
      case '-':
      case '%': {
        int w = std::max(sa, sb);
        ok = Rescale(x, sa, w, &x) && Rescale(y, sb, w, &y);
        if (ok) {
          if (op == '+') ok = !__builtin_add_overflow(x, y, &r);
          else if (op == '-') ok = !__builtin_sub_overflow(x, y, &r);
          else r = x % y;
        }
        if (ok) ok = Rescale(r, w, s, &r);
        break;
      }
      case '*': ok = !__builtin_mul_overflow(x, y, &r) && Rescale(r, sa + sb, s, &r); break;
      default: ok = DecimalDivide(x, sa, y, sb, s, &r); break;
    }
    if (!ok || r > max || r < -max) {
      out->SetNull(i, true);
    } else {
      od[i] = r;
    }
  }
  return Status::OK();
}

Status NumericKernel(EvalContext& ctx, char op, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (out->type().id()) {
    case TypeId::kTinyInt: return IntegralKernel<int8_t>(ctx, op, a, b, rows, out);
    case TypeId::kSmallInt: return IntegralKernel<int16_t>(ctx, op, a, b, rows, out);
    case TypeId::kInteger: return IntegralKernel<int32_t>(ctx, op, a, b, rows, out);
    case TypeId::kBigInt: return IntegralKernel<int64_t>(ctx, op, a, b, rows, out);
    case TypeId::kFloat: return FloatingKernel<float>(op, a, b, rows, out);
    case TypeId::kDouble: return FloatingKernel<double>(op, a, b, rows, out);
    case TypeId::kDecimal: return DecimalKernel(ctx, op, a, b, rows, out);
    default: return Status::Internal("arithmetic on " + out->type().ToString());
  }
}

// Integral MOD whose result type (Calcite: the divisor's) is narrower than its operands: the remainder is
// computed in the operands' common type T and then narrowed to R, as Flink's generated Java does
// (`(int) (longValue % intValue)`); |x % y| < |y| always fits the divisor's type.
template <typename T, typename R>
Status NarrowingModKernel(EvalContext& ctx, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  RETURN_IF_ERROR(CheckDivisor(ctx, a, b, rows));
  BinaryLoop<T, T, R>(a, b, rows, out, [](T x, T y) -> R {
    if (y == -1 || y == 0) return R{0};
    return static_cast<R>(x % y);
  });
  return Status::OK();
}

template <typename T>
Status NarrowingModTo(EvalContext& ctx, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (out->type().id()) {
    case TypeId::kTinyInt: return NarrowingModKernel<T, int8_t>(ctx, a, b, rows, out);
    case TypeId::kSmallInt: return NarrowingModKernel<T, int16_t>(ctx, a, b, rows, out);
    case TypeId::kInteger: return NarrowingModKernel<T, int32_t>(ctx, a, b, rows, out);
    case TypeId::kBigInt: return NarrowingModKernel<T, int64_t>(ctx, a, b, rows, out);
    default: return Status::Internal("MOD into " + out->type().ToString());
  }
}

Status NarrowingMod(EvalContext& ctx, const Vector& a, const Vector& b, size_t rows, Vector* out) {
  switch (a.type().id()) {
    case TypeId::kTinyInt: return NarrowingModTo<int8_t>(ctx, a, b, rows, out);
    case TypeId::kSmallInt: return NarrowingModTo<int16_t>(ctx, a, b, rows, out);
    case TypeId::kInteger: return NarrowingModTo<int32_t>(ctx, a, b, rows, out);
    case TypeId::kBigInt: return NarrowingModTo<int64_t>(ctx, a, b, rows, out);
    case TypeId::kDecimal: return NarrowingModTo<__int128>(ctx, a, b, rows, out);
    default: return Status::Internal("MOD of " + a.type().ToString());
  }
}

// Adds `months` to a date, clamping the day to the month's length (as Java's LocalDate.plusMonths).
int64_t AddMonthsToDays(int64_t days, int64_t months) {
  CivilDate d = CivilFromDays(days);
  int64_t total = d.year * 12 + (d.month - 1) + months;
  int64_t y = FloorDiv(total, 12);
  int m = static_cast<int>(FloorMod(total, 12)) + 1;
  int day = std::min(d.day, DaysInMonth(y, m));
  return DaysFromCivil(y, m, day);
}

}  // namespace

int64_t AddMonthsToMicros(int64_t micros, int64_t months) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  return AddMonthsToDays(days, months) * kMicrosPerDay + rest;
}

namespace {

// temporal (+|-) interval; `sign` is +1 or -1; temporal is argument `ti`, interval argument `ii`.
ScalarKernel TemporalIntervalKernel(TypeId temporal, TypeId interval, int sign, int ti, int ii) {
  return [=](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
    const Vector& t = *args[ti];
    const Vector& iv = *args[ii];
    const Vector* both[2] = {args[0], args[1]};
    PropagateNulls(both, 2, rows, out);
    for (size_t i = 0; i < rows; ++i) {
      if (interval == TypeId::kIntervalYearMonth) {
        int64_t months = static_cast<int64_t>(iv.data<int32_t>()[i]) * sign;
        switch (temporal) {
          case TypeId::kDate:
            out->data<int32_t>()[i] = static_cast<int32_t>(AddMonthsToDays(t.data<int32_t>()[i], months));
            break;
          case TypeId::kTime: out->data<int32_t>()[i] = t.data<int32_t>()[i]; break;
          default: out->data<int64_t>()[i] = AddMonthsToMicros(t.data<int64_t>()[i], months); break;
        }
      } else {
        int64_t ms = iv.data<int64_t>()[i] * sign;
        switch (temporal) {
          case TypeId::kDate:
            out->data<int32_t>()[i] = static_cast<int32_t>(t.data<int32_t>()[i] + ms / kMillisPerDay);
            break;
          case TypeId::kTime:
            out->data<int32_t>()[i] = static_cast<int32_t>(FloorMod(t.data<int32_t>()[i] + ms, kMillisPerDay));
            break;
          default: out->data<int64_t>()[i] = t.data<int64_t>()[i] + ms * kMicrosPerMilli; break;
        }
      }
    }
    return Status::OK();
  };
}

Result<std::shared_ptr<ScalarFunction>> ResolveArithmetic(const CallInfo& c, char op) {
  if (c.size() != 2) return std::shared_ptr<ScalarFunction>();
  const LogicalType& a = c.type(0);
  const LogicalType& b = c.type(1);
  bool nullable = a.nullable() || b.nullable();
  if (a.id() == TypeId::kNull || b.id() == TypeId::kNull) {
    // NULL + x: typed as the other side (or INT), always NULL.
    LogicalType other = a.id() == TypeId::kNull ? b : a;
    if (other.id() == TypeId::kNull) other = LogicalType::Integer();
    if (!other.IsNumeric()) return std::shared_ptr<ScalarFunction>();
    LogicalType ot = other.WithNullable(true);
    return MakeFunction(c.name, {ot, ot}, ot,
                        [](EvalContext&, const Vector* const*, size_t, size_t rows, Vector* out) -> Status {
                          uint8_t* v = out->mutable_validity();
                          std::memset(v, 0, rows);
                          return Status::OK();
                        });
  }
  if (a.IsNumeric() && b.IsNumeric()) {
    // Calcite's MOD and % take exact numerics only (a DOUBLE operand is a validation error).
    if (op == '%' && (a.IsApproximate() || b.IsApproximate())) return std::shared_ptr<ScalarFunction>();
    LogicalType r = ArithmeticResultType(a, b, op);
    if (op == '%' && r.IsIntegral()) {
      // The remainder is computed over both operands' common type (a DECIMAL(p, 0) stays exact), never
      // over the divisor's narrower type: MOD(CAST(3000000001 AS BIGINT), 500) is 1.
      bool dec = a.id() == TypeId::kDecimal || b.id() == TypeId::kDecimal;
      LogicalType w = dec ? LogicalType::Decimal(38, 0) : (NumericRank(a.id()) >= NumericRank(b.id()) ? a : b);
      LogicalType ca = w.WithNullable(a.nullable()).WithTimeAttribute(TimeAttribute::kNone);
      LogicalType cb = w.WithNullable(b.nullable()).WithTimeAttribute(TimeAttribute::kNone);
      return MakeFunction(c.name, {ca, cb}, r, [](EvalContext& ctx, const Vector* const* args, size_t, size_t rows, Vector* out) {
        return NarrowingMod(ctx, *args[0], *args[1], rows, out);
      });
    }
    LogicalType ca, cb;
    if (r.id() == TypeId::kDecimal) {
      ca = ToDecimalType(a);
      cb = ToDecimalType(b);
    } else {
      ca = r.WithNullable(a.nullable());
      cb = r.WithNullable(b.nullable());
    }
    ca = ca.WithTimeAttribute(TimeAttribute::kNone);
    cb = cb.WithTimeAttribute(TimeAttribute::kNone);
    return MakeFunction(c.name, {ca, cb}, r,
                        [op](EvalContext& ctx, const Vector* const* args, size_t, size_t rows, Vector* out) {
                          return NumericKernel(ctx, op, *args[0], *args[1], rows, out);
                        });
  }
  if (op != '+' && op != '-') return std::shared_ptr<ScalarFunction>();
  // Temporal +/- interval.
  int ti = -1, ii = -1;
  if ((a.IsTemporal()) && b.IsInterval()) {
    ti = 0;
    ii = 1;
  } else if (op == '+' && a.IsInterval() && b.IsTemporal()) {
    ti = 1;
    ii = 0;
  }
  if (ti >= 0) {
    const LogicalType& t = c.type(static_cast<size_t>(ti));
    const LogicalType& iv = c.type(static_cast<size_t>(ii));
    LogicalType r = t.WithNullable(nullable).WithTimeAttribute(TimeAttribute::kNone);
    return MakeFunction(c.name, {a, b}, r, TemporalIntervalKernel(t.id(), iv.id(), op == '-' ? -1 : 1, ti, ii));
  }
  if (a.IsInterval() && a.id() == b.id()) {
    LogicalType r = a.WithNullable(nullable);
    if (a.id() == TypeId::kIntervalDayTime) {
      return MakeFunction(c.name, {a, b}, r, [op](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
        BinaryLoop<int64_t, int64_t, int64_t>(*args[0], *args[1], rows, out,
                                              [op](int64_t x, int64_t y) { return op == '+' ? x + y : x - y; });
        return Status::OK();
      });
    }
    return MakeFunction(c.name, {a, b}, r, [op](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
      BinaryLoop<int32_t, int32_t, int32_t>(*args[0], *args[1], rows, out,
                                            [op](int32_t x, int32_t y) { return op == '+' ? x + y : x - y; });
      return Status::OK();
    });
  }
  return std::shared_ptr<ScalarFunction>();
}

template <typename T>
void NegateLoop(const Vector& a, size_t rows, Vector* out) {
  if constexpr (std::is_floating_point_v<T>) {
    UnaryLoop<T, T>(a, rows, out, [](T x) { return -x; });
  } else {
    UnaryLoop<T, T>(a, rows, out, [](T x) { return WrapSub(T{0}, x); });
  }
}

Result<std::shared_ptr<ScalarFunction>> ResolveNegate(const CallInfo& c) {
  if (c.size() != 1) return std::shared_ptr<ScalarFunction>();
  const LogicalType& a = c.type(0);
  if (!a.IsNumeric() && !a.IsInterval()) return std::shared_ptr<ScalarFunction>();
  LogicalType r = a.WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, {a}, r, [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    const Vector& a = *args[0];
    switch (a.type().id()) {
      case TypeId::kTinyInt: NegateLoop<int8_t>(a, rows, out); break;
      case TypeId::kSmallInt: NegateLoop<int16_t>(a, rows, out); break;
      case TypeId::kInteger:
      case TypeId::kIntervalYearMonth: NegateLoop<int32_t>(a, rows, out); break;
      case TypeId::kBigInt:
      case TypeId::kIntervalDayTime: NegateLoop<int64_t>(a, rows, out); break;
      case TypeId::kFloat: NegateLoop<float>(a, rows, out); break;
      case TypeId::kDouble: NegateLoop<double>(a, rows, out); break;
      case TypeId::kDecimal: UnaryLoop<__int128, __int128>(a, rows, out, [](__int128 x) { return -x; }); break;
      default: return Status::Internal("negate " + a.type().ToString());
    }
    return Status::OK();
  });
}

}  // namespace

void RegisterArithmeticFunctions(FunctionTable* t) {
  const char* ops = "+-*/%";
  for (const char* p = ops; *p; ++p) {
    char op = *p;
    std::string name(1, op);
    std::vector<std::string> sigs = {op == '%' ? "<EXACT_NUMERIC> % <EXACT_NUMERIC>" : "<NUMERIC> " + name + " <NUMERIC>"};
    if (op == '+' || op == '-') {
      sigs.push_back("<DATETIME> " + name + " <DATETIME_INTERVAL>");
      sigs.push_back("<DATETIME_INTERVAL> " + name + " <DATETIME_INTERVAL>");
    }
    t->Add({name, sigs,
            [op](const CallInfo& c) -> Result<std::shared_ptr<ScalarFunction>> {
              ASSIGN_OR_RETURN(auto f, ResolveArithmetic(c, op));
              // + - * never fail (integers wrap, decimals overflow to NULL); / and % can divide by zero.
              if (op != '/' && op != '%') NeverFails(f);
              return f;
            },
            false});
  }
  t->Add({"MOD", {"MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)"}, [](const CallInfo& c) { return ResolveArithmetic(c, '%'); }});
  t->Add({"NEGATE", {"-<NUMERIC>", "-<DATETIME_INTERVAL>"}, ResolveNegate, false});
}

}  // namespace sluice::fn
