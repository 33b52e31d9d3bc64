// Math functions (Flink semantics): ABS, ROUND/TRUNCATE (HALF_UP on the decimal text of a DOUBLE, as
// Java's BigDecimal.valueOf), FLOOR/CEIL, POWER, SQRT, LN, LOG10, LOG2, LOG, EXP, SIGN, PI, E, RAND,
// trigonometry. Approximate functions return DOUBLE and follow IEEE for out-of-domain input (NaN).
#include <charconv>
#include <cmath>
#include <mutex>
#include <random>

#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

using FnPtr = std::shared_ptr<ScalarFunction>;

// Rounds (or truncates) the shortest decimal text of `x` at `d` fraction digits (d may be negative).
double DecimalRoundDouble(double x, int d, bool truncate) {
  if (!std::isfinite(x)) return x;
  char buf[512];
  auto r = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::fixed);
  std::string s(buf, r.ptr);
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.erase(0, 1);
  size_t dot = s.find('.');
  std::string digits = dot == std::string::npos ? s : s.substr(0, dot) + s.substr(dot + 1);
  int64_t point = dot == std::string::npos ? static_cast<int64_t>(s.size()) : static_cast<int64_t>(dot);
  int64_t keep = point + d;
  if (keep >= static_cast<int64_t>(digits.size())) return x;
  if (keep < 0) return neg ? -0.0 : 0.0;
  bool up = !truncate && digits[static_cast<size_t>(keep)] >= '5';
  digits.resize(static_cast<size_t>(keep));
  if (up) {
    int64_t k = keep - 1;
    while (k >= 0 && digits[static_cast<size_t>(k)] == '9') digits[static_cast<size_t>(k--)] = '0';
    if (k < 0) {
      digits.insert(digits.begin(), '1');
      ++point;
    } else {
      ++digits[static_cast<size_t>(k)];
    }
  }
  // Back to text: digits with `point` integer digits.
  std::string t;
  if (point <= 0) {
    t = "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  } else if (point >= static_cast<int64_t>(digits.size())) {
    t = digits + std::string(static_cast<size_t>(point - static_cast<int64_t>(digits.size())), '0');
  } else {
    t = digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
  }
  if (t.empty()) t = "0";
  double v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return neg ? -v : v;
}

template <typename T>
T IntegralRound(T v, int d, bool truncate) {
  if (d >= 0) return v;
  if (d < -18) return 0;
  __int128 p = Pow10(-d);
  __int128 x = v;
  __int128 q = x / p, r = x % p;
  if (!truncate) {
    __int128 ar = r < 0 ? -r : r;
    if (ar * 2 >= p) q += x < 0 ? -1 : 1;
  }
  return static_cast<T>(q * p);
}

// Flink's LogicalTypeMerging.findRoundDecimalType.
LogicalType RoundDecimalType(const LogicalType& t, int d) {
  int p = t.precision(), s = t.scale();
  if (d >= s) return t;
  if (d < 0) return LogicalType::Decimal(std::min(38, 1 + p - s), 0);
  return LogicalType::Decimal(std::min(38, 1 + p - s + d), d);
}

