#include "runtime/operators/join_operator.h"

#include <xxhash.h>

#include <limits>
#include <deque>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
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

// The stored rows of one input. Entries form one doubly linked list per join key in arrival order;
// identical rows (or, with a unique key, rows of one unique key) share an entry once the side is
// indexed. The identity index is built lazily, when the first non-insert message arrives, so an
// append-only input never pays for it; before that every stored row has its own entry, which visits
// the same rows in the same order.
struct JoinOperator::Side {
  struct Entry {
    uint32_t row = kNoRow;  // id in `arena`
    uint32_t prev = kNoEntry;
    uint32_t next = kNoEntry;
    int32_t count = 0;  // 0 = free
    int64_t assoc = 0;  // numOfAssociations (outer sides only)
    int64_t written = 0;  // processing time of the last write (state TTL)
  };
  struct Group {
    uint32_t head = kNoEntry;
    uint32_t tail = kNoEntry;
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

  uint32_t NewEntry(uint32_t row, int64_t assoc) {
    uint32_t e;
    if (!free_entries.empty()) {
      e = free_entries.back();
      free_entries.pop_back();
    } else {
      e = static_cast<uint32_t>(entries.size());
      entries.emplace_back();
    }
    Entry& en = entries[e];
    en.row = row;
    en.prev = kNoEntry;
    en.next = kNoEntry;
    en.count = 1;
    en.assoc = assoc;
    return e;
  }

  void Link(Group* g, uint32_t e) {
    Entry& en = entries[e];
    en.prev = g->tail;
    en.next = kNoEntry;
    if (g->tail != kNoEntry) {
      entries[g->tail].next = e;
    } else {
      g->head = e;
    }
    g->tail = e;
  }

  void Unlink(Group* g, uint32_t e) {
    Entry& en = entries[e];
    if (en.prev != kNoEntry) {
      entries[en.prev].next = en.next;
    } else {
      g->head = en.next;
    }
    if (en.next != kNoEntry) {
      entries[en.next].prev = en.prev;
    } else {
      g->tail = en.prev;
    }
  }

  void FreeEntry(uint32_t e) {
    entries[e].count = 0;
    free_entries.push_back(e);
  }

  // Records a write of entry e at `now` (state TTL: the entry lives until now + ttl).
  void Touch(uint32_t e, int64_t now) {
    if (ttl_micros <= 0) return;
    entries[e].written = now;
    expiry.push_back({now, e});
  }

  // Builds the identity index over the stored rows, merging entries of equal identity into the first
  // (duplicates add their counts; with a unique key the later row wins, as a map put would).
  void BuildIndex() {
    indexed = true;
    std::vector<std::string> ids;
    EncodeKeys(arena.rows(), identity_columns, &ids);
    for (auto& [key, group] : groups) {
      uint32_t e = group.head;
      while (e != kNoEntry) {
        uint32_t next = entries[e].next;
        auto [it, inserted] = index.try_emplace(ids[entries[e].row], e);
        if (!inserted) {
          Entry& target = entries[it->second];
          Entry& dup = entries[e];
          if (has_unique_key) {
            arena.Release(target.row);
            target.row = dup.row;
            target.assoc = dup.assoc;
            stored -= dup.count;
          } else {
            arena.Release(dup.row);
            target.count += dup.count;
          }
          Unlink(&group, e);
          FreeEntry(e);
        }
        e = next;
      }
    }
  }

  // Rebuilds the arena with the live rows only, once most of its rows were released.
  void MaybeCompact() {
    size_t total = arena.rows().size();
    if (total < kCompactMinRows || arena.live() * 2 > total) return;
    RowArena fresh(types);
    std::vector<uint32_t> rows;
    std::vector<uint32_t> owners;
    for (uint32_t e = 0; e < entries.size(); ++e) {
      if (entries[e].count == 0) continue;
      rows.push_back(entries[e].row);
      owners.push_back(e);
    }
    uint32_t first = rows.empty() ? 0 : fresh.AppendMany(arena.rows(), rows.data(), rows.size());
    for (size_t j = 0; j < owners.size(); ++j) entries[owners[j]].row = first + static_cast<uint32_t>(j);
    arena = std::move(fresh);
  }

