#include "runtime/operators/accumulators.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>
#include <absl/functional/function_ref.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "state/key_encoder.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

namespace {
size_t AlignUp(size_t n, size_t align) { return (n + align - 1) / align * align; }
}  // namespace

namespace {

// An encoded tuple of up to 15 bytes (a number, a date, a short string) kept inline in the index: its
// bytes, zero padded, then its length.
struct ShortTuple {
  static constexpr size_t kMax = 15;
  char bytes[kMax + 1] = {};
  explicit ShortTuple(std::string_view t) {
    std::memcpy(bytes, t.data(), t.size());
    bytes[kMax] = static_cast<char>(t.size());
  }
  std::string_view view() const { return {bytes, static_cast<size_t>(bytes[kMax])}; }
  bool operator==(const ShortTuple& o) const { return std::memcmp(bytes, o.bytes, sizeof bytes) == 0; }
  // Its two words (the padding is zero): cheaper than hashing the bytes as a string.
  template <typename H>
  friend H AbslHashValue(H h, const ShortTuple& t) {
    uint64_t w[2];
    std::memcpy(w, t.bytes, sizeof w);
    return H::combine(std::move(h), w[0], w[1]);
  }
};

}  // namespace

// The counts of one set of DISTINCT calls in one group: each argument tuple seen (and not yet retracted
// by every call of the set) has `width` counts, one per call, or over an insert-only input a bit mask of
// the calls that have seen it. Tuples of up to 15 encoded bytes are indexed inline, longer ones as
// strings; with masks, tuples of one 8-byte value in a WordSet.
struct AccumulatorLayout::DistinctCounts {
  virtual ~DistinctCounts() = default;
  // For a set of `width` calls; `masks`: a set of masks (width <= kMaxMaskCalls).
  static DistinctCounts* Make(size_t width, bool masks);
  // Sets of counts: the counts of `tuple`, made (all 0) when the tuple is new and `make`; null when
  // absent. Valid until the next Find or DropIfEmpty.
  virtual int64_t* Find(const std::string& tuple, bool make) = 0;
  // Drops `tuple` (whose counts are `c`) when no call counts it any more.
  virtual void DropIfEmpty(const std::string& tuple, const int64_t* c) = 0;
  // Sets of masks: the bytes of `tuple`'s mask (call m: bit m % 8 of byte m / 8), made when absent.
  // Valid until the next FindMask.
  virtual uint8_t* FindMask(const std::string& tuple) = 0;
  virtual size_t HeapBytes() const = 0;
  // Calls `f(tuple bytes, count)` for every tuple call `member` of the set counts (a mask counts 1).
  virtual void ForEach(size_t member, absl::FunctionRef<void(std::string_view, int64_t)> f) const = 0;
  // A cache hint: the index slot `tuple` would be found in.
  virtual void Prefetch(const std::string& tuple) const = 0;
};

namespace {

using DistinctCountsBase = AccumulatorLayout::DistinctCounts;

bool AllZero(const int64_t* c, size_t width) {
  for (size_t i = 0; i < width; ++i) {
    if (c[i] != 0) return false;
  }
  return true;
}

// The sets of counts: FindMask is not theirs.
struct CountsBase : DistinctCountsBase {
  uint8_t* FindMask(const std::string&) override { SLUICE_UNREACHABLE(); }
};

// Sets of up to four calls (most: one COUNT(DISTINCT x), or the same column under a few FILTERs) keep
// the counts in the index slot with the tuple: one cache miss less per lookup than a separate row.
template <size_t W>
struct InlineCounts final : CountsBase {
  struct Counts {
    int64_t c[W] = {};
  };
  absl::flat_hash_map<ShortTuple, Counts> short_rows;  // tuple (key-encoded) -> counts
  absl::flat_hash_map<std::string, Counts> long_rows;

