// FIRST_VALUE, LAST_VALUE and LISTAGG: aggregates whose result depends on arrival order.
//
// Append-only input keeps only what the result needs (the first/last non-null value; the
// concatenation so far) in the slot. Retracting input keeps every live value with its arrival number,
// as Flink's FirstValueWithRetract/LastValueWithRetract (order -> values) and ListAggWithRetract (a
// list) do: a retraction removes the earliest-arrived live occurrence of an equal value, so deleting
// the current first/last value reveals its neighbour and LISTAGG keeps the order of the survivors.
// Flink orders FIRST/LAST_VALUE by processing-time milliseconds; an arrival counter gives the same
// order without ties.
#include <cstddef>
#include <list>
#include <map>
#include <vector>

#include "function/aggregate/aggregate_util.h"
#include "function/aggregate/append_only_slot.h"

namespace sluice::aggregate_internal {
namespace {

// ------------------------------------------------------------------------------------------------
// FIRST_VALUE / LAST_VALUE, append-only.

// FIRST_VALUE/LAST_VALUE's rule for MakeAppendOnlySlot: LAST_VALUE's every value replaces the kept one,
// FIRST_VALUE's first one stays.
template <bool kIsLast>
struct ReplacesIfLast {
  template <typename V>
  bool operator()(const V&, const V&) const {
    return kIsLast;
  }
};

// ------------------------------------------------------------------------------------------------
// FIRST_VALUE / LAST_VALUE with retraction.

template <typename Key>
struct OrderedValues {
  uint64_t next_order = 0;
  std::map<uint64_t, Key> by_order;
  // Arrival numbers of each live value, earliest first.
  std::map<Key, std::vector<uint64_t>, KeyLess> orders_of;
};

template <typename T>
struct OrderedState {
  OrderedValues<OwnedKey<T>>* values;
};

template <typename T, bool kIsLast>
void MakeRetractingValue(AggregateFunction* f) {
  using Key = OwnedKey<T>;
  using State = OrderedState<T>;
  f->supports_retract = true;
  SetStateLayout<State>(f);
  f->init = [](uint8_t* s) { StateOf<State>(s)->values = nullptr; };
  f->destroy = [](uint8_t* s) {
    auto* st = StateOf<State>(s);
    delete st->values;
    st->values = nullptr;
  };
  f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    auto* st = StateOf<State>(s);
    if (st->values == nullptr) st->values = new OrderedValues<Key>();
    OrderedValues<Key>& vals = *st->values;
    const T x = Read<T>(v, row);
    auto it = vals.orders_of.find(x);
    if (retract) {
      if (it == vals.orders_of.end()) return;  // never accumulated: nothing to remove (as Flink)
      vals.by_order.erase(it->second.front());
      it->second.erase(it->second.begin());
      if (it->second.empty()) vals.orders_of.erase(it);
      return;
    }
    const uint64_t order = vals.next_order++;
    if (it == vals.orders_of.end()) it = vals.orders_of.emplace(Key(x), std::vector<uint64_t>()).first;
    it->second.push_back(order);
    vals.by_order.emplace(order, it->first);
  };
  // No merge: as Flink's First/LastValueWithRetractAggFunction, this aggregate is not split into
  // local and global phases.
  f->serialize = [](const uint8_t* s, StateWriter* w) {
    const auto* st = StateOf<State>(s);
    if (st->values == nullptr) {
      w->PutBool(false);
      return;
    }
    w->PutBool(true);
    w->PutU64(st->values->next_order);
    w->PutVarint(st->values->by_order.size());
    for (const auto& [order, key] : st->values->by_order) {
      w->PutU64(order);
      PutKey<T>(w, key);
    }
  };
  f->deserialize = [](uint8_t* s, StateReader* r) {
    auto* st = StateOf<State>(s);
    if (!r->GetBool()) return;
    st->values = new OrderedValues<Key>();
    OrderedValues<Key>& vals = *st->values;
    vals.next_order = r->GetU64();
    const size_t n = r->GetCount(9);
    for (size_t i = 0; i < n && r->ok(); ++i) {
      const uint64_t order = r->GetU64();
      Key key = GetKey<T>(r);
      // by_order is written in increasing order, so each key's orders come back sorted.
      auto it = vals.orders_of.find(key);
      if (it == vals.orders_of.end()) it = vals.orders_of.emplace(key, std::vector<uint64_t>()).first;
      it->second.push_back(order);
      vals.by_order.emplace(order, it->first);
    }
  };
  f->heap_bytes = [](const uint8_t* s) -> size_t {
    const auto* st = StateOf<State>(s);
    if (st->values == nullptr) return 0;
    constexpr size_t kNode = 4 * sizeof(void*);
    size_t bytes = sizeof(OrderedValues<Key>);
    bytes += st->values->by_order.size() * (kNode + sizeof(uint64_t) + sizeof(Key) + sizeof(uint64_t));
    bytes += st->values->orders_of.size() * (kNode + sizeof(Key) + sizeof(std::vector<uint64_t>));
    for (const auto& [key, orders] : st->values->orders_of) bytes += orders.capacity() * sizeof(uint64_t);
    if constexpr (kIsString<T>) {
      for (const auto& [order, key] : st->values->by_order) {
        if (key.capacity() > 15) bytes += key.capacity() + 1;
      }
    }
    return bytes;
  };
  f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
    const auto* st = StateOf<State>(s);
    if (st->values == nullptr || st->values->by_order.empty()) return WriteNull(out, row);
    const auto& by_order = st->values->by_order;
    Write<Key>(out, row, kIsLast ? by_order.rbegin()->second : by_order.begin()->second);
  };
}

