// The state of OverAggregateOperator (over_aggregate_operator.h), shared by its two files:
// over_aggregate_operator.cc (processing) and over_aggregate_snapshot.cc (checkpoints). Private to
// the operator.
#pragma once

#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/over_aggregate_operator.h"
#include "state/delta.h"
#include "types/vector.h"

namespace sluice {
namespace over_aggregate_internal {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr int64_t kNever = std::numeric_limits<int64_t>::min();
// A DISTINCT counter of a NULL argument carries this bit in its partition field.
constexpr uint32_t kNullBit = 1u << 31;
// Rows per block of the RANGE frame queue and of the rows waiting for the watermark.
constexpr size_t kBlock = 4096;

inline uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// Objects in pages that never move, named by 32-bit ids; freed ids are reused first. For deltas the
// pool remembers how short its free list (a stack) got since the last snapshot (MarkBase): the
// free list then differs from the base's only above that length.
template <typename T>
class Pool {
 public:
  static constexpr size_t kPage = 1024;
  uint32_t Allocate() {
    if (!free_.empty()) {
      const uint32_t id = free_.back();
      free_.pop_back();
      free_low_ = std::min(free_low_, free_.size());
      return id;
    }
    if (size_ == pages_.size() * kPage) pages_.push_back(std::make_unique<T[]>(kPage));
    SLUICE_CHECK(size_ < (kNullBit - 1));
    return static_cast<uint32_t>(size_++);
  }
  void Free(uint32_t id) { free_.push_back(id); }
  T& operator[](uint32_t id) { return pages_[id / kPage][id % kPage]; }
  const T& operator[](uint32_t id) const { return pages_[id / kPage][id % kPage]; }
  size_t size() const { return size_; }  // ids handed out so far (live or freed)
  size_t live() const { return size_ - free_.size(); }
  size_t bytes() const { return pages_.size() * kPage * sizeof(T) + free_.capacity() * sizeof(uint32_t); }
  const std::vector<uint32_t>& free_ids() const { return free_; }
  // Checkpoint restore: `size` ids handed out, `free` of them freed (checked by the caller); every
  // object default-constructed.
  void Reset(size_t size, std::vector<uint32_t> free) {
    pages_.clear();
    while (pages_.size() * kPage < size) pages_.push_back(std::make_unique<T[]>(kPage));
    free_ = std::move(free);
    size_ = size;
    free_low_ = free_.size();
  }
  // Deltas: the current ids become the base; free_low() is the free list's length below which it
  // still equals the base's.
  void MarkBase() { free_low_ = free_.size(); }
  size_t free_low() const { return free_low_; }
  // Applies a delta: `size` (>= size()) ids handed out, new objects default-constructed; the free
  // list keeps its first `keep` (<= its length) ids and continues with `tail` (checked by the caller).
  void ApplyDelta(size_t size, size_t keep, const std::vector<uint32_t>& tail) {
    while (pages_.size() * kPage < size) pages_.push_back(std::make_unique<T[]>(kPage));
    size_ = size;
    free_.resize(keep);
    free_.insert(free_.end(), tail.begin(), tail.end());
    free_low_ = free_.size();
  }

