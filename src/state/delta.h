// Incremental checkpoints (issue 5): what changed in an operator's keyed state since its last
// snapshot, so a checkpoint can write only that (a delta) on top of an earlier full snapshot, as
// Flink's incremental RocksDB checkpoints upload only new files.
//
// Keyed state lives in flat per-key vectors indexed by a dense id (state/key_index.h), which only
// grow. A DeltaTracker remembers the size at the last snapshot (the base) and which ids below it
// were written since (each once, in first-write order). A column's delta is then its dirty slots plus
// its new tail: PutColumnDelta / ApplyColumnDelta. A RowArena's delta is its new rows
// (RowArena::SnapshotTail); an arena that was compacted since has no delta, and the operator says so
// in CanSnapshotDelta() (runtime/operator.h), so the job writes a full snapshot instead.
//
// The rule for an operator: call Mark(id) whenever it writes the state of an id; call Reset(size)
// after every snapshot and restore (full or delta), which makes the current state the new base.
//
// Threading: owned by one operator on one task thread.
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "state/state_serde.h"

namespace sluice {

class DeltaTracker {
 public:
  // Records a write of `id`'s state (ids at or above base() are new and always in the next delta).
  void Mark(uint32_t id) {
    if (id >= base_) return;
    uint64_t& word = bits_[id >> 6];
    const uint64_t bit = uint64_t{1} << (id & 63);
    if ((word & bit) == 0) {
      word |= bit;
      dirty_.push_back(id);
    }
  }
  bool IsDirty(uint32_t id) const { return id < base_ && (bits_[id >> 6] >> (id & 63) & 1) != 0; }
  // The current state (`size` ids) becomes the base of the next delta.
  void Reset(size_t size) {
    for (uint32_t id : dirty_) bits_[id >> 6] = 0;
    dirty_.clear();
    base_ = size;
    bits_.resize((size + 63) / 64, 0);
  }
  size_t base() const { return base_; }
  const std::vector<uint32_t>& dirty() const { return dirty_; }
  size_t MemoryUsage() const { return bits_.capacity() * sizeof(uint64_t) + dirty_.capacity() * sizeof(uint32_t); }

 private:
  size_t base_ = 0;
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> dirty_;
};

// A column of per-id values (trivially copyable T): its length, the dirty slots (ids then values) and
// the values of the new ids [base, size).
template <typename T>
void PutColumnDelta(StateWriter* w, const std::vector<T>& column, const DeltaTracker& tracker) {
  static_assert(std::is_trivially_copyable_v<T>);
  const size_t base = tracker.base();
  const std::vector<uint32_t>& dirty = tracker.dirty();
  w->PutVarint(base);
  w->PutVarint(column.size());
  w->PutVarint(dirty.size());
  w->Reserve(dirty.size() * (sizeof(uint32_t) + sizeof(T)) + (column.size() - base) * sizeof(T));
  if (!dirty.empty()) w->PutRaw(dirty.data(), dirty.size() * sizeof(uint32_t));
  for (uint32_t id : dirty) w->PutRaw(&column[id], sizeof(T));
  if (column.size() > base) w->PutRaw(column.data() + base, (column.size() - base) * sizeof(T));
}

// Applies a PutColumnDelta onto `column`, which must hold exactly the delta's base ids.
template <typename T>
void ApplyColumnDelta(StateReader* r, std::vector<T>* column) {
  static_assert(std::is_trivially_copyable_v<T>);
  const size_t base = r->GetCount(0);
  const size_t size = r->GetCount(0);
  const size_t ndirty = r->GetCount(sizeof(uint32_t) + sizeof(T));
  if (!r->ok()) return;
  if (base != column->size() || size < base) {
    r->Fail("a state delta for " + std::to_string(base) + " entries applied to " + std::to_string(column->size()));
    return;
  }
  if ((size - base) > r->remaining() / sizeof(T)) {
    r->Fail("a state delta longer than its data");
    return;
  }
  std::vector<uint32_t> ids(ndirty);
  if (ndirty > 0) r->GetRaw(ids.data(), ndirty * sizeof(uint32_t));
  for (uint32_t id : ids) {
    if (!r->ok()) return;
    if (id >= base) {
      r->Fail("a state delta writes entry " + std::to_string(id) + " beyond its base");
      return;
    }
    r->GetRaw(&(*column)[id], sizeof(T));
  }
  if (!r->ok()) return;
  column->resize(size);
  if (size > base) r->GetRaw(column->data() + base, (size - base) * sizeof(T));
}

// A column of per-id values of any type (lists, small structs), each written by `put(w, value)` and
// read by `get(r, &value)`: the dirty ids with their values, then the values of the new ids
// [tracker.base(), size). ApplyValuesDelta needs `column` to hold the base ids and `size` to be the
// id count after the delta (its key index already restored); `min_bytes` is the least a dirty entry
// takes (bounds a corrupt count).
template <typename T, typename Put>
void PutValuesDelta(StateWriter* w, const std::vector<T>& column, const DeltaTracker& tracker, const Put& put) {
  w->PutVarint(tracker.dirty().size());
  for (uint32_t id : tracker.dirty()) {
    w->PutU32(id);
    put(w, column[id]);
  }
  for (size_t id = tracker.base(); id < column.size(); ++id) put(w, column[id]);
}

template <typename T, typename Get>
void ApplyValuesDelta(StateReader* r, size_t size, size_t min_bytes, std::vector<T>* column, const Get& get) {
  const size_t base = column->size();
  const size_t ndirty = r->GetCount(min_bytes);
  for (size_t i = 0; i < ndirty && r->ok(); ++i) {
    const uint32_t id = r->GetU32();
    if (r->ok() && id >= base) {
      r->Fail("a state delta writes key " + std::to_string(id) + " beyond its base");
      return;
    }
    get(r, &(*column)[id]);
  }
  if (!r->ok() || size < base) return;
  column->resize(size);
  for (size_t id = base; id < size && r->ok(); ++id) get(r, &(*column)[id]);
}

// DeltaQueue: a FIFO of trivially copyable items with deltas, for state kept in write order (a TTL
// expiry queue of (write time, id), as Flink's state TTL expires the oldest writes first). Its delta
// is how many items of the base were popped, then the items pushed since that are still queued.
template <typename T>
class DeltaQueue {
 public:
  static_assert(std::is_trivially_copyable_v<T>);
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const T& front() const { return items_.front(); }
  void push_back(const T& v) {
    items_.push_back(v);
    ++pushed_;
  }
  void pop_front() {
    items_.pop_front();
    ++popped_;
  }
  void clear() {
    popped_ += items_.size();
    items_.clear();
  }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

