#include "runtime/operators/join_operator.h"

#include <xxhash.h>

#include <limits>
#include <deque>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

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

}  // namespace

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
  struct Entry {
    uint32_t row = kNoRow;  // id in `arena` (kNoRow once freed)
    uint32_t prev = kNoEntry;
    uint32_t next = kNoEntry;
    int32_t count = 0;  // 0 = free
  };
  static_assert(sizeof(Entry) == 16, "Entry is written raw into checkpoints and must have no padding");
  struct Group {
    uint32_t head = kNoEntry;
    uint32_t tail = kNoEntry;
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
    if (!free_entries.empty()) {
      e = free_entries.back();
      free_entries.pop_back();
      if (free_entries.size() < free_low) free_low = free_entries.size();
      entry_delta.Mark(e);
    } else {
      e = static_cast<uint32_t>(entries.size());
      entries.emplace_back();
    }
    Entry& en = entries[e];
    en.row = row;
    en.prev = kNoEntry;
    en.next = kNoEntry;
    en.count = 1;
    if (outer) {
      if (assocs.size() < entries.size()) assocs.resize(entries.size());
      assocs[e] = assoc;
    }
    if (ttl_micros > 0 && written.size() < entries.size()) written.resize(entries.size());
    return e;
  }

  void Link(uint32_t g, uint32_t e) {
    Group& grp = groups[g];
    Entry& en = entries[e];
    en.prev = grp.tail;
    en.next = kNoEntry;
    entry_delta.Mark(e);
    if (grp.tail != kNoEntry) {
      entries[grp.tail].next = e;
      entry_delta.Mark(grp.tail);
    } else {
      grp.head = e;
    }
    grp.tail = e;
    group_delta.Mark(g);
  }

  void Unlink(uint32_t g, uint32_t e) {
    Group& grp = groups[g];
    Entry& en = entries[e];
    if (en.prev != kNoEntry) {
      entries[en.prev].next = en.next;
      entry_delta.Mark(en.prev);
    } else {
      grp.head = en.next;
    }
    if (en.next != kNoEntry) {
      entries[en.next].prev = en.prev;
      entry_delta.Mark(en.next);
    } else {
      grp.tail = en.prev;
    }
    group_delta.Mark(g);
  }

  void FreeEntry(uint32_t e) {
    entries[e].count = 0;
    entries[e].row = kNoRow;
    entry_delta.Mark(e);
    free_entries.push_back(e);
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

  // Builds the identity index over the stored rows, merging entries of equal identity into the first
  // (duplicates add their counts; with a unique key the later row wins, as a map put would).
  void BuildIndex() {
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
            stored -= dup.count;
          } else {
            arena.Release(dup.row);
            target.count += dup.count;
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
  void RebuildIndex() {
    index_stale = false;
    index.clear();
    std::vector<std::string> ids;
    EncodeKeys(arena.rows(), identity_columns, &ids);
    index.reserve(static_cast<size_t>(arena.live()));
    for (uint32_t e = 0; e < entries.size(); ++e) {
      if (entries[e].count != 0) index.emplace(std::move(ids[entries[e].row]), e);
    }
  }

  // Drops the free entries and the released rows: live entries are renumbered densely (keeping their
  // order) and their rows copied into a fresh arena in entry order. Lists, the TTL queue and the
  // identity index follow; queued writes of freed entries are dropped (they would be skipped anyway).
  void Compact() {
    std::vector<uint32_t> new_id(entries.size(), kNoEntry);
    std::vector<Entry> live;
    std::vector<int64_t> live_assocs;
    std::vector<int64_t> live_written;
    std::vector<uint32_t> rows;
    live.reserve(entries.size() - free_entries.size());
    rows.reserve(entries.size() - free_entries.size());
    for (uint32_t e = 0; e < entries.size(); ++e) {
      if (entries[e].count == 0) continue;
      new_id[e] = static_cast<uint32_t>(live.size());
      live.push_back(entries[e]);
      if (!assocs.empty()) live_assocs.push_back(assocs[e]);
      if (!written.empty()) live_written.push_back(written[e]);
      rows.push_back(entries[e].row);
    }
    auto remap = [&](uint32_t e) { return e == kNoEntry ? kNoEntry : new_id[e]; };
    RowArena fresh(types);
    const uint32_t first = rows.empty() ? 0 : fresh.AppendMany(arena.rows(), rows.data(), rows.size());
    for (size_t j = 0; j < live.size(); ++j) {
      Entry& en = live[j];
      en.prev = remap(en.prev);
      en.next = remap(en.next);
      en.row = first + static_cast<uint32_t>(j);
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
    assocs = std::move(live_assocs);
    written = std::move(live_written);
    free_entries.clear();
    free_entries.shrink_to_fit();
    expiry = std::move(kept);
    arena = std::move(fresh);
    compacted = true;
  }

  // Compacts once most of the arena's rows were released. Row and entry ids change, which a delta
  // cannot express: the next checkpoint of this side is a full snapshot.
  void MaybeCompact() {
    size_t total = arena.size();
    if (total < kCompactMinRows || arena.live() * 2 > total) return;
    Compact();
  }

  // The current state becomes the base of the next delta.
  void ResetDeltaBase() {
    entry_delta.Reset(entries.size());
    group_delta.Reset(groups.size());
    arena_base = arena.size();
    free_low = free_entries.size();
    expiry_base = expiry.size();
    expiry_popped = 0;
    compacted = false;
  }

  void SnapshotExpiry(size_t first, StateWriter* w) const {
    w->PutVarint(expiry.size() - first);
    w->Reserve((expiry.size() - first) * 12);
    for (size_t i = first; i < expiry.size(); ++i) {
      w->PutI64(expiry[i].time);
      w->PutU32(expiry[i].entry);
    }
  }

  void RestoreExpiry(StateReader* r) {
    const size_t n = r->GetCount(12);
    for (size_t i = 0; i < n && r->ok(); ++i) {
      const int64_t t = r->GetI64();
      const uint32_t e = r->GetU32();
      expiry.push_back({t, e});
    }
  }

  void Snapshot(StateWriter* w) {
    // A full snapshot is the base of the next delta, so it may renumber: when more than an eighth of
    // the rows or entries are dead, the side is compacted first and the checkpoint holds live state.
    if ((arena.size() - arena.live()) * 8 > arena.size() || free_entries.size() * 8 > entries.size()) Compact();
    w->PutTag("side");
    PutColumn(w, entries);
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

  void Restore(StateReader* r) {
    r->ExpectTag("side");
    GetColumn(r, &entries);
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
    ResetDeltaBase();
  }

  // The per-entry columns follow this side's options (state written under other TTL options is
  // restored with zero write times). A column that was written must match the entries.
  void FitEntryColumn(StateReader* r, bool wanted, bool present, std::vector<int64_t>* column) {
    if (!wanted) {
      column->clear();
    } else if (!present) {
      column->resize(entries.size());
    } else if (column->size() != entries.size()) {
      r->Fail("join entry columns of different lengths");
    }
  }

  void PutEntryColumnDelta(StateWriter* w, const std::vector<int64_t>& column) const {
    w->PutBool(!column.empty());
    if (!column.empty()) PutColumnDelta(w, column, entry_delta);
  }

  void ApplyEntryColumnDelta(StateReader* r, size_t base_entries, bool wanted, std::vector<int64_t>* column) {
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
  size_t DeltaBytesEstimate() const {
    const size_t new_entries = entries.size() - entry_delta.base();
    const size_t new_groups = groups.size() - group_delta.base();
    const size_t new_rows = arena.size() - arena_base;
    const size_t entry_bytes = sizeof(Entry) + 4 + (assocs.empty() ? 0 : 12) + (written.empty() ? 0 : 12);
    size_t bytes = 256 + (entry_delta.dirty().size() + new_entries) * entry_bytes +
                   (group_delta.dirty().size() + new_groups) * (sizeof(Group) + 4) +
                   (free_entries.size() - free_low) * 4 + (expiry.size() + expiry_popped - expiry_base) * 12;
    if (new_groups > 0) bytes += new_groups * (group_keys.key(static_cast<uint32_t>(groups.size() - 1)).size() + 8);
    if (new_rows > 0) bytes += arena.MemoryUsage() / arena.size() * new_rows + new_rows * (types.size() + 1);
    return bytes;
  }

  void SnapshotDelta(StateWriter* w) {
    w->PutTag("side delta");
    PutColumnDelta(w, entries, entry_delta);
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

  void RestoreDelta(StateReader* r) {
    r->ExpectTag("side delta");
    const size_t base_entries = entries.size();
    ApplyColumnDelta(r, &entries);
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
    ResetDeltaBase();
  }

  // Refuses restored state whose ids point outside their tables (a corrupt checkpoint).
  void Validate(StateReader* r) const {
    if (!r->ok()) return;
    const size_t n = entries.size();
    const size_t rows = arena.size();
    auto valid = [n](uint32_t e) { return e == kNoEntry || e < n; };
    for (const Entry& e : entries) {
      if (e.count < 0 || (e.count > 0 && (e.row >= rows || !valid(e.prev) || !valid(e.next)))) {
        r->Fail("join entry out of range");
        return;
      }
    }
    for (uint32_t e : free_entries) {
      if (e >= n || entries[e].count != 0) {
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

  std::vector<LogicalType> types;
  std::vector<int> keys;
  std::vector<int> identity_columns;
  bool has_unique_key;
  bool outer;
  RowArena arena;
  std::vector<Entry> entries;
  // Per entry, kept apart so sides that need neither pay nothing: numOfAssociations (outer sides
  // only, else empty) and the processing time of the last write (state TTL only, else empty).
  std::vector<int64_t> assocs;
  std::vector<int64_t> written;
  std::vector<uint32_t> free_entries;  // a stack of free entries
  KeyIndex group_keys;                 // encoded join key -> group id
  std::vector<Group> groups;           // per group id (empty groups keep their id)
  bool indexed = false;
  // identity -> live entry (indexed sides only); derived from the entries, never written.
  std::unordered_map<std::string, uint32_t, StringHash> index;
  bool index_stale = false;  // restored: `index` is rebuilt before the next use
  int64_t stored = 0;  // rows stored, counting duplicates
  int64_t ttl_micros = 0;
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
};

Status JoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("join");
  sides_[0]->Snapshot(w);
  sides_[1]->Snapshot(w);
  w->PutI64(retractions_without_state_);
  return Status::OK();
}

void JoinOperator::DropState() {
  for (int s = 0; s < 2; ++s) {
    const Side& old = *sides_[s];
    const std::vector<int>& unique_key = s == 0 ? options_.left_unique_key : options_.right_unique_key;
    auto fresh = std::make_unique<Side>(old.types, old.keys, unique_key, old.outer);
    fresh->ttl_micros = old.ttl_micros;
    sides_[s] = std::move(fresh);
  }
  retractions_without_state_ = 0;
}

Status JoinOperator::RestoreState(StateReader* r) {
  r->ExpectTag("join");
  sides_[0]->Restore(r);
  sides_[1]->Restore(r);
  retractions_without_state_ = r->GetI64();
  return r->status();
}

bool JoinOperator::CanSnapshotDelta() const { return !sides_[0]->compacted && !sides_[1]->compacted; }

Status JoinOperator::SnapshotDelta(StateWriter* w) {
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("join delta");
  w->Reserve(sides_[0]->DeltaBytesEstimate() + sides_[1]->DeltaBytesEstimate());
  sides_[0]->SnapshotDelta(w);
  sides_[1]->SnapshotDelta(w);
  w->PutI64(retractions_without_state_);
  return Status::OK();
}

Status JoinOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("join delta");
  sides_[0]->RestoreDelta(r);
  sides_[1]->RestoreDelta(r);
  retractions_without_state_ = r->GetI64();
  return r->status();
}

JoinOperator::JoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                           std::vector<LogicalType> right_types, std::vector<int> left_keys, std::vector<int> right_keys,
                           ExprPtr residual, JoinOptions options)
    : Operator(std::move(name), 2),
      kind_(kind),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      residual_(std::move(residual)),
      options_(std::move(options)) {
  SLUICE_CHECK_EQ(left_keys.size(), right_keys.size());
  out_types_ = left_types_;
  out_types_.insert(out_types_.end(), right_types_.begin(), right_types_.end());
  if (options_.null_safe_keys.empty()) options_.null_safe_keys.assign(left_keys.size(), false);
  SLUICE_CHECK_EQ(options_.null_safe_keys.size(), left_keys.size());
  for (int k : left_keys) SLUICE_CHECK(k >= 0 && static_cast<size_t>(k) < left_types_.size());
  for (int k : right_keys) SLUICE_CHECK(k >= 0 && static_cast<size_t>(k) < right_types_.size());
  bool left_outer = kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull;
  bool right_outer = kind_ == JoinKind::kRight || kind_ == JoinKind::kFull;
  sides_[0] = std::make_unique<Side>(left_types_, std::move(left_keys), options_.left_unique_key, left_outer);
  sides_[1] = std::make_unique<Side>(right_types_, std::move(right_keys), options_.right_unique_key, right_outer);
  sides_[0]->ttl_micros = options_.left_ttl_ms * 1000;
  sides_[1]->ttl_micros = options_.right_ttl_ms * 1000;
}

void JoinOperator::ExpireRows(int s, int64_t now) {
  Side& side = *sides_[s];
  std::string key;
  std::string identity;
  while (!side.expiry.empty() && side.expiry.front().time + side.ttl_micros <= now) {
    const Side::Expiry x = side.expiry.front();
    side.PopExpiry();
    const uint32_t e = x.entry;
    Side::Entry& en = side.entries[e];
    if (en.count == 0 || side.written[e] != x.time) continue;  // freed, or written again since
    const Chunk& rows = side.arena.rows();
    key.clear();
    for (int c : side.keys) EncodeKeyValue(rows.column(static_cast<size_t>(c)), en.row, &key);
    if (side.indexed) {
      identity.clear();
      for (int c : side.identity_columns) EncodeKeyValue(rows.column(static_cast<size_t>(c)), en.row, &identity);
      side.index.erase(identity);
    }
    metrics_.expired_states += en.count;
    side.stored -= en.count;
    const uint32_t g = side.group_keys.Find(key);
    SLUICE_CHECK(g != KeyIndex::kNotFound);
    side.Unlink(g, e);
    side.arena.Release(en.row);
    side.FreeEntry(e);
  }
}

JoinOperator::~JoinOperator() = default;

Status JoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (residual_) residual_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  if (ctx->chunk_size > 0) chunk_size_ = ctx->chunk_size;
  return Status::OK();
}

int64_t JoinOperator::stored_rows(int input) const { return sides_[input]->stored; }

size_t JoinOperator::StateBytes() const {
  size_t bytes = 0;
  for (const auto& s : sides_) {
    bytes += s->arena.MemoryUsage() + VectorBytes(s->entries) + VectorBytes(s->assocs) + VectorBytes(s->written) +
             VectorBytes(s->free_entries) + s->group_keys.MemoryUsage() + VectorBytes(s->groups) +
             s->expiry.size() * sizeof(Side::Expiry) + s->entry_delta.MemoryUsage() + s->group_delta.MemoryUsage() +
             NodeBytes(s->index.size(), sizeof(std::pair<const std::string, uint32_t>));
  }
  return bytes;
}

Status JoinOperator::Process(int input, Chunk& chunk) {
  SLUICE_CHECK(input == 0 || input == 1);
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (n == 0) return Status::OK();
  Side& in = *sides_[input];
  SLUICE_CHECK_EQ(chunk.num_columns(), in.types.size());
  for (auto& side : sides_) {
    if (side->index_stale) side->RebuildIndex();
  }
  if (in.ttl_micros > 0 || sides_[1 - input]->ttl_micros > 0) {
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    now_micros_ = clock ? clock->NowMicros() : 0;
    for (int s = 0; s < 2; ++s) {
      if (sides_[s]->ttl_micros > 0) ExpireRows(s, now_micros_);
    }
  }

  EncodeKeys(chunk, in.keys, &keys_);
  key_matchable_.assign(n, 1);
  for (size_t p = 0; p < in.keys.size(); ++p) {
    if (options_.null_safe_keys[p]) continue;
    const Vector& col = chunk.column(static_cast<size_t>(in.keys[p]));
    if (!col.MayHaveNulls()) continue;
    for (size_t i = 0; i < n; ++i) {
      if (col.IsNull(i)) key_matchable_[i] = 0;
    }
  }
  if (!in.indexed && !chunk.AllInserts()) in.BuildIndex();
  if (in.indexed) EncodeKeys(chunk, in.identity_columns, &identities_);

  size_t begin = 0;
  while (begin < n) {
    size_t end = begin;
    RETURN_IF_ERROR(CollectMatches(input, chunk, begin, &end));
    RETURN_IF_ERROR(ProcessSlice(input, chunk, begin, end));
    begin = end;
  }
  RETURN_IF_ERROR(FlushOutput(input, chunk));
  in.MaybeCompact();
  return Status::OK();
}

Status JoinOperator::CollectMatches(int input, const Chunk& chunk, size_t begin, size_t* end) {
  const Side& other = *sides_[1 - input];
  cand_rows_.clear();
  cand_entries_.clear();
  cand_other_rows_.clear();
  // Candidate offsets per input row, relative to `begin`.
  match_offsets_.clear();
  size_t i = begin;
  const size_t n = chunk.size();
  while (i < n && (i == begin || cand_rows_.size() < kMaxSlicePairs)) {
    match_offsets_.push_back(static_cast<uint32_t>(cand_rows_.size()));
    if (key_matchable_[i]) {
      const uint32_t g = other.group_keys.Find(keys_[i]);
      if (g != KeyIndex::kNotFound) {
        for (uint32_t e = other.groups[g].head; e != kNoEntry; e = other.entries[e].next) {
          cand_rows_.push_back(static_cast<uint32_t>(i));
          cand_entries_.push_back(e);
          cand_other_rows_.push_back(other.entries[e].row);
        }
      }
    }
    ++i;
  }
  match_offsets_.push_back(static_cast<uint32_t>(cand_rows_.size()));
  *end = i;

  if (!residual_eval_ || cand_rows_.empty()) {
    match_entries_.swap(cand_entries_);
    return Status::OK();
  }
  // Filter the candidate pairs by the residual condition, in batches of left++right rows.
  const size_t input_first = input == 0 ? 0 : left_types_.size();
  const size_t other_first = input == 0 ? left_types_.size() : 0;
  std::vector<uint8_t> keep(cand_rows_.size(), 0);
  for (size_t off = 0; off < cand_rows_.size(); off += kResidualBatch) {
    size_t len = std::min(kResidualBatch, cand_rows_.size() - off);
    Chunk pairs(out_types_, 0);
    for (size_t c = 0; c < chunk.num_columns(); ++c) {
      pairs.column(input_first + c).AppendFrom(chunk.column(c), cand_rows_.data() + off, 0, len);
    }
    other.arena.GatherColumns(cand_other_rows_.data() + off, len, other_first, &pairs);
    pairs.kind_vector().assign(len, RowKind::kInsert);
    RETURN_IF_ERROR(residual_eval_->Filter(pairs, &sel_));
    for (uint32_t s : sel_) keep[off + s] = 1;
  }
  // Compact the candidates to the matches, rewriting the per-row offsets.
  match_entries_.clear();
  size_t row_index = 0;
  uint32_t next_boundary = match_offsets_[1];
  std::vector<uint32_t> offsets(match_offsets_.size(), 0);
  for (size_t p = 0; p < cand_rows_.size(); ++p) {
    while (p >= next_boundary) {
      ++row_index;
      offsets[row_index] = static_cast<uint32_t>(match_entries_.size());
      next_boundary = match_offsets_[row_index + 1];
    }
    if (keep[p]) match_entries_.push_back(cand_entries_[p]);
  }
  for (size_t r = row_index + 1; r < offsets.size(); ++r) offsets[r] = static_cast<uint32_t>(match_entries_.size());
  match_offsets_.swap(offsets);
  return Status::OK();
}

Status JoinOperator::ProcessSlice(int input, const Chunk& chunk, size_t begin, size_t end) {
  Side& in = *sides_[input];
  Side& other = *sides_[1 - input];
  pending_store_.clear();
  const uint32_t first_new_row = static_cast<uint32_t>(in.arena.size());

  // Stores row i with `assoc` associations (Flink's addRecord).
  auto add_record = [&](size_t i, int64_t assoc) {
    if (!key_matchable_[i]) return;  // a row that can never match needs no state
    if (in.indexed) {
      auto [it, inserted] = in.index.try_emplace(identities_[i], kNoEntry);
      if (!inserted) {
        Side::Entry& en = in.entries[it->second];
        if (in.has_unique_key) {
          // An upsert of the same unique key replaces the stored row.
          in.arena.Release(en.row);
          en.row = first_new_row + static_cast<uint32_t>(pending_store_.size());
          pending_store_.push_back(static_cast<uint32_t>(i));
        } else {
          ++en.count;
          ++in.stored;
        }
        if (in.outer) in.assocs[it->second] = assoc;
        in.entry_delta.Mark(it->second);
        in.Touch(it->second, now_micros_);
        return;
      }
      uint32_t e = in.NewEntry(first_new_row + static_cast<uint32_t>(pending_store_.size()), assoc);
      pending_store_.push_back(static_cast<uint32_t>(i));
      in.Link(in.GroupOf(keys_[i]), e);
      in.Touch(e, now_micros_);
      it->second = e;
    } else {
      uint32_t e = in.NewEntry(first_new_row + static_cast<uint32_t>(pending_store_.size()), assoc);
      pending_store_.push_back(static_cast<uint32_t>(i));
      in.Link(in.GroupOf(keys_[i]), e);
      in.Touch(e, now_micros_);
    }
    ++in.stored;
  };

  // Removes one stored row equal to row i (Flink's retractRecord).
  auto retract_record = [&](size_t i) {
    if (!key_matchable_[i]) return;
    SLUICE_CHECK(in.indexed);
    auto it = in.index.find(identities_[i]);
    if (it == in.index.end()) {
      ++retractions_without_state_;
      ++metrics_.retractions_without_state;
      return;
    }
    uint32_t e = it->second;
    Side::Entry& en = in.entries[e];
    if (en.count > 1 && !in.has_unique_key) {
      --en.count;
      --in.stored;
      in.entry_delta.Mark(e);
      in.Touch(e, now_micros_);
      return;
    }
    in.stored -= en.count;
    const uint32_t g = in.group_keys.Find(keys_[i]);
    SLUICE_CHECK(g != KeyIndex::kNotFound);
    in.Unlink(g, e);
    in.arena.Release(en.row);
    in.FreeEntry(e);
    in.index.erase(it);
  };

  for (size_t i = begin; i < end; ++i) {
    const RowKind kind = chunk.kind(i);
    const uint32_t row = static_cast<uint32_t>(i);
    const uint32_t* m = match_entries_.data() + match_offsets_[i - begin];
    const uint32_t* m_end = match_entries_.data() + match_offsets_[i - begin + 1];
    const bool matched = m != m_end;
    if (IsAccumulate(kind)) {
      // With a unique key, an accumulate message for a stored key replaces that row, whose matches are
      // already counted on the other side (Flink's isAdditionalMatch). Identical rows without a unique
      // key are separate rows and each one counts.
      bool additional = true;
      if (in.has_unique_key && in.indexed && key_matchable_[i]) additional = !in.index.contains(identities_[i]);
      if (!in.outer) add_record(i, -1);
      if (!matched) {
        if (in.outer) {
          RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kInsert, row, kNoRow));
          add_record(i, 0);
        }
        continue;
      }
      const RowKind joined_kind = (in.outer || other.outer) ? RowKind::kInsert : kind;
      int64_t associations = 0;
      for (; m != m_end; ++m) {
        const Side::Entry& en = other.entries[*m];
        const int64_t old = other.outer ? other.assocs[*m] : 0;
        for (int32_t c = 0; c < en.count; ++c) {
          if (other.outer && old == 0) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kDelete, kNoRow, en.row));
          RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
        }
        associations += en.count;
        if (other.outer && (old == 0 || additional)) {
          other.assocs[*m] = old + 1;
          other.entry_delta.Mark(*m);
          other.Touch(*m, now_micros_);
        }
      }
      if (in.outer) add_record(i, associations);
    } else {
      retract_record(i);
      if (!matched) {
        if (in.outer) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kDelete, row, kNoRow));
        continue;
      }
      const RowKind joined_kind = in.outer ? RowKind::kDelete : kind;
      for (; m != m_end; ++m) {
        const Side::Entry& en = other.entries[*m];
        const int64_t old = other.outer ? other.assocs[*m] : 0;
        for (int32_t c = 0; c < en.count; ++c) {
          RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
          if (other.outer && old == 1) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kInsert, kNoRow, en.row));
        }
        if (other.outer) {
          other.assocs[*m] = old - 1;
          other.entry_delta.Mark(*m);
          other.Touch(*m, now_micros_);
        }
      }
    }
  }
  if (!pending_store_.empty()) in.arena.AppendMany(chunk, pending_store_.data(), pending_store_.size());
  return Status::OK();
}