  int64_t* Find(const std::string& tuple, bool make) override {
    if (tuple.size() <= ShortTuple::kMax) return Find(short_rows, ShortTuple(tuple), make);
    return Find(long_rows, tuple, make);
  }
  template <typename Map, typename Key>
  static int64_t* Find(Map& map, const Key& key, bool make) {
    if (!make) {
      auto it = map.find(key);
      return it == map.end() ? nullptr : it->second.c;
    }
    return map.try_emplace(key).first->second.c;
  }
  void DropIfEmpty(const std::string& tuple, const int64_t* c) override {
    if (!AllZero(c, W)) return;
    if (tuple.size() <= ShortTuple::kMax) {
      short_rows.erase(ShortTuple(tuple));
    } else {
      long_rows.erase(tuple);
    }
  }
  size_t HeapBytes() const override {
    // An index slot is its key, its counts and a control byte.
    return sizeof(*this) + short_rows.capacity() * (sizeof(ShortTuple) + sizeof(Counts) + 1) +
           long_rows.capacity() * (sizeof(std::string) + sizeof(Counts) + 1);
  }
  void Prefetch(const std::string& tuple) const override {
    if (tuple.size() <= ShortTuple::kMax) short_rows.prefetch(ShortTuple(tuple));
  }
  void ForEach(size_t m, absl::FunctionRef<void(std::string_view, int64_t)> f) const override {
    for (const auto& [t, c] : short_rows) {
      if (c.c[m] != 0) f(t.view(), c.c[m]);
    }
    for (const auto& [t, c] : long_rows) {
      if (c.c[m] != 0) f(std::string_view(t), c.c[m]);
    }
  }
};

// Wider sets: each tuple has a row of `width` counts in `counts`; rows of tuples retracted by all
// calls are reused.
struct RowCounts final : CountsBase {
  explicit RowCounts(size_t w) : width(w) {}
  size_t width;
  absl::flat_hash_map<ShortTuple, uint32_t> short_rows;  // tuple (key-encoded) -> row
  absl::flat_hash_map<std::string, uint32_t> long_rows;
  std::vector<int64_t> counts;
  std::vector<uint32_t> free_rows;

  int64_t* row(uint32_t r) { return counts.data() + static_cast<size_t>(r) * width; }
  const int64_t* row(uint32_t r) const { return counts.data() + static_cast<size_t>(r) * width; }
  template <typename Map, typename Key>
  static uint32_t* FindRow(Map& map, const Key& key, bool make, bool* made) {
    if (!make) {
      auto it = map.find(key);
      return it == map.end() ? nullptr : &it->second;
    }
    auto [it, inserted] = map.try_emplace(key, 0);
    *made = inserted;
    return &it->second;
  }
  int64_t* Find(const std::string& tuple, bool make) override {
    bool made = false;
    uint32_t* r = tuple.size() <= ShortTuple::kMax ? FindRow(short_rows, ShortTuple(tuple), make, &made)
                                                   : FindRow(long_rows, tuple, make, &made);
    if (r == nullptr) return nullptr;
    if (made) {
      if (!free_rows.empty()) {
        *r = free_rows.back();
        free_rows.pop_back();
      } else {
        *r = static_cast<uint32_t>(counts.size() / width);
        counts.resize(counts.size() + width, 0);
      }
    }
    return row(*r);
  }
  void DropIfEmpty(const std::string& tuple, const int64_t* c) override {
    if (!AllZero(c, width)) return;
    if (tuple.size() <= ShortTuple::kMax) {
      auto it = short_rows.find(ShortTuple(tuple));
      free_rows.push_back(it->second);
      short_rows.erase(it);
    } else {
      auto it = long_rows.find(tuple);
      free_rows.push_back(it->second);
      long_rows.erase(it);
    }
  }
  size_t HeapBytes() const override {
    // An index slot is its key, its row number and a control byte.
    return sizeof(*this) + short_rows.capacity() * (sizeof(ShortTuple) + sizeof(uint32_t) + 1) +
           long_rows.capacity() * (sizeof(std::string) + sizeof(uint32_t) + 1) + counts.capacity() * sizeof(int64_t) +
           free_rows.capacity() * sizeof(uint32_t);
  }
  void Prefetch(const std::string& tuple) const override {
    if (tuple.size() <= ShortTuple::kMax) short_rows.prefetch(ShortTuple(tuple));
  }
  void ForEach(size_t m, absl::FunctionRef<void(std::string_view, int64_t)> f) const override {
    for (const auto& [t, r] : short_rows) {
      if (row(r)[m] != 0) f(t.view(), row(r)[m]);
    }
    for (const auto& [t, r] : long_rows) {
      if (row(r)[m] != 0) f(std::string_view(t), row(r)[m]);
    }
  }
};

// The tuples of one 8-byte value (key-encoded: byte 1, then the value's 8 bytes) of a set of masks:
// open addressing with linear probing over slots of the value's bytes and then the mask, whose top bit
// marks a used slot (the set's calls take the bits below it). While every value fits in 32 bits (ids,
// small numbers) a slot keeps only those 4 bytes (q16: 5-byte slots); the first value that does not
// widens all slots to 8 bytes. At most 7/8 full; capacity a power of 2. (q16 at 10M events: 11M
// tuples, peak 259 MiB with 9-byte slots at most 3/4 full, 165 MiB with 5-byte ones, 139 MiB at 7/8.)
template <typename Mask>
class WordSet {
 public:
  static constexpr Mask kUsed = static_cast<Mask>(Mask{1} << (8 * sizeof(Mask) - 1));