// ------------------------------------------------------------------------------------------------
// LISTAGG.

struct ListAggState {
  OwnedString joined;
  bool has_value;
};

// The live values in arrival order, and retractions that found no equal live value (kept so that a
// merge with an earlier state can still cancel them, as Flink's retractList).
struct ListAggValues {
  std::list<std::string> values;
  std::vector<std::string> pending_retractions;
};

struct ListAggRetractState {
  ListAggValues* lists;
};

// Removes the earliest live value equal to `x`; false when there is none.
bool RemoveFirst(std::list<std::string>* values, std::string_view x) {
  for (auto it = values->begin(); it != values->end(); ++it) {
    if (*it == x) {
      values->erase(it);
      return true;
    }
  }
  return false;
}

size_t StringHeapBytes(const std::string& s) {
  return sizeof(std::string) + (s.capacity() > 15 ? s.capacity() + 1 : 0);
}

void MakeListAggAppendOnly(AggregateFunction* f, std::string separator) {
  f->supports_retract = false;
  SetStateLayout<ListAggState>(f);
  f->init = [](uint8_t* s) {
    auto* st = StateOf<ListAggState>(s);
    st->joined.Init();
    st->has_value = false;
  };
  f->destroy = [](uint8_t* s) { StateOf<ListAggState>(s)->joined.Free(); };
  f->update = [separator](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    SLUICE_CHECK(!retract);
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    auto* st = StateOf<ListAggState>(s);
    if (st->has_value) st->joined.Append(separator);
    st->joined.Append(v->GetString(row));
    st->has_value = true;
  };
  f->merge = [separator](uint8_t* s, const uint8_t* other) {
    auto* st = StateOf<ListAggState>(s);
    const auto* ot = StateOf<ListAggState>(other);
    if (!ot->has_value) return;
    if (st->has_value) st->joined.Append(separator);
    st->joined.Append(ot->joined.view());
    st->has_value = true;
  };
  f->heap_bytes = [](const uint8_t* s) -> size_t { return StateOf<ListAggState>(s)->joined.capacity; };
  f->serialize = [](const uint8_t* s, StateWriter* w) {
    const auto* st = StateOf<ListAggState>(s);
    w->PutBool(st->has_value);
    PutOwned(w, st->joined);
  };
  f->deserialize = [](uint8_t* s, StateReader* r) {
    auto* st = StateOf<ListAggState>(s);
    st->has_value = r->GetBool();
    GetOwned(r, &st->joined);
  };
  f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
    const auto* st = StateOf<ListAggState>(s);
    if (!st->has_value) return WriteNull(out, row);
    Write<std::string_view>(out, row, st->joined.view());
  };
}

