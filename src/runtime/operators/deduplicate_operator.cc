#include "runtime/operators/deduplicate_operator.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>

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
#include "state/sort_key.h"
#include "types/value.h"

namespace sluice {

namespace {

constexpr uint32_t kNoRow = std::numeric_limits<uint32_t>::max();
constexpr int32_t kNoLocal = -1;
// Compaction threshold: rebuild the arena once this many released rows outnumber the live ones.
constexpr size_t kMinDeadRowsToCompact = 1 << 16;

// A row waiting for the watermark (rowtime keep-first); a min-heap on (rowtime, seq).
struct Timer {
  int64_t rowtime;
  uint64_t seq;
  uint32_t key;
};
struct TimerLater {
  bool operator()(const Timer& a, const Timer& b) const {
    return a.rowtime != b.rowtime ? a.rowtime > b.rowtime : a.seq > b.seq;
  }
};

}  // namespace

struct DeduplicateOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) { segments.AllowDeferred(); }

  KeyIndex keys;
  // Per key id: the kept (or waiting) row (kNoRow: none). Only for the variants that use them: its
  // rowtime and the sequence number of the waiting row, to recognise stale timers (rowtime keep-first);
  // whether the key's row was emitted (keep-first); the processing time of its last write (state TTL).
  std::vector<uint32_t> row;
  std::vector<int64_t> rowtime;
  std::vector<uint8_t> done;
  std::vector<uint64_t> seq;
  std::vector<int64_t> written;
  std::deque<std::pair<int64_t, uint32_t>> expiry;  // (time, key) writes in time order (state TTL)
  RowArena arena;
  size_t live_rows = 0;
  size_t dead_rows = 0;
  std::vector<Timer> timers;
  uint64_t next_seq = 0;

  // Incremental checkpoints. The base is the state after the last snapshot or restore (none yet:
  // nothing is recorded): `dirty` marks keys below it written since, arena_base and expiry_base are
  // the sizes then, expiry_popped the entries popped since. segments holds the deltas recorded at
  // compactions since the base (num_segments of them, segments_bytes in all: their rows are written
  // by the checkpoint's thread); delta_broken: they grew too large and were dropped, so the next
  // checkpoint must be full.
  DeltaTracker dirty;
  size_t arena_base = 0;
  size_t expiry_base = 0;
  size_t expiry_popped = 0;
  StateWriter segments;
  uint64_t num_segments = 0;
  size_t segments_bytes = 0;
  bool delta_broken = false;

  // Scratch, reused across chunks.
  std::vector<std::string> encoded;
  std::vector<uint32_t> key_of_row;
  std::vector<uint32_t> sel;
  std::vector<int32_t> local_best;  // per key: input row that won within the current chunk (rowtime keep-first)
  std::vector<uint32_t> touched;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;
};

DeduplicateOperator::DeduplicateOperator(std::string name, std::vector<LogicalType> types, std::vector<int> keys,
                                         int time_column, bool keep_last, bool rowtime, bool emit_update_before,
                                         bool changelog_input, int64_t state_ttl_ms, int64_t mini_batch_size)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      keys_(std::move(keys)),
      time_column_(time_column),
      keep_last_(keep_last || (rowtime && mini_batch_size > 0)),
      keep_earliest_(!keep_last && rowtime && mini_batch_size > 0),
      rowtime_(rowtime),
      emit_update_before_(emit_update_before),
      changelog_input_(changelog_input),
      ttl_micros_(state_ttl_ms * 1000),
      state_(std::make_unique<State>(types_)),
      bundle_({types_}, mini_batch_size) {}

DeduplicateOperator::~DeduplicateOperator() = default;

namespace {

void PutTimers(const std::vector<Timer>& timers, StateWriter* w) {
  w->PutVarint(timers.size());
  for (const Timer& t : timers) {
    w->PutI64(t.rowtime);
    w->PutU64(t.seq);
    w->PutU32(t.key);
  }
}

void GetTimers(StateReader* r, std::vector<Timer>* timers) {
  timers->clear();
  const size_t n = r->GetCount(20);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    Timer t;
    t.rowtime = r->GetI64();
    t.seq = r->GetU64();
    t.key = r->GetU32();
    timers->push_back(t);
  }
}