  // The whole queue (full snapshots), then Reset.
  void Put(StateWriter* w) {
    w->PutVarint(items_.size());
    for (const T& v : items_) w->PutRaw(&v, sizeof(T));
    Reset();
  }
  void Get(StateReader* r) {
    items_.clear();
    const size_t n = r->GetCount(sizeof(T));
    for (size_t i = 0; i < n && r->ok(); ++i) {
      T v;
      r->GetRaw(&v, sizeof(T));
      items_.push_back(v);
    }
    Reset();
  }
  void PutDelta(StateWriter* w) {
    const size_t base_popped = std::min(popped_, base_);
    const size_t surviving = items_.size() - (base_ - base_popped);  // pushed since, still queued
    w->PutVarint(base_popped);
    w->PutVarint(surviving);
    for (size_t i = items_.size() - surviving; i < items_.size(); ++i) w->PutRaw(&items_[i], sizeof(T));
    Reset();
  }
  void ApplyDelta(StateReader* r) {
    const size_t popped = r->GetCount(0);
    const size_t n = r->GetCount(sizeof(T));
    if (r->ok() && popped > items_.size()) r->Fail("a state delta pops more queued entries than there are");
    if (!r->ok()) return;
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(popped));
    for (size_t i = 0; i < n && r->ok(); ++i) {
      T v;
      r->GetRaw(&v, sizeof(T));
      items_.push_back(v);
    }
    Reset();
  }

 private:
  void Reset() {
    base_ = items_.size();
    popped_ = 0;
    pushed_ = 0;
  }
  std::deque<T> items_;
  size_t base_ = 0;    // items queued at the last snapshot or restore
  size_t popped_ = 0;  // pops since then
  size_t pushed_ = 0;  // pushes since then
};

// A whole column (full snapshots), in the same raw layout.
template <typename T>
void PutColumn(StateWriter* w, const std::vector<T>& column) {
  static_assert(std::is_trivially_copyable_v<T>);
  w->PutVarint(column.size());
  if (!column.empty()) w->PutRaw(column.data(), column.size() * sizeof(T));
}

template <typename T>
void GetColumn(StateReader* r, std::vector<T>* column) {
  static_assert(std::is_trivially_copyable_v<T>);
  const size_t n = r->GetCount(sizeof(T));
  if (!r->ok()) return;
  column->resize(n);
  if (n > 0) r->GetRaw(column->data(), n * sizeof(T));
}

}  // namespace sluice
