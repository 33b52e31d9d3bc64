// COUNT, SUM, $SUM0, AVG and the variance family: plain arithmetic on a fixed slot, the same state
// for append-only and retracting input (a retraction subtracts what an accumulation added).
//
// Integral sums wrap as Java's long/int arithmetic does in Flink (computed on uint64 so overflow is
// defined); DECIMAL sums are kept as a wrapping 128-bit unscaled value, and a result beyond
// DECIMAL(38) becomes NULL as Flink's decimal overflow does.
#include <cmath>
#include <limits>

#include "function/aggregate/aggregate_util.h"

namespace sluice::aggregate_internal {
namespace {

// 10^n for 0 <= n <= 38.
__int128 Pow10(int n) {
  __int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

bool FitsDecimal38(__int128 v) {
  static const __int128 kLimit = Pow10(38);
  return v < kLimit && v > -kLimit;
}

// Adds or subtracts with two's complement wrap-around (no signed overflow).
inline __int128 WrapAdd(__int128 a, __int128 b, bool subtract) {
  using U = unsigned __int128;
  return static_cast<__int128>(subtract ? static_cast<U>(a) - static_cast<U>(b)
                                        : static_cast<U>(a) + static_cast<U>(b));
}
inline int64_t WrapAdd(int64_t a, int64_t b, bool subtract) {
  using U = uint64_t;
  return static_cast<int64_t>(subtract ? static_cast<U>(a) - static_cast<U>(b) : static_cast<U>(a) + static_cast<U>(b));
}

// ------------------------------------------------------------------------------------------------
// COUNT(*) and COUNT(x [, y ...]): the number of rows whose arguments are all non-null.

struct CountState {
  int64_t count;
};

}  // namespace

Status MakeCount(AggregateFunction* f) {
  f->result_type = LogicalType::BigInt().WithNullable(false);
  f->supports_retract = true;
  SetStateLayout<CountState>(f);
  f->init = [](uint8_t* s) { StateOf<CountState>(s)->count = 0; };
  f->destroy = [](uint8_t*) {};
  const size_t num_args = f->arg_types.size();
  if (num_args == 0) {
    f->state_tag = RowCountStateTag();
    f->update = [](uint8_t* s, const Vector* const*, size_t, bool retract) {
      StateOf<CountState>(s)->count += retract ? -1 : 1;
    };
  } else if (num_args == 1) {
    f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      if (args[0]->IsValid(row)) StateOf<CountState>(s)->count += retract ? -1 : 1;
    };
  } else {
    f->update = [num_args](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      for (size_t i = 0; i < num_args; ++i) {
        if (args[i]->IsNull(row)) return;
      }
      StateOf<CountState>(s)->count += retract ? -1 : 1;
    };
  }
  f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
    Write<int64_t>(out, row, StateOf<CountState>(s)->count);
  };
  f->merge = [](uint8_t* s, const uint8_t* other) {
    StateOf<CountState>(s)->count += StateOf<CountState>(other)->count;
  };
  return Status::OK();
}

namespace {

// ------------------------------------------------------------------------------------------------
// SUM / $SUM0 / AVG share one state: the running sum in accumulator type A and the number of
// non-null values (so SUM is NULL when every value was retracted, as SumWithRetractAggFunction).

template <typename A>
struct SumState {
  A sum;
  int64_t count;
};

// The accumulator of each input physical type: integral -> int64 (wrapping), FLOAT/DOUBLE -> their
// own type for SUM (Flink sums FLOAT in float), DECIMAL -> __int128 (which gnu++ counts as integral).
template <typename T>
using SumAcc = std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, __int128>, int64_t, T>;

template <typename T, typename A>
inline void AddTo(SumState<A>* st, T v, bool retract) {
  if constexpr (std::is_floating_point_v<A>) {
    st->sum = retract ? st->sum - static_cast<A>(v) : st->sum + static_cast<A>(v);
  } else {
    st->sum = WrapAdd(st->sum, static_cast<A>(v), retract);
  }
  st->count += retract ? -1 : 1;
}

template <typename T, typename A>
void SetSumCallbacks(AggregateFunction* f) {
  SetStateLayout<SumState<A>>(f);
  // SUM, $SUM0 and AVG of one argument type share this state and update (one tag per <T, A>).
  static const char tag = 0;
  f->state_tag = &tag;
  f->init = [](uint8_t* s) {
    auto* st = StateOf<SumState<A>>(s);
    st->sum = A{};
    st->count = 0;
  };
  f->destroy = [](uint8_t*) {};
  f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    AddTo<T, A>(StateOf<SumState<A>>(s), Read<T>(v, row), retract);
  };
  f->merge = [](uint8_t* s, const uint8_t* other) {
    auto* st = StateOf<SumState<A>>(s);
    const auto* ot = StateOf<SumState<A>>(other);
    if constexpr (std::is_floating_point_v<A>) {
      st->sum += ot->sum;
    } else {
      st->sum = WrapAdd(st->sum, ot->sum, /*subtract=*/false);
    }
    st->count += ot->count;
  };
}