void PutExpiry(const std::deque<std::pair<int64_t, uint32_t>>& expiry, size_t first, StateWriter* w) {
  w->PutVarint(expiry.size() - first);
  for (size_t i = first; i < expiry.size(); ++i) {
    w->PutI64(expiry[i].first);
    w->PutU32(expiry[i].second);
  }
}

void GetExpiry(StateReader* r, std::deque<std::pair<int64_t, uint32_t>>* expiry) {
  const size_t n = r->GetCount(12);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t t = r->GetI64();
    const uint32_t k = r->GetU32();
    expiry->emplace_back(t, k);
  }
}

// A full column that a variant may not use: its length must be the number of keys, or 0 if unused.
template <typename T>
void GetColumnOf(StateReader* r, bool used, size_t nkeys, std::vector<T>* column) {
  GetColumn(r, column);
  if (r->ok() && column->size() != (used ? nkeys : 0)) r->Fail("per-key vectors differ in length");
}

}  // namespace

void DeduplicateOperator::ResizeColumns(State& s) const {
  const size_t n = s.keys.size();
  s.row.resize(n, kNoRow);
  if (rowtime_ && !keep_last_) {
    s.rowtime.resize(n, 0);
    s.seq.resize(n, 0);
    s.local_best.resize(n, kNoLocal);
  }
  if (!keep_last_) s.done.resize(n, 0);
  if (ttl_micros_ > 0) s.written.resize(n, 0);
}

void DeduplicateOperator::ResetDeltaBase(State& s) const {
  s.dirty.Reset(s.keys.size());
  s.arena_base = s.arena.size();
  s.expiry_base = s.expiry.size();
  s.expiry_popped = 0;
}

void DeduplicateOperator::Validate(const State& s, StateReader* r, size_t tail_first,
                                   const std::vector<uint8_t>* tail_kept) const {
  if (!r->ok()) return;
  const size_t nkeys = s.keys.size();
  const bool rowtime_first = rowtime_ && !keep_last_;
  if (s.row.size() != nkeys || s.rowtime.size() != (rowtime_first ? nkeys : 0) ||
      s.seq.size() != (rowtime_first ? nkeys : 0) || s.done.size() != (keep_last_ ? 0 : nkeys) ||
      s.written.size() != (ttl_micros_ > 0 ? nkeys : 0)) {
    r->Fail("per-key vectors differ in length");
    return;
  }
  const size_t arena_rows = s.arena.size();
  size_t live = 0;
  for (uint32_t id : s.row) {
    if (id == kNoRow) continue;
    if (id >= arena_rows || (tail_kept != nullptr && id >= tail_first && !(*tail_kept)[id - tail_first])) {
      r->Fail("kept row outside the arena");
      return;
    }
    ++live;
  }
  if (live != s.live_rows) {
    r->Fail(std::to_string(s.live_rows) + " kept rows recorded but " + std::to_string(live) + " found");
    return;
  }
  if (s.dead_rows > arena_rows) {
    r->Fail("more released rows than rows");
    return;
  }
  for (const auto& [t, k] : s.expiry) {
    if (k >= nkeys || ttl_micros_ <= 0) {
      r->Fail("expiry entry for an unknown key");
      return;
    }
  }
  for (const Timer& t : s.timers) {
    if (t.key >= nkeys || !rowtime_first) {
      r->Fail("timer for an unknown key");
      return;
    }
  }
}

Status DeduplicateOperator::SnapshotState(StateWriter* w) {
  State& st = *state_;
  // Only the kept rows go into the checkpoint: compacting first makes the written arena the
  // operator's own, so later deltas continue it.
  if (st.dead_rows > 0) Compact(st);
  ResetSegments(st);
  st.delta_broken = false;
  w->PutTag("deduplicate");
  st.keys.Snapshot(w);
  PutColumn(w, st.row);
  PutColumn(w, st.rowtime);
  PutColumn(w, st.done);
  PutColumn(w, st.seq);
  PutColumn(w, st.written);
  PutExpiry(st.expiry, 0, w);
  st.arena.Snapshot(w);
  w->PutVarint(st.live_rows);
  w->PutVarint(st.dead_rows);
  PutTimers(st.timers, w);
  w->PutU64(st.next_seq);
  bundle_.Snapshot(w);
  ResetDeltaBase(st);
  return Status::OK();
}

