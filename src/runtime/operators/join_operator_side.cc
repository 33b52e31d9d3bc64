// JoinOperator::Side's indexing, compaction and checkpoints (join_operator_side.h).
#include "runtime/operators/join_operator_side.h"

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "state/key_encoder.h"
#include "state/state_bytes.h"

namespace sluice {

using namespace join_operator_internal;  // NOLINT: the join's own constants

// Builds the identity index over the stored rows, merging entries of equal identity into the first
// (duplicates add their counts; with a unique key the later row wins, as a map put would).
void JoinOperator::Side::BuildIndex() {
  // The links an indexed side keeps per entry: its predecessor and its count (outer sides have them).
  if (!outer) {
    links.assign(entries.size(), Links{});
    for (const Group& grp : groups) {
      uint32_t prev = kNoEntry;
      for (uint32_t e = grp.head; e != kNoEntry; e = entries[e].next) {
        links[e] = {prev, 1};
        prev = e;
      }
    }
  }
  indexed = true;
  index_stale = false;
  std::vector<std::string> ids;
  EncodeKeys(arena.rows(), identity_columns, &ids);
  for (uint32_t g = 0; g < groups.size(); ++g) {
    uint32_t e = groups[g].head;
    while (e != kNoEntry) {
      uint32_t next = entries[e].next;
      auto [it, inserted] = index.try_emplace(ids[entries[e].row], e);
      if (!inserted) {
        Entry& target = entries[it->second];
        Entry& dup = entries[e];
        if (has_unique_key) {
          arena.Release(target.row);
          target.row = dup.row;
          if (outer) assocs[it->second] = assocs[e];
          stored -= links[e].count;
        } else {
          arena.Release(dup.row);
          links[it->second].count += links[e].count;
        }
        entry_delta.Mark(it->second);
        Unlink(g, e);
        FreeEntry(e);
      }
      e = next;
    }
  }
}

// Rebuilds the identity index of an indexed side from its live entries (after a restore).
void JoinOperator::Side::RebuildIndex() {
  index_stale = false;
  index.clear();
  std::vector<std::string> ids;
  EncodeKeys(arena.rows(), identity_columns, &ids);
  index.reserve(static_cast<size_t>(arena.live()));
  for (uint32_t e = 0; e < entries.size(); ++e) {
    if (entries[e].row != kNoRow) index.emplace(std::move(ids[entries[e].row]), e);
  }
}

// Drops the free entries and the released rows: live entries are renumbered densely, in the order of
// their rows, and the arena keeps only their rows, in that order (RowArena::Retain). Lists, the TTL queue and the
// identity index follow; queued writes of freed entries are dropped (they would be skipped anyway).
// Group ids change too when empty groups are dropped (below); nothing keeps a group id across calls.
void JoinOperator::Side::Compact() {
  // Live entries in the order of their rows (free entries are reused, so entry order can differ from
  // row order): the arena then keeps ascending ids and moves fixed-width columns in place. The arena
  // is compacted first, while little else is allocated (its string columns are copied).
  std::vector<uint32_t> entry_of_row(arena.size(), kNoEntry);
  for (uint32_t e = 0; e < entries.size(); ++e) {
    if (entries[e].row != kNoRow) entry_of_row[entries[e].row] = e;
  }
  {
    std::vector<uint32_t> rows;
    rows.reserve(arena.live());
    for (uint32_t r = 0; r < entry_of_row.size(); ++r) {
      if (entry_of_row[r] != kNoEntry) rows.push_back(r);
    }
    arena.Retain(rows.data(), rows.size());
  }
  std::vector<uint32_t> new_id(entries.size(), kNoEntry);
  std::vector<Entry> live;
  std::vector<Links> live_links;
  std::vector<int64_t> live_assocs;
  std::vector<int64_t> live_written;
  std::vector<uint32_t> live_groups;  // bound sides: entry_groups of the live entries
  live.reserve(arena.size());
  if (bound_column >= 0) live_groups.reserve(arena.size());
  for (uint32_t e : entry_of_row) {
    if (e == kNoEntry) continue;
    new_id[e] = static_cast<uint32_t>(live.size());
    live.push_back(entries[e]);
    if (Linked()) live_links.push_back(links[e]);
    if (!assocs.empty()) live_assocs.push_back(assocs[e]);
    if (!written.empty()) live_written.push_back(written[e]);
    if (bound_column >= 0) live_groups.push_back(entry_groups[e]);
  }
  std::vector<uint32_t>().swap(entry_of_row);
  auto remap = [&](uint32_t e) { return e == kNoEntry ? kNoEntry : new_id[e]; };
  for (size_t j = 0; j < live.size(); ++j) {
    Entry& en = live[j];
    if (Linked()) live_links[j].prev = remap(live_links[j].prev);
    en.next = remap(en.next);
    en.row = static_cast<uint32_t>(j);
  }
  for (Group& g : groups) {
    g.head = remap(g.head);
    g.tail = remap(g.tail);
  }
  std::deque<Expiry> kept;
  for (const Expiry& x : expiry) {
    if (new_id[x.entry] != kNoEntry) kept.push_back({x.time, new_id[x.entry]});
  }
  for (auto& [identity, e] : index) e = new_id[e];
  entries = std::move(live);
  links = std::move(live_links);
  assocs = std::move(live_assocs);
  written = std::move(live_written);
  free_entries.clear();
  free_entries.shrink_to_fit();
  expiry = std::move(kept);
  // Join keys whose rows are all gone (an event-time bound drops them, with keys nearly as many as
  // rows: a join on a price) leave the key index once they are most of it.
  size_t empty_groups = 0;
  for (const Group& g : groups) empty_groups += g.head == kNoEntry ? 1 : 0;
  if (empty_groups >= kCompactMinRows && empty_groups * 2 > groups.size()) {
    KeyIndex kept_keys;
    std::vector<Group> kept_groups;
    kept_groups.reserve(groups.size() - empty_groups);
    std::vector<uint32_t> new_group(groups.size(), kNoEntry);
    for (uint32_t g = 0; g < groups.size(); ++g) {
      if (groups[g].head == kNoEntry) continue;
      new_group[g] = static_cast<uint32_t>(kept_groups.size());
      kept_keys.Insert(group_keys.key(g));
      kept_groups.push_back(groups[g]);
    }
    group_keys = std::move(kept_keys);
    groups = std::move(kept_groups);
    for (uint32_t& g : live_groups) g = new_group[g];
  }
  bound_cursor = 0;
  entry_groups = std::move(live_groups);
  compacted = true;
}

// Compacts once most of the arena's rows were released. Row and entry ids change, which a delta
// cannot express: the next checkpoint of this side is a full snapshot.
void JoinOperator::Side::MaybeCompact() {
  size_t total = arena.size();
  // A side with an event-time bound drops its oldest rows as time passes, for good: it compacts once
  // the dropped rows are half the live ones (its arena holds at most 1.5 times the live rows; a quarter
  // saved q7 another 14 MiB for 30% more CPU).
  const size_t live = arena.live();
  if (total < kCompactMinRows || (bound_column >= 0 ? (total - live) * 2 < live : live * 2 > total)) return;
  Compact();
}

// The current state becomes the base of the next delta.
void JoinOperator::Side::ResetDeltaBase() {
  entry_delta.Reset(entries.size());
  group_delta.Reset(groups.size());
  arena_base = arena.size();
  free_low = free_entries.size();
  expiry_base = expiry.size();
  expiry_popped = 0;
  compacted = false;
  linked_base = Linked();
}

void JoinOperator::Side::SnapshotExpiry(size_t first, StateWriter* w) const {
  w->PutVarint(expiry.size() - first);
  w->Reserve((expiry.size() - first) * 12);
  for (size_t i = first; i < expiry.size(); ++i) {
    w->PutI64(expiry[i].time);
    w->PutU32(expiry[i].entry);
  }
}

void JoinOperator::Side::RestoreExpiry(StateReader* r) {
  const size_t n = r->GetCount(12);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t t = r->GetI64();
    const uint32_t e = r->GetU32();
    expiry.push_back({t, e});
  }
}

