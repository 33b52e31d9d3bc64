// KeyIndex: the shared key index of keyed state. Maps an encoded key (state/key_encoder.h bytes) to a
// dense id 0, 1, 2, ... in insertion order, so an operator keeps its per-key state in flat vectors
// indexed by id (value state: one slot per key; map/list state: a head per key into the operator's
// own entries) and never boxes a key twice.
//
// Layout: the hash table holds only {id, 32-bit hash} slots (8 bytes; a key's bytes are compared
// through key(id)), and the id -> key table holds one pointer per key to its bytes, stored after their
// length (a varint) in the blocks. A key costs its bytes plus one or two, 8 bytes in the id -> key
// table and 9 bytes of table slot and control byte at the table's load factor: about 50 bytes less
// than a table of {string_view, id} pairs next to an id -> string_view table, which matters where keys
// are nearly as many as rows (a join on a price, a deduplication per (bidder, auction)). Growing the
// table rehashes from the stored hashes, without touching the keys.
//
// Invariants: ids are never reused or removed (a key whose state expired keeps its id and an empty
// slot, as the operators' per-key vectors do); key bytes live in fixed blocks that never move, so
// key(id) stays valid while the index lives.
//
// Checkpoints: Snapshot writes every key; SnapshotSince(n) writes only the keys with id >= n (the
// keys added since a snapshot taken at size n: an incremental checkpoint's delta), and RestoreAppend
// adds them back after the keys already restored. Both refuse (through the reader) a delta that does
// not continue the restored index, or a duplicate key.
//
// Threading: owned by one operator on one task thread.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_set.h>

namespace sluice {

class StateWriter;
class StateReader;

class KeyIndex {
 public:
  static constexpr uint32_t kNotFound = std::numeric_limits<uint32_t>::max();

  KeyIndex();
  ~KeyIndex();
  KeyIndex(KeyIndex&&) noexcept;
  KeyIndex& operator=(KeyIndex&&) noexcept;

  // The id of `key`, adding it when new (*inserted tells which).
  uint32_t Insert(std::string_view key, bool* inserted = nullptr);
  // Insert for keys[0..n) (ids[i] is keys[i]'s id). The keys are hashed and their table slots
  // prefetched a batch ahead, so the probes' cache misses overlap instead of coming one by one.
  void InsertMany(const std::string* keys, size_t n, uint32_t* ids);
  // The id of `key`, or kNotFound.
  uint32_t Find(std::string_view key) const;
  std::string_view key(uint32_t id) const { return Stored((*keys_)[id]); }
  size_t size() const { return keys_->size(); }
  void Clear();

  // Approximate bytes held (key bytes, the hash table and the id -> key table).
  size_t MemoryUsage() const;

  void Snapshot(StateWriter* w) const { SnapshotSince(0, w); }
  void SnapshotSince(size_t first_id, StateWriter* w) const;
  // Replaces the index with what Snapshot wrote.
  void Restore(StateReader* r);
  // Adds the keys SnapshotSince wrote; its first id must equal size().
  void RestoreAppend(StateReader* r);

 private:
  // Copies the key (after its length) into the blocks; returns where its length starts.
  const char* Store(std::string_view key);
  void Swap(KeyIndex& other) noexcept;

  // A table slot: the key's id and the low 32 bits of its hash.
  struct Slot {
    uint32_t id;
    uint32_t hash;
  };
  // A lookup: the key's bytes and hash.
  struct Probe {
    std::string_view key;
    uint32_t hash;
  };
  // Per id, the stored key: its length as a varint, then its bytes.
  using Keys = std::vector<const char*>;
  static std::string_view Stored(const char* p) {
    size_t len = static_cast<uint8_t>(*p++);
    if (len >= 0x80) {
      len &= 0x7F;
      for (int shift = 7;; shift += 7) {
        const uint8_t b = static_cast<uint8_t>(*p++);
        len |= static_cast<size_t>(b & 0x7F) << shift;
        if (b < 0x80) break;
      }
    }
    return std::string_view(p, len);
  }
  // Spreads the 32-bit hash over 64 bits (the table takes its position from the high bits).
  static size_t Spread(uint32_t h) { return static_cast<size_t>(h) * 0x9E3779B97F4A7C15ull; }
  struct SlotHash {
    using is_transparent = void;
    size_t operator()(const Slot& s) const { return Spread(s.hash); }
    size_t operator()(const Probe& p) const { return Spread(p.hash); }
  };
  struct SlotEq {
    using is_transparent = void;
    const Keys* keys = nullptr;
    bool operator()(const Slot& a, const Slot& b) const { return a.id == b.id; }
    bool operator()(const Probe& p, const Slot& s) const { return p.hash == s.hash && Stored((*keys)[s.id]) == p.key; }
    bool operator()(const Slot& s, const Probe& p) const { return (*this)(p, s); }
  };
  static Probe MakeProbe(std::string_view key);

  // The id -> key table lives on the heap so the table's comparator may point at it across moves.
  std::unique_ptr<Keys> keys_;
  absl::flat_hash_set<Slot, SlotHash, SlotEq> map_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  size_t bytes_ = 0;
  size_t reserved_ = 0;  // bytes of all blocks
};

}  // namespace sluice