void DeduplicateOperator::DropState() {
  state_ = std::make_unique<State>(types_);
  bundle_.Clear();
}

Status DeduplicateOperator::RestoreState(StateReader* r) {
  DropState();
  State& st = *state_;
  r->ExpectTag("deduplicate");
  st.keys.Restore(r);
  const size_t nkeys = st.keys.size();
  GetColumnOf(r, true, nkeys, &st.row);
  GetColumnOf(r, rowtime_ && !keep_last_, nkeys, &st.rowtime);
  GetColumnOf(r, !keep_last_, nkeys, &st.done);
  GetColumnOf(r, rowtime_ && !keep_last_, nkeys, &st.seq);
  GetColumnOf(r, ttl_micros_ > 0, nkeys, &st.written);
  GetExpiry(r, &st.expiry);
  st.arena.Restore(r);
  st.live_rows = r->GetCount(0);
  st.dead_rows = r->GetCount(0);
  GetTimers(r, &st.timers);
  st.next_seq = r->GetU64();
  bundle_.Restore(r);
  Validate(st, r);
  RETURN_IF_ERROR(r->status());
  ResizeColumns(st);  // the scratch column
  ResetDeltaBase(st);
  return Status::OK();
}

bool DeduplicateOperator::CanSnapshotDelta() const { return has_snapshot_base() && !state_->delta_broken; }

std::vector<uint32_t> DeduplicateOperator::WriteSegmentHead(const State& s, StateWriter* w) const {
  w->PutTag("segment");
  s.keys.SnapshotSince(s.dirty.base(), w);
  PutColumnDelta(w, s.row, s.dirty);
  if (rowtime_ && !keep_last_) {
    PutColumnDelta(w, s.rowtime, s.dirty);
    PutColumnDelta(w, s.seq, s.dirty);
  }
  if (!keep_last_) PutColumnDelta(w, s.done, s.dirty);
  if (ttl_micros_ > 0) PutColumnDelta(w, s.written, s.dirty);
  // The TTL queue: how many of the base's entries were popped, then the entries added since (those
  // of them popped too are gone from both).
  const size_t popped = std::min(s.expiry_popped, s.expiry_base);
  w->PutVarint(popped);
  PutExpiry(s.expiry, s.expiry_base - popped, w);
  w->PutVarint(s.live_rows);
  w->PutVarint(s.dead_rows);
  // The rows appended since the base: only those still kept go in (most are often replaced within
  // the interval). A kept new row belongs to a key written since the base (dirty or new), so they are
  // found without looking at other keys; the others are released, and restore fills their ids with
  // copies of another row.
  const size_t first = s.arena_base;
  const size_t end = s.arena.size();
  std::vector<uint64_t> bits((end - first + 63) / 64, 0);
  auto mark = [&](uint32_t k) {
    const uint32_t id = s.row[k];
    if (id != kNoRow && id >= first) bits[(id - first) >> 6] |= uint64_t{1} << ((id - first) & 63);
  };
  for (uint32_t k : s.dirty.dirty()) mark(k);
  for (size_t k = s.dirty.base(); k < s.row.size(); ++k) mark(static_cast<uint32_t>(k));
  std::vector<uint32_t> kept;
  for (size_t i = 0; i < bits.size(); ++i) {
    for (uint64_t word = bits[i]; word != 0; word &= word - 1) {
      kept.push_back(static_cast<uint32_t>(first + i * 64 + static_cast<size_t>(__builtin_ctzll(word))));
    }
  }
  w->PutVarint(first);
  w->PutVarint(end);
  PutColumn(w, kept);
  return kept;
}

