// MIN and MAX. Append-only input keeps the current extreme in the slot (strings in an owned buffer
// that is rewritten only when the extreme changes). Retracting input keeps a sorted multiset
// value -> count on the heap, as Flink's Min/MaxWithRetractAggFunction keep a map view: deleting the
// current extreme reveals the next one. A retraction of a value never accumulated leaves a negative
// count that a later accumulation cancels; only positive counts take part in the result.
#include <cstddef>
#include <map>

#include "function/aggregate/aggregate_util.h"
#include "function/aggregate/append_only_slot.h"

namespace sluice::aggregate_internal {
namespace {

template <typename T>
struct MultisetState {
  std::map<OwnedKey<T>, int64_t, KeyLess>* counts;
};

template <typename T, bool kIsMax>
inline bool Better(const T& candidate, const T& current) {
  if constexpr (kIsMax) {
    return candidate > current;
  } else {
    return candidate < current;
  }
}

// MIN/MAX's rule for MakeAppendOnlySlot: a strictly better value replaces the kept one.
template <bool kIsMax>
struct ReplacesIfBetter {
  template <typename V>
  bool operator()(const V& candidate, const V& current) const {
    return Better<V, kIsMax>(candidate, current);
  }
};

template <typename T, bool kIsMax>
void MakeRetracting(AggregateFunction* f) {
  using Key = OwnedKey<T>;
  using Map = std::map<Key, int64_t, KeyLess>;
  using State = MultisetState<T>;
  f->supports_retract = true;
  SetStateLayout<State>(f);
  f->init = [](uint8_t* s) { StateOf<State>(s)->counts = nullptr; };
  f->destroy = [](uint8_t* s) {
    auto* st = StateOf<State>(s);
    delete st->counts;
    st->counts = nullptr;
  };
  f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    auto* st = StateOf<State>(s);
    if (st->counts == nullptr) st->counts = new Map();
    Map& counts = *st->counts;
    const T x = Read<T>(v, row);
    // Look up without building an owned key when the value is already present.
    auto it = counts.find(x);
    if (it == counts.end()) {
      counts.emplace(Key(x), retract ? -1 : 1);
      return;
    }
    it->second += retract ? -1 : 1;
    if (it->second == 0) counts.erase(it);
  };
  f->merge = [](uint8_t* s, const uint8_t* other) {
    const auto* ot = StateOf<State>(other);
    if (ot->counts == nullptr || ot->counts->empty()) return;
    auto* st = StateOf<State>(s);
    if (st->counts == nullptr) st->counts = new Map();
    for (const auto& [key, count] : *ot->counts) {
      auto [it, inserted] = st->counts->emplace(key, count);
      if (inserted) continue;
      it->second += count;
      if (it->second == 0) st->counts->erase(it);
    }
  };
  f->serialize = [](const uint8_t* s, StateWriter* w) {
    const auto* st = StateOf<State>(s);
    const size_t n = st->counts == nullptr ? 0 : st->counts->size();
    w->PutVarint(n);
    if (n == 0) return;
    for (const auto& [key, count] : *st->counts) {
      PutKey<T>(w, key);
      w->PutI64(count);
    }
  };
  f->deserialize = [](uint8_t* s, StateReader* r) {
    auto* st = StateOf<State>(s);
    const size_t n = r->GetCount(9);
    if (n == 0) return;
    st->counts = new Map();
    for (size_t i = 0; i < n && r->ok(); ++i) {
      Key key = GetKey<T>(r);
      const int64_t count = r->GetI64();
      st->counts->emplace(std::move(key), count);
    }
  };
  f->heap_bytes = [](const uint8_t* s) -> size_t {
    const auto* st = StateOf<State>(s);
    if (st->counts == nullptr) return 0;
    // A red-black tree node: three pointers and a color next to the key and count.
    size_t bytes = sizeof(Map) + st->counts->size() * (4 * sizeof(void*) + sizeof(typename Map::value_type));
    if constexpr (kIsString<T>) {
      for (const auto& entry : *st->counts) {
        if (entry.first.capacity() > 15) bytes += entry.first.capacity() + 1;
      }
    }
    return bytes;
  };
  f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
    const auto* st = StateOf<State>(s);
    if (st->counts != nullptr) {
      if constexpr (kIsMax) {
        for (auto it = st->counts->rbegin(); it != st->counts->rend(); ++it) {
          if (it->second > 0) return Write<Key>(out, row, it->first);
        }
      } else {
        for (auto it = st->counts->begin(); it != st->counts->end(); ++it) {
          if (it->second > 0) return Write<Key>(out, row, it->first);
        }
      }
    }
    WriteNull(out, row);
  };
}

// Flink's AggFunctionFactory accepts these argument types for MIN/MAX.
bool IsMinMaxType(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
      return true;
    default:
      return false;
  }
}

}  // namespace

Status MakeMinMax(AggregateFunction* f, bool is_max, bool needs_retract) {
  const LogicalType& t = f->arg_types[0];
  if (!IsMinMaxType(t)) {
    return Status::BindError(std::string(is_max ? "Max" : "Min") + " aggregate function does not support type: '" +
                             t.WithNullable(true).ToString() + "'.\nPlease re-check the data type.");
  }
  f->result_type = t.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone);
  DispatchScalar(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (needs_retract) {
      if (is_max) {
        MakeRetracting<T, true>(f);
      } else {
        MakeRetracting<T, false>(f);
      }
    } else if (is_max) {
      MakeAppendOnlySlot<T, ReplacesIfBetter<true>>(f);
    } else {
      MakeAppendOnlySlot<T, ReplacesIfBetter<false>>(f);
    }
  });
  return Status::OK();
}

}  // namespace sluice::aggregate_internal
