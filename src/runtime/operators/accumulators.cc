#include "runtime/operators/accumulators.h"

#include <algorithm>
#include <cstring>

#include "function/aggregate/aggregate_function.h"
#include "state/key_encoder.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

namespace {
size_t AlignUp(size_t n, size_t align) { return (n + align - 1) / align * align; }
}  // namespace

AccumulatorLayout::AccumulatorLayout(std::vector<AccumulatorCall> calls) : calls_(std::move(calls)) {
  for (const auto& c : calls_) {
    size_t align = std::max<size_t>(c.function->state_align, 1);
    block_align_ = std::max(block_align_, align);
    state_bytes_ = AlignUp(state_bytes_, align);
    offsets_.push_back(state_bytes_);
    state_bytes_ += c.function->state_size;
    if (c.function->serialize) plain_ = false;
    if (c.function->check) has_checks_ = true;
  }
  size_t end = AlignUp(state_bytes_, alignof(DistinctCounts*));
  for (const auto& c : calls_) {
    if (c.distinct) {
      distinct_offsets_.push_back(end);
      end += sizeof(DistinctCounts*);
      plain_ = false;
    } else {
      distinct_offsets_.push_back(0);
    }
  }
  count_offset_ = AlignUp(end, alignof(int64_t));
  block_bytes_ = AlignUp(count_offset_ + sizeof(int64_t), block_align_);
}

AccumulatorLayout::DistinctCounts* AccumulatorLayout::distinct(const uint8_t* block, size_t a) const {
  DistinctCounts* p;
  std::memcpy(&p, block + distinct_offsets_[a], sizeof p);
  return p;
}

AccumulatorLayout::DistinctCounts** AccumulatorLayout::distinct_slot(uint8_t* block, size_t a) const {
  return reinterpret_cast<DistinctCounts**>(block + distinct_offsets_[a]);
}

int64_t AccumulatorLayout::count(const uint8_t* block) const {
  int64_t c;
  std::memcpy(&c, block + count_offset_, sizeof c);
  return c;
}

void AccumulatorLayout::Init(uint8_t* block) const {
  // Zeroed first, so padding and the DISTINCT pointers are deterministic (blocks are checkpointed).
  std::memset(block, 0, block_bytes_);
  for (size_t a = 0; a < calls_.size(); ++a) calls_[a].function->init(block + offsets_[a]);
}

size_t AccumulatorLayout::HeapBytes(const uint8_t* block) const {
  if (plain_) return 0;
  size_t bytes = 0;
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
    if (calls_[a].distinct) {
      if (const DistinctCounts* counts = distinct(block, a)) {
        // A red-black tree node: three pointers and a color next to the key and count.
        bytes += sizeof(DistinctCounts) + counts->size() * (4 * sizeof(void*) + sizeof(DistinctCounts::value_type));
      }
    }
    if (f.heap_bytes && count(block) != 0) bytes += f.heap_bytes(block + offsets_[a]);
  }
  return bytes;
}

void AccumulatorLayout::Destroy(uint8_t* block) const {
  if (!plain_) {
    // A zeroed block was never initialized (or already destroyed): nothing to free.
    bool zero = true;
    for (size_t i = 0; i < block_bytes_ && zero; ++i) zero = block[i] == 0;
    if (!zero) {
      for (size_t a = 0; a < calls_.size(); ++a) {
        if (calls_[a].function->destroy) calls_[a].function->destroy(block + offsets_[a]);
        if (calls_[a].distinct) delete distinct(block, a);
      }
    }
  }
  std::memset(block, 0, block_bytes_);
}

void AccumulatorLayout::Update(uint8_t* block, const Chunk& chunk, size_t row, bool retract) const {
  const Vector* args[8];
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AccumulatorCall& call = calls_[a];
    // A call without retraction over an updating input ignores the retractions, as Flink's generated
    // aggregate handler does for calls it found need none (a split's final MAX over a growing partial MAX).
    if (retract && !call.function->supports_retract) continue;
    if (call.filter >= 0) {
      const Vector& f = chunk.column(static_cast<size_t>(call.filter));
      if (f.IsNull(row) || f.data<uint8_t>()[row] == 0) continue;
    }
    if (call.distinct) {
      std::string v;
      for (int c : call.args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &v);
      DistinctCounts** slot = distinct_slot(block, a);
      if (!retract) {
        if (*slot == nullptr) *slot = new DistinctCounts();
        if (++(**slot)[v] > 1) continue;
      } else {
        if (*slot == nullptr) continue;
        auto it = (*slot)->find(v);
        if (it == (*slot)->end()) continue;
        if (--it->second > 0) continue;
        (*slot)->erase(it);
      }
    }
    const size_t n = std::min<size_t>(call.args.size(), 8);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(call.args[i]));
    call.function->update(block + offsets_[a], args, row, retract);
  }
  const int64_t c = count(block) + (retract ? -1 : 1);
  std::memcpy(block + count_offset_, &c, sizeof c);
}

Status AccumulatorLayout::Check(const uint8_t* block) const {
  for (size_t a = 0; a < calls_.size(); ++a) {
    if (calls_[a].function->check) RETURN_IF_ERROR(calls_[a].function->check(block + offsets_[a]));
  }
  return Status::OK();
}

void AccumulatorLayout::Finalize(const uint8_t* block, Chunk* out, size_t first_column, size_t row) const {
  for (size_t a = 0; a < calls_.size(); ++a) {
    Vector& v = out->column(first_column + a);
    v.SetNull(row, false);
    calls_[a].function->finalize(block + offsets_[a], &v, row);
  }
}

void AccumulatorLayout::Serialize(const uint8_t* block, StateWriter* w) const {
  w->PutI64(count(block));
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
    const uint8_t* state = block + offsets_[a];
    if (f.serialize) {
      f.serialize(state, w);
    } else {
      w->PutRaw(state, f.state_size);
    }
    if (calls_[a].distinct) {
      const DistinctCounts* counts = distinct(block, a);
      w->PutVarint(counts ? counts->size() : 0);
      if (counts == nullptr) continue;
      for (const auto& [value, n] : *counts) {
        w->PutString(value);
        w->PutI64(n);
      }
    }
  }
}

void AccumulatorLayout::Deserialize(uint8_t* block, StateReader* r) const {
  const int64_t c = r->GetI64();
  std::memcpy(block + count_offset_, &c, sizeof c);
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
    uint8_t* state = block + offsets_[a];
    if (f.deserialize) {
      f.deserialize(state, r);
    } else {
      GetRawState(f, state, r);
    }
    if (calls_[a].distinct) {
      const size_t n = r->GetCount(9);
      if (n == 0 || !r->ok()) continue;
      DistinctCounts** slot = distinct_slot(block, a);
      if (*slot == nullptr) *slot = new DistinctCounts();
      for (size_t i = 0; i < n && r->ok(); ++i) {
        std::string value = r->GetString();
        (**slot)[std::move(value)] = r->GetI64();
      }
    }
  }
}

}  // namespace sluice