void DeduplicateOperator::WriteSegmentRows(const State& s, const std::vector<uint32_t>& ids, StateWriter* w) const {
  // The rows themselves are written by the checkpoint's thread when `w` allows it (RowArena).
  s.arena.SnapshotRows(ids, w);
  PutTimers(s.timers, w);
  w->PutU64(s.next_seq);
}

void DeduplicateOperator::WriteSegment(const State& s, StateWriter* w) const {
  WriteSegmentRows(s, WriteSegmentHead(s, w), w);
}

void DeduplicateOperator::ApplySegment(State& s, StateReader* r) const {
  r->ExpectTag("segment");
  s.keys.RestoreAppend(r);
  ApplyColumnDelta(r, &s.row);
  if (rowtime_ && !keep_last_) {
    ApplyColumnDelta(r, &s.rowtime);
    ApplyColumnDelta(r, &s.seq);
  }
  if (!keep_last_) ApplyColumnDelta(r, &s.done);
  if (ttl_micros_ > 0) ApplyColumnDelta(r, &s.written);
  const size_t popped = r->GetCount(0);
  if (r->ok() && popped > s.expiry.size()) r->Fail("a state delta pops more TTL entries than there are");
  if (!r->ok()) return;
  s.expiry.erase(s.expiry.begin(), s.expiry.begin() + static_cast<std::ptrdiff_t>(popped));
  GetExpiry(r, &s.expiry);
  s.live_rows = r->GetCount(0);
  s.dead_rows = r->GetCount(0);
  // Released rows never outnumber both the compaction threshold and the keys by much (MaybeCompact),
  // which bounds the filler rows a delta may ask for.
  const size_t max_dead = 2 * std::max(kMinDeadRowsToCompact, s.keys.size()) + (size_t{1} << 20);
  if (r->ok() && (s.live_rows > s.keys.size() || s.dead_rows > max_dead)) r->Fail("a state delta with too many rows");
  const size_t first = r->GetCount(0);
  const size_t end = r->GetCount(0);
  std::vector<uint32_t> kept;
  GetColumn(r, &kept);
  if (!r->ok()) return;
  if (first != s.arena.size() || end < first || end - first - std::min(end - first, kept.size()) > s.dead_rows ||
      end > kNoRow) {
    r->Fail("a row delta for rows " + std::to_string(first) + ".." + std::to_string(end) + " applied to " +
            std::to_string(s.arena.size()) + " rows");
    return;
  }
  Chunk rows;
  r->GetChunk(types_, &rows);
  if (r->ok() && r->GetCount(0) != 0) r->Fail("released rows in a row delta");
  if (r->ok() && rows.size() != kept.size()) r->Fail("a row delta whose rows and ids differ in number");
  if (!r->ok()) return;
  // Row i of the tail: the kept row whose id is i; a released row (never read again) is a copy of
  // some other row: the first kept one, else the arena's first, else NULLs.
  std::vector<uint32_t> sel(end - first, 0);
  std::vector<uint8_t> is_kept(end - first, 0);
  for (size_t j = 0; j < kept.size(); ++j) {
    if (kept[j] < first || kept[j] >= end || (j > 0 && kept[j] <= kept[j - 1])) {
      r->Fail("a row delta with ids out of order");
      return;
    }
    sel[kept[j] - first] = static_cast<uint32_t>(j);
    is_kept[kept[j] - first] = 1;
  }
  if (!sel.empty()) {
    if (rows.size() == 0) {
      rows = Chunk(types_);
      if (s.arena.size() > 0) {
        rows.AppendFrom(s.arena.rows(), nullptr, 0, 1, /*copy_strings=*/true);
      } else {
        std::vector<Value> nulls;
        for (const LogicalType& t : types_) nulls.push_back(Value::Null(t));
        rows.AppendValues(nulls, RowKind::kInsert);
      }
    }
    s.arena.AppendMany(rows, sel.data(), sel.size());
  }
  const size_t released = s.arena.size() - s.arena.live();
  if (released > s.dead_rows) {
    r->Fail("more released rows in the arena than recorded");
    return;
  }
  for (size_t i = released; i < s.dead_rows; ++i) s.arena.Release(0);
  GetTimers(r, &s.timers);
  s.next_seq = r->GetU64();
  Validate(s, r, first, &is_kept);
  if (r->ok()) ResizeColumns(s);  // the scratch column
}