  void Snapshot(StateWriter* w) const {
    // Only the rows live entries hold go into the checkpoint, renumbered in entry order.
    std::vector<uint32_t> live;
    live.reserve(entries.size());
    w->PutVarint(entries.size());
    for (const Entry& e : entries) {
      uint32_t row = kNoRow;
      if (e.count != 0) {
        row = static_cast<uint32_t>(live.size());
        live.push_back(e.row);
      }
      w->PutU32(row);
      w->PutU32(e.prev);
      w->PutU32(e.next);
      w->PutU32(static_cast<uint32_t>(e.count));
      w->PutI64(e.assoc);
      w->PutI64(e.written);
    }
    w->PutVarint(free_entries.size());
    for (uint32_t e : free_entries) w->PutU32(e);
    w->PutVarint(groups.size());
    for (const auto& [key, g] : groups) {
      w->PutString(key);
      w->PutU32(g.head);
      w->PutU32(g.tail);
    }
    w->PutBool(indexed);
    w->PutVarint(index.size());
    for (const auto& [id, e] : index) {
      w->PutString(id);
      w->PutU32(e);
    }
    w->PutI64(stored);
    w->PutVarint(expiry.size());
    for (const auto& [t, e] : expiry) {
      w->PutI64(t);
      w->PutU32(e);
    }
    arena.SnapshotRows(live, w);
  }

  void Restore(StateReader* r) {
    auto valid_entry = [&](uint32_t e, size_t n) {
      if (e != kNoEntry && e >= n) r->Fail("join entry out of range");
    };
    const size_t n = r->GetCount(32);
    entries.assign(n, Entry());
    for (size_t i = 0; i < n && r->ok(); ++i) {
      Entry& e = entries[i];
      e.row = r->GetU32();
      e.prev = r->GetU32();
      e.next = r->GetU32();
      e.count = static_cast<int32_t>(r->GetU32());
      e.assoc = r->GetI64();
      e.written = r->GetI64();
      valid_entry(e.prev, n);
      valid_entry(e.next, n);
    }
    free_entries.resize(r->GetCount(4));
    for (auto& e : free_entries) {
      e = r->GetU32();
      if (e >= n) r->Fail("free join entry out of range");
    }
    groups.clear();
    const size_t ng = r->GetCount(9);
    for (size_t i = 0; i < ng && r->ok(); ++i) {
      std::string key = r->GetString();
      Group g;
      g.head = r->GetU32();
      g.tail = r->GetU32();
      valid_entry(g.head, n);
      valid_entry(g.tail, n);
      groups.emplace(std::move(key), g);
    }
    indexed = r->GetBool();
    index.clear();
    const size_t ni = r->GetCount(5);
    for (size_t i = 0; i < ni && r->ok(); ++i) {
      std::string id = r->GetString();
      uint32_t e = r->GetU32();
      if (e >= n) r->Fail("join index entry out of range");
      index.emplace(std::move(id), e);
    }
    stored = r->GetI64();
    expiry.clear();
    const size_t ne = r->GetCount(12);
    for (size_t i = 0; i < ne && r->ok(); ++i) {
      const int64_t t = r->GetI64();
      const uint32_t e = r->GetU32();
      if (e >= n) r->Fail("join expiry entry out of range");
      expiry.emplace_back(t, e);
    }
    arena.Restore(r);
    for (const Entry& e : entries) {
      if (r->ok() && e.count != 0 && e.row >= arena.rows().size()) r->Fail("join row outside the arena");
    }
  }

