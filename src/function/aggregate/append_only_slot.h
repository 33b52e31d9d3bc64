// The append-only aggregates that keep one value in their state slot and replace it by a rule: MIN and
// MAX (a better value replaces the current one), FIRST_VALUE (the first value stays) and LAST_VALUE
// (every value replaces it). One implementation of the slot's init, update, merge, checkpoint and
// result for all four, so they cannot drift apart.
//
// Invariants: the slot holds {value, has_value}; NULL arguments are skipped; has_value is false until
// the first non-NULL value. Strings live in an OwnedString buffer rewritten only when the value changes.
// Threading: the factory builds an immutable AggregateFunction.
#pragma once

#include <cstddef>
#include <string_view>

#include "function/aggregate/aggregate_util.h"

namespace sluice::aggregate_internal {

template <typename T>
struct SlotValueState {
  T value;
  bool has_value;
};

struct StringSlotState {
  OwnedString value;
  bool has_value;
};

// Fills `f` as an append-only aggregate over one argument of physical type T that keeps one value:
// a non-NULL candidate replaces the kept value when there is none yet or when
// `Replaces{}(candidate, current)` holds (candidate and current as T, strings as std::string_view).
// Merging another slot follows the same rule with its value as the candidate.
template <typename T, typename Replaces>
void MakeAppendOnlySlot(AggregateFunction* f) {
  f->supports_retract = false;
  if constexpr (kIsString<T>) {
    SetStateLayout<StringSlotState>(f);
    f->init = [](uint8_t* s) {
      auto* st = StateOf<StringSlotState>(s);
      st->value.Init();
      st->has_value = false;
    };
    f->destroy = [](uint8_t* s) { StateOf<StringSlotState>(s)->value.Free(); };
    f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      SLUICE_CHECK(!retract);
      const Vector* v = args[0];
      if (v->IsNull(row)) return;
      auto* st = StateOf<StringSlotState>(s);
      const std::string_view x = v->GetString(row);
      if (!st->has_value || Replaces{}(x, st->value.view())) {
        st->value.Assign(x);
        st->has_value = true;
      }
    };
    f->merge = [](uint8_t* s, const uint8_t* other) {
      auto* st = StateOf<StringSlotState>(s);
      const auto* ot = StateOf<StringSlotState>(other);
      if (ot->has_value && (!st->has_value || Replaces{}(ot->value.view(), st->value.view()))) {
        st->value.Assign(ot->value.view());
        st->has_value = true;
      }
    };
    f->heap_bytes = [](const uint8_t* s) -> size_t { return StateOf<StringSlotState>(s)->value.capacity; };
    f->serialize = [](const uint8_t* s, StateWriter* w) {
      const auto* st = StateOf<StringSlotState>(s);
      w->PutBool(st->has_value);
      PutOwned(w, st->value);
    };
    f->deserialize = [](uint8_t* s, StateReader* r) {
      auto* st = StateOf<StringSlotState>(s);
      st->has_value = r->GetBool();
      GetOwned(r, &st->value);
    };
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<StringSlotState>(s);
      if (!st->has_value) return WriteNull(out, row);
      Write<std::string_view>(out, row, st->value.view());
    };
  } else {
    using State = SlotValueState<T>;
    SetStateLayout<State>(f);
    f->raw_bools = {offsetof(State, has_value)};
    f->init = [](uint8_t* s) {
      auto* st = StateOf<State>(s);
      st->value = T{};
      st->has_value = false;
    };
    f->destroy = [](uint8_t*) {};
    f->update = [](uint8_t* s, const Vector* const* args, size_t row, bool retract) {
      SLUICE_CHECK(!retract);
      const Vector* v = args[0];
      if (v->IsNull(row)) return;
      auto* st = StateOf<State>(s);
      const T x = Read<T>(v, row);
      if (!st->has_value || Replaces{}(x, st->value)) {
        st->value = x;
        st->has_value = true;
      }
    };
    f->merge = [](uint8_t* s, const uint8_t* other) {
      auto* st = StateOf<State>(s);
      const auto* ot = StateOf<State>(other);
      if (ot->has_value && (!st->has_value || Replaces{}(ot->value, st->value))) *st = *ot;
    };
    f->finalize = [](const uint8_t* s, Vector* out, size_t row) {
      const auto* st = StateOf<State>(s);
      if (!st->has_value) return WriteNull(out, row);
      Write<T>(out, row, st->value);
    };
  }
}

}  // namespace sluice::aggregate_internal