Status DeduplicateOperator::SnapshotDelta(StateWriter* w) {
  State& st = *state_;
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("deduplicate-delta");
  w->PutVarint(st.num_segments + 1);
  w->PutWriter(std::move(st.segments));
  WriteSegment(st, w);
  bundle_.Snapshot(w);
  ResetSegments(st);
  ResetDeltaBase(st);
  return Status::OK();
}

Status DeduplicateOperator::RestoreDelta(StateReader* r) {
  State& st = *state_;
  r->ExpectTag("deduplicate-delta");
  const size_t nsegments = r->GetCount(16);
  if (r->ok() && nsegments == 0) r->Fail("a state delta without segments");
  // Segments after the first continue the state a compaction left, as on the writing side. A
  // failure leaves partial state, which Operator::ApplyDelta drops (DropState).
  for (size_t i = 0; i < nsegments && r->ok(); ++i) {
    if (i > 0) {
      Compact(st);
      ResetDeltaBase(st);
    }
    ApplySegment(st, r);
  }
  bundle_.Restore(r);
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase(st);
  return Status::OK();
}

size_t DeduplicateOperator::num_keys() const { return state_->keys.size(); }
size_t DeduplicateOperator::state_rows() const { return state_->live_rows; }

Status DeduplicateOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  const int width = static_cast<int>(types_.size());
  for (int k : keys_) {
    if (k < 0 || k >= width) {
      return Status::InvalidArgument("Deduplicate '" + name() + "': PARTITION BY column " + std::to_string(k) +
                                     " is outside the " + std::to_string(width) + " input columns");
    }
  }
  if (rowtime_) {
    if (time_column_ < 0 || time_column_ >= width || !types_[static_cast<size_t>(time_column_)].IsTimestamp()) {
      return Status::InvalidArgument("Deduplicate '" + name() + "': the ORDER BY column " +
                                     std::to_string(time_column_) +
                                     " must be a TIMESTAMP or TIMESTAMP_LTZ event-time attribute");
    }
  }
  return Status::OK();
}

Status DeduplicateOperator::CheckInput(const Chunk& chunk) const {
  if (!changelog_input_ && !chunk.AllInserts()) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      if (chunk.kind(i) != RowKind::kInsert) {
        return Status::InvalidArgument("Deduplicate '" + name() + "' received a " +
                                       std::string(RowKindShortString(chunk.kind(i))) +
                                       " change, but deduplication (ROW_NUMBER() ... = 1) requires an insert-only "
                                       "input, as in Flink; deduplicate before the updating operator instead");
      }
    }
  }
  if (rowtime_) {
    const Vector& t = chunk.column(static_cast<size_t>(time_column_));
    if (t.MayHaveNulls()) {
      for (size_t i = 0; i < chunk.size(); ++i) {
        if (t.IsNull(i)) {
          return Status::InvalidArgument("Deduplicate '" + name() +
                                         "': the event-time attribute of an input row is NULL; a rowtime "
                                         "attribute must not be NULL");
        }
      }
    }
  }
  return Status::OK();
}

size_t DeduplicateOperator::StateBytes() const {
  const State& s = *state_;
  return s.keys.MemoryUsage() + VectorBytes(s.row) + VectorBytes(s.rowtime) + VectorBytes(s.done) +
         VectorBytes(s.seq) + VectorBytes(s.written) + s.expiry.size() * sizeof(s.expiry[0]) + s.arena.MemoryUsage() +
         VectorBytes(s.timers) + s.dirty.MemoryUsage() + s.segments_bytes + bundle_.MemoryUsage();
}

Status DeduplicateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  RETURN_IF_ERROR(CheckInput(chunk));
  if (bundle_.enabled()) return bundle_.Add(0, chunk, [this] { return CloseBundle(); });
  return ProcessChunk(chunk);
}