  WordSet() = default;
  WordSet(const WordSet&) = delete;
  WordSet& operator=(const WordSet&) = delete;
  ~WordSet() { std::free(slots_); }

  // The bytes of `key`'s mask, made (only kUsed) when absent. Valid until the next Find.
  uint8_t* Find(uint64_t key) {
    const bool widen = !wide_ && key > UINT32_MAX;
    if (size_ >= max_ || widen) Rebuild(size_ >= max_ ? (cap_ == 0 ? 4 : 2 * cap_) : cap_, wide_ || widen);
    return wide_ ? Insert<8>(key) : Insert<4>(key);
  }
  void Prefetch(uint64_t key) const {
    if (cap_ != 0) __builtin_prefetch(slots_ + Home(key) * (wide_ ? Slot<8>() : Slot<4>()));
  }
  size_t HeapBytes() const { return cap_ * (wide_ ? Slot<8>() : Slot<4>()); }
  template <typename F>
  void ForEach(F&& f) const {
    if (wide_) {
      ForEachIn<8>(f);
    } else {
      ForEachIn<4>(f);
    }
  }

 private:
  template <size_t K>
  static constexpr size_t Slot() { return K + sizeof(Mask); }
  template <size_t K>
  static Mask MaskAt(const uint8_t* s) {
    Mask m;
    std::memcpy(&m, s + K, sizeof m);
    return m;
  }
  template <size_t K>
  static uint64_t KeyAt(const uint8_t* s) {
    if constexpr (K == 4) {
      uint32_t k;
      std::memcpy(&k, s, sizeof k);
      return k;
    } else {
      uint64_t k;
      std::memcpy(&k, s, sizeof k);
      return k;
    }
  }
  // Consecutive keys (ids) land in distinct slots; the high half mixes in.
  size_t Home(uint64_t key) const {
    key ^= key >> 32;
    key *= 0xd6e8feb86659fd93ULL;
    key ^= key >> 32;
    return static_cast<size_t>(key) & (cap_ - 1);
  }
  template <size_t K>
  uint8_t* Insert(uint64_t key) {
    for (size_t i = Home(key);; i = (i + 1) & (cap_ - 1)) {
      uint8_t* s = slots_ + i * Slot<K>();
      if (MaskAt<K>(s) == 0) {
        std::memcpy(s, &key, K);  // little-endian: the low K bytes
        const Mask used = kUsed;
        std::memcpy(s + K, &used, sizeof used);
        ++size_;
        return s + K;
      }
      if (KeyAt<K>(s) == key) return s + K;
    }
  }
  template <size_t K, typename F>
  void ForEachIn(F& f) const {
    for (size_t i = 0; i < cap_; ++i) {
      const uint8_t* s = slots_ + i * Slot<K>();
      if (MaskAt<K>(s) != 0) f(KeyAt<K>(s), MaskAt<K>(s));
    }
  }
  void Rebuild(size_t cap, bool wide) {
    uint8_t* old = slots_;
    const size_t old_cap = cap_;
    const bool old_wide = wide_;
    cap_ = cap;
    wide_ = wide;
    max_ = cap_ - cap_ / 8;
    size_ = 0;
    slots_ = static_cast<uint8_t*>(std::calloc(cap_, wide_ ? Slot<8>() : Slot<4>()));
    SLUICE_CHECK(slots_ != nullptr);
    auto move = [this](uint64_t key, Mask mask) {
      uint8_t* m = wide_ ? Insert<8>(key) : Insert<4>(key);
      std::memcpy(m, &mask, sizeof mask);
    };
    for (size_t j = 0; j < old_cap; ++j) {
      if (old_wide) {
        const uint8_t* s = old + j * Slot<8>();
        if (MaskAt<8>(s) != 0) move(KeyAt<8>(s), MaskAt<8>(s));
      } else {
        const uint8_t* s = old + j * Slot<4>();
        if (MaskAt<4>(s) != 0) move(KeyAt<4>(s), MaskAt<4>(s));
      }
    }
    std::free(old);
  }

