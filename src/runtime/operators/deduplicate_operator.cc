#include "runtime/operators/deduplicate_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/state_serde.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

constexpr uint32_t kNoRow = std::numeric_limits<uint32_t>::max();
constexpr int32_t kNoLocal = -1;
// Compaction threshold: rebuild the arena once this many released rows outnumber the live ones.
constexpr size_t kMinDeadRowsToCompact = 1 << 16;

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

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
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}

  std::unordered_map<std::string, uint32_t, StringHash> key_index;
  // Per key, by index: the kept (or waiting) row, its rowtime, whether it was emitted (keep-first),
  // and the sequence number of the waiting row (to recognise stale timers).
  std::vector<uint32_t> row;
  std::vector<int64_t> rowtime;
  std::vector<uint8_t> done;
  std::vector<uint64_t> seq;
  std::vector<int64_t> written;  // processing time of the key's last write (state TTL)
  std::deque<std::pair<int64_t, uint32_t>> expiry;  // (time, key) writes in time order
  RowArena arena;
  size_t live_rows = 0;
  size_t dead_rows = 0;
  std::vector<Timer> timers;
  uint64_t next_seq = 0;

  // Scratch, reused across chunks.
  std::vector<std::string> encoded;
  std::vector<uint32_t> key_of_row;
  std::vector<uint32_t> sel;
  std::vector<int32_t> local_best;  // per key: input row that won within the current chunk
  std::vector<uint32_t> touched;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;

  uint32_t KeyIndex(std::string& key) {
    auto [it, inserted] = key_index.try_emplace(std::move(key), static_cast<uint32_t>(row.size()));
    if (inserted) {
      row.push_back(kNoRow);
      rowtime.push_back(0);
      done.push_back(0);
      seq.push_back(0);
      written.push_back(0);
      local_best.push_back(kNoLocal);
    }
    return it->second;
  }
};

DeduplicateOperator::DeduplicateOperator(std::string name, std::vector<LogicalType> types, std::vector<int> keys,
                                         int time_column, bool keep_last, bool rowtime, bool emit_update_before,
                                         bool changelog_input, int64_t state_ttl_ms)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      keys_(std::move(keys)),
      time_column_(time_column),
      keep_last_(keep_last),
      rowtime_(rowtime),
      emit_update_before_(emit_update_before),
      changelog_input_(changelog_input),
      ttl_micros_(state_ttl_ms * 1000),
      state_(std::make_unique<State>(types_)) {}

DeduplicateOperator::~DeduplicateOperator() = default;

namespace {

template <typename T>
void PutPodVector(StateWriter* w, const std::vector<T>& v) {
  w->PutVarint(v.size());
  if (!v.empty()) w->PutRaw(v.data(), v.size() * sizeof(T));
}

template <typename T>
void GetPodVector(StateReader* r, size_t expected, std::vector<T>* v) {
  const size_t n = r->GetCount(sizeof(T));
  if (r->ok() && n != expected) r->Fail("per-key vectors differ in length");
  if (!r->ok()) return;
  v->resize(n);
  if (n > 0) r->GetRaw(v->data(), n * sizeof(T));
}

}  // namespace

Status DeduplicateOperator::SnapshotState(StateWriter* w) {
  State& st = *state_;
  w->PutTag("deduplicate");
  w->PutVarint(st.row.size());
  std::vector<const std::string*> keys(st.row.size(), nullptr);
  for (const auto& [key, idx] : st.key_index) keys[idx] = &key;
  for (const std::string* k : keys) w->PutString(k ? *k : std::string());
  // Only the kept rows go into the checkpoint (the arena may hold many released ones).
  std::vector<uint32_t> live;
  std::vector<uint32_t> remapped(st.row.size(), kNoRow);
  for (size_t k = 0; k < st.row.size(); ++k) {
    if (st.row[k] == kNoRow) continue;
    remapped[k] = static_cast<uint32_t>(live.size());
    live.push_back(st.row[k]);
  }
  PutPodVector(w, remapped);
  PutPodVector(w, st.rowtime);
  PutPodVector(w, st.done);
  PutPodVector(w, st.seq);
  PutPodVector(w, st.written);
  w->PutVarint(st.expiry.size());
  for (const auto& [t, k] : st.expiry) {
    w->PutI64(t);
    w->PutU32(k);
  }
  st.arena.SnapshotRows(live, w);
  w->PutVarint(live.size());
  w->PutVarint(0);
  w->PutVarint(st.timers.size());
  for (const Timer& t : st.timers) {
    w->PutI64(t.rowtime);
    w->PutU64(t.seq);
    w->PutU32(t.key);
  }
  w->PutU64(st.next_seq);
  return Status::OK();
}