Status DeduplicateOperator::CloseBundle() {
  Chunk rows = bundle_.Take();
  std::vector<std::vector<uint32_t>> per_key;
  GroupRowsByKey(rows, keys_, &state_->encoded, &per_key);
  // Flink's bundle functions: the first row of a key (proctime keep-first), its last row or change
  // (proctime keep-last, ChangelogNormalize), or all its rows in order (rowtime).
  std::vector<uint32_t> sel;
  sel.reserve(rows.size());
  for (const auto& key_rows : per_key) {
    if (rowtime_) {
      sel.insert(sel.end(), key_rows.begin(), key_rows.end());
    } else {
      sel.push_back(keep_last_ ? key_rows.back() : key_rows.front());
    }
  }
  Chunk ordered(types_);
  ordered.AppendFrom(rows, sel.data(), 0, sel.size());
  return ProcessChunk(ordered);
}

Status DeduplicateOperator::FinishBundle() { return bundle_.empty() ? Status::OK() : CloseBundle(); }

Status DeduplicateOperator::PrepareSnapshotPreBarrier(int64_t) { return FinishBundle(); }

Status DeduplicateOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FinishBundle());
  return Operator::OnEndOfInput();
}

Status DeduplicateOperator::ProcessChunk(Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  if (ttl_micros_ > 0) {
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    now_micros_ = clock ? clock->NowMicros() : 0;
    ExpireKeys();
  }
  State& s = *state_;
  EncodeKeys(chunk, keys_, &s.encoded);
  s.key_of_row.resize(n);
  for (size_t i = 0; i < n; ++i) s.key_of_row[i] = s.keys.Insert(s.encoded[i]);
  if (s.keys.size() != s.row.size()) ResizeColumns(s);
  if (keep_last_) return ProcessKeepLast(chunk);
  if (!rowtime_) return ProcessKeepFirstProctime(chunk);
  return ProcessKeepFirstRowtime(chunk);
}

Status DeduplicateOperator::ProcessKeepFirstProctime(Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  s.sel.clear();
  for (size_t i = 0; i < n; ++i) {
    uint8_t& seen = s.done[s.key_of_row[i]];
    if (!seen) {
      seen = 1;
      Touch(s.key_of_row[i]);
      s.sel.push_back(static_cast<uint32_t>(i));
    }
  }
  if (s.sel.size() == n) return Emit(chunk);
  Chunk out(types_);
  out.AppendFrom(chunk, s.sel.data(), 0, s.sel.size());
  return Emit(out);
}

Status DeduplicateOperator::ProcessKeepLast(Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  // Every row may become the kept one, so the whole chunk goes to the arena in one columnar append;
  // rows that lose are released at once.
  const uint32_t base = s.arena.AppendMany(chunk, nullptr, n);
  const Chunk& rows = s.arena.rows();
  const int64_t* times =
      rowtime_ ? rows.column(static_cast<size_t>(time_column_)).data<int64_t>() : nullptr;
  s.out_ids.clear();
  s.out_kinds.clear();
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = s.key_of_row[i];
    const uint32_t id = base + static_cast<uint32_t>(i);
    const uint32_t prev = s.row[k];
    if (changelog_input_ && !IsAccumulate(chunk.kind(i))) {
      // ChangelogNormalize: the kept row (full, unlike a tombstone's key-only row) leaves as -D.
      s.arena.Release(id);
      ++s.dead_rows;
      if (prev == kNoRow) {
        ++metrics_.retractions_without_state;
        continue;
      }
      s.out_ids.push_back(prev);
      s.out_kinds.push_back(RowKind::kDelete);
      s.arena.Release(prev);
      ++s.dead_rows;
      --s.live_rows;
      s.row[k] = kNoRow;
      s.dirty.Mark(k);
      continue;
    }
    if (prev == kNoRow) {
      s.row[k] = id;
      Touch(k);
      ++s.live_rows;
      s.out_ids.push_back(id);
      s.out_kinds.push_back(RowKind::kInsert);
      continue;
    }
    // Rowtime: a newer-or-equal rowtime replaces (Flink's shouldKeepCurrentRow with keepLastRow).
    // Proctime: every later row replaces, except one equal to the kept row, which changes nothing.
    // With a state TTL Flink emits equal rows too, so downstream state is refreshed.
    // Rowtime keep-first in mini-batch: a strictly smaller rowtime replaces (keep_earliest_).
    const bool replace = rowtime_ ? (keep_earliest_ ? times[id] < times[prev] : times[prev] <= times[id])
                                  : (ttl_micros_ > 0 || !RowsEqual(rows, prev, rows, id));
    if (!replace) {
      s.arena.Release(id);
      ++s.dead_rows;
      continue;
    }
    if (emit_update_before_) {
      s.out_ids.push_back(prev);
      s.out_kinds.push_back(RowKind::kUpdateBefore);
    }
    s.out_ids.push_back(id);
    s.out_kinds.push_back(RowKind::kUpdateAfter);
    s.arena.Release(prev);
    ++s.dead_rows;
    s.row[k] = id;
    Touch(k);
  }
  RETURN_IF_ERROR(EmitGathered());
  MaybeCompact();
  return Status::OK();
}