template <typename T>
void MakeSumTyped(AggregateFunction* f, bool empty_is_zero) {
  using A = SumAcc<T>;
  SetSumCallbacks<T, A>(f);
  if constexpr (std::is_same_v<T, __int128>) {
    f->finalize = [empty_is_zero](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<SumState<A>>(s);
      if (st->count == 0 && !empty_is_zero) return WriteNull(out, row);
      if (!FitsDecimal38(st->sum)) return WriteNull(out, row);
      Write<__int128>(out, row, st->sum);
    };
  } else {
    f->finalize = [empty_is_zero](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<SumState<A>>(s);
      if (st->count == 0 && !empty_is_zero) return WriteNull(out, row);
      // Integral results narrow to the argument's width with wrap-around, as Java's (int)/(short) casts.
      Write<T>(out, row, static_cast<T>(st->sum));
    };
  }
}

template <typename T>
void MakeAvgTyped(AggregateFunction* f) {
  if constexpr (std::is_same_v<T, __int128>) {
    // DECIMAL(p, s) -> DECIMAL(38, max(6, s)): sum / count rounded half up (Flink's decimal divide).
    SetSumCallbacks<T, __int128>(f);
    const int extra_digits = f->result_type.scale() - f->arg_types[0].scale();
    const __int128 factor = Pow10(extra_digits);
    f->finalize = [factor](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<SumState<__int128>>(s);
      if (st->count == 0 || !FitsDecimal38(st->sum)) return WriteNull(out, row);
      __int128 sum = st->sum;
      __int128 count = st->count;
      if (count < 0) {  // only after retractions of never-accumulated rows; keep the sign right
        sum = -sum;
        count = -count;
      }
      // sum * factor / count without overflowing: split sum into quotient and remainder first.
      const __int128 q = sum / count;
      const __int128 r = sum % count;
      __int128 scaled_q;
      if (__builtin_mul_overflow(q, factor, &scaled_q)) return WriteNull(out, row);
      const __int128 rf = r * factor;  // |r| < count < 2^63 and factor <= 10^6: fits
      __int128 frac = rf / count;
      const __int128 rem = rf % count;
      // Round half up (away from zero), as BigDecimal's ROUND_HALF_UP.
      if (rem != 0 && 2 * (rem < 0 ? -rem : rem) >= count) frac += rem < 0 ? -1 : 1;
      __int128 result;
      if (__builtin_add_overflow(scaled_q, frac, &result) || !FitsDecimal38(result)) return WriteNull(out, row);
      Write<__int128>(out, row, result);
    };
  } else if constexpr (std::is_integral_v<T>) {
    // Integral AVG is integral: the BIGINT sum divided by the count, truncated, cast to the type.
    SetSumCallbacks<T, int64_t>(f);
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<SumState<int64_t>>(s);
      if (st->count == 0) return WriteNull(out, row);
      int64_t avg;
      if (st->count == -1) {
        avg = WrapAdd(int64_t{0}, st->sum, /*subtract=*/true);  // -sum without overflow trap
      } else {
        avg = st->sum / st->count;
      }
      Write<T>(out, row, static_cast<T>(avg));
    };
  } else {
    // FLOAT and DOUBLE average over a DOUBLE sum (Flink's Float/DoubleAvgAggFunction).
    SetSumCallbacks<T, double>(f);
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<SumState<double>>(s);
      if (st->count == 0) return WriteNull(out, row);
      Write<T>(out, row, static_cast<T>(st->sum / static_cast<double>(st->count)));
    };
  }
}

bool IsSummable(const LogicalType& t) { return t.IsNumeric(); }

const char* kNumericForm = "NUMERIC";