  uint8_t* slots_ = nullptr;
  size_t cap_ = 0;
  size_t max_ = 0;
  size_t size_ = 0;
  bool wide_ = false;  // 8-byte keys
};

// A set of masks (insert-only input): per tuple, the calls that have seen it. Tuples of one 8-byte
// value in a WordSet, others in maps as the sets of counts.
template <typename Mask>
struct MaskCounts final : DistinctCountsBase {
  WordSet<Mask> words;
  absl::flat_hash_map<ShortTuple, Mask> short_rows;
  absl::flat_hash_map<std::string, Mask> long_rows;

  static bool IsWord(const std::string& t) { return t.size() == 1 + sizeof(uint64_t) && t[0] == '\1'; }
  static uint64_t Word(const std::string& t) {
    uint64_t w;
    std::memcpy(&w, t.data() + 1, sizeof w);
    return w;
  }
  static bool Has(Mask mask, size_t m) { return (mask >> m) & 1; }

  int64_t* Find(const std::string&, bool) override { SLUICE_UNREACHABLE(); }
  void DropIfEmpty(const std::string&, const int64_t*) override { SLUICE_UNREACHABLE(); }
  uint8_t* FindMask(const std::string& tuple) override {
    if (IsWord(tuple)) return words.Find(Word(tuple));
    Mask* m = tuple.size() <= ShortTuple::kMax ? &short_rows[ShortTuple(tuple)] : &long_rows[tuple];
    return reinterpret_cast<uint8_t*>(m);
  }
  size_t HeapBytes() const override {
    return sizeof(*this) + words.HeapBytes() + short_rows.capacity() * (sizeof(ShortTuple) + sizeof(Mask) + 1) +
           long_rows.capacity() * (sizeof(std::string) + sizeof(Mask) + 1);
  }
  void Prefetch(const std::string& tuple) const override {
    if (IsWord(tuple)) {
      words.Prefetch(Word(tuple));
    } else if (tuple.size() <= ShortTuple::kMax) {
      short_rows.prefetch(ShortTuple(tuple));
    }
  }
  void ForEach(size_t m, absl::FunctionRef<void(std::string_view, int64_t)> f) const override {
    words.ForEach([&](uint64_t key, Mask mask) {
      if (!Has(mask, m)) return;
      char t[1 + sizeof key] = {'\1'};
      std::memcpy(t + 1, &key, sizeof key);
      f(std::string_view(t, sizeof t), 1);
    });
    for (const auto& [t, mask] : short_rows) {
      if (Has(mask, m)) f(t.view(), 1);
    }
    for (const auto& [t, mask] : long_rows) {
      if (Has(mask, m)) f(std::string_view(t), 1);
    }
  }
};

}  // namespace

AccumulatorLayout::DistinctCounts* AccumulatorLayout::DistinctCounts::Make(size_t width, bool masks) {
  if (masks) {
    // The mask's top bit marks a used WordSet slot.
    if (width < 8) return new MaskCounts<uint8_t>();
    if (width < 16) return new MaskCounts<uint16_t>();
    if (width < 32) return new MaskCounts<uint32_t>();
    return new MaskCounts<uint64_t>();
  }
  switch (width) {
    case 1: return new InlineCounts<1>();
    case 2: return new InlineCounts<2>();
    case 3: return new InlineCounts<3>();
    case 4: return new InlineCounts<4>();
    default: return new RowCounts(width);
  }
}

