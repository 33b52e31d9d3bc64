// FIRST_VALUE, LAST_VALUE and LISTAGG: aggregates whose result depends on arrival order.
//
// Append-only input keeps only what the result needs (the first/last non-null value; the
// concatenation so far) in the slot. Retracting input keeps every live value with its arrival number,
// as Flink's FirstValueWithRetract/LastValueWithRetract (order -> values) and ListAggWithRetract (a
// list) do: a retraction removes the earliest-arrived live occurrence of an equal value, so deleting
// the current first/last value reveals its neighbour and LISTAGG keeps the order of the survivors.
// Flink orders FIRST/LAST_VALUE by processing-time milliseconds; an arrival counter gives the same
// order without ties.
#include <deque>
#include <list>
#include <map>

#include "function/aggregate/aggregate_util.h"

namespace sluice::aggregate_internal {
namespace {

// ------------------------------------------------------------------------------------------------
// FIRST_VALUE / LAST_VALUE, append-only.

template <typename T>
struct ValueState {
  T value;
  bool has_value;
};

struct StringValueState {
  OwnedString value;
  bool has_value;
};

template <typename T, bool kIsLast>
void MakeAppendOnlyValue(AggregateFunction* f) {
  f->supports_retract = false;
  if constexpr (kIsString<T>) {
    SetStateLayout<StringValueState>(f);
    f->init = [](uint8_t* s) {
      auto* st = StateOf<StringValueState>(s);
      st->value.Init();
      st->has_value = false;
    };
    f->destroy = [](uint8_t* s) { StateOf<StringValueState>(s)->value.Free(); };
    f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      SLUICE_CHECK(!retract);
      const Vector* v = args[0];
      if (v->IsNull(row)) return;
      auto* st = StateOf<StringValueState>(s);
      if (kIsLast || !st->has_value) {
        st->value.Assign(v->GetString(row));
        st->has_value = true;
      }
    };
    f->merge = [](uint8_t* s, const uint8_t* other) {
      auto* st = StateOf<StringValueState>(s);
      const auto* ot = StateOf<StringValueState>(other);
      if (ot->has_value && (kIsLast || !st->has_value)) {
        st->value.Assign(ot->value.view());
        st->has_value = true;
      }
    };
    f->heap_bytes = [](const uint8_t* s) -> size_t { return StateOf<StringValueState>(s)->value.capacity; };
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<StringValueState>(s);
      if (!st->has_value) return WriteNull(out, row);
      Write<std::string_view>(out, row, st->value.view());
    };
  } else {
    SetStateLayout<ValueState<T>>(f);
    f->init = [](uint8_t* s) {
      auto* st = StateOf<ValueState<T>>(s);
      st->value = T{};
      st->has_value = false;
    };
    f->destroy = [](uint8_t*) {};
    f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      SLUICE_CHECK(!retract);
      const Vector* v = args[0];
      if (v->IsNull(row)) return;
      auto* st = StateOf<ValueState<T>>(s);
      if (kIsLast || !st->has_value) {
        st->value = Read<T>(v, row);
        st->has_value = true;
      }
    };
    f->merge = [](uint8_t* s, const uint8_t* other) {
      auto* st = StateOf<ValueState<T>>(s);
      const auto* ot = StateOf<ValueState<T>>(other);
      if (ot->has_value && (kIsLast || !st->has_value)) *st = *ot;
    };
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<ValueState<T>>(s);
      if (!st->has_value) return WriteNull(out, row);
      Write<T>(out, row, st->value);
    };
  }
}

// ------------------------------------------------------------------------------------------------
// FIRST_VALUE / LAST_VALUE with retraction.

template <typename Key>
struct OrderedValues {
  uint64_t next_order = 0;
  std::map<uint64_t, Key> by_order;
  // Arrival numbers of each live value, earliest first.
  std::map<Key, std::deque<uint64_t>, KeyLess> orders_of;
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
      it->second.pop_front();
      if (it->second.empty()) vals.orders_of.erase(it);
      return;
    }
    const uint64_t order = vals.next_order++;
    if (it == vals.orders_of.end()) it = vals.orders_of.emplace(Key(x), std::deque<uint64_t>()).first;
    it->second.push_back(order);
    vals.by_order.emplace(order, it->first);
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

struct ListAggRetractState {
  std::list<std::string>* values;
};

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
    if (st->values == nullptr) st->values = new std::list<std::string>();
    const std::string_view x = v->GetString(row);
    if (!retract) {
      st->values->emplace_back(x);
      return;
    }
    for (auto it = st->values->begin(); it != st->values->end(); ++it) {
      if (*it == x) {
        st->values->erase(it);
        return;
      }
    }
  };
  f->finalize = [separator](const uint8_t* s, Vector* out, size_t row) {
    const auto* st = StateOf<State>(s);
    if (st->values == nullptr || st->values->empty()) return WriteNull(out, row);
    std::string joined;
    bool first = true;
    for (const std::string& part : *st->values) {
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
      MakeAppendOnlyValue<T, true>(f);
    } else {
      MakeAppendOnlyValue<T, false>(f);
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
  f->result_type = (t.id() == TypeId::kVarChar ? t : LogicalType::String()).WithNullable(true).WithTimeAttribute(
      TimeAttribute::kNone);
  if (needs_retract) {
    MakeListAggRetracting(f, std::move(separator));
  } else {
    MakeListAggAppendOnly(f, std::move(separator));
  }
  return Status::OK();
}

}  // namespace sluice::aggregate_internal