void JoinOperator::Side::Snapshot(StateWriter* w) {
  // A full snapshot is the base of the next delta, so it may renumber: when more than an eighth of
  // the rows or entries are dead, the side is compacted first and the checkpoint holds live state.
  if ((arena.size() - arena.live()) * 8 > arena.size() || free_entries.size() * 8 > entries.size()) Compact();
  w->PutTag("side");
  PutColumn(w, entries);
  PutColumn(w, links);
  PutColumn(w, assocs);
  PutColumn(w, written);
  PutColumn(w, free_entries);
  group_keys.Snapshot(w);
  PutColumn(w, groups);
  w->PutBool(indexed);
  w->PutI64(stored);
  SnapshotExpiry(0, w);
  arena.Snapshot(w);
  ResetDeltaBase();
}

void JoinOperator::Side::Restore(StateReader* r) {
  r->ExpectTag("side");
  GetColumn(r, &entries);
  GetColumn(r, &links);
  GetColumn(r, &assocs);
  GetColumn(r, &written);
  FitEntryColumn(r, outer, /*present=*/!assocs.empty(), &assocs);
  FitEntryColumn(r, ttl_micros > 0, /*present=*/!written.empty(), &written);
  GetColumn(r, &free_entries);
  group_keys.Restore(r);
  GetColumn(r, &groups);
  indexed = r->GetBool();
  stored = r->GetI64();
  expiry.clear();
  RestoreExpiry(r);
  arena.Restore(r);
  Validate(r);
  index.clear();
  index_stale = indexed;
  bound_cursor = 0;
  RebuildEntryGroups();
  ResetDeltaBase();
}