void MakeListAggRetracting(AggregateFunction* f, std::string separator) {
  using State = ListAggRetractState;
  f->supports_retract = true;
  SetStateLayout<State>(f);
  f->init = [](uint8_t* s) { StateOf<State>(s)->lists = nullptr; };
  f->destroy = [](uint8_t* s) {
    auto* st = StateOf<State>(s);
    delete st->lists;
    st->lists = nullptr;
  };
  f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
    const Vector* v = args[0];
    if (v->IsNull(row)) return;
    auto* st = StateOf<State>(s);
    if (st->lists == nullptr) st->lists = new ListAggValues();
    const std::string_view x = v->GetString(row);
    if (!retract) {
      st->lists->values.emplace_back(x);
    } else if (!RemoveFirst(&st->lists->values, x)) {
      st->lists->pending_retractions.emplace_back(x);
    }
  };
  f->merge = [](uint8_t* s, const uint8_t* other) {
    const auto* ot = StateOf<State>(other);
    if (ot->lists == nullptr) return;
    auto* st = StateOf<State>(s);
    if (st->lists == nullptr) st->lists = new ListAggValues();
    ListAggValues& mine = *st->lists;
    mine.values.insert(mine.values.end(), ot->lists->values.begin(), ot->lists->values.end());
    std::vector<std::string> retractions = std::move(mine.pending_retractions);
    retractions.insert(retractions.end(), ot->lists->pending_retractions.begin(), ot->lists->pending_retractions.end());
    mine.pending_retractions.clear();
    for (std::string& r : retractions) {
      if (!RemoveFirst(&mine.values, r)) mine.pending_retractions.push_back(std::move(r));
    }
  };
  f->serialize = [](const uint8_t* s, StateWriter* w) {
    const auto* st = StateOf<State>(s);
    if (st->lists == nullptr) {
      w->PutBool(false);
      return;
    }
    w->PutBool(true);
    w->PutVarint(st->lists->values.size());
    for (const std::string& v : st->lists->values) w->PutString(v);
    w->PutVarint(st->lists->pending_retractions.size());
    for (const std::string& v : st->lists->pending_retractions) w->PutString(v);
  };
  f->deserialize = [](uint8_t* s, StateReader* r) {
    auto* st = StateOf<State>(s);
    if (!r->GetBool()) return;
    st->lists = new ListAggValues();
    size_t n = r->GetCount(1);
    for (size_t i = 0; i < n && r->ok(); ++i) st->lists->values.push_back(r->GetString());
    n = r->GetCount(1);
    for (size_t i = 0; i < n && r->ok(); ++i) st->lists->pending_retractions.push_back(r->GetString());
  };
  f->heap_bytes = [](const uint8_t* s) -> size_t {
    const auto* st = StateOf<State>(s);
    if (st->lists == nullptr) return 0;
    size_t bytes = sizeof(ListAggValues);
    for (const std::string& v : st->lists->values) bytes += 2 * sizeof(void*) + StringHeapBytes(v);
    for (const std::string& v : st->lists->pending_retractions) bytes += StringHeapBytes(v);
    return bytes;
  };
  f->finalize = [separator](const uint8_t* s, Vector* out, size_t row) {
    const auto* st = StateOf<State>(s);
    if (st->lists == nullptr || st->lists->values.empty()) return WriteNull(out, row);
    std::string joined;
    bool first = true;
    for (const std::string& part : st->lists->values) {
      if (!first) joined += separator;
      joined += part;
      first = false;
    }
    Write<std::string>(out, row, joined);
  };
}

}  // namespace

Status MakeFirstLastValue(AggregateFunction* f, bool is_last, bool needs_retract) {
  const LogicalType& t = f->arg_types[0];
  f->result_type = t.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone);
  const bool supported = DispatchScalar(t.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (needs_retract) {
      if (is_last) {
        MakeRetractingValue<T, true>(f);
      } else {
        MakeRetractingValue<T, false>(f);
      }
    } else if (is_last) {
      MakeAppendOnlySlot<T, ReplacesIfLast<true>>(f);
    } else {
      MakeAppendOnlySlot<T, ReplacesIfLast<false>>(f);
    }
  });
  if (!supported) {
    return Status::BindError(std::string(is_last ? "LAST_VALUE" : "FIRST_VALUE") +
                             " aggregate function does not support type: '" + t.WithNullable(true).ToString() +
                             "'.\nPlease re-check the data type.");
  }
  return Status::OK();
}

Status MakeListAgg(AggregateFunction* f, std::string separator, bool needs_retract) {
  // Calcite's ARG0_NULLABLE: the result has the argument's type; a fixed-length CHAR(n) cannot hold
  // the concatenation, so that one becomes STRING.
  const LogicalType& t = f->arg_types[0];
  f->result_type = (t.id() == TypeId::kVarChar ? t : LogicalType::String())
                       .WithNullable(true)
                       .WithTimeAttribute(TimeAttribute::kNone);
  if (needs_retract) {
    MakeListAggRetracting(f, std::move(separator));
  } else {
    MakeListAggAppendOnly(f, std::move(separator));
  }
  return Status::OK();
}

}  // namespace sluice::aggregate_internal
