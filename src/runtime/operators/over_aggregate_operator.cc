#include "runtime/operators/over_aggregate_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr int64_t kNever = std::numeric_limits<int64_t>::min();
// A DISTINCT counter of a NULL argument carries this bit in its partition field.
constexpr uint32_t kNullBit = 1u << 31;
// Rows per block of the RANGE frame queue and of the rows waiting for the watermark.
constexpr size_t kBlock = 4096;

uint64_t Mix(uint64_t x) {
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

size_t VectorsBytes(const std::vector<Vector>& v) {
  size_t b = 0;
  for (const Vector& x : v) b += x.MemoryUsage();
  return b;
}

// Checkpoint helpers.
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
bool PlausibleCapacity(size_t capacity, size_t ids) {
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
void PutPartition(StateWriter* w, const Partition& p, const uint8_t* st, const std::vector<AccumulatorCall>& cs,
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
void GetPartition(StateReader* r, Partition* p, uint8_t* st, const std::vector<AccumulatorCall>& cs,
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
void PutFrameRows(StateWriter* w, const FrameBlock& b, size_t from, bool with_part, size_t nd,
                  const std::vector<int>& val_columns) {
  const size_t n = b.size - from;
  PutPods(w, b.dt.data() + from, n);
  if (with_part) PutPods(w, b.part.data() + from, n);
  PutPods(w, b.dref.data() + from * nd, n * nd);
  for (int c : val_columns) w->PutVectorRange(b.vals[static_cast<size_t>(c)], from, n);
}

// Appends `n` rows PutFrameRows wrote to `b` (at most kBlock in all, checked by the caller).
void GetFrameRows(StateReader* r, FrameBlock* b, size_t n, bool with_part, size_t nd, const std::vector<int>& val_columns,
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
void PutPendingRows(StateWriter* w, const PendingBlock& b, size_t from) {
  for (const Vector& v : b.cols) w->PutVectorRange(v, from, b.size - from);
}

// Appends rows PutPendingRows wrote to `b` (an empty block: a new one) and returns how many (0 on
// an error).
size_t GetPendingRows(StateReader* r, PendingBlock* b, const std::vector<LogicalType>& types) {
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

}  // namespace

struct OverAggregateOperator::State {
  // Partitions and their accumulator states (`stride` bytes per slot, in pages beside the pool's).
  Pool<Partition> parts;
  IdIndex part_index;
  size_t key_heap_bytes = 0;
  size_t stride = 0;
  std::vector<std::unique_ptr<std::max_align_t[]>> state_pages;
  std::vector<size_t> offsets;
  // DISTINCT calls: distinct_of[a] is call a's store index or -1.
  std::vector<int> distinct_of;
  std::vector<DistinctStore> distinct;
  int part_from_distinct = -1;  // a DISTINCT call without FILTER whose counter names the partition
  // The input columns that retraction reads from stored rows.
  std::vector<int> val_columns;
  // RANGE frames: every row in a frame, in time order.
  std::deque<FrameBlock> frame;
  size_t frame_head = 0;
  // ROWS frames.
  std::vector<RowsFrame> rows_frames;
  std::vector<Vector> rows_vals;
  std::vector<uint32_t> rows_dref;
  size_t rows_size = 0;
  size_t rows_released = 0;
  size_t frame_rows = 0;  // rows in bounded frames
  // Event time: rows waiting for the watermark. Position p is row (p - pend_first) of the blocks.
  std::deque<PendingBlock> pend;
  uint64_t pend_first = 0;
  uint64_t pend_end = 0;
  uint64_t in_next = 0;       // the next position of the in-order sequence
  int64_t in_max = kNever;    // time of the last row appended in order
  std::vector<std::pair<int64_t, uint64_t>> ooo;  // min-heap of (time, position) of rows that came out of order
  DeltaQueue<uint64_t> ooo_pos;                    // their positions, increasing
  size_t pending_rows = 0;
  int64_t last_proc_time = kNever;
  // Incremental checkpoints: the state at the last snapshot or restore (the base) and what changed
  // since. Partition slots written (key, times, accumulator states, ROWS frame); the RANGE frame's
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
    while (state_pages.size() * Pool<Partition>::kPage < slots) {
      const size_t words = (Pool<Partition>::kPage * stride + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
      state_pages.push_back(std::make_unique<std::max_align_t[]>(words));
      std::memset(static_cast<void*>(state_pages.back().get()), 0, words * sizeof(std::max_align_t));
    }
  }
  uint8_t* States(uint32_t slot) {
    return reinterpret_cast<uint8_t*>(state_pages[slot / Pool<Partition>::kPage].get()) +
           (slot % Pool<Partition>::kPage) * stride;
  }
  uint64_t DistinctHash(const DistinctStore& ds, const DistinctEntry& e) const {
    const uint64_t v = ds.width ? Mix(static_cast<uint64_t>(e.value))
                                : XXH3_64bits(ds.keys[static_cast<uint32_t>(e.value)].data(),
                                              ds.keys[static_cast<uint32_t>(e.value)].size());
    return Mix(v ^ (static_cast<uint64_t>(e.part) * 0x9E3779B97F4A7C15ULL));
  }
};

OverAggregateOperator::OverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                             std::vector<int> partition_keys, int order_column, bool rowtime,
                                             bool rows_frame, int64_t preceding, std::vector<AccumulatorCall> calls,
                                             std::vector<LogicalType> output_types)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      partition_keys_(std::move(partition_keys)),
      order_column_(order_column),
      rowtime_(rowtime),
      rows_frame_(rows_frame),
      preceding_(preceding),
      layout_(std::move(calls)),
      output_types_(std::move(output_types)),
      state_(NewState()) {}

std::unique_ptr<OverAggregateOperator::State> OverAggregateOperator::NewState() const {
  auto fresh = std::make_unique<State>();
  State& s = *fresh;
  const auto& cs = layout_.calls();
  size_t align = 8;
  for (size_t a = 0; a < cs.size(); ++a) {
    align = std::max<size_t>(align, cs[a].function->state_align);
    s.offsets.push_back(layout_.offset(a));
  }
  SLUICE_CHECK_LE(align, alignof(std::max_align_t));
  s.stride = std::max<size_t>((layout_.state_bytes() + align - 1) / align * align, align);
  const bool bounded = preceding_ >= 0;
  std::vector<bool> needed(input_types_.size(), false);
  s.distinct_of.assign(cs.size(), -1);
  for (size_t a = 0; a < cs.size(); ++a) {
    const AccumulatorCall& c = cs[a];
    if (c.distinct) {
      DistinctStore ds;
      ds.call = a;
      if (c.args.size() == 1) {
        const LogicalType& t = input_types_[static_cast<size_t>(c.args[0])];
        switch (t.id()) {
          case TypeId::kBoolean:
          case TypeId::kTinyInt:
          case TypeId::kSmallInt:
          case TypeId::kInteger:
          case TypeId::kDate:
          case TypeId::kTime:
          case TypeId::kIntervalYearMonth:
          case TypeId::kBigInt:
          case TypeId::kTimestamp:
          case TypeId::kTimestampLtz:
          case TypeId::kIntervalDayTime:
            ds.column = c.args[0];
            ds.width = t.PhysicalWidth();
            break;
          default: break;
        }
      }
      if (ds.width == 0) {
        for (int col : c.args) needed[static_cast<size_t>(col)] = true;
      }
      if (c.filter < 0 && s.part_from_distinct < 0) s.part_from_distinct = static_cast<int>(s.distinct.size());
      s.distinct_of[a] = static_cast<int>(s.distinct.size());
      s.distinct.push_back(std::move(ds));
    } else {
      for (int col : c.args) needed[static_cast<size_t>(col)] = true;
      if (c.filter >= 0) needed[static_cast<size_t>(c.filter)] = true;
    }
  }
  if (bounded) {
    for (size_t c = 0; c < needed.size(); ++c) {
      if (needed[c]) s.val_columns.push_back(static_cast<int>(c));
    }
  }
  for (const LogicalType& t : input_types_) s.scratch.emplace_back(t, 1);
  s.agg_types.assign(output_types_.begin() + static_cast<std::ptrdiff_t>(input_types_.size()), output_types_.end());
  for (const LogicalType& t : input_types_) s.rows_vals.emplace_back(t);
  return fresh;
}

OverAggregateOperator::~OverAggregateOperator() { DestroyAccumulators(*state_); }

void OverAggregateOperator::DropState() {
  DestroyAccumulators(*state_);
  state_ = NewState();
}

void OverAggregateOperator::DestroyAccumulators(State& s) const {
  const auto& cs = layout_.calls();
  for (size_t id = 0; id < s.parts.size(); ++id) {
    if (!s.parts[static_cast<uint32_t>(id)].live) continue;
    uint8_t* st = s.States(static_cast<uint32_t>(id));
    for (size_t a = 0; a < cs.size(); ++a) {
      if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
    }
  }
}

size_t OverAggregateOperator::state_rows() const { return state_->pending_rows + state_->frame_rows; }

size_t OverAggregateOperator::state_bytes() const {
  const State& s = *state_;
  size_t b = s.parts.bytes() + s.part_index.bytes() + s.key_heap_bytes +
             s.state_pages.size() * Pool<Partition>::kPage * s.stride;
  for (const DistinctStore& ds : s.distinct) b += ds.entries.bytes() + ds.keys.bytes() + ds.index.bytes() + ds.key_heap_bytes;
  for (const FrameBlock& f : s.frame) {
    b += (f.dt.capacity() + f.part.capacity() + f.dref.capacity()) * sizeof(uint32_t) + VectorsBytes(f.vals);
  }
  for (const PendingBlock& p : s.pend) b += VectorsBytes(p.cols);
  b += s.ooo.capacity() * sizeof(s.ooo[0]) + s.ooo_pos.size() * sizeof(uint64_t);
  if (rows_frame_) {
    b += VectorsBytes(s.rows_vals) + s.rows_dref.capacity() * sizeof(uint32_t) + s.rows_frames.capacity() * sizeof(RowsFrame);
    for (const RowsFrame& f : s.rows_frames) b += f.ids.capacity() * sizeof(uint32_t);
  }
  return b;
}

void OverAggregateOperator::MeasureState() {
  State& s = *state_;
  const size_t b = state_bytes();
  if (b > s.peak_bytes) {
    s.peak_bytes = b;
    metrics_.peak_state_bytes = static_cast<int64_t>(b);
    metrics_.state_rows_at_peak = static_cast<int64_t>(s.frame_rows);
  }
}

size_t OverAggregateOperator::StateBytes() const { return state_bytes(); }

Status OverAggregateOperator::Process(int, Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("OverAggregate '" + name() + "' received an update; OVER aggregation needs an insert-only input");
  }
  if (!rowtime_) {
    // Processing time: every row of the chunk is processed now, one at a time.
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    const int64_t now = std::max(clock ? clock->NowMicros() : 0, s.last_proc_time);
    s.last_proc_time = now;
    std::vector<int64_t> times(n, now);
    RETURN_IF_ERROR(ProcessBatch(chunk, times, false));
    MeasureState();
    return Status::OK();
  }
  const Vector& time = chunk.column(static_cast<size_t>(order_column_));
  const int64_t watermark = current_watermark();
  const bool per_partition_lateness = rows_frame_ && preceding_ >= 0;
  if (per_partition_lateness) EncodeKeys(chunk, partition_keys_, &s.encoded);
  for (size_t i = 0; time.MayHaveNulls() && i < n; ++i) {
    if (time.IsNull(i)) {
      return Status::InvalidArgument("OverAggregate '" + name() + "': the event-time attribute of a row is NULL");
    }
  }
  std::vector<uint32_t> accepted;
  accepted.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = time.data<int64_t>()[i];
    bool late = t <= watermark;
    if (per_partition_lateness) {
      const std::string& key = s.encoded[i];
      const uint64_t h = XXH3_64bits(key.data(), key.size());
      const uint32_t slot = s.part_index.Find(h, [&](uint32_t id) { return s.parts[id].hash == h && s.parts[id].key == key; });
      late = slot != kNone && t <= s.parts[slot].last_time;
    }
    if (late) {
      ReportLate(chunk, i, t);
      continue;
    }
    const uint64_t pos = s.pend_end + accepted.size();
    if (t >= s.in_max) {
      s.in_max = t;
    } else {
      s.ooo.push_back({t, pos});
      std::push_heap(s.ooo.begin(), s.ooo.end(), std::greater<>());
      s.ooo_pos.push_back(pos);
    }
    accepted.push_back(static_cast<uint32_t>(i));
  }
  // Append the accepted rows to the pending blocks, columnar.
  size_t done = 0;
  while (done < accepted.size()) {
    if (s.pend.empty() || s.pend.back().size == kBlock) {
      PendingBlock& b = s.pend.emplace_back();
      for (const LogicalType& t : input_types_) {
        b.cols.emplace_back(t);
        b.cols.back().Reserve(kBlock);
      }
    }
    PendingBlock& b = s.pend.back();
    const size_t take = std::min(kBlock - b.size, accepted.size() - done);
    for (size_t c = 0; c < b.cols.size(); ++c) b.cols[c].AppendFrom(chunk.column(c), accepted.data() + done, 0, take, true);
    b.size += take;
    done += take;
  }
  s.pend_end += accepted.size();
  s.pending_rows += accepted.size();
  return Status::OK();
}

Status OverAggregateOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  auto time_at = [&](uint64_t pos) {
    const uint64_t rel = pos - s.pend_first;
    const PendingBlock& b = s.pend[rel / kBlock];
    return b.cols[static_cast<size_t>(order_column_)].data<int64_t>()[rel % kBlock];
  };
  std::vector<uint64_t> positions;
  std::vector<int64_t> times;
  for (;;) {
    positions.clear();
    times.clear();
    // Take rows in (time, arrival) order up to the watermark; a batch ends on a time boundary.
    for (;;) {
      while (!s.ooo_pos.empty() && s.ooo_pos.front() == s.in_next) {
        s.ooo_pos.pop_front();
        ++s.in_next;
      }
      bool have = false, from_heap = false;
      int64_t t = 0;
      uint64_t pos = 0;
      if (s.in_next < s.pend_end) {
        have = true;
        pos = s.in_next;
        t = time_at(pos);
      }
      if (!s.ooo.empty() && (!have || s.ooo.front() < std::make_pair(t, pos))) {
        have = true;
        from_heap = true;
        t = s.ooo.front().first;
        pos = s.ooo.front().second;
      }
      if (!have || t > watermark) break;
      if (positions.size() >= chunk_size && t != times.back()) break;
      if (from_heap) {
        std::pop_heap(s.ooo.begin(), s.ooo.end(), std::greater<>());
        s.ooo.pop_back();
      } else {
        ++s.in_next;
      }
      positions.push_back(pos);
      times.push_back(t);
    }
    if (positions.empty()) break;
    // Gather the batch: runs of positions within one block at a time.
    Chunk batch(input_types_);
    std::vector<uint32_t> sel;
    for (size_t i = 0; i < positions.size();) {
      const size_t blk = (positions[i] - s.pend_first) / kBlock;
      sel.clear();
      size_t j = i;
      while (j < positions.size() && (positions[j] - s.pend_first) / kBlock == blk) {
        sel.push_back(static_cast<uint32_t>((positions[j] - s.pend_first) % kBlock));
        ++j;
      }
      PendingBlock& b = s.pend[blk];
      for (size_t c = 0; c < input_types_.size(); ++c) batch.column(c).AppendFrom(b.cols[c], sel.data(), 0, sel.size());
      b.done += sel.size();
      i = j;
    }
    batch.kind_vector().assign(positions.size(), RowKind::kInsert);
    s.pending_rows -= positions.size();
    while (!s.pend.empty() && s.pend.front().done == kBlock) {
      s.pend.pop_front();
      s.pend_first += kBlock;
    }
    RETURN_IF_ERROR(ProcessBatch(batch, times, true));
  }
  MeasureState();
  return EmitWatermark(watermark);
}

Status OverAggregateOperator::ProcessBatch(const Chunk& batch, const std::vector<int64_t>& times, bool ties_together) {
  State& s = *state_;
  const auto& cs = layout_.calls();
  const size_t n = batch.size();
  const size_t nd = s.distinct.size();
  const bool bounded = preceding_ >= 0;
  const bool range_bounded = bounded && !rows_frame_;
  EncodeKeys(batch, partition_keys_, &s.encoded);
  s.slots.resize(n);
  s.out_sel.clear();
  s.dbuf.resize(nd);
  Chunk aggs(s.agg_types, n);
  size_t k = 0;

  const Vector* args[8];
  auto set_args = [&](const AccumulatorCall& c, const std::vector<Vector>& cols) {
    const size_t m = std::min<size_t>(c.args.size(), 8);
    for (size_t i = 0; i < m; ++i) args[i] = &cols[static_cast<size_t>(c.args[i])];
  };
  auto passes = [](const Vector& f, size_t row) { return !f.IsNull(row) && f.data<uint8_t>()[row] != 0; };

  // Accumulates row r of the batch into partition `slot`, writing its DISTINCT counter ids to dref.
  auto accumulate = [&](uint32_t slot, uint8_t* st, size_t r, uint32_t* dref) {
    for (size_t a = 0; a < cs.size(); ++a) {
      const AccumulatorCall& c = cs[a];
      const int d = s.distinct_of[a];
      if (c.filter >= 0 && !passes(batch.column(static_cast<size_t>(c.filter)), r)) {
        if (d >= 0) dref[d] = kNone;
        continue;
      }
      if (d >= 0) {
        DistinctStore& ds = s.distinct[static_cast<size_t>(d)];
        DistinctEntry probe;
        probe.part = slot;
        std::string key;
        uint64_t h;
        if (ds.width) {
          const Vector& v = batch.column(static_cast<size_t>(ds.column));
          if (v.IsNull(r)) {
            probe.part |= kNullBit;
          } else {
            switch (ds.width) {
              case 1: probe.value = v.data<int8_t>()[r]; break;
              case 2: probe.value = v.data<int16_t>()[r]; break;
              case 4: probe.value = v.data<int32_t>()[r]; break;
              default: probe.value = v.data<int64_t>()[r]; break;
            }
          }
          h = Mix(Mix(static_cast<uint64_t>(probe.value)) ^ (static_cast<uint64_t>(probe.part) * 0x9E3779B97F4A7C15ULL));
        } else {
          for (int col : c.args) EncodeKeyValue(batch.column(static_cast<size_t>(col)), r, &key);
          h = Mix(XXH3_64bits(key.data(), key.size()) ^ (static_cast<uint64_t>(probe.part) * 0x9E3779B97F4A7C15ULL));
        }
        const uint32_t found = ds.index.Find(h, [&](uint32_t id) {
          const DistinctEntry& e = ds.entries[id];
          if (e.part != probe.part) return false;
          return ds.width ? e.value == probe.value : ds.keys[static_cast<uint32_t>(e.value)] == key;
        });
        if (found != kNone) {
          ++ds.entries[found].count;
          ds.entry_dirty.Mark(found);
          dref[d] = found;
          continue;
        }
        const uint32_t id = ds.entries.Allocate();
        ds.entry_dirty.Mark(id);
        DistinctEntry& e = ds.entries[id];
        e = probe;
        e.count = 1;
        if (!ds.width) {
          const uint32_t kid = ds.keys.Allocate();
          ds.key_dirty.Mark(kid);
          ds.keys[kid] = std::move(key);
          if (ds.keys[kid].capacity() > 15) ds.key_heap_bytes += ds.keys[kid].capacity();
          e.value = kid;
        }
        ds.index.Insert(h, id, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
        dref[d] = id;
      }
      set_args(c, batch.columns());
      c.function->update(st + s.offsets[a], args, r, false);
    }
  };
  // Retracts stored row `r` of `vals` (with DISTINCT counter ids `dref`) from partition `slot`.
  auto retract = [&](uint8_t* st, const std::vector<Vector>& vals, size_t r, const uint32_t* dref) {
    for (size_t a = 0; a < cs.size(); ++a) {
      const AccumulatorCall& c = cs[a];
      const int d = s.distinct_of[a];
      if (d >= 0) {
        const uint32_t id = dref[d];
        if (id == kNone) continue;
        DistinctStore& ds = s.distinct[static_cast<size_t>(d)];
        DistinctEntry& e = ds.entries[id];
        ds.entry_dirty.Mark(id);
        if (--e.count > 0) continue;
        // The value's last row leaves the frame.
        ds.index.Erase(s.DistinctHash(ds, e), id, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
        if (ds.width) {
          Vector& v = s.scratch[static_cast<size_t>(ds.column)];
          v.SetNull(0, (e.part & kNullBit) != 0);
          switch (ds.width) {
            case 1: v.data<int8_t>()[0] = static_cast<int8_t>(e.value); break;
            case 2: v.data<int16_t>()[0] = static_cast<int16_t>(e.value); break;
            case 4: v.data<int32_t>()[0] = static_cast<int32_t>(e.value); break;
            default: v.data<int64_t>()[0] = e.value; break;
          }
          set_args(c, s.scratch);
          c.function->update(st + s.offsets[a], args, 0, true);
        } else {
          const uint32_t kid = static_cast<uint32_t>(e.value);
          if (ds.keys[kid].capacity() > 15) ds.key_heap_bytes -= ds.keys[kid].capacity();
          std::string().swap(ds.keys[kid]);
          ds.keys.Free(kid);
          ds.key_dirty.Mark(kid);
          set_args(c, vals);
          c.function->update(st + s.offsets[a], args, r, true);
        }
        ds.entries.Free(id);
        continue;
      }
      if (c.filter >= 0 && !passes(vals[static_cast<size_t>(c.filter)], r)) continue;
      set_args(c, vals);
      c.function->update(st + s.offsets[a], args, r, true);
    }
  };
  auto free_partition = [&](uint32_t slot) {
    Partition& p = s.parts[slot];
    uint8_t* st = s.States(slot);
    for (size_t a = 0; a < cs.size(); ++a) {
      if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
    }
    s.part_index.Erase(p.hash, slot, [&](uint32_t x) { return s.parts[x].hash; });
    if (p.key.capacity() > 15) s.key_heap_bytes -= p.key.capacity();
    std::string().swap(p.key);
    p.live = false;
    s.parts.Free(slot);
    s.part_dirty.Mark(slot);
  };
  auto find_or_create = [&](std::string& key) {
    const uint64_t h = XXH3_64bits(key.data(), key.size());
    uint32_t slot = s.part_index.Find(h, [&](uint32_t id) { return s.parts[id].hash == h && s.parts[id].key == key; });
    if (slot != kNone) return slot;
    slot = s.parts.Allocate();
    s.part_dirty.Mark(slot);
    s.GrowStatePages(slot + 1);
    Partition& p = s.parts[slot];
    p.key = std::move(key);
    if (p.key.capacity() > 15) s.key_heap_bytes += p.key.capacity();
    p.hash = h;
    p.last_time = kNever;
    p.rows = 0;
    p.mark = kNone;
    p.live = true;
    uint8_t* st = s.States(slot);
    std::memset(st, 0, s.stride);  // a reused slot: no padding bytes of the freed partition's states
    for (size_t a = 0; a < cs.size(); ++a) cs[a].function->init(st + s.offsets[a]);
    s.part_index.Insert(h, slot, [&](uint32_t x) { return s.parts[x].hash; });
    if (rows_frame_ && bounded && s.rows_frames.size() <= slot) s.rows_frames.resize(slot + 1);
    return slot;
  };
  // Retracts and frees every RANGE frame row with time below `lower`.
  auto expire = [&](int64_t lower) {
    while (!s.frame.empty()) {
      FrameBlock& b = s.frame.front();
      if (s.frame_head == b.size) {
        s.frame.pop_front();
        ++s.frame_popped;
        s.frame_head = 0;
        continue;
      }
      const size_t i = s.frame_head;
      if (b.base + static_cast<int64_t>(b.dt[i]) >= lower) break;
      const uint32_t* dref = b.dref.data() + i * nd;
      const uint32_t slot = s.part_from_distinct >= 0
                                ? s.distinct[static_cast<size_t>(s.part_from_distinct)].entries[dref[s.part_from_distinct]].part & ~kNullBit
                                : b.part[i];
      retract(s.States(slot), b.vals, i, dref);
      s.part_dirty.Mark(slot);
      ++s.frame_head;
      --s.frame_rows;
      if (--s.parts[slot].rows == 0) free_partition(slot);
    }
  };
  auto append_frame = [&](int64_t t, uint32_t slot, size_t r) {
    if (s.frame.empty() || s.frame.back().size == kBlock || t - s.frame.back().base > int64_t{0xFFFFFFFF}) {
      FrameBlock& b = s.frame.emplace_back();
      b.base = t;
      b.dt.reserve(kBlock);
      if (s.part_from_distinct < 0) b.part.reserve(kBlock);
      b.dref.reserve(kBlock * nd);
      b.vals.resize(input_types_.size());
      for (int c : s.val_columns) {
        b.vals[static_cast<size_t>(c)] = Vector(input_types_[static_cast<size_t>(c)]);
        b.vals[static_cast<size_t>(c)].Reserve(kBlock);
      }
    }
    FrameBlock& b = s.frame.back();
    b.dt.push_back(static_cast<uint32_t>(t - b.base));
    if (s.part_from_distinct < 0) b.part.push_back(slot);
    b.dref.insert(b.dref.end(), s.dbuf.begin(), s.dbuf.end());
    for (int c : s.val_columns) b.vals[static_cast<size_t>(c)].AppendFrom(batch.column(static_cast<size_t>(c)), nullptr, r, 1, true);
    ++b.size;
    ++s.frame_rows;
  };
  // ROWS frames: stores row r (the retracted columns and DISTINCT ids) and returns its id.
  auto store_row = [&](size_t r) {
    if (s.rows_size >= (1u << 14) && s.rows_released * 2 > s.rows_size) {
      std::vector<Vector> fresh;
      for (const LogicalType& t : input_types_) fresh.emplace_back(t);
      std::vector<uint32_t> fresh_dref;
      uint32_t next = 0;
      for (RowsFrame& f : s.rows_frames) {
        for (size_t i = f.head; i < f.ids.size(); ++i) {
          for (int c : s.val_columns) {
            fresh[static_cast<size_t>(c)].AppendFrom(s.rows_vals[static_cast<size_t>(c)], nullptr, f.ids[i], 1, true);
          }
          fresh_dref.insert(fresh_dref.end(), s.rows_dref.begin() + static_cast<std::ptrdiff_t>(f.ids[i] * nd),
                            s.rows_dref.begin() + static_cast<std::ptrdiff_t>((f.ids[i] + 1) * nd));
          f.ids[i] = next++;
        }
      }
      s.rows_vals = std::move(fresh);
      s.rows_dref = std::move(fresh_dref);
      s.rows_size = next;
      s.rows_released = 0;
      s.rows_compacted = true;
    }
    for (int c : s.val_columns) s.rows_vals[static_cast<size_t>(c)].AppendFrom(batch.column(static_cast<size_t>(c)), nullptr, r, 1, true);
    s.rows_dref.insert(s.rows_dref.end(), s.dbuf.begin(), s.dbuf.end());
    ++s.frame_rows;
    return static_cast<uint32_t>(s.rows_size++);
  };
  auto emit = [&](uint8_t* st, size_t r) {
    for (size_t a = 0; a < cs.size(); ++a) {
      Vector& v = aggs.column(a);
      v.SetNull(k, false);
      cs[a].function->finalize(st + s.offsets[a], &v, k);
    }
    s.out_sel.push_back(static_cast<uint32_t>(r));
    ++k;
  };
  // Processes rows `rows` (batch row numbers, arrival order) of partition `slot` at time t.
  auto process = [&](uint32_t slot, int64_t t, const uint32_t* rows, size_t count) {
    Partition& p = s.parts[slot];
    s.part_dirty.Mark(slot);
    uint8_t* st = s.States(slot);
    if (rows_frame_) {
      for (size_t i = 0; i < count; ++i) {
        accumulate(slot, st, rows[i], s.dbuf.data());
        if (bounded) {
          RowsFrame& f = s.rows_frames[slot];
          f.ids.push_back(store_row(rows[i]));
          while (static_cast<int64_t>(f.size()) > preceding_ + 1) {
            const uint32_t old = f.ids[f.head];
            retract(st, s.rows_vals, old, s.rows_dref.data() + static_cast<size_t>(old) * nd);
            ++s.rows_released;
            --s.frame_rows;
            f.pop_front();
          }
        }
        emit(st, rows[i]);
      }
    } else {
      for (size_t i = 0; i < count; ++i) {
        accumulate(slot, st, rows[i], s.dbuf.data());
        if (range_bounded) {
          append_frame(t, slot, rows[i]);
          ++p.rows;
        }
      }
      for (size_t i = 0; i < count; ++i) emit(st, rows[i]);
    }
    p.last_time = t;
  };

  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    if (ties_together) {
      while (j < n && times[j] == times[i]) ++j;
    }
    const int64_t t = times[i];
    if (range_bounded) expire(t - preceding_ * 1000);
    for (size_t r = i; r < j; ++r) s.slots[r] = find_or_create(s.encoded[r]);
    if (j - i == 1) {
      const uint32_t r = static_cast<uint32_t>(i);
      process(s.slots[i], t, &r, 1);
    } else {
      // The partitions in first-appearance order, each with its rows in arrival order (counting sort).
      s.order.clear();
      for (size_t r = i; r < j; ++r) {
        Partition& p = s.parts[s.slots[r]];
        if (p.mark == kNone) {
          p.mark = static_cast<uint32_t>(s.order.size());
          s.order.push_back(s.slots[r]);
        }
      }
      s.counts.assign(s.order.size() + 1, 0);
      for (size_t r = i; r < j; ++r) ++s.counts[s.parts[s.slots[r]].mark + 1];
      for (size_t m = 1; m < s.counts.size(); ++m) s.counts[m] += s.counts[m - 1];
      s.group.resize(j - i);
      for (size_t r = i; r < j; ++r) s.group[s.counts[s.parts[s.slots[r]].mark]++] = static_cast<uint32_t>(r);
      for (uint32_t slot : s.order) s.parts[slot].mark = kNone;
      for (size_t g = 0; g < s.group.size();) {
        size_t h = g + 1;
        while (h < s.group.size() && s.slots[s.group[h]] == s.slots[s.group[g]]) ++h;
        process(s.slots[s.group[g]], t, s.group.data() + g, h - g);
        g = h;
      }
    }
    i = j;
  }

  const size_t ni = input_types_.size();
  Chunk out(output_types_);
  for (size_t c = 0; c < ni; ++c) out.column(c).AppendFrom(batch.column(c), s.out_sel.data(), 0, n);
  for (size_t a = 0; a < aggs.num_columns(); ++a) out.column(ni + a) = std::move(aggs.column(a));
  out.kind_vector().assign(n, RowKind::kInsert);
  return Emit(out);
}

void OverAggregateOperator::PutPendingHead(StateWriter* w, const State& s) {
  w->PutU64(s.pend_first);
  w->PutU64(s.pend_end);
  w->PutU64(s.in_next);
  w->PutI64(s.in_max);
  w->PutVarint(s.ooo.size());
  for (const auto& [t, pos] : s.ooo) {
    w->PutI64(t);
    w->PutU64(pos);
  }
}

void OverAggregateOperator::GetPendingHead(StateReader* r, State* s) {
  s->pend_first = r->GetU64();
  s->pend_end = r->GetU64();
  s->in_next = r->GetU64();
  s->in_max = r->GetI64();
  const size_t nheap = r->GetCount(16);
  s->ooo.clear();
  for (size_t i = 0; i < nheap && r->ok(); ++i) {
    const int64_t t = r->GetI64();
    s->ooo.emplace_back(t, r->GetU64());
  }
}

Status OverAggregateOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  w->PutTag("over-aggregate");
  w->PutVarint(cs.size());
  w->PutVarint(nd);
  w->PutI64(s.last_proc_time);
  w->PutU64(s.peak_bytes);
  w->PutI64(metrics_.peak_state_bytes);
  w->PutI64(metrics_.state_rows_at_peak);
  // Partitions: key, last processed time, frame rows, accumulator states.
  PutPoolIds(w, s.parts);
  w->PutVarint(s.part_index.capacity());
  for (size_t id = 0; id < s.parts.size(); ++id) {
    const Partition& p = s.parts[static_cast<uint32_t>(id)];
    if (p.live) PutPartition(w, p, s.States(static_cast<uint32_t>(id)), cs, s.offsets);
  }
  // DISTINCT counters and their encoded values.
  for (const DistinctStore& ds : s.distinct) {
    PutPoolIds(w, ds.keys);
    const std::vector<uint8_t> klive = LiveIds(ds.keys);
    for (size_t k = 0; k < klive.size(); ++k) {
      if (klive[k]) w->PutString(ds.keys[static_cast<uint32_t>(k)]);
    }
    PutPoolIds(w, ds.entries);
    w->PutVarint(ds.index.capacity());
    const std::vector<uint8_t> elive = LiveIds(ds.entries);
    for (size_t id = 0; id < elive.size(); ++id) {
      if (!elive[id]) continue;
      const DistinctEntry& e = ds.entries[static_cast<uint32_t>(id)];
      w->PutI64(e.value);
      w->PutU32(e.part);
      w->PutVarint(e.count);
    }
  }
  const bool bounded = preceding_ >= 0;
  if (bounded && !rows_frame_) {
    w->PutVarint(s.frame_head);
    w->PutVarint(s.frame.size());
    for (const FrameBlock& b : s.frame) {
      w->PutI64(b.base);
      w->PutVarint(b.size);
      PutFrameRows(w, b, 0, s.part_from_distinct < 0, nd, s.val_columns);
    }
  }
  if (bounded && rows_frame_) {
    w->PutVarint(s.rows_size);
    w->PutVarint(s.rows_released);
    for (int c : s.val_columns) w->PutVector(s.rows_vals[static_cast<size_t>(c)]);
    PutPods(w, s.rows_dref.data(), s.rows_size * nd);
    w->PutVarint(s.rows_frames.size());
    for (const RowsFrame& f : s.rows_frames) {
      w->PutVarint(f.size());
      PutPods(w, f.ids.data() + f.head, f.size());
    }
  }
  if (rowtime_) {
    PutPendingHead(w, s);
    s.ooo_pos.Put(w);
    w->PutVarint(s.pend.size());
    for (const PendingBlock& b : s.pend) PutPendingRows(w, b, 0);
  }
  ResetDeltaBase(s);
  return Status::OK();
}

void OverAggregateOperator::ResetDeltaBase(State& s) {
  s.part_dirty.Reset(s.parts.size());
  s.parts.MarkBase();
  for (DistinctStore& ds : s.distinct) {
    ds.entry_dirty.Reset(ds.entries.size());
    ds.entries.MarkBase();
    ds.key_dirty.Reset(ds.keys.size());
    ds.keys.MarkBase();
  }
  s.frame_base_blocks = s.frame.size();
  s.frame_base_back = s.frame.empty() ? 0 : s.frame.back().size;
  s.frame_popped = 0;
  s.rows_base = s.rows_size;
  s.rows_compacted = false;
  s.pend_base_first = s.pend_first;
  s.pend_base_blocks = s.pend.size();
  s.pend_base_back = s.pend.empty() ? 0 : s.pend.back().size;
}

std::vector<uint64_t> OverAggregateOperator::BaseSizes(const State& s, bool at_base) {
  std::vector<uint64_t> v;
  v.push_back(at_base ? s.part_dirty.base() : s.parts.size());
  for (const DistinctStore& ds : s.distinct) {
    v.push_back(at_base ? ds.key_dirty.base() : ds.keys.size());
    v.push_back(at_base ? ds.entry_dirty.base() : ds.entries.size());
  }
  v.push_back(at_base ? s.frame_base_blocks : s.frame.size());
  v.push_back(at_base ? s.frame_base_back : s.frame.empty() ? 0 : s.frame.back().size);
  v.push_back(at_base ? s.rows_base : s.rows_size);
  v.push_back(at_base ? s.pend_base_first : s.pend_first);
  v.push_back(at_base ? s.pend_base_blocks : s.pend.size());
  v.push_back(at_base ? s.pend_base_back : s.pend.empty() ? 0 : s.pend.back().size);
  return v;
}

bool OverAggregateOperator::CanSnapshotDelta() const {
  const State& s = *state_;
  if (!has_snapshot_base() || s.rows_compacted) return false;
  // Items (partitions, DISTINCT counters and values, rows) a delta would write against those a full
  // snapshot would: once nearly everything changed since the base (state that turns over within a
  // checkpoint interval), the delta is no smaller, so a full snapshot is written (a new base).
  size_t changed = s.part_dirty.dirty().size() + (s.parts.size() - s.part_dirty.base());
  size_t total = s.parts.live();
  for (const DistinctStore& ds : s.distinct) {
    changed += ds.entry_dirty.dirty().size() + (ds.entries.size() - ds.entry_dirty.base()) + ds.key_dirty.dirty().size() +
               (ds.keys.size() - ds.key_dirty.base());
    total += ds.entries.live() + ds.keys.live();
  }
  const size_t kept = s.frame_base_blocks - std::min(s.frame_popped, s.frame_base_blocks);
  if (kept > 0) changed += s.frame[kept - 1].size - s.frame_base_back;
  for (size_t bi = kept; bi < s.frame.size(); ++bi) changed += s.frame[bi].size;
  changed += s.rows_size - s.rows_base;
  total += s.frame_rows;
  const uint64_t pend_base_end =
      s.pend_base_first + (s.pend_base_blocks == 0 ? 0 : (s.pend_base_blocks - 1) * kBlock + s.pend_base_back);
  changed += s.pend_end - std::max(std::min(pend_base_end, s.pend_end), s.pend_first);
  total += s.pend_end - s.pend_first;
  return changed <= total;
}

Status OverAggregateOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(!s.rows_compacted);
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  const bool bounded = preceding_ >= 0;
  const bool rows_frames = bounded && rows_frame_;
  const bool with_part = s.part_from_distinct < 0;
  w->PutTag("over-aggregate-delta");
  // The base's sizes: a delta is refused on a state of other sizes (a delta of another chain).
  const std::vector<uint64_t> base = BaseSizes(s, true);
  PutPods(w, base.data(), base.size());
  w->PutI64(s.last_proc_time);
  w->PutU64(s.peak_bytes);
  w->PutI64(metrics_.peak_state_bytes);
  w->PutI64(metrics_.state_rows_at_peak);
  // Partitions written since the base: freed, or their key, times, states and ROWS frame.
  PutPoolDelta(w, s.parts);
  w->PutVarint(s.part_index.capacity());
  PutWritten(w, s.part_dirty, s.parts.size(), [&](uint32_t id) {
    const Partition& p = s.parts[id];
    w->PutBool(p.live);
    if (!p.live) return;
    PutPartition(w, p, s.States(id), cs, s.offsets);
    if (rows_frames) {
      const RowsFrame& f = s.rows_frames[id];
      w->PutVarint(f.size());
      PutPods(w, f.ids.data() + f.head, f.size());
    }
  });
  // DISTINCT values and counters written since the base.
  for (const DistinctStore& ds : s.distinct) {
    PutPoolDelta(w, ds.keys);
    PutWritten(w, ds.key_dirty, ds.keys.size(), [&](uint32_t id) { w->PutString(ds.keys[id]); });
    PutPoolDelta(w, ds.entries);
    w->PutVarint(ds.index.capacity());
    PutWritten(w, ds.entry_dirty, ds.entries.size(), [&](uint32_t id) {
      const DistinctEntry& e = ds.entries[id];
      w->PutI64(e.value);
      w->PutU32(e.part);
      w->PutU32(e.count);
    });
  }
  // RANGE frame: the base's blocks popped since (the first ones), the rows its last block gained if
  // it is still queued, the blocks added since.
  if (bounded && !rows_frame_) {
    const size_t popped = std::min(s.frame_popped, s.frame_base_blocks);
    const size_t kept = s.frame_base_blocks - popped;
    w->PutVarint(popped);
    w->PutVarint(s.frame_head);
    if (kept > 0) {
      const FrameBlock& b = s.frame[kept - 1];
      w->PutVarint(b.size - s.frame_base_back);
      PutFrameRows(w, b, s.frame_base_back, with_part, nd, s.val_columns);
    }
    w->PutVarint(s.frame.size() - kept);
    for (size_t bi = kept; bi < s.frame.size(); ++bi) {
      const FrameBlock& b = s.frame[bi];
      w->PutI64(b.base);
      w->PutVarint(b.size);
      PutFrameRows(w, b, 0, with_part, nd, s.val_columns);
    }
  }
  // ROWS frames: the rows stored since the base (the frames came with their partitions).
  if (rows_frames) {
    w->PutVarint(s.rows_size);
    w->PutVarint(s.rows_released);
    const size_t n = s.rows_size - s.rows_base;
    for (int c : s.val_columns) w->PutVectorRange(s.rows_vals[static_cast<size_t>(c)], s.rows_base, n);
    PutPods(w, s.rows_dref.data() + s.rows_base * nd, n * nd);
  }
  // Rows waiting for the watermark: positions, the out-of-order heap (in full), the out-of-order
  // positions' queue, and the blocks as the RANGE frame's.
  if (rowtime_) {
    PutPendingHead(w, s);
    s.ooo_pos.PutDelta(w);
    const size_t popped = std::min<size_t>((s.pend_first - s.pend_base_first) / kBlock, s.pend_base_blocks);
    const size_t kept = s.pend_base_blocks - popped;
    w->PutVarint(popped);
    if (kept > 0) PutPendingRows(w, s.pend[kept - 1], s.pend_base_back);
    w->PutVarint(s.pend.size() - kept);
    for (size_t bi = kept; bi < s.pend.size(); ++bi) PutPendingRows(w, s.pend[bi], 0);
  }
  ResetDeltaBase(s);
  return Status::OK();
}