// The per-entry columns follow this side's options (state written under other TTL options is
// restored with zero write times). A column that was written must match the entries.
void JoinOperator::Side::FitEntryColumn(StateReader* r, bool wanted, bool present, std::vector<int64_t>* column) {
  if (!wanted) {
    column->clear();
  } else if (!present) {
    column->resize(entries.size());
  } else if (column->size() != entries.size()) {
    r->Fail("join entry columns of different lengths");
  }
}

void JoinOperator::Side::PutEntryColumnDelta(StateWriter* w, const std::vector<int64_t>& column) const {
  w->PutBool(!column.empty());
  if (!column.empty()) PutColumnDelta(w, column, entry_delta);
}

void JoinOperator::Side::ApplyEntryColumnDelta(StateReader* r, size_t base_entries, bool wanted, std::vector<int64_t>* column) {
  const bool present = r->GetBool();
  if (present) {
    std::vector<int64_t> unwanted;
    std::vector<int64_t>* target = wanted ? column : &unwanted;
    target->resize(base_entries);
    ApplyColumnDelta(r, target);
  }
  if (r->ok()) FitEntryColumn(r, wanted, present, column);
}

// An upper estimate of the bytes SnapshotDelta writes, so the writer's buffer is allocated once
// (growing a buffer of hundreds of MB copies it; reserved pages that stay unused cost nothing).
size_t JoinOperator::Side::DeltaBytesEstimate() const {
  size_t bytes_links_whole = 0;
  const size_t new_entries = entries.size() - entry_delta.base();
  const size_t new_groups = groups.size() - group_delta.base();
  const size_t new_rows = arena.size() - arena_base;
  if (Linked() && !linked_base) bytes_links_whole = links.size() * sizeof(Links);
  const size_t entry_bytes = sizeof(Entry) + (Linked() ? sizeof(Links) : 0) + 4 + (assocs.empty() ? 0 : 12) + (written.empty() ? 0 : 12);
  size_t bytes = 256 + bytes_links_whole + (entry_delta.dirty().size() + new_entries) * entry_bytes +
                 (group_delta.dirty().size() + new_groups) * (sizeof(Group) + 4) +
                 (free_entries.size() - free_low) * 4 + (expiry.size() + expiry_popped - expiry_base) * 12;
  if (new_groups > 0) bytes += new_groups * (group_keys.key(static_cast<uint32_t>(groups.size() - 1)).size() + 8);
  if (new_rows > 0) bytes += arena.MemoryUsage() / arena.size() * new_rows + new_rows * (types.size() + 1);
  return bytes;
}