Status JoinOperator::QueueOutput(int input, const Chunk& chunk, RowKind kind, uint32_t input_row, uint32_t other_row) {
  if (kind == RowKind::kUpdateBefore && !options_.emit_update_before) return Status::OK();
  if (out_kinds_.size() >= chunk_size_) {
    // Never split the -U rows of an update from its +U rows.
    bool keep_together = (last_kind_ == RowKind::kUpdateBefore &&
                          (kind == RowKind::kUpdateBefore || kind == RowKind::kUpdateAfter)) ||
                         (last_kind_ == RowKind::kUpdateAfter && kind == RowKind::kUpdateAfter);
    if (!keep_together) RETURN_IF_ERROR(FlushOutput(input, chunk));
  }
  out_kinds_.push_back(kind);
  out_input_rows_.push_back(input_row);
  out_other_rows_.push_back(other_row);
  last_kind_ = kind;
  return Status::OK();
}

Status JoinOperator::FlushOutput(int input, const Chunk& chunk) {
  if (out_kinds_.empty()) return Status::OK();
  const Side& other = *sides_[1 - input];
  Chunk out(out_types_, 0);
  const size_t input_first = input == 0 ? 0 : left_types_.size();
  const size_t other_first = input == 0 ? left_types_.size() : 0;
  const size_t n = out_kinds_.size();
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    AppendSelectedOrNull(&out.column(input_first + c), chunk.column(c), out_input_rows_.data(), n);
  }
  for (size_t c = 0; c < other.types.size(); ++c) {
    AppendSelectedOrNull(&out.column(other_first + c), other.arena.rows().column(c), out_other_rows_.data(), n);
  }
  out.kind_vector().swap(out_kinds_);
  out_kinds_.clear();
  out_input_rows_.clear();
  out_other_rows_.clear();
  return Emit(out);
}

}  // namespace sluice
