// JoinOperator::Side (join_operator.h), the stored rows of one input of the join, shared by
// join_operator.cc (processing) and join_operator_side.cc (indexing, compaction, checkpoints). Private
// to the operator.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/release_copy.h"
#include "runtime/operators/join_operator.h"
#include "state/delta.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_serde.h"

namespace sluice {
namespace join_operator_internal {

constexpr uint32_t kNoRow = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kNoEntry = std::numeric_limits<uint32_t>::max();
// Candidate pairs collected (and residual-filtered) per slice of the input chunk; a single input row
// with more candidates still forms one slice.
constexpr size_t kMaxSlicePairs = 16384;
// Candidate pairs per residual evaluation batch.
constexpr size_t kResidualBatch = 2048;
// An arena is rebuilt when at least this many rows were stored and more than half are released.
constexpr size_t kCompactMinRows = 4096;

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

}  // namespace join_operator_internal

// The stored rows of one input. Entries form one doubly linked list per join key (group) in arrival
// order; identical rows (or, with a unique key, rows of one unique key) share an entry once the side
// is indexed. The identity index is built lazily, when the first non-insert message arrives, so an
// append-only input never pays for it; before that every stored row has its own entry, which visits
// the same rows in the same order.
//
// Checkpoints: group ids come from a KeyIndex and groups / entries (and the entries' optional
// association counts and write times) are flat vectors, so a delta is the new key bytes, the dirty
// and new slots of these vectors (one DeltaTracker per id space), the arena's new rows,
// and the changed ends of the free list (a stack: the lowest size it had since the base, then its
// pushed tail) and of the expiry queue (pops since the base, then its pushed tail). The identity
// index is not state: it is exactly {identity(row of e) -> e} over the live entries of an indexed
// side, so it is rebuilt from them after a restore instead of being written.
struct JoinOperator::Side {
  // An entry of an append-only side is its row and next link only (8 bytes per stored row): its count
  // is 1 while live (row != kNoRow), and its predecessor, needed only to unlink it, is found from its
  // group's head (an append-only side unlinks at the head: TTL and event-time bounds drop in arrival
  // order). An indexed or outer side also keeps `links` (prev and count; Linked()).
  struct Entry {
    uint32_t row = join_operator_internal::kNoRow;  // id in `arena` (kNoRow once freed)
    uint32_t next = join_operator_internal::kNoEntry;
  };
  static_assert(sizeof(Entry) == 8, "Entry is written raw into checkpoints and must have no padding");
  struct Links {
    uint32_t prev = join_operator_internal::kNoEntry;
    int32_t count = 0;  // 0 = free
  };
  static_assert(sizeof(Links) == 8, "Links is written raw into checkpoints and must have no padding");
  struct Group {
    uint32_t head = join_operator_internal::kNoEntry;
    uint32_t tail = join_operator_internal::kNoEntry;
  };
  struct Expiry {
    int64_t time;
    uint32_t entry;
  };

  Side(const std::vector<LogicalType>& t, std::vector<int> k, const std::vector<int>& unique_key, bool is_outer)
      : types(t), keys(std::move(k)), has_unique_key(!unique_key.empty()), outer(is_outer), arena(t) {
    if (has_unique_key) {
      identity_columns = keys;
      identity_columns.insert(identity_columns.end(), unique_key.begin(), unique_key.end());
    } else {
      for (size_t c = 0; c < types.size(); ++c) identity_columns.push_back(static_cast<int>(c));
    }
  }

  // The group of an encoded join key, created (empty) when new.
  uint32_t GroupOf(std::string_view key) {
    bool inserted = false;
    const uint32_t g = group_keys.Insert(key, &inserted);
    if (inserted) groups.emplace_back();
    return g;
  }

  uint32_t NewEntry(uint32_t row, int64_t assoc) {
    uint32_t e;
    if (!free_entries.empty() && bound_column < 0) {
      e = free_entries.back();
      free_entries.pop_back();
      if (free_entries.size() < free_low) free_low = free_entries.size();
      entry_delta.Mark(e);
    } else {
      e = static_cast<uint32_t>(entries.size());
      // Grown with the old array's pages dropped as they are copied: one entry per stored row.
      if (entries.size() == entries.capacity()) GrowReleasingSource(&entries, entries.size() + 1);
      entries.emplace_back();
    }
    Entry& en = entries[e];
    en.row = row;
    en.next = join_operator_internal::kNoEntry;
    if (Linked()) {
      if (links.size() < entries.size()) links.resize(entries.size());
      links[e] = {join_operator_internal::kNoEntry, 1};
    }
    if (outer) {
      if (assocs.size() < entries.size()) assocs.resize(entries.size());
      assocs[e] = assoc;
    }
    if (ttl_micros > 0 && written.size() < entries.size()) written.resize(entries.size());
    return e;
  }

  void Link(uint32_t g, uint32_t e) {
    if (bound_column >= 0) {
      if (entry_groups.size() < entries.size()) entry_groups.resize(entries.size());
      entry_groups[e] = g;
    }
    Group& grp = groups[g];
    Entry& en = entries[e];
    if (Linked()) links[e].prev = grp.tail;
    en.next = join_operator_internal::kNoEntry;
    entry_delta.Mark(e);
    if (grp.tail != join_operator_internal::kNoEntry) {
      entries[grp.tail].next = e;
      entry_delta.Mark(grp.tail);
    } else {
      grp.head = e;
    }
    grp.tail = e;
    group_delta.Mark(g);
  }

