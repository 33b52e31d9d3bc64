#include "state/key_index.h"

#include <algorithm>
#include <cstring>

#include "common/release_copy.h"
#include "state/state_serde.h"

// Header-only: the state library does not link libxxhash.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sluice {

namespace {
// Key bytes go into blocks that double from kFirstBlockBytes up to kMaxBlockBytes, so an index of a
// few keys (one per window, say) stays small and a large one allocates rarely.
constexpr size_t kFirstBlockBytes = 4096;
constexpr size_t kMaxBlockBytes = 1 << 20;

// Room for one more id in the id -> key table: a large table doubles without holding both copies
// (common/release_copy.h; the keyed operators' own per-id arrays double at the same id).
template <typename V>
void GrowForOne(V* v) {
  if (v->size() == v->capacity()) GrowReleasingSource(v, v->size() + 1);
}
}  // namespace

KeyIndex::KeyIndex()
    : keys_(std::make_unique<Keys>()), map_(0, SlotHash(), SlotEq{keys_.get()}) {}
KeyIndex::~KeyIndex() = default;
// A moved-from index is empty and usable: the two swap everything, and each table keeps the id -> key
// table its comparator points at.
KeyIndex::KeyIndex(KeyIndex&& other) noexcept : KeyIndex() { Swap(other); }
KeyIndex& KeyIndex::operator=(KeyIndex&& other) noexcept {
  if (this != &other) {
    KeyIndex old(std::move(*this));
    Swap(other);
  }
  return *this;
}

void KeyIndex::Swap(KeyIndex& other) noexcept {
  std::swap(keys_, other.keys_);
  map_.swap(other.map_);
  std::swap(blocks_, other.blocks_);
  std::swap(block_used_, other.block_used_);
  std::swap(block_size_, other.block_size_);
  std::swap(bytes_, other.bytes_);
  std::swap(reserved_, other.reserved_);
}

const char* KeyIndex::Store(std::string_view key) {
  uint8_t len[10];
  size_t len_bytes = 0;
  for (size_t v = key.size();; v >>= 7) {
    len[len_bytes++] = static_cast<uint8_t>(v < 0x80 ? v : (v & 0x7F) | 0x80);
    if (v < 0x80) break;
  }
  const size_t need = len_bytes + key.size();
  if (blocks_.empty() || block_used_ + need > block_size_) {
    const size_t next = blocks_.empty() ? kFirstBlockBytes : std::min(kMaxBlockBytes, 2 * block_size_);
    block_size_ = std::max(next, need);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block_size_));
    reserved_ += block_size_;
    block_used_ = 0;
  }
  char* p = blocks_.back().get() + block_used_;
  std::memcpy(p, len, len_bytes);
  if (!key.empty()) std::memcpy(p + len_bytes, key.data(), key.size());
  block_used_ += need;
  bytes_ += need;
  return p;
}

KeyIndex::Probe KeyIndex::MakeProbe(std::string_view key) {
  return Probe{key, static_cast<uint32_t>(XXH3_64bits(key.data(), key.size()))};
}

uint32_t KeyIndex::Insert(std::string_view key, bool* inserted) {
  // One hash and probe: the key bytes are copied into the blocks only when the key is new.
  bool added = false;
  const Probe probe = MakeProbe(key);
  auto it = map_.lazy_emplace(probe, [&](const auto& construct) {
    const uint32_t id = static_cast<uint32_t>(keys_->size());
    GrowForOne(keys_.get());
    keys_->push_back(Store(key));
    construct(Slot{id, probe.hash});
    added = true;
  });
  if (inserted) *inserted = added;
  return it->id;
}

void KeyIndex::InsertMany(const std::string* keys, size_t n, uint32_t* ids) {
  constexpr size_t kBatch = 32;
  Probe probes[kBatch];
  for (size_t begin = 0; begin < n; begin += kBatch) {
    const size_t m = std::min(kBatch, n - begin);
    for (size_t i = 0; i < m; ++i) {
      probes[i] = MakeProbe(keys[begin + i]);
      map_.prefetch(probes[i]);
    }
    for (size_t i = 0; i < m; ++i) {
      const Probe& probe = probes[i];
      auto it = map_.lazy_emplace(probe, [&](const auto& construct) {
        const uint32_t id = static_cast<uint32_t>(keys_->size());
        GrowForOne(keys_.get());
        keys_->push_back(Store(probe.key));
        construct(Slot{id, probe.hash});
      });
      ids[begin + i] = it->id;
    }
  }
}

uint32_t KeyIndex::Find(std::string_view key) const {
  auto it = map_.find(MakeProbe(key));
  return it == map_.end() ? kNotFound : it->id;
}

void KeyIndex::Clear() { *this = KeyIndex(); }

size_t KeyIndex::MemoryUsage() const {
  return reserved_ + map_.capacity() * (sizeof(Slot) + 1) + keys_->capacity() * sizeof(const char*);
}

void KeyIndex::SnapshotSince(size_t first_id, StateWriter* w) const {
  w->PutTag("keys");
  w->PutVarint(first_id);
  const Keys& keys = *keys_;
  const size_t n = keys.size() > first_id ? keys.size() - first_id : 0;
  w->PutVarint(n);
  size_t total = 0;
  for (size_t i = first_id; i < keys.size(); ++i) total += Stored(keys[i]).size();
  w->Reserve(total + n * 2);
  for (size_t i = first_id; i < keys.size(); ++i) w->PutString(Stored(keys[i]));
}

void KeyIndex::Restore(StateReader* r) {
  Clear();
  RestoreAppend(r);
}

void KeyIndex::RestoreAppend(StateReader* r) {
  r->ExpectTag("keys");
  const size_t first = r->GetCount(0);
  if (r->ok() && first != keys_->size()) {
    r->Fail("key index delta starts at key " + std::to_string(first) + " but " + std::to_string(keys_->size()) +
            " keys were restored");
  }
  const size_t n = r->GetCount(1);
  if (!r->ok()) return;
  // Grown geometrically: a chain of many deltas must not reallocate the index once per delta.
  if (keys_->size() + n > keys_->capacity()) {
    const size_t want = std::max(keys_->size() + n, keys_->capacity() * 2);
    map_.reserve(want);
    keys_->reserve(want);
  }
  for (size_t i = 0; i < n && r->ok(); ++i) {
    std::string_view k = r->GetStringView();
    if (!r->ok()) break;
    bool inserted = false;
    Insert(k, &inserted);
    if (!inserted) r->Fail("duplicate key in the key index");
  }
}

}  // namespace sluice