Status DeduplicateOperator::ProcessKeepFirstRowtime(const Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  const int64_t* times = chunk.column(static_cast<size_t>(time_column_)).data<int64_t>();
  const int64_t watermark = current_watermark();
  // Pass 1: the earliest row per key within this chunk that beats the key's waiting row.
  s.touched.clear();
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = times[i];
    if (t < watermark) {
      ReportLate(chunk, i, t);
      continue;
    }
    const uint32_t k = s.key_of_row[i];
    if (s.done[k]) continue;  // already emitted: nothing different can be emitted any more
    const int32_t local = s.local_best[k];
    if (local != kNoLocal) {
      if (t < times[local]) s.local_best[k] = static_cast<int32_t>(i);
      continue;
    }
    if (s.row[k] != kNoRow && t >= s.rowtime[k]) continue;
    s.local_best[k] = static_cast<int32_t>(i);
    s.touched.push_back(k);
  }
  if (s.touched.empty()) return Status::OK();
  // Pass 2: store the winners (in arrival order, which also orders their timers) in one append.
  s.sel.clear();
  for (uint32_t k : s.touched) s.sel.push_back(static_cast<uint32_t>(s.local_best[k]));
  std::sort(s.sel.begin(), s.sel.end());
  const uint32_t base = s.arena.AppendMany(chunk, s.sel.data(), s.sel.size());
  for (size_t j = 0; j < s.sel.size(); ++j) {
    const uint32_t i = s.sel[j];
    const uint32_t k = s.key_of_row[i];
    s.local_best[k] = kNoLocal;
    if (s.row[k] != kNoRow) {
      s.arena.Release(s.row[k]);
      ++s.dead_rows;
    } else {
      ++s.live_rows;
    }
    s.row[k] = base + static_cast<uint32_t>(j);
    Touch(k);
    s.rowtime[k] = times[i];
    s.seq[k] = s.next_seq++;
    s.timers.push_back(Timer{times[i], s.seq[k], k});
    std::push_heap(s.timers.begin(), s.timers.end(), TimerLater());
  }
  MaybeCompact();
  return Status::OK();
}

Status DeduplicateOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FinishBundle());
  if (rowtime_ && !keep_last_) {
    State& s = *state_;
    const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
    s.out_ids.clear();
    s.out_kinds.clear();
    while (!s.timers.empty() && s.timers.front().rowtime <= watermark) {
      const Timer t = s.timers.front();
      std::pop_heap(s.timers.begin(), s.timers.end(), TimerLater());
      s.timers.pop_back();
      // A timer is stale when a row with a smaller rowtime replaced the one it was set for.
      if (s.done[t.key] || s.seq[t.key] != t.seq || s.row[t.key] == kNoRow) continue;
      s.out_ids.push_back(s.row[t.key]);
      s.out_kinds.push_back(RowKind::kInsert);
      s.arena.Release(s.row[t.key]);
      s.row[t.key] = kNoRow;
      s.done[t.key] = 1;
      s.dirty.Mark(t.key);
      --s.live_rows;
      ++s.dead_rows;
      if (s.out_ids.size() >= chunk_size) RETURN_IF_ERROR(EmitGathered());
    }
    RETURN_IF_ERROR(EmitGathered());
    MaybeCompact();
  }
  return EmitWatermark(watermark);
}