namespace {

// A call whose state may be shared (AccumulatorLayout's share_states): a tagged plain-bytes state.
bool Shareable(const AccumulatorCall& c) {
  const AggregateFunction& f = *c.function;
  return f.state_tag != nullptr && !c.distinct && !f.serialize && !f.heap_bytes && !f.check;
}

bool SameState(const AccumulatorCall& x, const AccumulatorCall& y) {
  const AggregateFunction& f = *x.function;
  const AggregateFunction& g = *y.function;
  return f.state_tag == g.state_tag && f.state_size == g.state_size && f.state_align == g.state_align &&
         f.supports_retract == g.supports_retract && x.args == y.args && x.filter == y.filter;
}

// COUNT(*) without FILTER: its state is the block's row count.
bool IsRowCount(const AccumulatorCall& c) {
  const AggregateFunction& f = *c.function;
  return Shareable(c) && f.state_tag == RowCountStateTag() && f.state_size == sizeof(int64_t) && c.filter < 0 &&
         f.supports_retract;
}

}  // namespace

AccumulatorLayout::AccumulatorLayout(std::vector<AccumulatorCall> calls, bool insert_only, bool share_states)
    : calls_(std::move(calls)), insert_only_(insert_only) {
  shared_.assign(calls_.size(), 0);
  std::vector<size_t> row_counts;  // calls whose state is the row count (offset set below)
  for (size_t a = 0; a < calls_.size(); ++a) {
    const AccumulatorCall& c = calls_[a];
    if (share_states && IsRowCount(c)) {
      shared_[a] = 1;
      offsets_.push_back(0);
      row_counts.push_back(a);
      continue;
    }
    if (share_states && Shareable(c)) {
      size_t owner = 0;
      while (owner < a && (shared_[owner] || !Shareable(calls_[owner]) || !SameState(calls_[owner], c))) ++owner;
      if (owner < a) {
        shared_[a] = 1;
        offsets_.push_back(offsets_[owner]);
        continue;
      }
    }
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
  for (DistinctSet& s : distinct_sets_) s.masks = insert_only_ && s.calls.size() <= kMaxMaskCalls;
  count_offset_ = AlignUp(end, alignof(int64_t));
  for (size_t a : row_counts) offsets_[a] = count_offset_;
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
    if (const DistinctCounts* d = distinct(block, set)) bytes += d->HeapBytes();
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

void* AccumulatorLayout::FindDistinct(uint8_t* block, size_t set, const std::string& tuple, bool retract) const {
  DistinctCounts** slot = distinct_slot(block, set);
  const DistinctSet& s = distinct_sets_[set];
  if (*slot == nullptr) {
    if (retract) return nullptr;
    *slot = DistinctCounts::Make(s.calls.size(), s.masks);
  }
  if (s.masks) return (*slot)->FindMask(tuple);
  return (*slot)->Find(tuple, !retract);
}

void AccumulatorLayout::PrefetchCounts(const uint8_t* block) const {
  for (size_t set = 0; set < distinct_sets_.size(); ++set) {
    if (const DistinctCounts* d = distinct(block, set)) __builtin_prefetch(d);
  }
}

void AccumulatorLayout::PrefetchTuples(const uint8_t* block, const Chunk& chunk, size_t row) const {
  std::string tuple;
  for (size_t set = 0; set < distinct_sets_.size(); ++set) {
    const DistinctCounts* d = distinct(block, set);
    if (d == nullptr) continue;
    tuple.clear();
    for (int c : calls_[distinct_sets_[set].calls[0]].args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &tuple);
    d->Prefetch(tuple);
  }
}

void AccumulatorLayout::Update(uint8_t* block, const Chunk& chunk, size_t row, bool retract) const {
  const Vector* args[8];
  std::string tuple;  // the row's arguments, key-encoded, for the set `tuple_set`
  size_t tuple_set = kNotDistinct;
  // Per set of DISTINCT calls: the row's tuple's counts (or mask), looked up once (by the set's first
  // call that sees the row); kUnseen until then, null when a retraction finds no tuple.
  void* const kUnseen = reinterpret_cast<void*>(alignof(int64_t));
  absl::InlinedVector<void*, 4> set_counts(distinct_sets_.size(), kUnseen);
  bool dropped = false;  // a retraction took a call's count of its tuple to 0
  for (size_t a = 0; a < calls_.size(); ++a) {
    // A shared state is updated by the call that owns it (or is the row count, updated below).
    if (shared_[a]) continue;
    const AccumulatorCall& call = calls_[a];
    // A call without retraction over an updating input ignores the retractions, as Flink's generated
    // aggregate handler does for calls it found need none (a split's final MAX over a growing partial MAX).
    if (retract && !call.function->supports_retract) continue;
    if (call.filter >= 0) {
      const Vector& f = chunk.column(static_cast<size_t>(call.filter));
      if (f.IsNull(row) || f.data<uint8_t>()[row] == 0) continue;
    }
    if (call.distinct) {
      const size_t set = distinct_set_[a];
      if (set_counts[set] == kUnseen) {
        if (tuple_set != set) {
          tuple.clear();
          for (int c : call.args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &tuple);
          tuple_set = set;
        }
        set_counts[set] = FindDistinct(block, set, tuple, retract);
      }
      // The call passes a value to its function on the tuple's first accumulate or last retract only.
      if (set_counts[set] == nullptr) continue;
      const size_t m = distinct_member_[a];
      if (distinct_sets_[set].masks) {
        // Insert-only: the call's bit says whether it has seen the tuple.
        SLUICE_CHECK(!retract);
        uint8_t& byte = static_cast<uint8_t*>(set_counts[set])[m / 8];
        const uint8_t bit = static_cast<uint8_t>(1u << (m % 8));
        if ((byte & bit) != 0) continue;
        byte |= bit;
      } else {
        int64_t& n = static_cast<int64_t*>(set_counts[set])[m];
        if (!retract) {
          if (++n != 1) continue;
        } else {
          if (n == 0 || --n > 0) continue;  // n == 0: a retraction this call never counted
          dropped = true;
        }
      }
    }
    const size_t n = std::min<size_t>(call.args.size(), 8);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(call.args[i]));
    call.function->update(block + offsets_[a], args, row, retract);
  }
  // Tuples no call counts any more are dropped (after every call: the calls of a set share the row).
  for (size_t set = 0; dropped && set < distinct_sets_.size(); ++set) {
    if (set_counts[set] == kUnseen || set_counts[set] == nullptr) continue;
    tuple.clear();
    for (int c : calls_[distinct_sets_[set].calls[0]].args) {
      EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &tuple);
    }
    distinct(block, set)->DropIfEmpty(tuple, static_cast<const int64_t*>(set_counts[set]));
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
    if (v.MayHaveNulls()) v.SetNull(row, false);
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
  std::vector<std::pair<std::string, int64_t>> counted;  // (a set of masks' tuples are made by ForEach)
  if (d != nullptr) {
    d->ForEach(distinct_member_[a], [&](std::string_view tuple, int64_t n) { counted.emplace_back(tuple, n); });
  }
  std::sort(counted.begin(), counted.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  w->PutVarint(counted.size());
  for (const auto& [tuple, n] : counted) {
    w->PutString(tuple);
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
  const DistinctSet& s = distinct_sets_[set];
  DistinctCounts** slot = distinct_slot(block, set);
  if (*slot == nullptr) *slot = DistinctCounts::Make(s.calls.size(), s.masks);
  const size_t m = distinct_member_[a];
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const std::string tuple = r->GetString();
    const int64_t count = r->GetI64();
    if (count == 0) continue;
    if (s.masks) {
      // A set of masks only says whether the call has seen the tuple (a count written by a set of counts
      // over the same insert-only input is its number of rows).
      (*slot)->FindMask(tuple)[m / 8] |= static_cast<uint8_t>(1u << (m % 8));
    } else {
      (*slot)->Find(tuple, true)[m] = count;
    }
  }
}

}  // namespace sluice
