#include "runtime/operators/accumulators.h"

#include <absl/container/flat_hash_map.h>

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

// The counts of one set of DISTINCT calls in one group: each argument tuple seen (and not yet retracted
// by every call of the set) has a row of `width` counts, one per call, in `counts`; rows of tuples
// retracted by all calls are reused.
struct AccumulatorLayout::DistinctCounts {
  explicit DistinctCounts(size_t w) : width(w) {}
  size_t width;
  absl::flat_hash_map<std::string, uint32_t> rows;  // tuple (key-encoded) -> row
  std::vector<int64_t> counts;
  std::vector<uint32_t> free_rows;

  int64_t* row(uint32_t r) { return counts.data() + static_cast<size_t>(r) * width; }
  // The row of `tuple`, made (all counts 0) when the tuple is new.
  int64_t* Find(const std::string& tuple, bool make) {
    if (!make) {
      auto it = rows.find(tuple);
      return it == rows.end() ? nullptr : row(it->second);
    }
    auto [it, made] = rows.try_emplace(tuple, 0);
    if (made) {
      if (!free_rows.empty()) {
        it->second = free_rows.back();
        free_rows.pop_back();
      } else {
        it->second = static_cast<uint32_t>(counts.size() / width);
        counts.resize(counts.size() + width, 0);
      }
    }
    return row(it->second);
  }
  // Drops `tuple` when no call counts it any more.
  void DropIfEmpty(const std::string& tuple, const int64_t* c) {
    for (size_t i = 0; i < width; ++i) {
      if (c[i] != 0) return;
    }
    auto it = rows.find(tuple);
    free_rows.push_back(it->second);
    rows.erase(it);
  }
};

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
  distinct_set_.assign(calls_.size(), kNotDistinct);
  distinct_member_.assign(calls_.size(), 0);
  for (size_t a = 0; a < calls_.size(); ++a) {
    if (!calls_[a].distinct) continue;
    plain_ = false;
    size_t set = 0;
    while (set < distinct_sets_.size() && calls_[distinct_sets_[set].calls[0]].args != calls_[a].args) ++set;
    if (set == distinct_sets_.size()) {
      distinct_sets_.push_back(DistinctSet{end, {}});
      end += sizeof(DistinctCounts*);
    }
    distinct_set_[a] = set;
    distinct_member_[a] = distinct_sets_[set].calls.size();
    distinct_sets_[set].calls.push_back(a);
  }
  count_offset_ = AlignUp(end, alignof(int64_t));
  block_bytes_ = AlignUp(count_offset_ + sizeof(int64_t), block_align_);
}

AccumulatorLayout::DistinctCounts* AccumulatorLayout::distinct(const uint8_t* block, size_t set) const {
  DistinctCounts* p;
  std::memcpy(&p, block + distinct_sets_[set].offset, sizeof p);
  return p;
}

AccumulatorLayout::DistinctCounts** AccumulatorLayout::distinct_slot(uint8_t* block, size_t set) const {
  return reinterpret_cast<DistinctCounts**>(block + distinct_sets_[set].offset);
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
  for (size_t set = 0; set < distinct_sets_.size(); ++set) {
    if (const DistinctCounts* d = distinct(block, set)) {
      // An index slot (key, row number and a control byte) per tuple and its row of counts.
      bytes += sizeof(DistinctCounts) + d->rows.capacity() * (sizeof(std::string) + sizeof(uint32_t) + 1) +
               d->counts.capacity() * sizeof(int64_t) + d->free_rows.capacity() * sizeof(uint32_t);
    }
  }
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AggregateFunction& f = *calls_[a].function;
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
      }
      for (size_t set = 0; set < distinct_sets_.size(); ++set) delete distinct(block, set);
    }
  }
  std::memset(block, 0, block_bytes_);
}

bool AccumulatorLayout::UpdateDistinct(uint8_t* block, size_t a, const std::string& tuple, bool retract) const {
  const size_t set = distinct_set_[a];
  DistinctCounts** slot = distinct_slot(block, set);
  if (*slot == nullptr) {
    if (retract) return false;
    *slot = new DistinctCounts(distinct_sets_[set].calls.size());
  }
  int64_t* counts = (*slot)->Find(tuple, !retract);
  if (counts == nullptr) return false;
  int64_t& n = counts[distinct_member_[a]];
  if (!retract) return ++n == 1;
  if (n == 0) return false;  // a retraction this call never counted
  if (--n > 0) return false;
  (*slot)->DropIfEmpty(tuple, counts);
  return true;
}

void AccumulatorLayout::Update(uint8_t* block, const Chunk& chunk, size_t row, bool retract) const {
  const Vector* args[8];
  std::string tuple;  // the row's arguments, key-encoded, for the set `tuple_set`
  size_t tuple_set = kNotDistinct;
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AccumulatorCall& call = calls_[a];
    if (call.filter >= 0) {
      const Vector& f = chunk.column(static_cast<size_t>(call.filter));
      if (f.IsNull(row) || f.data<uint8_t>()[row] == 0) continue;
    }
    if (call.distinct) {
      if (tuple_set != distinct_set_[a]) {
        tuple.clear();
        for (int c : call.args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &tuple);
        tuple_set = distinct_set_[a];
      }
      if (!UpdateDistinct(block, a, tuple, retract)) continue;
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
    if (calls_[a].distinct) SerializeDistinct(block, a, w);
  }
}

// Per DISTINCT call, as when each call kept its own counts: the number of tuples it counts, then each
// tuple and its count, in the tuples' byte order (so equal states write equal bytes).
void AccumulatorLayout::SerializeDistinct(const uint8_t* block, size_t a, StateWriter* w) const {
  DistinctCounts* d = distinct(block, distinct_set_[a]);
  std::vector<std::pair<const std::string*, int64_t>> counted;
  if (d != nullptr) {
    for (const auto& [tuple, r] : d->rows) {
      const int64_t n = d->row(r)[distinct_member_[a]];
      if (n != 0) counted.emplace_back(&tuple, n);
    }
  }
  std::sort(counted.begin(), counted.end(), [](const auto& x, const auto& y) { return *x.first < *y.first; });
  w->PutVarint(counted.size());
  for (const auto& [tuple, n] : counted) {
    w->PutString(*tuple);
    w->PutI64(n);
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
    if (calls_[a].distinct) DeserializeDistinct(block, a, r);
  }
}

void AccumulatorLayout::DeserializeDistinct(uint8_t* block, size_t a, StateReader* r) const {
  const size_t n = r->GetCount(9);
  if (n == 0 || !r->ok()) return;
  const size_t set = distinct_set_[a];
  DistinctCounts** slot = distinct_slot(block, set);
  if (*slot == nullptr) *slot = new DistinctCounts(distinct_sets_[set].calls.size());
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const std::string tuple = r->GetString();
    const int64_t count = r->GetI64();
    if (count != 0) (*slot)->Find(tuple, true)[distinct_member_[a]] = count;
  }
}

}  // namespace sluice