Result<FnPtr> ResolveRound(const CallInfo& c, bool truncate) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  const LogicalType& x = c.type(0);
  if (!x.IsNumeric() && x.id() != TypeId::kNull) return FnPtr();
  LogicalType dcast = LogicalType::Integer().WithNullable(false);
  int d = 0;
  bool const_digits = true;
  if (c.size() == 2) {
    if (!AsInt(c.type(1), &dcast)) return FnPtr();
    const Value* dv = c.constant(1);
    if (dv != nullptr && !dv->is_null()) {
      d = static_cast<int>(dv->int_value());
    } else {
      const_digits = false;
    }
  }
  LogicalType xt = x.id() == TypeId::kNull ? LogicalType::Double() : x.WithTimeAttribute(TimeAttribute::kNone);
  LogicalType ret = xt;
  if (xt.id() == TypeId::kDecimal) {
    if (!const_digits) return Status::BindError(c.name + " of a DECIMAL needs a constant number of digits");
    ret = RoundDecimalType(xt, d);
  }
  ret = ret.WithNullable(c.AnyNullable());
  std::vector<LogicalType> casts = {xt};
  if (c.size() == 2) casts.push_back(dcast);
  const bool has_d = c.size() == 2;
  return MakeFunction(c.name, casts, ret, [truncate, has_d](EvalContext&, const Vector* const* args, size_t n, size_t rows,
                                                           Vector* out) -> Status {
    const Vector& x = *args[0];
    PropagateNulls(args, n, rows, out);
    auto digits = [&](size_t i) { return has_d ? args[1]->data<int32_t>()[i] : 0; };
    switch (x.type().id()) {
      case TypeId::kFloat:
      case TypeId::kDouble:
        for (size_t i = 0; i < rows; ++i) {
          if (out->IsNull(i)) continue;
          if (x.type().id() == TypeId::kFloat) {
            out->data<float>()[i] = static_cast<float>(DecimalRoundDouble(x.data<float>()[i], digits(i), truncate));
          } else {
            out->data<double>()[i] = DecimalRoundDouble(x.data<double>()[i], digits(i), truncate);
          }
        }
        return Status::OK();
      case TypeId::kDecimal: {
        const int s = x.type().scale(), rs = out->type().scale();
        for (size_t i = 0; i < rows; ++i) {
          if (out->IsNull(i)) continue;
          int d = digits(i);
          __int128 v = x.data<__int128>()[i];
          int target = std::min(d, s);
          __int128 r;
          if (truncate) {
            r = target >= s ? v : v / Pow10(s - target);
          } else {
            Rescale(v, s, target, &r);
          }
          // r has scale `target` (possibly negative); bring it to the result scale.
          if (target < 0) {
            r *= Pow10(-target);
            target = 0;
          }
          __int128 res;
          Rescale(r, target, rs, &res);
          out->data<__int128>()[i] = res;
        }
        return Status::OK();
      }
      default:
        return DispatchFixed(x.type().id(), [&](auto tag) -> Status {
          using T = decltype(tag);
          if constexpr (std::is_integral_v<T>) {
            for (size_t i = 0; i < rows; ++i) out->data<T>()[i] = IntegralRound<T>(x.data<T>()[i], digits(i), truncate);
          }
          return Status::OK();
        });
    }
  });
}

Result<FnPtr> ResolveFloorCeil(const CallInfo& c, bool ceil) {
  if (c.size() != 1) return FnPtr();
  const LogicalType& x = c.type(0);
  if (!x.IsNumeric()) return FnPtr();
  LogicalType xt = x.WithTimeAttribute(TimeAttribute::kNone);
  LogicalType ret = xt;
  if (xt.id() == TypeId::kDecimal) {
    // Calcite's ARG0_OR_EXACT_NO_SCALE: DECIMAL(p, s) -> DECIMAL(p, 0).
    ret = LogicalType::Decimal(xt.precision(), 0).WithNullable(xt.nullable());
  }
  return MakeFunction(c.name, {xt}, ret, [ceil](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
    const Vector& x = *args[0];
    switch (x.type().id()) {
      case TypeId::kFloat:
        UnaryLoop<float, float>(x, rows, out, [ceil](float v) { return ceil ? std::ceil(v) : std::floor(v); });
        return Status::OK();
      case TypeId::kDouble:
        UnaryLoop<double, double>(x, rows, out, [ceil](double v) { return ceil ? std::ceil(v) : std::floor(v); });
        return Status::OK();
      case TypeId::kDecimal: {
        const __int128 p = Pow10(x.type().scale());
        UnaryLoop<__int128, __int128>(x, rows, out, [ceil, p](__int128 v) {
          __int128 q = v / p, r = v % p;
          if (r != 0 && ceil && v > 0) ++q;
          if (r != 0 && !ceil && v < 0) --q;
          return q;
        });
        return Status::OK();
      }
      default:
        return DispatchFixed(x.type().id(), [&](auto tag) -> Status {
          using T = decltype(tag);
          UnaryLoop<T, T>(x, rows, out, [](T v) { return v; });
          return Status::OK();
        });
    }
  });
}

Result<FnPtr> ResolveAbs(const CallInfo& c) {
  if (c.size() != 1 || !c.type(0).IsNumeric()) return FnPtr();
  LogicalType xt = c.type(0).WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, {xt}, xt, [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
    return DispatchFixed(args[0]->type().id(), [&](auto tag) -> Status {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, std::string_view>) {
        return Status::Internal("ABS of a string");
      } else if constexpr (std::is_floating_point_v<T>) {
        UnaryLoop<T, T>(*args[0], rows, out, [](T v) { return std::fabs(v); });
      } else if constexpr (std::is_same_v<T, __int128>) {
        UnaryLoop<T, T>(*args[0], rows, out, [](T v) { return v < 0 ? -v : v; });
      } else {
        using U = std::make_unsigned_t<T>;
        UnaryLoop<T, T>(*args[0], rows, out, [](T v) { return v < 0 ? static_cast<T>(U(0) - static_cast<U>(v)) : v; });
      }
      return Status::OK();
    });
  });
}