Status DeduplicateOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(types_);
  State& st = *fresh;
  r->ExpectTag("deduplicate");
  const size_t nkeys = r->GetCount(1);
  for (size_t i = 0; i < nkeys && r->ok(); ++i) st.key_index.emplace(r->GetString(), static_cast<uint32_t>(i));
  if (r->ok() && st.key_index.size() != nkeys) r->Fail("duplicate keys");
  GetPodVector(r, nkeys, &st.row);
  GetPodVector(r, nkeys, &st.rowtime);
  GetPodVector(r, nkeys, &st.done);
  GetPodVector(r, nkeys, &st.seq);
  GetPodVector(r, nkeys, &st.written);
  st.local_best.assign(nkeys, kNoLocal);
  const size_t nexp = r->GetCount(12);
  for (size_t i = 0; i < nexp && r->ok(); ++i) {
    const int64_t t = r->GetI64();
    const uint32_t k = r->GetU32();
    if (k >= nkeys) r->Fail("expiry entry for an unknown key");
    st.expiry.emplace_back(t, k);
  }
  st.arena.Restore(r);
  st.live_rows = r->GetCount(0);
  st.dead_rows = r->GetCount(0);
  const size_t ntimers = r->GetCount(20);
  for (size_t i = 0; i < ntimers && r->ok(); ++i) {
    Timer t;
    t.rowtime = r->GetI64();
    t.seq = r->GetU64();
    t.key = r->GetU32();
    if (t.key >= nkeys) r->Fail("timer for an unknown key");
    st.timers.push_back(t);
  }
  st.next_seq = r->GetU64();
  for (uint32_t id : st.row) {
    if (r->ok() && id != kNoRow && id >= st.arena.rows().size()) r->Fail("kept row outside the arena");
  }
  RETURN_IF_ERROR(r->status());
  state_ = std::move(fresh);
  return Status::OK();
}

size_t DeduplicateOperator::num_keys() const { return state_->key_index.size(); }
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

Status DeduplicateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  RETURN_IF_ERROR(CheckInput(chunk));
  if (ttl_micros_ > 0) {
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    now_micros_ = clock ? clock->NowMicros() : 0;
    ExpireKeys();
  }
  State& s = *state_;
  EncodeKeys(chunk, keys_, &s.encoded);
  s.key_of_row.resize(n);
  for (size_t i = 0; i < n; ++i) s.key_of_row[i] = s.KeyIndex(s.encoded[i]);
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
    const bool replace = rowtime_ ? times[prev] <= times[id] : (ttl_micros_ > 0 || !RowsEqual(rows, prev, rows, id));
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
  if (ttl_micros_ <= 0) return;
  State& s = *state_;
  s.written[k] = now_micros_;
  s.expiry.push_back({now_micros_, k});
}

void DeduplicateOperator::ExpireKeys() {
  State& s = *state_;
  while (!s.expiry.empty() && s.expiry.front().first + ttl_micros_ <= now_micros_) {
    const auto [time, k] = s.expiry.front();
    s.expiry.pop_front();
    if (s.written[k] != time) continue;  // written again since
    if (s.row[k] == kNoRow && !s.done[k]) continue;
    ++metrics_.expired_states;
    if (s.row[k] != kNoRow) {
      s.arena.Release(s.row[k]);
      s.row[k] = kNoRow;
      --s.live_rows;
      ++s.dead_rows;
    }
    s.done[k] = 0;
  }
}

void DeduplicateOperator::MaybeCompact() {
  State& s = *state_;
  if (s.dead_rows < kMinDeadRowsToCompact || s.dead_rows < s.live_rows) return;
  std::vector<uint32_t> live;
  live.reserve(s.live_rows);
  for (uint32_t& id : s.row) {
    if (id == kNoRow) continue;
    live.push_back(id);
    id = static_cast<uint32_t>(live.size() - 1);
  }
  RowArena fresh(types_);
  if (!live.empty()) fresh.AppendMany(s.arena.rows(), live.data(), live.size());
  s.arena = std::move(fresh);
  SLUICE_CHECK_EQ(live.size(), s.live_rows);
  s.dead_rows = 0;
}

}  // namespace sluice
