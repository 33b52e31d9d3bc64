// DeduplicateOperator's checkpoints: full snapshots, deltas by segment, and their validation.
#include "runtime/operators/deduplicate_operator.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/deduplicate_state.h"
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

}  // namespace sluice