Result<FnPtr> ResolveSign(const CallInfo& c) {
  if (c.size() != 1 || !c.type(0).IsNumeric()) return FnPtr();
  LogicalType xt = c.type(0).WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, {xt}, xt, [](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) -> Status {
    const Vector& x = *args[0];
    if (x.type().id() == TypeId::kDecimal) {
      const __int128 one = Pow10(x.type().scale());
      UnaryLoop<__int128, __int128>(x, rows, out, [one](__int128 v) -> __int128 { return v > 0 ? one : v < 0 ? -one : 0; });
      return Status::OK();
    }
    return DispatchFixed(x.type().id(), [&](auto tag) -> Status {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, std::string_view>) {
        UnaryLoop<T, T>(x, rows, out, [](T v) -> T { return v > 0 ? T(1) : v < 0 ? T(-1) : v; });
      }
      return Status::OK();
    });
  });
}

template <typename F>
FnPtr DoubleFn1(const CallInfo& c, F f) {
  return Simple(c, {AsDouble}, LogicalType::Double(), [f](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    UnaryLoop<double, double>(*args[0], rows, out, f);
    return Status::OK();
  });
}

template <typename F>
FnPtr DoubleFn2(const CallInfo& c, F f) {
  return Simple(c, {AsDouble, AsDouble}, LogicalType::Double(),
                [f](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                  BinaryLoop<double, double, double>(*args[0], *args[1], rows, out, f);
                  return Status::OK();
                });
}

Result<FnPtr> ResolveRand(const CallInfo& c) {
  // RAND() and RAND(seed): a seeded RAND gives the same sequence per task, as Flink's per-call Random.
  if (c.size() > 1) return FnPtr();
  if (c.size() == 1) {
    LogicalType seed_type;
    if (!AsInt(c.type(0), &seed_type)) return FnPtr();
  }
  struct RandState {
    std::mutex mu;
    std::mt19937_64 rng;
    bool seeded = false;
  };
  auto state = std::make_shared<RandState>();
  if (c.size() == 1 && c.constant(0) != nullptr && !c.constant(0)->is_null()) {
    state->rng.seed(static_cast<uint64_t>(c.constant(0)->int_value()));
    state->seeded = true;
  }
  std::vector<Coerce> sig;
  if (c.size() == 1) sig.push_back(AsInt);
  return Simple(c, sig, LogicalType::Double().WithNullable(false),
                [state](EvalContext&, const Vector* const*, size_t, size_t rows, Vector* out) {
                  std::uniform_real_distribution<double> dist(0.0, 1.0);
                  double* od = out->data<double>();
                  if (state->seeded) {
                    std::lock_guard<std::mutex> lock(state->mu);
                    for (size_t i = 0; i < rows; ++i) od[i] = dist(state->rng);
                  } else {
                    thread_local std::mt19937_64 local(std::random_device{}());
                    for (size_t i = 0; i < rows; ++i) od[i] = dist(local);
                  }
                  return Status::OK();
                },
                false, /*deterministic=*/false);
}

// RAND_INTEGER(bound) and RAND_INTEGER(seed, bound): a pseudorandom INT in [0, bound), seeded like RAND;
// a bound that is not positive fails as Java's Random.nextInt does.
Result<FnPtr> ResolveRandInteger(const CallInfo& c) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  std::vector<Coerce> sig(c.size(), AsInt);
  struct RandState {
    std::mutex mu;
    std::mt19937_64 rng;
    bool seeded = false;
  };
  auto state = std::make_shared<RandState>();
  if (c.size() == 2 && c.constant(0) != nullptr && !c.constant(0)->is_null()) {
    state->rng.seed(static_cast<uint64_t>(c.constant(0)->int_value()));
    state->seeded = true;
  }
  const size_t bound_arg = c.size() - 1;
  return Simple(c, sig, LogicalType::Integer(),
                [state, bound_arg](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  int32_t* od = out->data<int32_t>();
                  thread_local std::mt19937_64 local(std::random_device{}());
                  std::unique_lock<std::mutex> lock(state->mu, std::defer_lock);
                  if (state->seeded) lock.lock();
                  std::mt19937_64& rng = state->seeded ? state->rng : local;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) -> Status {
                    const int32_t bound = args[bound_arg]->data<int32_t>()[i];
                    if (bound <= 0) return Status::RuntimeError("java.lang.IllegalArgumentException: bound must be positive");
                    od[i] = static_cast<int32_t>(rng() % static_cast<uint64_t>(bound));
                    return Status::OK();
                  });
                },
                false, /*deterministic=*/false);
}

}  // namespace