Status DeduplicateOperator::EmitGathered() {
  State& s = *state_;
  if (s.out_ids.empty()) return Status::OK();
  Chunk out(types_);
  s.arena.Gather(s.out_ids.data(), s.out_ids.size(), RowKind::kInsert, &out);
  std::copy(s.out_kinds.begin(), s.out_kinds.end(), out.kinds());
  s.out_ids.clear();
  s.out_kinds.clear();
  return Emit(out);
}

void DeduplicateOperator::Touch(uint32_t k) {
  State& s = *state_;
  s.dirty.Mark(k);
  if (ttl_micros_ <= 0) return;
  s.written[k] = now_micros_;
  s.expiry.push_back({now_micros_, k});
}

void DeduplicateOperator::ExpireKeys() {
  State& s = *state_;
  while (!s.expiry.empty() && s.expiry.front().first + ttl_micros_ <= now_micros_) {
    const auto [time, k] = s.expiry.front();
    s.expiry.pop_front();
    ++s.expiry_popped;
    if (s.written[k] != time) continue;  // written again since
    const bool emitted = !keep_last_ && s.done[k];
    if (s.row[k] == kNoRow && !emitted) continue;
    ++metrics_.expired_states;
    s.dirty.Mark(k);
    if (s.row[k] != kNoRow) {
      s.arena.Release(s.row[k]);
      s.row[k] = kNoRow;
      --s.live_rows;
      ++s.dead_rows;
    }
    if (!keep_last_) s.done[k] = 0;
  }
}

void DeduplicateOperator::MaybeCompact() {
  State& s = *state_;
  if (s.dead_rows < kMinDeadRowsToCompact || s.dead_rows < s.live_rows) return;
  const bool record = has_snapshot_base() && !s.delta_broken;
  if (!record) {
    Compact(s);
    return;
  }
  // After a snapshot, the next delta must replay this compaction: record the delta so far. Its rows
  // are taken from the compacted arena (they are copied there anyway), renumbered: kept[i] is now
  // row renumbered[kept[i] - first].
  const std::vector<uint32_t> kept = WriteSegmentHead(s, &s.segments);
  const size_t first = s.arena_base;
  std::vector<uint32_t> renumbered(s.arena.size() - first, kNoRow);
  Compact(s, [&](uint32_t old_id, uint32_t new_id) {
    if (old_id >= first) renumbered[old_id - first] = new_id;
  });
  std::vector<uint32_t> ids(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) ids[i] = renumbered[kept[i] - first];
  WriteSegmentRows(s, ids, &s.segments);
  ++s.num_segments;
  s.segments_bytes = s.segments.OutputSize();
  if (s.segments_bytes > s.arena.MemoryUsage()) {
    // The deltas outgrew the state: a full snapshot is smaller.
    ResetSegments(s);
    s.delta_broken = true;
  }
  ResetDeltaBase(s);
}

void DeduplicateOperator::ResetSegments(State& s) const {
  s.segments = StateWriter();
  s.segments.AllowDeferred();
  s.num_segments = 0;
  s.segments_bytes = 0;
}

void DeduplicateOperator::Compact(State& s, const std::function<void(uint32_t, uint32_t)>& renumbered) const {
  std::vector<uint32_t> live;
  live.reserve(s.live_rows);
  for (uint32_t& id : s.row) {
    if (id == kNoRow) continue;
    live.push_back(id);
    id = static_cast<uint32_t>(live.size() - 1);
  }
  RowArena fresh(types_);
  if (!live.empty()) fresh.AppendMany(s.arena.rows(), live.data(), live.size());
  if (renumbered) {
    for (size_t i = 0; i < live.size(); ++i) renumbered(live[i], static_cast<uint32_t>(i));
  }
  s.arena = std::move(fresh);
  SLUICE_CHECK_EQ(live.size(), s.live_rows);
  s.dead_rows = 0;
}

}  // namespace sluice