  // Whether `links` is kept: indexed sides, and outer sides (whose TTL writes move entries out of
  // arrival order, so they may unlink anywhere in a list).
  bool Linked() const { return indexed || outer; }
  // The entry before e in its group's list (kNoEntry at the head).
  uint32_t Prev(uint32_t g, uint32_t e) const {
    if (Linked()) return links[e].prev;
    uint32_t p = join_operator_internal::kNoEntry;
    for (uint32_t x = groups[g].head; x != e && x != join_operator_internal::kNoEntry; x = entries[x].next) p = x;
    return p;
  }
  // How many stored rows entry e stands for (0 = free).
  int32_t Count(uint32_t e) const {
    if (Linked()) return links[e].count;
    return entries[e].row != join_operator_internal::kNoRow ? 1 : 0;
  }

  void Unlink(uint32_t g, uint32_t e) {
    Group& grp = groups[g];
    const uint32_t prev = Prev(g, e);
    const uint32_t next = entries[e].next;
    if (prev != join_operator_internal::kNoEntry) {
      entries[prev].next = next;
      entry_delta.Mark(prev);
    } else {
      grp.head = next;
    }
    if (next != join_operator_internal::kNoEntry) {
      if (Linked()) links[next].prev = prev;
      entry_delta.Mark(next);
    } else {
      grp.tail = prev;
    }
    group_delta.Mark(g);
  }

  void FreeEntry(uint32_t e) {
    if (Linked()) links[e].count = 0;
    entries[e].row = join_operator_internal::kNoRow;
    entry_delta.Mark(e);
    if (bound_column < 0) free_entries.push_back(e);
  }

  // Records a write of entry e at `now` (state TTL: the entry lives until now + ttl).
  void Touch(uint32_t e, int64_t now) {
    if (ttl_micros <= 0) return;
    written[e] = now;
    entry_delta.Mark(e);
    expiry.push_back({now, e});
  }

  void PopExpiry() {
    expiry.pop_front();
    ++expiry_popped;
  }
  void BuildIndex();
  void RebuildIndex();
  void Compact();
  void MaybeCompact();
  void ResetDeltaBase();
  void SnapshotExpiry(size_t first, StateWriter* w) const;
  void RestoreExpiry(StateReader* r);
  void Snapshot(StateWriter* w);
  void Restore(StateReader* r);
  void FitEntryColumn(StateReader* r, bool wanted, bool present, std::vector<int64_t>* column);
  void PutEntryColumnDelta(StateWriter* w, const std::vector<int64_t>& column) const;
  void ApplyEntryColumnDelta(StateReader* r, size_t base_entries, bool wanted, std::vector<int64_t>* column);
  size_t DeltaBytesEstimate() const;
  void SnapshotDelta(StateWriter* w);
  void RestoreDelta(StateReader* r);
  void Validate(StateReader* r) const;
  std::vector<LogicalType> types;
  std::vector<int> keys;
  std::vector<int> identity_columns;
  bool has_unique_key;
  bool outer;
  RowArena arena;
  std::vector<Entry> entries;
  std::vector<Links> links;  // per entry when Linked(), else empty
  // Per entry, kept apart so sides that need neither pay nothing: numOfAssociations (outer sides
  // only, else empty) and the processing time of the last write (state TTL only, else empty).
  std::vector<int64_t> assocs;
  std::vector<int64_t> written;
  std::vector<uint32_t> free_entries;  // a stack of free entries
  KeyIndex group_keys;                 // encoded join key -> group id
  std::vector<Group> groups;           // per group id (empty groups keep their id)
  bool indexed = false;
  // identity -> live entry (indexed sides only); derived from the entries, never written.
  std::unordered_map<std::string, uint32_t, join_operator_internal::StringHash> index;
  bool index_stale = false;  // restored: `index` is rebuilt before the next use
  int64_t stored = 0;  // rows stored, counting duplicates
  int64_t ttl_micros = 0;
  // Event-time bound (JoinOptions::left_bound_column; -1: none): a stored row may be dropped once the
  // other input's watermark reaches its deadline, its value in bound_column - bound_micros (the
  // earliest time when NULL). Such a side never reuses freed entries, so entries are in arrival order
  // and bound_cursor walks them (not state: 0 after a restore or a compaction).
  int bound_column = -1;
  int64_t bound_micros = 0;
  uint32_t bound_cursor = 0;
  // Per entry, its group (bound sides only: dropping a row then needs no key lookup); derived from the
  // groups' lists, rebuilt after a restore or a compaction (RebuildEntryGroups), never written.
  std::vector<uint32_t> entry_groups;
  void RebuildEntryGroups() {
    if (bound_column < 0) return;
    entry_groups.assign(entries.size(), 0);
    for (uint32_t g = 0; g < groups.size(); ++g) {
      for (uint32_t e = groups[g].head; e != join_operator_internal::kNoEntry; e = entries[e].next) entry_groups[e] = g;
    }
  }
  int64_t Deadline(uint32_t row) const {
    const Vector& col = arena.rows().column(static_cast<size_t>(bound_column));
    if (col.IsNull(row)) return std::numeric_limits<int64_t>::min();
    int64_t d;
    if (!__builtin_sub_overflow(col.data<int64_t>()[row], bound_micros, &d)) return d;
    return bound_micros > 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  // Writes in time order; an entry whose `written` is later was written again since.
  std::deque<Expiry> expiry;

  // The base of the next delta (state at the last snapshot or restore).
  DeltaTracker entry_delta;
  DeltaTracker group_delta;
  size_t arena_base = 0;
  size_t free_low = 0;       // lowest size of free_entries since the base
  size_t expiry_base = 0;    // size of `expiry` at the base
  size_t expiry_popped = 0;  // pops since the base
  bool compacted = false;    // arena rows were renumbered since the base
  bool linked_base = false;  // Linked() at the base (else a delta writes `links` whole)
};

}  // namespace sluice