// ------------------------------------------------------------------------------------------------
// VAR_POP / VAR_SAMP / STDDEV_POP / STDDEV_SAMP with Flink's result type (the argument's; DECIMAL(p, s)
// -> DECIMAL(38, max(6, s))) and values. Flink (Calcite's AggregateReduceFunctionsRule) computes them
// in the argument's arithmetic: (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / COUNT(x) (VAR_SAMP: COUNT(x)
// - 1, NULL for one row), STDDEV as POWER(.., 0.5), cast back to the type. So integral arguments use
// wrapping integer arithmetic and integer division (VAR_POP of INT is an INT), FLOAT float arithmetic;
// DOUBLE and DECIMAL are computed in double (a DECIMAL result is that double rounded HALF_UP to its
// scale, where Flink's DECIMAL arithmetic may differ in the last digits).

template <typename T>
struct VarianceState {
  T sum;
  T sum_sq;
  int64_t count;
};

// Java's narrowing of a double to an integral type: NaN is 0, out-of-range values saturate at int
// (long for BIGINT), then (byte)/(short) keep the low bits.
template <typename T>
T JavaNarrow(double d) {
  if (std::isnan(d)) return 0;
  if constexpr (std::is_same_v<T, int64_t>) {
    if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  } else {
    if (d >= 2147483647.0) return static_cast<T>(std::numeric_limits<int32_t>::max());
    if (d <= -2147483648.0) return static_cast<T>(std::numeric_limits<int32_t>::min());
    return static_cast<T>(static_cast<int32_t>(d));
  }
}

// Two's complement wrap-around in T's width.
template <typename T>
T Wrap(uint64_t v) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
}

// The variance (or its square root) of the state's rows in Flink's arithmetic for T; false for NULL.
template <typename T>
bool VarianceValue(const VarianceState<T>& st, bool sample, bool sqrt, T* out) {
  const int64_t divisor = sample ? st.count - 1 : st.count;
  if (st.count <= 0 || divisor <= 0) return false;
  if constexpr (std::is_integral_v<T>) {
    using U = uint64_t;
    const T square = Wrap<T>(static_cast<U>(static_cast<int64_t>(st.sum)) * static_cast<U>(static_cast<int64_t>(st.sum)));
    // T / BIGINT and T - BIGINT are BIGINT operations (Java's long division truncates).
    const int64_t mean_square = static_cast<int64_t>(square) / st.count;
    const int64_t diff = static_cast<int64_t>(static_cast<U>(static_cast<int64_t>(st.sum_sq)) - static_cast<U>(mean_square));
    const int64_t var = diff / divisor;
    *out = sqrt ? JavaNarrow<T>(std::pow(static_cast<double>(var), 0.5)) : Wrap<T>(static_cast<U>(var));
  } else {
    const T var = (st.sum_sq - st.sum * st.sum / static_cast<T>(st.count)) / static_cast<T>(divisor);
    *out = sqrt ? static_cast<T>(std::pow(static_cast<double>(var), 0.5)) : var;
  }
  return true;
}