void JoinOperator::Side::SnapshotDelta(StateWriter* w) {
  w->PutTag("side delta");
  PutColumnDelta(w, entries, entry_delta);
  // `links`: none (not Linked()), whole (indexed since the base) or its delta.
  const uint8_t links_mode = !Linked() ? 0 : linked_base ? 2 : 1;
  w->PutU8(links_mode);
  if (links_mode == 1) PutColumn(w, links);
  if (links_mode == 2) PutColumnDelta(w, links, entry_delta);
  PutEntryColumnDelta(w, assocs);
  PutEntryColumnDelta(w, written);
  w->PutVarint(free_low);
  w->PutVarint(free_entries.size() - free_low);
  w->PutRaw(free_entries.data() + free_low, (free_entries.size() - free_low) * sizeof(uint32_t));
  group_keys.SnapshotSince(group_delta.base(), w);
  PutColumnDelta(w, groups, group_delta);
  w->PutBool(indexed);
  w->PutI64(stored);
  // The expiry queue: how many of the base's items were popped, then every item pushed since that
  // is still queued (all of them when fewer than the base's items were popped).
  const size_t dropped = std::min(expiry_popped, expiry_base);
  w->PutVarint(dropped);
  SnapshotExpiry(expiry_base - dropped, w);
  arena.SnapshotTail(arena_base, w);
  ResetDeltaBase();
}

void JoinOperator::Side::RestoreDelta(StateReader* r) {
  r->ExpectTag("side delta");
  const size_t base_entries = entries.size();
  ApplyColumnDelta(r, &entries);
  const uint8_t links_mode = r->GetU8();
  if (links_mode == 0) {
    links.clear();
  } else if (links_mode == 1) {
    GetColumn(r, &links);
  } else if (links_mode == 2) {
    ApplyColumnDelta(r, &links);
  } else {
    r->Fail("a join links delta of unknown kind");
  }
  ApplyEntryColumnDelta(r, base_entries, outer, &assocs);
  ApplyEntryColumnDelta(r, base_entries, ttl_micros > 0, &written);
  const size_t low = r->GetCount(0);
  if (r->ok() && low > free_entries.size()) r->Fail("a join free-list delta beyond its base");
  std::vector<uint32_t> pushed;
  GetColumn(r, &pushed);
  if (!r->ok()) return;
  free_entries.resize(low);
  free_entries.insert(free_entries.end(), pushed.begin(), pushed.end());
  group_keys.RestoreAppend(r);
  ApplyColumnDelta(r, &groups);
  indexed = r->GetBool();
  stored = r->GetI64();
  const size_t dropped = r->GetCount(0);
  if (r->ok() && dropped > expiry.size()) r->Fail("a join expiry delta beyond its base");
  if (!r->ok()) return;
  expiry.erase(expiry.begin(), expiry.begin() + static_cast<ptrdiff_t>(dropped));
  RestoreExpiry(r);
  arena.RestoreAppend(r);
  Validate(r);
  index.clear();
  index_stale = indexed;
  bound_cursor = 0;
  RebuildEntryGroups();
  ResetDeltaBase();
}

// Refuses restored state whose ids point outside their tables (a corrupt checkpoint).
void JoinOperator::Side::Validate(StateReader* r) const {
  if (!r->ok()) return;
  const size_t n = entries.size();
  const size_t rows = arena.size();
  auto valid = [n](uint32_t e) { return e == kNoEntry || e < n; };
  if (links.size() != (Linked() ? n : 0)) {
    r->Fail("join entry links do not match the entries");
    return;
  }
  for (uint32_t e = 0; e < n; ++e) {
    const Entry& en = entries[e];
    const bool live = en.row != kNoRow;
    if ((live && (en.row >= rows || !valid(en.next))) ||
        (Linked() && (links[e].count < 0 || (links[e].count > 0) != live || (live && !valid(links[e].prev))))) {
      r->Fail("join entry out of range");
      return;
    }
  }
  for (uint32_t e : free_entries) {
    if (e >= n || entries[e].row != kNoRow) {
      r->Fail("free join entry out of range");
      return;
    }
  }
  if (groups.size() != group_keys.size()) {
    r->Fail("join groups do not match their keys");
    return;
  }
  for (const Group& g : groups) {
    if (!valid(g.head) || !valid(g.tail) || (g.head == kNoEntry) != (g.tail == kNoEntry)) {
      r->Fail("join group out of range");
      return;
    }
  }
  for (const Expiry& x : expiry) {
    if (x.entry >= n) {
      r->Fail("join expiry entry out of range");
      return;
    }
  }
}

}  // namespace sluice
