// Internal helpers shared by the aggregate function families (not part of the public API): the
// physical C++ type of each comparable SQL type, reading one argument row, writing one result row,
// a total order for floating point keys (Java's Double.compare, as Flink's retracting MIN/MAX use),
// an owned string buffer for state slots, and the per-family factories ResolveAggregate dispatches to.
//
// Invariants: every factory returns a complete AggregateFunction (all four callbacks set, state_size
// and state_align those of the state struct it placement-constructs in init).
// Threading: stateless helpers; the factories build immutable AggregateFunctions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice::aggregate_internal {

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls fn(TypeTag<T>{}) with T the physical type of a scalar comparable type (see logical_type.h);
// strings use std::string_view. Returns false (without calling fn) for types without an order here
// (NULL, nested types).
template <typename Fn>
bool DispatchScalar(TypeId id, Fn&& fn) {
  switch (id) {
    case TypeId::kBoolean:
      fn(TypeTag<uint8_t>{});
      return true;
    case TypeId::kTinyInt:
      fn(TypeTag<int8_t>{});
      return true;
    case TypeId::kSmallInt:
      fn(TypeTag<int16_t>{});
      return true;
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      fn(TypeTag<int32_t>{});
      return true;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime:
      fn(TypeTag<int64_t>{});
      return true;
    case TypeId::kFloat:
      fn(TypeTag<float>{});
      return true;
    case TypeId::kDouble:
      fn(TypeTag<double>{});
      return true;
    case TypeId::kDecimal:
      fn(TypeTag<__int128>{});
      return true;
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      fn(TypeTag<std::string_view>{});
      return true;
    default:
      return false;
  }
}

template <typename T>
inline constexpr bool kIsString = std::is_same_v<T, std::string_view>;

// The type a value of physical type T is kept as inside heap-allocated state (owned strings).
template <typename T>
using OwnedKey = std::conditional_t<kIsString<T>, std::string, T>;

template <typename T>
inline T Read(const Vector* v, size_t row) {
  return v->data<T>()[row];
}

template <typename T>
inline void Write(Vector* out, size_t row, const T& value) {
  if constexpr (kIsString<T> || std::is_same_v<T, std::string>) {
    out->SetString(row, std::string_view(value));
  } else {
    out->data<T>()[row] = value;
  }
  // Without a validity buffer every value is valid: no out-of-line call (twice per row and call in a
  // GroupAggregate's before and after images).
  if (out->MayHaveNulls()) out->SetNull(row, false);
}

inline void WriteNull(Vector* out, size_t row) { out->SetNull(row, true); }

// Strict weak order for keys of retracting state. Floating point follows Java's Double.compare
// (-0.0 < 0.0, NaN above everything and equal to itself), so NaN cannot corrupt a std::map.
struct KeyLess {
  // Transparent, so a std::string-keyed map can be searched with an input row's string_view.
  using is_transparent = void;
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    if constexpr (std::is_floating_point_v<A>) {
      const bool a_nan = std::isnan(a);
      const bool b_nan = std::isnan(b);
      if (a_nan || b_nan) return !a_nan && b_nan;
      if (a == b) return std::signbit(a) && !std::signbit(b);
      return a < b;
    } else if constexpr (std::is_convertible_v<const A&, std::string_view>) {
      return std::string_view(a) < std::string_view(b);
    } else {
      return a < b;
    }
  }
};

// A growable byte buffer owned by a state slot (the slot holds this struct, the bytes live on the
// heap). Trivially constructible as all zeros; Free() must run in the function's destroy.
struct OwnedString {
  char* data;
  uint32_t size;
  uint32_t capacity;

  void Init() {
    data = nullptr;
    size = 0;
    capacity = 0;
  }
  void Reserve(size_t n) {
    if (n <= capacity) return;
    size_t cap = capacity == 0 ? 16 : capacity;
    while (cap < n) cap *= 2;
    SLUICE_CHECK(cap <= UINT32_MAX);
    char* grown = static_cast<char*>(std::realloc(data, cap));
    SLUICE_CHECK(grown != nullptr);
    data = grown;
    capacity = static_cast<uint32_t>(cap);
  }
  void Assign(std::string_view s) {
    Reserve(s.size());
    if (!s.empty()) std::memcpy(data, s.data(), s.size());
    size = static_cast<uint32_t>(s.size());
  }
  void Append(std::string_view s) {
    Reserve(size + s.size());
    if (!s.empty()) std::memcpy(data + size, s.data(), s.size());
    size += static_cast<uint32_t>(s.size());
  }
  std::string_view view() const { return std::string_view(data, size); }
  void Free() {
    std::free(data);
    Init();
  }
};

// Checkpoint encoding of owned strings and of map keys (state/state_serde.h).
inline void PutOwned(StateWriter* w, const OwnedString& s) { w->PutString(s.view()); }
inline void GetOwned(StateReader* r, OwnedString* s) { s->Assign(r->GetStringView()); }
template <typename T>
void PutKey(StateWriter* w, const OwnedKey<T>& k) {
  if constexpr (kIsString<T>) {
    w->PutString(k);
  } else {
    w->PutRaw(&k, sizeof k);
  }
}
template <typename T>
OwnedKey<T> GetKey(StateReader* r) {
  if constexpr (kIsString<T>) {
    return r->GetString();
  } else {
    OwnedKey<T> k{};
    r->GetRaw(&k, sizeof k);
    return k;
  }
}

// Fills the size/alignment fields for state struct S.
template <typename S>
void SetStateLayout(AggregateFunction* f) {
  f->state_size = sizeof(S);
  f->state_align = alignof(S) < 8 ? 8 : alignof(S);
}

template <typename S>
S* StateOf(uint8_t* state) {
  return std::launder(reinterpret_cast<S*>(state));
}
template <typename S>
const S* StateOf(const uint8_t* state) {
  return std::launder(reinterpret_cast<const S*>(state));
}

// Family factories. Each fills `f` (whose name, arg_types, explain_name are already set) and
// returns OK, or a BindError naming the unsupported argument type.
[[nodiscard]] Status MakeCount(AggregateFunction* f);
[[nodiscard]] Status MakeSum(AggregateFunction* f, bool empty_is_zero);
[[nodiscard]] Status MakeAvg(AggregateFunction* f);
[[nodiscard]] Status MakeVariance(AggregateFunction* f, bool sample, bool sqrt);
[[nodiscard]] Status MakeMinMax(AggregateFunction* f, bool is_max, bool needs_retract);
[[nodiscard]] Status MakeFirstLastValue(AggregateFunction* f, bool is_last, bool needs_retract);
[[nodiscard]] Status MakeListAgg(AggregateFunction* f, std::string separator, bool needs_retract);
[[nodiscard]] Status MakeSingleValue(AggregateFunction* f, bool needs_retract);

// "SUM(<INTEGER>)"-style rendering of a call's argument types, as Calcite prints signatures.
std::string SignatureString(const std::string& name, const std::vector<LogicalType>& arg_types);
// Calcite's error for an argument type a function does not accept.
Status CannotApply(const std::string& name, const std::vector<LogicalType>& arg_types, const std::string& forms);

}  // namespace sluice::aggregate_internal