// A: the accumulated representation (the integral type, float, or double for DOUBLE and DECIMAL).
template <typename T, typename A>
void MakeVarianceTyped(AggregateFunction* f, bool sample, bool sqrt) {
  using State = VarianceState<A>;
  SetStateLayout<State>(f);
  f->init = [](uint8_t* s) { *StateOf<State>(s) = State{0, 0, 0}; };
  f->destroy = [](uint8_t*) {};
  const int scale = f->arg_types[0].id() == TypeId::kDecimal ? f->arg_types[0].scale() : 0;
  f->update = [scale](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    (void)scale;
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    auto* st = StateOf<State>(s);
    if constexpr (std::is_integral_v<A>) {
      using U = uint64_t;
      const U x = static_cast<U>(static_cast<int64_t>(Read<T>(v, row)));
      const A sq = Wrap<A>(x * x);  // x * x in the argument's type
      st->sum = Wrap<A>(retract ? static_cast<U>(static_cast<int64_t>(st->sum)) - x : static_cast<U>(static_cast<int64_t>(st->sum)) + x);
      st->sum_sq = Wrap<A>(retract ? static_cast<U>(static_cast<int64_t>(st->sum_sq)) - static_cast<U>(static_cast<int64_t>(sq))
                                   : static_cast<U>(static_cast<int64_t>(st->sum_sq)) + static_cast<U>(static_cast<int64_t>(sq)));
    } else {
      A x;
      if constexpr (std::is_same_v<T, __int128>) {
        x = static_cast<A>(static_cast<double>(Read<T>(v, row)) / std::pow(10.0, scale));
      } else {
        x = static_cast<A>(Read<T>(v, row));
      }
      const A sq = x * x;
      st->sum = retract ? st->sum - x : st->sum + x;
      st->sum_sq = retract ? st->sum_sq - sq : st->sum_sq + sq;
    }
    st->count += retract ? -1 : 1;
  };
  f->merge = [](uint8_t* s, const uint8_t* other) {
    auto* st = StateOf<State>(s);
    const auto* ot = StateOf<State>(other);
    if constexpr (std::is_integral_v<A>) {
      using U = uint64_t;
      st->sum = Wrap<A>(static_cast<U>(static_cast<int64_t>(st->sum)) + static_cast<U>(static_cast<int64_t>(ot->sum)));
      st->sum_sq = Wrap<A>(static_cast<U>(static_cast<int64_t>(st->sum_sq)) + static_cast<U>(static_cast<int64_t>(ot->sum_sq)));
    } else {
      st->sum += ot->sum;
      st->sum_sq += ot->sum_sq;
    }
    st->count += ot->count;
  };
  const int out_scale = f->result_type.id() == TypeId::kDecimal ? f->result_type.scale() : 0;
  f->finalize = [sample, sqrt, out_scale](const uint8_t* s, Vector* out, size_t row) {
    (void)out_scale;
    A value;
    if (!VarianceValue<A>(*StateOf<State>(s), sample, sqrt, &value)) return WriteNull(out, row);
    if constexpr (std::is_same_v<T, __int128>) {
      const double scaled = std::round(static_cast<double>(value) * std::pow(10.0, out_scale));
      if (!std::isfinite(scaled) || std::fabs(scaled) >= 1e38) return WriteNull(out, row);
      Write<__int128>(out, row, static_cast<__int128>(scaled));
    } else {
      Write<T>(out, row, static_cast<T>(value));
    }
  };
}

}  // namespace

Status MakeSum(AggregateFunction* f, bool empty_is_zero) {
  const LogicalType& t = f->arg_types[0];
  if (!IsSummable(t)) return CannotApply(f->name, f->arg_types, kNumericForm);
  // Flink's FlinkTypeSystem.deriveSumType: DECIMAL(p, s) -> DECIMAL(38, s), otherwise the same type.
  LogicalType result = t.id() == TypeId::kDecimal ? LogicalType::Decimal(38, t.scale()) : t;
  f->result_type = result.WithNullable(!empty_is_zero);
  f->supports_retract = true;
  DispatchScalar(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsString<T>) MakeSumTyped<T>(f, empty_is_zero);
  });
  return Status::OK();
}

Status MakeAvg(AggregateFunction* f) {
  const LogicalType& t = f->arg_types[0];
  if (!IsSummable(t)) return CannotApply(f->name, f->arg_types, kNumericForm);
  // LogicalTypeMerging.findAvgAggType: DECIMAL(p, s) -> DECIMAL(38, max(6, s)), otherwise the same.
  LogicalType result = t.id() == TypeId::kDecimal ? LogicalType::Decimal(38, std::max(6, t.scale())) : t;
  f->result_type = result.WithNullable(true);
  f->supports_retract = true;
  DispatchScalar(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsString<T>) MakeAvgTyped<T>(f);
  });
  return Status::OK();
}

Status MakeVariance(AggregateFunction* f, bool sample, bool sqrt) {
  const LogicalType& t = f->arg_types[0];
  if (!IsSummable(t)) return CannotApply(f->name, f->arg_types, kNumericForm);
  // As AVG (LogicalTypeMerging.findAvgAggType): the argument's type, DECIMAL(p, s) -> DECIMAL(38, max(6, s)).
  LogicalType result = t.id() == TypeId::kDecimal ? LogicalType::Decimal(38, std::max(6, t.scale())) : t;
  f->result_type = result.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone);
  f->supports_retract = true;
  DispatchScalar(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, __int128>) {
      MakeVarianceTyped<T, T>(f, sample, sqrt);
    } else if constexpr (std::is_same_v<T, float>) {
      MakeVarianceTyped<T, float>(f, sample, sqrt);
    } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, __int128>) {
      MakeVarianceTyped<T, double>(f, sample, sqrt);
    }
  });
  return Status::OK();
}

}  // namespace sluice::aggregate_internal