  std::vector<LogicalType> types;
  std::vector<int> keys;
  std::vector<int> identity_columns;
  bool has_unique_key;
  bool outer;
  RowArena arena;
  std::vector<Entry> entries;
  std::vector<uint32_t> free_entries;
  std::unordered_map<std::string, Group, StringHash> groups;
  bool indexed = false;
  std::unordered_map<std::string, uint32_t, StringHash> index;
  int64_t stored = 0;  // rows stored, counting duplicates
  int64_t ttl_micros = 0;
  // Writes in time order: (time, entry); an entry whose `written` is later was written again since.
  std::deque<std::pair<int64_t, uint32_t>> expiry;
};

Status JoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("join");
  sides_[0]->Snapshot(w);
  sides_[1]->Snapshot(w);
  w->PutI64(retractions_without_state_);
  return Status::OK();
}

Status JoinOperator::RestoreState(StateReader* r) {
  r->ExpectTag("join");
  sides_[0]->Restore(r);
  sides_[1]->Restore(r);
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
  while (!side.expiry.empty() && side.expiry.front().first + side.ttl_micros <= now) {
    const auto [written, e] = side.expiry.front();
    side.expiry.pop_front();
    Side::Entry& en = side.entries[e];
    if (en.count == 0 || en.written != written) continue;  // freed, or written again since
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
    auto g = side.groups.find(key);
    SLUICE_CHECK(g != side.groups.end());
    side.Unlink(&g->second, e);
    if (g->second.head == kNoEntry) side.groups.erase(g);
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

size_t JoinOperator::StateMemoryUsage() const {
  size_t bytes = 0;
  for (const auto& s : sides_) {
    bytes += s->arena.MemoryUsage() + s->entries.capacity() * sizeof(Side::Entry);
    for (const auto& [k, g] : s->groups) bytes += k.capacity() + sizeof(g) + 2 * sizeof(void*);
    for (const auto& [k, e] : s->index) bytes += k.capacity() + sizeof(e) + 2 * sizeof(void*);
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
      auto it = other.groups.find(keys_[i]);
      if (it != other.groups.end()) {
        for (uint32_t e = it->second.head; e != kNoEntry; e = other.entries[e].next) {
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
  const uint32_t arena_base = static_cast<uint32_t>(in.arena.rows().size());

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
          en.row = arena_base + static_cast<uint32_t>(pending_store_.size());
          pending_store_.push_back(static_cast<uint32_t>(i));
        } else {
          ++en.count;
          ++in.stored;
        }
        en.assoc = assoc;
        in.Touch(it->second, now_micros_);
        return;
      }
      uint32_t e = in.NewEntry(arena_base + static_cast<uint32_t>(pending_store_.size()), assoc);
      pending_store_.push_back(static_cast<uint32_t>(i));
      in.Link(&in.groups[keys_[i]], e);
      in.Touch(e, now_micros_);
      it->second = e;
    } else {
      uint32_t e = in.NewEntry(arena_base + static_cast<uint32_t>(pending_store_.size()), assoc);
      pending_store_.push_back(static_cast<uint32_t>(i));
      in.Link(&in.groups[keys_[i]], e);
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
      in.Touch(e, now_micros_);
      return;
    }
    in.stored -= en.count;
    auto g = in.groups.find(keys_[i]);
    SLUICE_CHECK(g != in.groups.end());
    in.Unlink(&g->second, e);
    if (g->second.head == kNoEntry) in.groups.erase(g);
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
        Side::Entry& en = other.entries[*m];
        const int64_t old = en.assoc;
        for (int32_t c = 0; c < en.count; ++c) {
          if (other.outer && old == 0) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kDelete, kNoRow, en.row));
          RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
        }
        associations += en.count;
        if (other.outer && (old == 0 || additional)) {
          en.assoc = old + 1;
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
        Side::Entry& en = other.entries[*m];
        const int64_t old = en.assoc;
        for (int32_t c = 0; c < en.count; ++c) {
          RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
          if (other.outer && old == 1) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kInsert, kNoRow, en.row));
        }
        if (other.outer) {
          en.assoc = old - 1;
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
