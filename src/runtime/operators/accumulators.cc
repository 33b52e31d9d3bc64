#include "runtime/operators/accumulators.h"

#include <algorithm>

#include "function/aggregate/aggregate_function.h"
#include "state/key_encoder.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

AccumulatorLayout::AccumulatorLayout(std::vector<AccumulatorCall> calls) : calls_(std::move(calls)) {
  for (const auto& c : calls_) {
    size_t align = std::max<size_t>(c.function->state_align, 1);
    state_bytes_ = (state_bytes_ + align - 1) / align * align;
    offsets_.push_back(state_bytes_);
    state_bytes_ += c.function->state_size;
  }
}

void AccumulatorLayout::Init(AccumulatorGroup* g) const {
  // 16-byte aligned by operator new[] on this platform, enough for DECIMAL slots.
  g->states.reset(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  for (size_t a = 0; a < calls_.size(); ++a) calls_[a].function->init(g->states.get() + offsets_[a]);
  g->distinct.assign(calls_.size(), {});
  g->count = 0;
}

void AccumulatorLayout::Destroy(AccumulatorGroup* g) const {
  if (!g->states) return;
  for (size_t a = 0; a < calls_.size(); ++a) {
    if (calls_[a].function->destroy) calls_[a].function->destroy(g->states.get() + offsets_[a]);
  }
  g->states.reset();
}

void AccumulatorLayout::Update(AccumulatorGroup* g, const Chunk& chunk, size_t row, bool retract) const {
  const Vector* args[8];
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AccumulatorCall& call = calls_[a];
    if (call.filter >= 0) {
      const Vector& f = chunk.column(static_cast<size_t>(call.filter));
      if (f.IsNull(row) || f.data<uint8_t>()[row] == 0) continue;
    }
    if (call.distinct) {
      std::string v;
      for (int c : call.args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &v);
      auto& counts = g->distinct[a];
      if (!retract) {
        if (++counts[v] > 1) continue;
      } else {
        auto it = counts.find(v);
        if (it == counts.end()) continue;
        if (--it->second > 0) continue;
        counts.erase(it);
      }
    }
    const size_t n = std::min<size_t>(call.args.size(), 8);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(call.args[i]));
    call.function->update(g->states.get() + offsets_[a], args, row, retract);
  }
  g->count += retract ? -1 : 1;
}

void AccumulatorLayout::Finalize(const AccumulatorGroup& g, Chunk* out, size_t first_column, size_t row) const {
  for (size_t a = 0; a < calls_.size(); ++a) {
    Vector& v = out->column(first_column + a);
    v.SetNull(row, false);
    calls_[a].function->finalize(g.states.get() + offsets_[a], &v, row);
  }
}

void AccumulatorLayout::Serialize(const AccumulatorGroup& g, StateWriter* w) const {
  w->PutI64(g.count);
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
    const uint8_t* state = g.states.get() + offsets_[a];
    if (f.serialize) {
      f.serialize(state, w);
    } else {
      w->PutRaw(state, f.state_size);
    }
    if (calls_[a].distinct) {
      w->PutVarint(g.distinct[a].size());
      for (const auto& [value, count] : g.distinct[a]) {
        w->PutString(value);
        w->PutI64(count);
      }
    }
  }
}

void AccumulatorLayout::Deserialize(AccumulatorGroup* g, StateReader* r) const {
  g->count = r->GetI64();
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
    uint8_t* state = g->states.get() + offsets_[a];
    if (f.deserialize) {
      f.deserialize(state, r);
    } else {
      r->GetRaw(state, f.state_size);
    }
    if (calls_[a].distinct) {
      const size_t n = r->GetCount(9);
      for (size_t i = 0; i < n && r->ok(); ++i) {
        std::string value = r->GetString();
        g->distinct[a][std::move(value)] = r->GetI64();
      }
    }
  }
}

}  // namespace sluice