Status OverAggregateOperator::RestoreDelta(StateReader* r) {
  // Patches the state in place (a failure leaves partial state for DropState), then reads it back as
  // a full snapshot, which checks it as RestoreState checks any and rebuilds the hash indexes.
  State& s = *state_;
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  const bool bounded = preceding_ >= 0;
  const bool rows_frames = bounded && rows_frame_;
  const bool with_part = s.part_from_distinct < 0;
  auto fail = [r](const std::string& why) {
    r->Fail(why);
    return r->status();
  };
  r->ExpectTag("over-aggregate-delta");
  const std::vector<uint64_t> base = BaseSizes(s, false);
  std::vector<uint64_t> delta_base;
  GetPods(r, base.size(), &delta_base);
  RETURN_IF_ERROR(r->status());
  if (delta_base != base) return fail("a delta of another state (its base has other sizes)");
  s.last_proc_time = r->GetI64();
  s.peak_bytes = r->GetU64();
  metrics_.peak_state_bytes = r->GetI64();
  metrics_.state_rows_at_peak = r->GetI64();
  // Partitions.
  const size_t pbase = s.parts.size();
  GetPoolDelta(r, &s.parts, 1, "partition");
  RETURN_IF_ERROR(r->status());
  s.GrowStatePages(s.parts.size());
  if (rows_frames) s.rows_frames.resize(s.parts.size());
  const size_t pcap = r->GetCount(0);
  if (r->ok() && !PlausibleCapacity(pcap, s.parts.size())) r->Fail("partition index of " + std::to_string(pcap) + " slots");
  RETURN_IF_ERROR(r->status());
  s.part_index.Reset(pcap);
  GetWritten(r, pbase, s.parts.size(), [&](uint32_t id) {
    Partition& p = s.parts[id];
    uint8_t* st = s.States(id);
    if (p.live) {
      for (size_t a = 0; a < cs.size(); ++a) {
        if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
      }
      p.live = false;
      std::string().swap(p.key);
    }
    if (rows_frames) s.rows_frames[id] = RowsFrame();
    const bool live = r->GetBool();
    if (!live || !r->ok()) return;
    std::memset(st, 0, s.stride);
    GetPartition(r, &p, st, cs, s.offsets);
    if (rows_frames && r->ok()) GetPods(r, r->GetCount(4), &s.rows_frames[id].ids);
  });
  RETURN_IF_ERROR(r->status());
  // The free list names exactly the partitions that are not live.
  {
    std::vector<uint8_t> free(s.parts.size(), 0);
    for (uint32_t id : s.parts.free_ids()) {
      if (free[id]) return fail("partition free list names id " + std::to_string(id) + " twice");
      free[id] = 1;
    }
    for (size_t id = 0; id < free.size(); ++id) {
      if (s.parts[static_cast<uint32_t>(id)].live == (free[id] != 0)) {
        return fail("partition " + std::to_string(id) + " live and free, or neither");
      }
    }
  }
  // DISTINCT values and counters.
  for (DistinctStore& ds : s.distinct) {
    const size_t kbase = ds.keys.size();
    GetPoolDelta(r, &ds.keys, 1, "DISTINCT value");
    GetWritten(r, kbase, ds.keys.size(), [&](uint32_t id) { ds.keys[id] = r->GetString(); });
    const size_t ebase = ds.entries.size();
    GetPoolDelta(r, &ds.entries, 16, "DISTINCT counter");
    const size_t ecap = r->GetCount(0);
    if (r->ok() && !PlausibleCapacity(ecap, ds.entries.size())) r->Fail("DISTINCT index of " + std::to_string(ecap) + " slots");
    RETURN_IF_ERROR(r->status());
    ds.index.Reset(ecap);
    GetWritten(r, ebase, ds.entries.size(), [&](uint32_t id) {
      DistinctEntry& e = ds.entries[id];
      e.value = r->GetI64();
      e.part = r->GetU32();
      e.count = r->GetU32();
    });
    RETURN_IF_ERROR(r->status());
  }
  // RANGE frame.
  if (bounded && !rows_frame_) {
    const size_t popped = r->GetCount(0);
    const size_t head = r->GetCount(0);
    if (r->ok() && popped > s.frame.size()) r->Fail("a frame delta pops " + std::to_string(popped) + " blocks of " + std::to_string(s.frame.size()));
    RETURN_IF_ERROR(r->status());
    for (size_t i = 0; i < popped; ++i) s.frame.pop_front();
    s.frame_head = head;
    if (!s.frame.empty()) {
      FrameBlock& b = s.frame.back();
      const size_t grown = r->GetCount(4);
      if (r->ok() && grown > kBlock - b.size) r->Fail("frame block of more than " + std::to_string(kBlock) + " rows");
      if (r->ok()) GetFrameRows(r, &b, grown, with_part, nd, s.val_columns, input_types_);
    }
    const size_t nblocks = r->GetCount(9);
    for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
      FrameBlock& b = s.frame.emplace_back();
      b.base = r->GetI64();
      const size_t size = r->GetCount(4);
      if (!r->ok()) break;
      if (size == 0 || size > kBlock) return fail("frame block of " + std::to_string(size) + " rows");
      if (b.base > std::numeric_limits<int64_t>::max() - int64_t{0xFFFFFFFF}) return fail("frame block time out of range");
      GetFrameRows(r, &b, size, with_part, nd, s.val_columns, input_types_);
    }
    RETURN_IF_ERROR(r->status());
  }
  // Stored ROWS rows.
  if (rows_frames) {
    const size_t size = r->GetCount(0);
    const size_t released = r->GetCount(0);
    if (r->ok() && (size < s.rows_size || size >= kNullBit || released > size)) r->Fail("stored ROWS frame rows out of range");
    RETURN_IF_ERROR(r->status());
    const size_t n = size - s.rows_size;
    Vector v;
    for (int c : s.val_columns) {
      r->GetVector(input_types_[static_cast<size_t>(c)], &v);
      if (r->ok() && v.size() != n) r->Fail("stored ROWS frame column of another length");
      RETURN_IF_ERROR(r->status());
      s.rows_vals[static_cast<size_t>(c)].AppendFrom(v, nullptr, 0, n, true);
    }
    if (nd > 0 && n > r->remaining() / (nd * sizeof(uint32_t))) r->Fail("stored ROWS frame rows exceed the state");
    std::vector<uint32_t> dref;
    GetPods(r, n * nd, &dref);
    RETURN_IF_ERROR(r->status());
    s.rows_dref.insert(s.rows_dref.end(), dref.begin(), dref.end());
    s.rows_size = size;
    s.rows_released = released;
  }
  // Rows waiting for the watermark.
  if (rowtime_) {
    GetPendingHead(r, &s);
    s.ooo_pos.ApplyDelta(r);
    const size_t popped = r->GetCount(0);
    if (r->ok() && popped > s.pend.size()) r->Fail("a pending rows delta pops " + std::to_string(popped) + " blocks of " + std::to_string(s.pend.size()));
    RETURN_IF_ERROR(r->status());
    for (size_t i = 0; i < popped; ++i) s.pend.pop_front();
    if (!s.pend.empty()) GetPendingRows(r, &s.pend.back(), input_types_);
    const size_t nblocks = r->GetCount(1);
    for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
      PendingBlock& b = s.pend.emplace_back();
      if (GetPendingRows(r, &b, input_types_) == 0 && r->ok()) r->Fail("pending block of 0 rows");
    }
    RETURN_IF_ERROR(r->status());
  }
  RETURN_IF_ERROR(r->status());
  // Read the patched state back as a full snapshot: RestoreState checks it and replaces state_.
  StateWriter full;
  RETURN_IF_ERROR(SnapshotState(&full));
  const std::string what = "the state after its delta";
  StateReader back(full.data(), what);
  Status st = RestoreState(&back);
  if (st.ok()) st = back.Finish();
  if (!st.ok()) {
    const std::string prefix = "Corrupt state of " + what + ": ";
    const std::string& m = st.message();
    r->Fail(what + ": " + (m.compare(0, prefix.size(), prefix) == 0 ? m.substr(prefix.size()) : m));
  }
  return r->status();
}

