// The checkpoint encodings of OverAggregateOperator's state (over_aggregate_state.h), shared by its
// full snapshots (over_aggregate_snapshot.cc) and its deltas (over_aggregate_delta.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "function/aggregate/aggregate_function.h"
#include "runtime/operators/over_aggregate_state.h"
#include "state/state_serde.h"

namespace sluice::over_aggregate_internal {

template <typename T>
void PutPods(StateWriter* w, const T* p, size_t n) {
  if (n > 0) w->PutRaw(p, n * sizeof(T));
}

template <typename T>
void GetPods(StateReader* r, size_t n, std::vector<T>* v) {
  v->clear();
  if (!r->ok()) return;
  if (n > r->remaining() / sizeof(T)) {
    r->Fail("an array of " + std::to_string(n) + " items exceeds the remaining " + std::to_string(r->remaining()) + " bytes");
    return;
  }
  v->resize(n);
  if (n > 0) r->GetRaw(v->data(), n * sizeof(T));
}

// A pool's ids: how many were handed out and which of them are free.
template <typename T>
void PutPoolIds(StateWriter* w, const Pool<T>& pool) {
  w->PutVarint(pool.size());
  w->PutVarint(pool.free_ids().size());
  PutPods(w, pool.free_ids().data(), pool.free_ids().size());
}

template <typename T>
std::vector<uint8_t> LiveIds(const Pool<T>& pool) {
  std::vector<uint8_t> live(pool.size(), 1);
  for (uint32_t id : pool.free_ids()) live[id] = 0;
  return live;
}

// Reads what PutPoolIds wrote into `pool` and returns the live flag of every id (empty on error).
// Each live object's state takes at least `min_bytes` bytes after this, which bounds the id count.
template <typename T>
std::vector<uint8_t> GetPoolIds(StateReader* r, Pool<T>* pool, size_t min_bytes, const std::string& what) {
  const size_t size = r->GetCount(0);
  const size_t nfree = r->GetCount(4);
  if (!r->ok()) return {};
  if (size >= kNullBit - 1 || nfree > size || size - nfree > r->remaining() / min_bytes) {
    r->Fail(what + " pool of " + std::to_string(size) + " ids with " + std::to_string(nfree) + " free");
    return {};
  }
  std::vector<uint32_t> free;
  GetPods(r, nfree, &free);
  if (!r->ok()) return {};
  std::vector<uint8_t> live(size, 1);
  for (uint32_t id : free) {
    if (id >= size || live[id] == 0) {
      r->Fail(what + " free list names id " + std::to_string(id) + " twice or out of range");
      return {};
    }
    live[id] = 0;
  }
  pool->Reset(size, std::move(free));
  return live;
}

// An IdIndex capacity as IdIndex grows it (0, or a power of two from 64), for `ids` ids at most.
inline bool PlausibleCapacity(size_t capacity, size_t ids) {
  if (capacity == 0) return true;
  if ((capacity & (capacity - 1)) != 0 || capacity < 64) return false;
  return capacity == 64 || capacity <= 4 * (ids + 1);
}

// A pool's ids in a delta: how many were handed out, and its free list above the length it kept
// since the base.
template <typename T>
void PutPoolDelta(StateWriter* w, const Pool<T>& pool) {
  const std::vector<uint32_t>& free = pool.free_ids();
  w->PutVarint(pool.size());
  w->PutVarint(pool.free_low());
  w->PutVarint(free.size() - pool.free_low());
  PutPods(w, free.data() + pool.free_low(), free.size() - pool.free_low());
}

// Applies what PutPoolDelta wrote onto `pool` (its base). Each new id takes at least `min_bytes`
// bytes after this, which bounds the id count. Freed ids are checked to be in range (the state read
// back from the patched one checks the rest).
template <typename T>
void GetPoolDelta(StateReader* r, Pool<T>* pool, size_t min_bytes, const std::string& what) {
  const size_t size = r->GetCount(0);
  const size_t keep = r->GetCount(0);
  const size_t ntail = r->GetCount(4);
  if (!r->ok()) return;
  if (size < pool->size() || size >= kNullBit - 1 || size - pool->size() > r->remaining() / min_bytes ||
      keep > pool->free_ids().size()) {
    return r->Fail(what + " pool delta of " + std::to_string(size) + " ids on " + std::to_string(pool->size()));
  }
  std::vector<uint32_t> tail;
  GetPods(r, ntail, &tail);
  if (!r->ok()) return;
  for (uint32_t id : tail) {
    if (id >= size) return r->Fail(what + " free list names id " + std::to_string(id) + " out of range");
  }
  pool->ApplyDelta(size, keep, tail);
}

// The ids a DeltaTracker says were written below its base, each with `put(id)`, then those at or
// above it up to `size`.
template <typename Put>
void PutWritten(StateWriter* w, const DeltaTracker& tracker, size_t size, const Put& put) {
  w->PutVarint(tracker.dirty().size());
  for (uint32_t id : tracker.dirty()) {
    w->PutU32(id);
    put(static_cast<uint32_t>(id));
  }
  for (size_t id = tracker.base(); id < size; ++id) put(static_cast<uint32_t>(id));
}

// Reads what PutWritten wrote: `get(id)` for each written id below `base` (the base's size) and each
// id in [base, size).
template <typename Get>
void GetWritten(StateReader* r, size_t base, size_t size, const Get& get) {
  const size_t ndirty = r->GetCount(5);
  for (size_t i = 0; i < ndirty && r->ok(); ++i) {
    const uint32_t id = r->GetU32();
    if (r->ok() && id >= base) return r->Fail("a state delta writes id " + std::to_string(id) + " beyond its base");
    if (r->ok()) get(id);
  }
  for (size_t id = base; id < size && r->ok(); ++id) get(static_cast<uint32_t>(id));
}

// A live partition: its key, last processed time, frame rows and accumulator states (each
// function's serialize hook, or its raw bytes).
inline void PutPartition(StateWriter* w, const Partition& p, const uint8_t* st, const std::vector<AccumulatorCall>& cs,
                  const std::vector<size_t>& offsets) {
  w->PutString(p.key);
  w->PutI64(p.last_time);
  w->PutVarint(p.rows);
  for (size_t a = 0; a < cs.size(); ++a) {
    const AggregateFunction& f = *cs[a].function;
    if (f.serialize) {
      f.serialize(st + offsets[a], w);
    } else {
      w->PutRaw(st + offsets[a], f.state_size);
    }
  }
}

// Reads what PutPartition wrote into the free slot `p` with states `st`: from the states' init on the
// partition is live (its states are destroyed with it, also when reading them fails).
inline void GetPartition(StateReader* r, Partition* p, uint8_t* st, const std::vector<AccumulatorCall>& cs,
                  const std::vector<size_t>& offsets) {
  p->key = r->GetString();
  p->hash = XXH3_64bits(p->key.data(), p->key.size());
  p->last_time = r->GetI64();
  p->rows = r->GetVarint();
  p->mark = kNone;
  for (size_t a = 0; a < cs.size(); ++a) cs[a].function->init(st + offsets[a]);
  p->live = true;
  for (size_t a = 0; a < cs.size(); ++a) {
    const AggregateFunction& f = *cs[a].function;
    if (f.deserialize) {
      f.deserialize(st + offsets[a], r);
    } else {
      GetRawState(f, st + offsets[a], r);
    }
  }
}

// Rows [from, b.size) of a RANGE frame block: times, partitions (`with_part`: unless taken from
// DISTINCT counters), DISTINCT counter ids (nd per row) and the columns retraction reads.
inline void PutFrameRows(StateWriter* w, const FrameBlock& b, size_t from, bool with_part, size_t nd,
                  const std::vector<int>& val_columns) {
  const size_t n = b.size - from;
  PutPods(w, b.dt.data() + from, n);
  if (with_part) PutPods(w, b.part.data() + from, n);
  PutPods(w, b.dref.data() + from * nd, n * nd);
  for (int c : val_columns) w->PutVectorRange(b.vals[static_cast<size_t>(c)], from, n);
}

// Appends `n` rows PutFrameRows wrote to `b` (at most kBlock in all, checked by the caller).
inline void GetFrameRows(StateReader* r, FrameBlock* b, size_t n, bool with_part, size_t nd, const std::vector<int>& val_columns,
                  const std::vector<LogicalType>& types) {
  std::vector<uint32_t> tmp;
  auto append = [&](size_t count, std::vector<uint32_t>* to) {
    GetPods(r, count, &tmp);
    if (r->ok()) to->insert(to->end(), tmp.begin(), tmp.end());
  };
  append(n, &b->dt);
  if (with_part) append(n, &b->part);
  append(n * nd, &b->dref);
  b->dt.reserve(kBlock);
  if (with_part) b->part.reserve(kBlock);
  b->dref.reserve(kBlock * nd);
  b->vals.resize(types.size());
  Vector v;
  for (int c : val_columns) {
    if (!r->ok()) return;
    Vector& to = b->vals[static_cast<size_t>(c)];
    r->GetVector(types[static_cast<size_t>(c)], &v);
    if (!r->ok()) return;
    if (v.size() != n) return r->Fail("frame block column of another length");
    if (b->size == 0) {
      to = std::move(v);
      v = Vector();
    } else {
      to.AppendFrom(v, nullptr, 0, n, true);
    }
    to.Reserve(kBlock);
  }
  if (r->ok()) b->size += n;
}

// Rows [from, b.size) of a pending block: all input columns.
inline void PutPendingRows(StateWriter* w, const PendingBlock& b, size_t from) {
  for (const Vector& v : b.cols) w->PutVectorRange(v, from, b.size - from);
}

// Appends rows PutPendingRows wrote to `b` (an empty block: a new one) and returns how many (0 on
// an error).
inline size_t GetPendingRows(StateReader* r, PendingBlock* b, const std::vector<LogicalType>& types) {
  b->cols.resize(types.size());
  size_t n = 0;
  Vector v;
  for (size_t c = 0; c < types.size(); ++c) {
    r->GetVector(types[c], &v);
    if (!r->ok()) return 0;
    if (c == 0) n = v.size();
    if (v.size() != n) {
      r->Fail("pending block column of another length");
      return 0;
    }
    if (n > kBlock - b->size) {
      r->Fail("pending block of more than " + std::to_string(kBlock) + " rows");
      return 0;
    }
    if (b->size == 0) {
      b->cols[c] = std::move(v);
      v = Vector();
    } else {
      b->cols[c].AppendFrom(v, nullptr, 0, n, true);
    }
    b->cols[c].Reserve(kBlock);
  }
  b->size += n;
  return n;
}

}  // namespace sluice::over_aggregate_internal
