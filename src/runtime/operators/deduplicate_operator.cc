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
#include "state/kept_rows.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "state/sort_key.h"
#include "types/value.h"

namespace sluice {

DeduplicateOperator::DeduplicateOperator(std::string name, std::vector<LogicalType> types, std::vector<int> keys,
                                         int time_column, bool keep_last, bool rowtime, bool emit_update_before,
                                         bool changelog_input, int64_t state_ttl_ms, int64_t mini_batch_size,
                                         ExprPtr filter_condition)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      keys_(std::move(keys)),
      time_column_(time_column),
      keep_last_(keep_last || (rowtime && mini_batch_size > 0)),
      keep_earliest_(!keep_last && rowtime && mini_batch_size > 0),
      rowtime_(rowtime),
      emit_update_before_(emit_update_before),
      changelog_input_(changelog_input),
      condition_(std::move(filter_condition)),
      ttl_micros_(state_ttl_ms * 1000),
      state_(std::make_unique<State>(types_)),
      bundle_({types_}, mini_batch_size) {}

DeduplicateOperator::~DeduplicateOperator() = default;

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
  if (condition_) {
    if (!changelog_input_ || !keep_last_ || rowtime_) {
      return Status::Internal("Deduplicate '" + name() + "': a filter condition needs a ChangelogNormalize");
    }
    condition_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{condition_}, ctx->eval);
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
  s.keys.InsertMany(s.encoded.data(), n, s.key_of_row.data());
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

Status DeduplicateOperator::EvaluateCondition(const Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  s.passes.assign(n, 0);
  // CURRENT_WATERMARK() reads this operator's watermark.
  if (ctx_ && ctx_->eval) ctx_->eval->current_watermark = current_watermark();
  // Only +I/+U rows are tested; a condition that cannot fail may run over the deletes too.
  std::vector<uint32_t>& rows = s.sel;
  rows.clear();
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) rows.push_back(static_cast<uint32_t>(i));
  }
  std::vector<uint32_t> passing;
  if (rows.size() == n || ExprCannotFail(*condition_)) {
    RETURN_IF_ERROR(condition_eval_->Filter(chunk, &passing));
    for (uint32_t i : passing) s.passes[i] = 1;
    return Status::OK();
  }
  Chunk accumulate(types_);
  accumulate.AppendFrom(chunk, rows.data(), 0, rows.size());
  RETURN_IF_ERROR(condition_eval_->Filter(accumulate, &passing));
  for (uint32_t j : passing) s.passes[rows[j]] = 1;
  return Status::OK();
}

Status DeduplicateOperator::ProcessKeepLast(Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  const bool filtered = condition_eval_ != nullptr;
  if (filtered) RETURN_IF_ERROR(EvaluateCondition(chunk));
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
      if (filtered && !s.passes[i]) {
        // A new key's row that does not pass is not kept.
        s.arena.Release(id);
        ++s.dead_rows;
        continue;
      }
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
    if (filtered && !s.passes[i]) {
      // The kept row no longer passes: it leaves as -D and the key is forgotten.
      s.out_ids.push_back(prev);
      s.out_kinds.push_back(RowKind::kDelete);
      s.arena.Release(prev);
      s.arena.Release(id);
      s.dead_rows += 2;
      --s.live_rows;
      s.row[k] = kNoRow;
      s.dirty.Mark(k);
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
  // Released rows are compacted away once they reach half the live ones: the arena holds at most 1.5
  // times its live rows (q18 at 10M events: 972 MiB peak against 1,049 MiB when compacting at as many
  // released as live rows, for about 6% more CPU).
  if (s.dead_rows < kMinDeadRowsToCompact || 2 * s.dead_rows < s.live_rows) return;
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
  // The kept rows stay in arena order, so the arena moves them front to back (in place for its
  // fixed-width columns: RowArena::Retain).
  KeptRows kept(s.arena.size());
  for (uint32_t id : s.row) {
    if (id != kNoRow) kept.Mark(id);
  }
  kept.Finish();
  const std::vector<uint32_t>& live = kept.ids();
  SLUICE_CHECK_EQ(live.size(), s.live_rows);
  for (uint32_t& id : s.row) {
    if (id != kNoRow) id = kept.NewId(id);
  }
  s.arena.Retain(live.data(), live.size());
  if (renumbered) {
    for (size_t i = 0; i < live.size(); ++i) renumbered(live[i], static_cast<uint32_t>(i));
  }
  s.dead_rows = 0;
}

}  // namespace sluice