void RegisterMathFunctions(FunctionTable* t) {
  t->Add({"ABS", {"ABS(<NUMERIC>)"}, ResolveAbs});
  t->Add({"SIGN", {"SIGN(<NUMERIC>)"}, ResolveSign});
  t->Add({"ROUND", {"ROUND(<NUMERIC>)", "ROUND(<NUMERIC>, <INTEGER>)"}, [](const CallInfo& c) { return ResolveRound(c, false); }});
  t->Add({"TRUNCATE", {"TRUNCATE(<NUMERIC>)", "TRUNCATE(<NUMERIC>, <INTEGER>)"}, [](const CallInfo& c) { return ResolveRound(c, true); }});
  t->Add({"FLOOR", {"FLOOR(<NUMERIC>)"}, [](const CallInfo& c) { return ResolveFloorCeil(c, false); }});
  t->Add({"CEIL", {"CEIL(<NUMERIC>)"}, [](const CallInfo& c) { return ResolveFloorCeil(c, true); }});
  t->Alias("CEILING", "CEIL");
  t->Add({"POWER", {"POWER(<NUMERIC>, <NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return DoubleFn2(c, [](double a, double b) { return std::pow(a, b); });
          }});
  t->Alias("POW", "POWER");
  t->Add({"SQRT", {"SQRT(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::sqrt(a); }); }});
  t->Add({"LN", {"LN(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::log(a); }); }});
  t->Add({"LOG10", {"LOG10(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::log10(a); }); }});
  t->Add({"LOG2", {"LOG2(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::log2(a); }); }});
  t->Add({"LOG", {"LOG(<NUMERIC>)", "LOG(<NUMERIC>, <NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            if (c.size() == 1) return DoubleFn1(c, [](double a) { return std::log(a); });
            return DoubleFn2(c, [](double base, double x) { return std::log(x) / std::log(base); });
          }});
  t->Add({"EXP", {"EXP(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::exp(a); }); }});
  t->Add({"SIN", {"SIN(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::sin(a); }); }});
  t->Add({"COS", {"COS(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::cos(a); }); }});
  t->Add({"TAN", {"TAN(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::tan(a); }); }});
  t->Add({"COT", {"COT(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return 1.0 / std::tan(a); }); }});
  t->Add({"ASIN", {"ASIN(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::asin(a); }); }});
  t->Add({"ACOS", {"ACOS(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::acos(a); }); }});
  t->Add({"ATAN", {"ATAN(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::atan(a); }); }});
  t->Add({"ATAN2", {"ATAN2(<NUMERIC>, <NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return DoubleFn2(c, [](double a, double b) { return std::atan2(a, b); });
          }});
  t->Add({"SINH", {"SINH(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::sinh(a); }); }});
  t->Add({"COSH", {"COSH(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::cosh(a); }); }});
  t->Add({"TANH", {"TANH(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> { return DoubleFn1(c, [](double a) { return std::tanh(a); }); }});
  t->Add({"DEGREES", {"DEGREES(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return DoubleFn1(c, [](double a) { return a * 180.0 / M_PI; });
          }});
  t->Add({"RADIANS", {"RADIANS(<NUMERIC>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            return DoubleFn1(c, [](double a) { return a * M_PI / 180.0; });
          }});
  for (const char* name : {"PI", "E"}) {
    double v = std::string(name) == "PI" ? M_PI : M_E;
    t->Add({name, {std::string(name) + "()"}, [v](const CallInfo& c) -> Result<FnPtr> {
              return Simple(c, {}, LogicalType::Double().WithNullable(false),
                            [v](EvalContext&, const Vector* const*, size_t, size_t rows, Vector* out) {
                              std::fill(out->data<double>(), out->data<double>() + rows, v);
                              return Status::OK();
                            });
            }});
  }
  t->Add({"RAND", {"RAND()", "RAND(<INTEGER>)"}, ResolveRand});
  t->Add({"RAND_INTEGER", {"RAND_INTEGER(<INTEGER>)", "RAND_INTEGER(<INTEGER>, <INTEGER>)"}, ResolveRandInteger});
}

}  // namespace sluice::fn