Status OverAggregateOperator::RestoreState(StateReader* r) {
  std::unique_ptr<State> fresh = NewState();
  State& s = *fresh;
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  const bool bounded = preceding_ >= 0;
  int64_t peak_state_bytes = 0;
  int64_t state_rows_at_peak = 0;
  auto read = [&] {
    r->ExpectTag("over-aggregate");
    const size_t ncalls = r->GetCount(0);
    const size_t ndistinct = r->GetCount(0);
    if (r->ok() && (ncalls != cs.size() || ndistinct != nd)) {
      r->Fail("state for " + std::to_string(ncalls) + " aggregate calls (" + std::to_string(ndistinct) +
              " DISTINCT), the operator has " + std::to_string(cs.size()) + " (" + std::to_string(nd) + ")");
    }
    s.last_proc_time = r->GetI64();
    s.peak_bytes = r->GetU64();
    peak_state_bytes = r->GetI64();
    state_rows_at_peak = r->GetI64();
    if (!r->ok()) return;
    // Partitions.
    const std::vector<uint8_t> plive = GetPoolIds(r, &s.parts, 10, "partition");
    const size_t pcap = r->GetCount(0);
    if (!r->ok()) return;
    if (!PlausibleCapacity(pcap, s.parts.size())) return r->Fail("partition index of " + std::to_string(pcap) + " slots");
    s.part_index.Reset(pcap);
    s.GrowStatePages(s.parts.size());
    for (size_t id = 0; id < plive.size() && r->ok(); ++id) {
      if (!plive[id]) continue;
      const uint32_t slot = static_cast<uint32_t>(id);
      Partition& p = s.parts[slot];
      GetPartition(r, &p, s.States(slot), cs, s.offsets);
      if (p.key.capacity() > 15) s.key_heap_bytes += p.key.capacity();
      const uint64_t h = p.hash;
      if (s.part_index.Find(h, [&](uint32_t x) { return s.parts[x].hash == h && s.parts[x].key == p.key; }) != kNone) {
        return r->Fail("partition key stored twice");
      }
      s.part_index.Insert(h, slot, [&](uint32_t x) { return s.parts[x].hash; });
    }
    if (!r->ok()) return;
    auto live_partition = [&](uint64_t slot) { return slot < s.parts.size() && s.parts[static_cast<uint32_t>(slot)].live; };
    // DISTINCT counters.
    std::vector<std::vector<uint8_t>> elives(nd);
    for (size_t d = 0; d < nd && r->ok(); ++d) {
      DistinctStore& ds = s.distinct[d];
      const std::vector<uint8_t> klive = GetPoolIds(r, &ds.keys, 1, "DISTINCT value");
      for (size_t k = 0; k < klive.size() && r->ok(); ++k) {
        if (!klive[k]) continue;
        std::string& key = ds.keys[static_cast<uint32_t>(k)];
        key = r->GetString();
        if (key.capacity() > 15) ds.key_heap_bytes += key.capacity();
      }
      if (!r->ok()) return;
      if (ds.width != 0 && klive.size() != 0) return r->Fail("encoded DISTINCT values for an inline DISTINCT argument");
      elives[d] = GetPoolIds(r, &ds.entries, 13, "DISTINCT counter");
      const std::vector<uint8_t>& elive = elives[d];
      const size_t ecap = r->GetCount(0);
      if (!r->ok()) return;
      if (!PlausibleCapacity(ecap, ds.entries.size())) return r->Fail("DISTINCT index of " + std::to_string(ecap) + " slots");
      ds.index.Reset(ecap);
      std::vector<uint8_t> key_used(klive.size(), 0);
      for (size_t id = 0; id < elive.size() && r->ok(); ++id) {
        if (!elive[id]) continue;
        DistinctEntry& e = ds.entries[static_cast<uint32_t>(id)];
        e.value = r->GetI64();
        e.part = r->GetU32();
        const uint64_t count = r->GetVarint();
        if (!r->ok()) return;
        if (count == 0 || count > std::numeric_limits<uint32_t>::max()) return r->Fail("DISTINCT counter with count " + std::to_string(count));
        e.count = static_cast<uint32_t>(count);
        if (!live_partition(e.part & ~kNullBit)) return r->Fail("DISTINCT counter of an unknown partition");
        if (ds.width == 0) {
          if (e.value < 0 || static_cast<uint64_t>(e.value) >= klive.size() || !klive[static_cast<size_t>(e.value)] ||
              key_used[static_cast<size_t>(e.value)]) {
            return r->Fail("DISTINCT counter names a missing or shared value");
          }
          key_used[static_cast<size_t>(e.value)] = 1;
        }
        const uint64_t h = s.DistinctHash(ds, e);
        const uint32_t self = static_cast<uint32_t>(id);
        const uint32_t dup = ds.index.Find(h, [&](uint32_t x) {
          const DistinctEntry& o = ds.entries[x];
          if (o.part != e.part) return false;
          return ds.width ? o.value == e.value
                          : ds.keys[static_cast<uint32_t>(o.value)] == ds.keys[static_cast<uint32_t>(e.value)];
        });
        if (dup != kNone) return r->Fail("DISTINCT counter stored twice");
        ds.index.Insert(h, self, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
      }
      if (!r->ok()) return;
      for (size_t k = 0; k < klive.size(); ++k) {
        if (klive[k] && !key_used[k]) return r->Fail("DISTINCT value without a counter");
      }
    }
    if (!r->ok()) return;
    // References from frame rows: partition rows and DISTINCT counts, checked against the stored ones.
    std::vector<uint64_t> part_rows(s.parts.size(), 0);
    std::vector<std::vector<uint32_t>> refs(nd);
    for (size_t d = 0; d < nd; ++d) refs[d].assign(s.distinct[d].entries.size(), 0);
    // Checks the DISTINCT counter ids of one frame row of partition `slot` (kNone: the slot is taken
    // from the counter of call part_from_distinct) and counts the references; returns the slot.
    auto reference = [&](const uint32_t* dref, uint32_t slot) -> uint32_t {
      if (slot == kNone) {
        const uint32_t id = dref[s.part_from_distinct];
        if (id >= s.distinct[static_cast<size_t>(s.part_from_distinct)].entries.size() ||
            !elives[static_cast<size_t>(s.part_from_distinct)][id]) {
          r->Fail("frame row without its partition's DISTINCT counter");
          return kNone;
        }
        slot = s.distinct[static_cast<size_t>(s.part_from_distinct)].entries[id].part & ~kNullBit;
      }
      if (!live_partition(slot)) {
        r->Fail("frame row of an unknown partition");
        return kNone;
      }
      for (size_t d = 0; d < nd; ++d) {
        const uint32_t id = dref[d];
        if (id == kNone) continue;
        if (id >= refs[d].size() || !elives[d][id] || (s.distinct[d].entries[id].part & ~kNullBit) != slot) {
          r->Fail("frame row names a DISTINCT counter of another partition or none");
          return kNone;
        }
        ++refs[d][id];
      }
      return slot;
    };
    if (bounded && !rows_frame_) {
      s.frame_head = r->GetCount(0);
      const size_t nblocks = r->GetCount(9);
      for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
        FrameBlock& b = s.frame.emplace_back();
        b.base = r->GetI64();
        const size_t size = r->GetCount(4);
        if (!r->ok()) return;
        if (size == 0 || size > kBlock) return r->Fail("frame block of " + std::to_string(size) + " rows");
        if (b.base > std::numeric_limits<int64_t>::max() - int64_t{0xFFFFFFFF}) return r->Fail("frame block time out of range");
        GetFrameRows(r, &b, size, s.part_from_distinct < 0, nd, s.val_columns, input_types_);
      }
      if (!r->ok()) return;
      if (s.frame.empty() ? s.frame_head != 0 : s.frame_head > s.frame.front().size) return r->Fail("frame head out of range");
      // Rows enter the frame in time order and leave it from the front (expire).
      int64_t prev_time = kNever;
      for (size_t bi = 0; bi < s.frame.size() && r->ok(); ++bi) {
        const FrameBlock& b = s.frame[bi];
        for (size_t i = bi == 0 ? s.frame_head : 0; i < b.size; ++i) {
          const int64_t t = b.base + static_cast<int64_t>(b.dt[i]);
          if (t < prev_time) return r->Fail("RANGE frame rows out of time order");
          prev_time = t;
          const uint32_t slot = reference(b.dref.data() + i * nd, s.part_from_distinct < 0 ? b.part[i] : kNone);
          if (slot == kNone) return;
          ++part_rows[slot];
          ++s.frame_rows;
        }
      }
      for (size_t id = 0; id < plive.size(); ++id) {
        if (plive[id] && (part_rows[id] == 0 || part_rows[id] != s.parts[static_cast<uint32_t>(id)].rows)) {
          return r->Fail("partition row count does not match its frame");
        }
      }
    }
    if (bounded && rows_frame_) {
      s.rows_size = r->GetCount(0);
      s.rows_released = r->GetCount(0);
      if (!r->ok()) return;
      if (s.rows_size >= kNullBit || s.rows_released > s.rows_size) return r->Fail("stored ROWS frame rows out of range");
      for (int c : s.val_columns) {
        Vector& v = s.rows_vals[static_cast<size_t>(c)];
        r->GetVector(input_types_[static_cast<size_t>(c)], &v);
        if (r->ok() && v.size() != s.rows_size) return r->Fail("stored ROWS frame column of another length");
      }
      if (!r->ok()) return;
      if (nd > 0 && s.rows_size > r->remaining() / (nd * sizeof(uint32_t))) return r->Fail("stored ROWS frame rows exceed the state");
      GetPods(r, s.rows_size * nd, &s.rows_dref);
      const size_t nframes = r->GetCount(1);
      if (r->ok() && nframes != s.parts.size()) return r->Fail("ROWS frames for another number of partitions");
      s.rows_frames.resize(nframes);
      // Each stored row is in one frame at most (it is retracted once), a frame's oldest first.
      std::vector<uint8_t> in_frame(s.rows_size, 0);
      for (size_t f = 0; f < nframes && r->ok(); ++f) {
        GetPods(r, r->GetCount(4), &s.rows_frames[f].ids);
        if (!r->ok()) return;
        if (!s.rows_frames[f].ids.empty() && !plive[f]) return r->Fail("ROWS frame of a freed partition");
        if (static_cast<int64_t>(s.rows_frames[f].ids.size()) > preceding_ + 1) return r->Fail("ROWS frame larger than its bound");
        const std::vector<uint32_t>& ids = s.rows_frames[f].ids;
        for (size_t i = 0; i < ids.size(); ++i) {
          const uint32_t id = ids[i];
          if (id >= s.rows_size) return r->Fail("ROWS frame names a row out of range");
          if (in_frame[id] || (i > 0 && id <= ids[i - 1])) return r->Fail("ROWS frame rows out of order or in two frames");
          in_frame[id] = 1;
          if (reference(s.rows_dref.data() + static_cast<size_t>(id) * nd, static_cast<uint32_t>(f)) == kNone) return;
          ++s.frame_rows;
        }
      }
      if (r->ok() && s.frame_rows != s.rows_size - s.rows_released) return r->Fail("stored ROWS frame rows do not match the frames");
    }
    if (!r->ok()) return;
    for (size_t d = 0; d < nd && bounded; ++d) {
      for (size_t id = 0; id < refs[d].size(); ++id) {
        if (elives[d][id] && refs[d][id] != s.distinct[d].entries[static_cast<uint32_t>(id)].count) {
          return r->Fail("DISTINCT count does not match the frame rows");
        }
      }
    }
    if (!rowtime_) return;
    // Rows waiting for the watermark.
    GetPendingHead(r, &s);
    s.ooo_pos.Get(r);
    const size_t nblocks = r->GetCount(1);
    size_t total = 0;
    for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
      PendingBlock& b = s.pend.emplace_back();
      GetPendingRows(r, &b, input_types_);
      if (r->ok() && (b.size == 0 || (bi + 1 < nblocks && b.size != kBlock))) {
        return r->Fail("pending block of " + std::to_string(b.size) + " rows");
      }
      total += b.size;
    }
    if (!r->ok()) return;
    if (s.pend_end < s.pend_first || s.pend_end - s.pend_first != total || s.in_next > s.pend_end) {
      return r->Fail("pending row positions do not match the pending blocks");
    }
    auto ooo_pos = [&](size_t i) { return *(s.ooo_pos.begin() + static_cast<std::ptrdiff_t>(i)); };
    for (size_t i = 0; i < s.ooo_pos.size(); ++i) {
      if (ooo_pos(i) < s.in_next || ooo_pos(i) >= s.pend_end || (i > 0 && ooo_pos(i) <= ooo_pos(i - 1))) {
        return r->Fail("out-of-order positions out of range or order");
      }
    }
    // Positions before the first pending block were taken; the next in-order one skips them.
    if (s.in_next < s.pend_first) {
      const uint64_t gap = s.pend_first - s.in_next;
      if (s.ooo_pos.size() < gap || ooo_pos(gap - 1) != s.pend_first - 1) return r->Fail("next in-order row was freed");
    }
    if (!std::is_heap(s.ooo.begin(), s.ooo.end(), std::greater<>())) return r->Fail("out-of-order rows not in heap order");
    std::vector<uint64_t> heap_pos;
    for (const auto& [t, pos] : s.ooo) heap_pos.push_back(pos);
    std::sort(heap_pos.begin(), heap_pos.end());
    for (size_t i = 0; i < heap_pos.size(); ++i) {
      const uint64_t pos = heap_pos[i];
      if (pos < s.pend_first || pos >= s.pend_end || (i > 0 && pos == heap_pos[i - 1]) ||
          (pos >= s.in_next && !std::binary_search(s.ooo_pos.begin(), s.ooo_pos.end(), pos))) {
        return r->Fail("out-of-order row position out of range, repeated or not out of order");
      }
    }
    // The time of the pending row at `pos` (in [pend_first, pend_end)).
    auto time_at = [&](uint64_t pos) {
      const uint64_t rel = pos - s.pend_first;
      const Vector& v = s.pend[rel / kBlock].cols[static_cast<size_t>(order_column_)];
      return v.IsNull(rel % kBlock) ? kNever : v.data<int64_t>()[rel % kBlock];
    };
    // Out-of-order rows: the heap holds their times, before the latest in-order time (OnWatermark
    // takes rows by those times, merging the heap into the in-order sequence).
    for (const auto& [t, pos] : s.ooo) {
      if (t != time_at(pos) || t >= s.in_max) return r->Fail("out-of-order row with another time or not out of order");
    }
    // Rows not yet taken: the heap's and the in-order ones from in_next on, those in time order up to
    // in_max.
    std::vector<size_t> untaken(s.pend.size(), 0);
    for (uint64_t pos : heap_pos) ++untaken[(pos - s.pend_first) / kBlock];
    size_t k = 0;
    int64_t prev_time = kNever;
    for (uint64_t pos = std::max(s.in_next, s.pend_first); pos < s.pend_end; ++pos) {
      while (k < s.ooo_pos.size() && ooo_pos(k) < pos) ++k;
      if (k < s.ooo_pos.size() && ooo_pos(k) == pos) continue;
      const int64_t t = time_at(pos);
      if (t == kNever || t < prev_time || t > s.in_max) return r->Fail("pending in-order rows out of time order");
      prev_time = t;
      ++untaken[(pos - s.pend_first) / kBlock];
    }
    for (size_t bi = 0; bi < s.pend.size(); ++bi) {
      s.pend[bi].done = s.pend[bi].size - untaken[bi];
      s.pending_rows += untaken[bi];
    }
  };
  read();
  if (!r->ok()) {
    DestroyAccumulators(s);
    return r->status();
  }
  ResetDeltaBase(s);
  DestroyAccumulators(*state_);
  state_ = std::move(fresh);
  metrics_.peak_state_bytes = peak_state_bytes;
  metrics_.state_rows_at_peak = state_rows_at_peak;
  return Status::OK();
}

}  // namespace sluice