 private:
  std::vector<std::unique_ptr<T[]>> pages_;
  std::vector<uint32_t> free_;
  size_t size_ = 0;
  size_t free_low_ = 0;
};

// Open-addressing (linear probing) hash index over ids whose keys the caller keeps; `hash_of(id)`
// recomputes an id's hash when the index grows or shifts entries back on erase (no tombstones).
class IdIndex {
 public:
  template <typename Eq>
  uint32_t Find(uint64_t h, Eq eq) const {
    if (slots_.empty()) return kNone;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const uint32_t id = slots_[i];
      if (id == kNone || eq(id)) return id;
    }
  }
  template <typename HashOf>
  void Insert(uint64_t h, uint32_t id, HashOf hash_of) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow(hash_of);
    size_t i = h & mask_;
    while (slots_[i] != kNone) i = (i + 1) & mask_;
    slots_[i] = id;
    ++size_;
  }
  template <typename HashOf>
  void Erase(uint64_t h, uint32_t id, HashOf hash_of) {
    size_t i = h & mask_;
    while (slots_[i] != id) i = (i + 1) & mask_;
    for (size_t j = (i + 1) & mask_; slots_[j] != kNone; j = (j + 1) & mask_) {
      const size_t home = hash_of(slots_[j]) & mask_;
      // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = kNone;
    --size_;
  }
  size_t bytes() const { return slots_.capacity() * sizeof(uint32_t); }
  size_t capacity() const { return slots_.size(); }
  // Empties the index and gives it `capacity` slots (0 or a power of two), for a checkpoint restore.
  void Reset(size_t capacity) {
    slots_.assign(capacity, kNone);
    mask_ = capacity == 0 ? 0 : capacity - 1;
    size_ = 0;
  }

 private:
  template <typename HashOf>
  void Grow(HashOf hash_of) {
    const size_t n = slots_.empty() ? 64 : slots_.size() * 2;
    std::vector<uint32_t> old = std::move(slots_);
    slots_.assign(n, kNone);
    mask_ = n - 1;
    for (uint32_t id : old) {
      if (id == kNone) continue;
      size_t i = hash_of(id) & mask_;
      while (slots_[i] != kNone) i = (i + 1) & mask_;
      slots_[i] = id;
    }
  }
  std::vector<uint32_t> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

struct Partition {
  std::string key;  // the encoded partition key
  uint64_t hash = 0;
  int64_t last_time = kNever;  // the last time processed
  uint64_t rows = 0;           // bounded frames: rows accumulated and not yet retracted
  uint32_t mark = kNone;       // scratch: the partition's place among one time's partitions
  bool live = false;
};

// How often (partition, DISTINCT argument) is in the partition's frame. A single integral-like
// argument is kept inline in `value` (sign-extended); other arguments as their key encoding.
struct DistinctEntry {
  int64_t value = 0;  // the argument, or the id of its encoding in DistinctStore::keys
  uint32_t part = 0;  // partition slot, | kNullBit for a NULL argument
  uint32_t count = 0;
};

struct DistinctStore {
  size_t call = 0;
  int column = -1;   // inline case: the argument column
  size_t width = 0;  // inline case: its physical width (1, 2, 4, 8); 0: encoded keys
  Pool<DistinctEntry> entries;
  Pool<std::string> keys;
  IdIndex index;
  size_t key_heap_bytes = 0;
  // Deltas: counters and encoded values written since the last snapshot.
  DeltaTracker entry_dirty;
  DeltaTracker key_dirty;
};

// The ROWS frame of one partition: ids in the rows store, oldest first from `head`.
struct RowsFrame {
  std::vector<uint32_t> ids;
  size_t head = 0;
  size_t size() const { return ids.size() - head; }
  void pop_front() {
    if (++head == ids.size()) {
      ids.clear();
      head = 0;
    } else if (head >= 16 && head * 2 >= ids.size()) {
      ids.erase(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
  }
};

// A block of the RANGE frame queue: rows in processing (= time) order.
struct FrameBlock {
  int64_t base = 0;            // time of the first row
  std::vector<uint32_t> dt;    // time - base
  std::vector<uint32_t> part;  // partition slots (unless taken from a DISTINCT counter)
  std::vector<uint32_t> dref;  // per row, one DISTINCT counter id per DISTINCT call (kNone: filtered out)
  std::vector<Vector> vals;    // input width; only the columns retraction reads are filled
  size_t size = 0;
};

// A block of rows waiting for the watermark (all input columns), in arrival order.
struct PendingBlock {
  std::vector<Vector> cols;
  size_t size = 0;
  size_t done = 0;  // rows taken for processing
};


inline size_t VectorsBytes(const std::vector<Vector>& v) {
  size_t b = 0;
  for (const Vector& x : v) b += x.MemoryUsage();
  return b;
}


}  // namespace over_aggregate_internal

struct OverAggregateOperator::State {
  // Partitions and their accumulator states (`stride` bytes per slot, in pages beside the pool's).
  over_aggregate_internal::Pool<over_aggregate_internal::Partition> parts;
  over_aggregate_internal::IdIndex part_index;
  size_t key_heap_bytes = 0;
  size_t stride = 0;
  std::vector<std::unique_ptr<std::max_align_t[]>> state_pages;
  std::vector<size_t> offsets;
  // DISTINCT calls: distinct_of[a] is call a's store index or -1.
  std::vector<int> distinct_of;
  std::vector<over_aggregate_internal::DistinctStore> distinct;
  int part_from_distinct = -1;  // a DISTINCT call without FILTER whose counter names the partition
  // The input columns that retraction reads from stored rows.
  std::vector<int> val_columns;
  // RANGE frames: every row in a frame, in time order.
  std::deque<over_aggregate_internal::FrameBlock> frame;
  size_t frame_head = 0;
  // ROWS frames.
  std::vector<over_aggregate_internal::RowsFrame> rows_frames;
  std::vector<Vector> rows_vals;
  std::vector<uint32_t> rows_dref;
  size_t rows_size = 0;
  size_t rows_released = 0;
  size_t frame_rows = 0;  // rows in bounded frames
  // Event time: rows waiting for the watermark. Position p is row (p - pend_first) of the blocks.
  std::deque<over_aggregate_internal::PendingBlock> pend;
  uint64_t pend_first = 0;
  uint64_t pend_end = 0;
  uint64_t in_next = 0;       // the next position of the in-order sequence
  int64_t in_max = over_aggregate_internal::kNever;    // time of the last row appended in order
  std::vector<std::pair<int64_t, uint64_t>> ooo;  // min-heap of (time, position) of rows that came out of order
  DeltaQueue<uint64_t> ooo_pos;                    // their positions, increasing
  size_t pending_rows = 0;
  int64_t last_proc_time = over_aggregate_internal::kNever;
  // Incremental checkpoints: the state at the last snapshot or restore (the base) and what changed
  // since. over_aggregate_internal::Partition slots written (key, times, accumulator states, ROWS frame); the RANGE frame's
  // blocks at the base, the base's last block's rows then, and the blocks popped since; the stored
  // ROWS rows at the base, and whether they were compacted since (renumbered: no delta then); the
  // pending rows' first position and blocks at the base and the base's last block's rows then.
  DeltaTracker part_dirty;
  size_t frame_base_blocks = 0;
  size_t frame_base_back = 0;
  size_t frame_popped = 0;
  size_t rows_base = 0;
  bool rows_compacted = false;
  uint64_t pend_base_first = 0;
  size_t pend_base_blocks = 0;
  size_t pend_base_back = 0;
  // Scratch.
  std::vector<std::string> encoded;
  std::vector<uint32_t> slots;
  std::vector<uint32_t> dbuf;
  std::vector<uint32_t> out_sel;
  std::vector<uint32_t> group;
  std::vector<uint32_t> order;
  std::vector<uint32_t> counts;
  std::vector<Vector> scratch;  // one row per input column, for retracting inline DISTINCT values
  std::vector<LogicalType> agg_types;
  size_t peak_bytes = 0;

  // Pages of accumulator states for `slots` slots at least, zeroed (so the padding bytes inside a
  // state that snapshots copy are zeros, not whatever the memory held).
  void GrowStatePages(size_t slots) {
    while (state_pages.size() * over_aggregate_internal::Pool<over_aggregate_internal::Partition>::kPage < slots) {
      const size_t words = (over_aggregate_internal::Pool<over_aggregate_internal::Partition>::kPage * stride + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
      state_pages.push_back(std::make_unique<std::max_align_t[]>(words));
      std::memset(static_cast<void*>(state_pages.back().get()), 0, words * sizeof(std::max_align_t));
    }
  }
  uint8_t* States(uint32_t slot) {
    return reinterpret_cast<uint8_t*>(state_pages[slot / over_aggregate_internal::Pool<over_aggregate_internal::Partition>::kPage].get()) +
           (slot % over_aggregate_internal::Pool<over_aggregate_internal::Partition>::kPage) * stride;
  }
  uint64_t DistinctHash(const over_aggregate_internal::DistinctStore& ds, const over_aggregate_internal::DistinctEntry& e) const {
    const uint64_t v = ds.width ? over_aggregate_internal::Mix(static_cast<uint64_t>(e.value))
                                : XXH3_64bits(ds.keys[static_cast<uint32_t>(e.value)].data(),
                                              ds.keys[static_cast<uint32_t>(e.value)].size());
    return over_aggregate_internal::Mix(v ^ (static_cast<uint64_t>(e.part) * 0x9E3779B97F4A7C15ULL));
  }
};


}  // namespace sluice
