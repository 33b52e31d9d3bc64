#include "runtime/operators/sort_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "common/check.h"
#include "runtime/job.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

// Rebuild an arena once this many released rows outnumber the live ones.
constexpr size_t kMinDeadRowsToCompact = 1 << 16;

size_t OutputChunkSize(const JobContext* ctx) {
  return ctx && ctx->chunk_size > 0 ? ctx->chunk_size : Chunk::kDefaultCapacity;
}

Status CheckSortColumns(const std::string& op, const std::vector<LogicalType>& types, const std::vector<SortSpec>& order) {
  const int width = static_cast<int>(types.size());
  for (const SortSpec& o : order) {
    if (o.column < 0 || o.column >= width) {
      return Status::InvalidArgument(op + ": ORDER BY column " + std::to_string(o.column) + " is outside the " +
                                     std::to_string(width) + " input columns");
    }
    const LogicalType& t = types[static_cast<size_t>(o.column)];
    if (!IsSortKeyEncodable(t)) {
      return Status::NotSupported(op + ": cannot ORDER BY a column of type " + t.ToString() + "; nested types have no order");
    }
  }
  return Status::OK();
}

Status CheckInsertOnly(const std::string& op, const Chunk& chunk) {
  if (chunk.AllInserts()) return Status::OK();
  for (size_t i = 0; i < chunk.size(); ++i) {
    if (chunk.kind(i) != RowKind::kInsert) {
      return Status::InvalidArgument(op + " was planned for an insert-only input but received a " +
                                     std::string(RowKindShortString(chunk.kind(i))) + " change");
    }
  }
  return Status::OK();
}

// Appends the encoded ORDER BY keys of row `row` of `chunk` to `out`, from key `first` on.
void EncodeOrder(const Chunk& chunk, size_t row, const std::vector<SortSpec>& order, size_t first, std::string* out) {
  for (size_t k = first; k < order.size(); ++k) {
    const SortSpec& o = order[k];
    EncodeSortKeyValue(chunk.column(static_cast<size_t>(o.column)), row, o.ascending, o.nulls_first, out);
  }
}

// Appends the encoding of the whole row `row` of `chunk` (the retraction index's key: what
// EncodeKeys writes for that row over every column).
void EncodeWholeRow(const Chunk& chunk, size_t row, std::string* out) {
  for (size_t c = 0; c < chunk.num_columns(); ++c) EncodeKeyValue(chunk.column(c), row, out);
}

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

}  // namespace

// ------------------------------------------------------------------------------------------------
// TemporalSortOperator

struct TemporalSortOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}

  struct Waiting {
    int64_t rowtime;
    uint32_t id;
  };
  // Encoded (rowtime, remaining keys) -> waiting rows; equal keys stay in arrival order (a multimap
  // inserts an equal key after the ones already there).
  std::multimap<std::string, Waiting> waiting;
  RowArena arena;
  std::vector<uint8_t> in_wait;  // per arena row: 1 while it waits, 0 once it left
  size_t dead_rows = 0;  // released arena rows (the arena's own count)
  bool fired = false;
  int64_t last_fired = 0;  // the largest rowtime emitted so far (valid when `fired`)

  // Delta base (the last snapshot or restore): the arena's size then, and how many of the rows
  // waiting then left since. `renumbered`: a compaction renumbered the rows since.
  bool renumbered = false;
  size_t arena_base = 0;
  size_t base_left = 0;

  std::vector<uint32_t> sel;
  std::vector<uint32_t> out_ids;
  std::string key;
};

void TemporalSortOperator::ResetDeltaBase() {
  State& s = *state_;
  s.renumbered = false;
  s.arena_base = s.arena.size();
  s.base_left = 0;
}

void TemporalSortOperator::DropState() { state_ = std::make_unique<State>(types_); }

bool TemporalSortOperator::CanSnapshotDelta() const { return has_snapshot_base() && !state_->renumbered; }

Status TemporalSortOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("temporal-sort");
  s.arena.Snapshot(w);
  // Which rows wait; the waiting map is rebuilt from them.
  PutColumn(w, s.in_wait);
  w->PutBool(s.fired);
  w->PutI64(s.last_fired);
  ResetDeltaBase();
  return Status::OK();
}

void TemporalSortOperator::CheckRestored(StateReader* r) const {
  const State& s = *state_;
  if (!r->ok()) return;
  if (s.waiting.size() != s.arena.live()) {
    r->Fail("the temporal sort holds " + std::to_string(s.waiting.size()) + " waiting rows but " +
            std::to_string(s.arena.live()) + " live stored rows");
  } else if (!s.fired && s.last_fired != 0) {
    r->Fail("the temporal sort has a last emitted rowtime but emitted nothing");
  } else if (s.fired && !s.waiting.empty() && s.waiting.begin()->second.rowtime <= s.last_fired) {
    r->Fail("a waiting row of the temporal sort is not after the last emitted rowtime");
  }
}

// Adds the rows [begin, arena size) whose in_wait flag is set to the waiting map, in id order (ties
// after the rows already there, as they arrived). Refuses flags other than 0/1 and rows without a
// rowtime.
void TemporalSortOperator::AddWaitingRows(size_t begin, StateReader* r) {
  State& s = *state_;
  const Chunk& rows = s.arena.rows();
  const Vector& times = rows.column(static_cast<size_t>(order_[0].column));
  for (size_t id = begin; id < rows.size(); ++id) {
    if (s.in_wait[id] > 1 || (s.in_wait[id] == 1 && times.IsNull(id))) {
      r->Fail("row " + std::to_string(id) + " of the temporal sort has a bad waiting flag or no rowtime");
      return;
    }
    if (s.in_wait[id] == 0) continue;
    s.key.clear();
    EncodeOrder(rows, id, order_, 0, &s.key);
    s.waiting.emplace(s.key, State::Waiting{times.data<int64_t>()[id], static_cast<uint32_t>(id)});
  }
}

Status TemporalSortOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("temporal-sort");
  s.arena.Restore(r);
  GetColumn(r, &s.in_wait);
  s.fired = r->GetBool();
  s.last_fired = r->GetI64();
  if (r->ok() && s.in_wait.size() != s.arena.size()) {
    r->Fail("the temporal sort has " + std::to_string(s.in_wait.size()) + " waiting flags for " +
            std::to_string(s.arena.size()) + " rows");
  }
  RETURN_IF_ERROR(r->status());
  AddWaitingRows(0, r);
  s.dead_rows = s.arena.size() - s.arena.live();
  CheckRestored(r);
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

Status TemporalSortOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("temporal-sort-delta");
  s.arena.SnapshotTail(s.arena_base, w);
  // Rows leave in key order, so the base's rows that left are the first base_left of its order.
  w->PutVarint(s.base_left);
  // Which appended rows still wait.
  const size_t tail = s.in_wait.size() - s.arena_base;
  w->PutVarint(tail);
  if (tail > 0) w->PutRaw(s.in_wait.data() + s.arena_base, tail);
  w->PutBool(s.fired);
  w->PutI64(s.last_fired);
  ResetDeltaBase();
  return Status::OK();
}

Status TemporalSortOperator::RestoreDelta(StateReader* r) {
  State& s = *state_;
  r->ExpectTag("temporal-sort-delta");
  if (r->ok() && (s.renumbered || s.arena_base != s.arena.size() || s.base_left != 0)) {
    r->Fail("a temporal sort state delta applied to a state that changed since its last snapshot or restore");
  }
  RETURN_IF_ERROR(r->status());
  const size_t base = s.arena.size();
  s.arena.RestoreAppend(r);
  const size_t base_left = r->GetCount(0);
  const size_t tail = r->GetCount(1);
  if (r->ok() && tail != s.arena.size() - base) {
    r->Fail("a temporal sort state delta has " + std::to_string(tail) + " waiting flags for " +
            std::to_string(s.arena.size() - base) + " new rows");
  }
  if (r->ok() && base_left > s.waiting.size()) {
    r->Fail("a temporal sort state delta removes " + std::to_string(base_left) + " of " +
            std::to_string(s.waiting.size()) + " waiting rows");
  }
  RETURN_IF_ERROR(r->status());
  s.in_wait.resize(base + tail);
  if (tail > 0) r->GetRaw(s.in_wait.data() + base, tail);
  s.fired = r->GetBool();
  s.last_fired = r->GetI64();
  RETURN_IF_ERROR(r->status());
  // The base's rows that left (the first ones of its order), then the appended rows still waiting.
  auto end = std::next(s.waiting.begin(), static_cast<std::ptrdiff_t>(base_left));
  for (auto it = s.waiting.begin(); it != end; ++it) s.in_wait[it->second.id] = 0;
  s.waiting.erase(s.waiting.begin(), end);
  AddWaitingRows(base, r);
  s.dead_rows = s.arena.size() - s.arena.live();
  CheckRestored(r);
  // Partly applied: Operator::ApplyDelta drops the state (DropState).
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

TemporalSortOperator::TemporalSortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order,
                                           bool rowtime)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      order_(std::move(order)),
      rowtime_(rowtime),
      state_(std::make_unique<State>(types_)) {}

TemporalSortOperator::~TemporalSortOperator() = default;

size_t TemporalSortOperator::state_rows() const { return state_->waiting.size(); }

Status TemporalSortOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (order_.empty()) return Status::InvalidArgument("TemporalSort '" + name() + "' needs an ORDER BY key");
  RETURN_IF_ERROR(CheckSortColumns("TemporalSort '" + name() + "'", types_, order_));
  const LogicalType& t = types_[static_cast<size_t>(order_[0].column)];
  if (t.id() != TypeId::kTimestamp && t.id() != TypeId::kTimestampLtz) {
    return Status::InvalidArgument("TemporalSort '" + name() + "': the first ORDER BY key must be a time attribute, not " +
                                   t.ToString());
  }
  return Status::OK();
}

size_t TemporalSortOperator::StateBytes() const {
  const State& s = *state_;
  return s.arena.MemoryUsage() + VectorBytes(s.in_wait) +
         NodeBytes(s.waiting.size(), sizeof(decltype(s.waiting)::value_type));
}

Status TemporalSortOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  RETURN_IF_ERROR(CheckInsertOnly("TemporalSort '" + name() + "'", chunk));
  if (!rowtime_) return Emit(chunk);  // each row is alone at its processing-time instant
  State& s = *state_;
  const Vector& times = chunk.column(static_cast<size_t>(order_[0].column));
  const int64_t* t = times.data<int64_t>();
  // Rows of one chunk arrive between two watermarks, so `last_fired` holds for all of them.
  s.sel.clear();
  for (size_t i = 0; i < n; ++i) {
    if (times.IsNull(i) || (s.fired && t[i] <= s.last_fired)) {
      ReportLate(chunk, i, times.IsNull(i) ? std::nullopt : std::optional<int64_t>(t[i]));
      continue;
    }
    s.sel.push_back(static_cast<uint32_t>(i));
  }
  if (s.sel.empty()) return Status::OK();
  const uint32_t base = s.arena.AppendMany(chunk, s.sel.data(), s.sel.size());
  s.in_wait.resize(s.in_wait.size() + s.sel.size(), 1);
  for (size_t j = 0; j < s.sel.size(); ++j) {
    const size_t row = s.sel[j];
    s.key.clear();
    EncodeOrder(chunk, row, order_, 0, &s.key);
    s.waiting.emplace(s.key, State::Waiting{t[row], base + static_cast<uint32_t>(j)});
  }
  return Status::OK();
}

Status TemporalSortOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  const size_t chunk_size = OutputChunkSize(ctx_);
  auto flush = [&]() -> Status {
    if (s.out_ids.empty()) return Status::OK();
    Chunk out(types_);
    s.arena.Gather(s.out_ids.data(), s.out_ids.size(), RowKind::kInsert, &out);
    s.out_ids.clear();
    return Emit(out);
  };
  // The waiting rows are ordered by rowtime first, so the due ones form a prefix.
  auto it = s.waiting.begin();
  while (it != s.waiting.end() && it->second.rowtime <= watermark) {
    const uint32_t id = it->second.id;
    s.out_ids.push_back(id);
    s.arena.Release(id);
    s.in_wait[id] = 0;
    ++s.dead_rows;
    if (id < s.arena_base) ++s.base_left;
    s.fired = true;
    s.last_fired = it->second.rowtime;
    it = s.waiting.erase(it);
    if (s.out_ids.size() >= chunk_size) RETURN_IF_ERROR(flush());
  }
  RETURN_IF_ERROR(flush());
  MaybeCompact();
  return EmitWatermark(watermark);
}

void TemporalSortOperator::MaybeCompact() {
  State& s = *state_;
  if (s.dead_rows < kMinDeadRowsToCompact || s.dead_rows < s.waiting.size()) return;
  std::vector<uint32_t> live;
  live.reserve(s.waiting.size());
  for (auto& [key, w] : s.waiting) {
    live.push_back(w.id);
    w.id = static_cast<uint32_t>(live.size() - 1);
  }
  RowArena fresh(types_);
  if (!live.empty()) fresh.AppendMany(s.arena.rows(), live.data(), live.size());
  s.arena = std::move(fresh);
  s.in_wait.assign(live.size(), 1);
  s.dead_rows = 0;
  // Ids changed: no delta until the next full snapshot.
  s.renumbered = true;
  s.arena_base = 0;
  s.base_left = 0;
}

// ------------------------------------------------------------------------------------------------
// SortOperator

struct SortOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}

  RowArena arena;
  std::vector<uint8_t> alive;  // per arena row
  size_t live_rows = 0;
  // Folding retractions: encoded whole row -> ids of its live copies, oldest first.
  std::unordered_map<std::string, std::vector<uint32_t>, StringHash> copies;

  // Delta base (the last snapshot or restore): the arena's size then, and the ids released since
  // (recorded only while `tracking`: there is a base).
  bool tracking = false;
  size_t arena_base = 0;
  std::vector<uint32_t> released;

  std::vector<std::string> encoded;
  std::vector<uint32_t> sel;
};

SortOperator::SortOperator(std::string name, std::vector<LogicalType> types, std::vector<SortSpec> order, int64_t offset,
                           int64_t fetch, bool input_has_retractions)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      order_(std::move(order)),
      offset_(offset),
      fetch_(fetch),
      input_has_retractions_(input_has_retractions),
      state_(std::make_unique<State>(types_)) {}

SortOperator::~SortOperator() = default;

size_t SortOperator::state_rows() const { return state_->live_rows; }

Status SortOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (offset_ < 0 || fetch_ < -1) {
    return Status::InvalidArgument("Sort '" + name() + "': invalid offset " + std::to_string(offset_) + " or fetch " +
                                   std::to_string(fetch_));
  }
  return CheckSortColumns("Sort '" + name() + "'", types_, order_);
}

size_t SortOperator::StateBytes() const {
  const State& s = *state_;
  return s.arena.MemoryUsage() + VectorBytes(s.alive) + VectorBytes(s.released) +
         NodeBytes(s.copies.size(), sizeof(std::pair<const std::string, std::vector<uint32_t>>)) +
         (s.copies.empty() ? 0 : s.live_rows * sizeof(uint32_t));
}

Status SortOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  State& s = *state_;
  if (!input_has_retractions_) RETURN_IF_ERROR(CheckInsertOnly("Sort '" + name() + "'", chunk));
  if (chunk.AllInserts() && !input_has_retractions_) {
    size_t take = n;
    if (order_.empty() && fetch_ >= 0) {
      // A Limit over insert-only input never needs more than its first offset + fetch rows.
      const uint64_t wanted = static_cast<uint64_t>(offset_) + static_cast<uint64_t>(fetch_);
      take = wanted > s.live_rows ? static_cast<size_t>(std::min<uint64_t>(n, wanted - s.live_rows)) : 0;
    }
    if (take == 0) return Status::OK();
    s.sel.resize(take);
    std::iota(s.sel.begin(), s.sel.end(), 0u);
    s.arena.AppendMany(chunk, s.sel.data(), take);
    s.alive.resize(s.alive.size() + take, 1);
    s.live_rows += take;
    return Status::OK();
  }
  std::vector<int> all(types_.size());
  std::iota(all.begin(), all.end(), 0);
  EncodeKeys(chunk, all, &s.encoded);
  // Accumulations are stored in one columnar append; retractions then find their copy (a row added
  // and retracted within this chunk included, since ids are registered in arrival order below).
  s.sel.clear();
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) s.sel.push_back(static_cast<uint32_t>(i));
  }
  uint32_t next_id = s.sel.empty() ? 0 : s.arena.AppendMany(chunk, s.sel.data(), s.sel.size());
  s.alive.resize(s.alive.size() + s.sel.size(), 1);
  s.live_rows += s.sel.size();
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) {
      s.copies[s.encoded[i]].push_back(next_id++);
      continue;
    }
    auto it = s.copies.find(s.encoded[i]);
    if (it == s.copies.end() || it->second.empty()) {
      ++metrics_.retractions_without_state;
      continue;
    }
    // The most recent equal row goes, as the folded result table does.
    const uint32_t id = it->second.back();
    it->second.pop_back();
    if (it->second.empty()) s.copies.erase(it);
    s.alive[id] = 0;
    s.arena.Release(id);
    --s.live_rows;
    if (s.tracking) s.released.push_back(id);
  }
  return Status::OK();
}

void SortOperator::ResetDeltaBase() {
  State& s = *state_;
  s.tracking = true;
  s.arena_base = s.arena.size();
  s.released.clear();
}

void SortOperator::DropState() { state_ = std::make_unique<State>(types_); }

bool SortOperator::CanSnapshotDelta() const { return has_snapshot_base(); }

void SortOperator::Compact() {
  State& s = *state_;
  std::vector<uint32_t> live;
  live.reserve(s.live_rows);
  std::vector<uint32_t> renumber(s.alive.size(), 0);
  for (uint32_t id = 0; id < s.alive.size(); ++id) {
    if (!s.alive[id]) continue;
    renumber[id] = static_cast<uint32_t>(live.size());
    live.push_back(id);
  }
  RowArena fresh(types_);
  if (!live.empty()) fresh.AppendMany(s.arena.rows(), live.data(), live.size());
  s.arena = std::move(fresh);
  s.alive.assign(live.size(), 1);
  for (auto& [row, ids] : s.copies) {
    for (uint32_t& id : ids) id = renumber[id];
  }
}

Status SortOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  // Released slots are written too (ids must stay valid for the deltas after this snapshot), unless
  // they are more than an eighth of the arena: then the live rows are renumbered first.
  const size_t dead = s.arena.size() - s.live_rows;
  if (dead > 0 && dead * 8 > s.arena.size()) Compact();
  std::vector<uint32_t> released;
  released.reserve(s.arena.size() - s.live_rows);
  for (uint32_t id = 0; id < s.alive.size() && released.size() < s.arena.size() - s.live_rows; ++id) {
    if (!s.alive[id]) released.push_back(id);
  }
  w->PutTag("sort");
  s.arena.Snapshot(w);
  PutColumn(w, released);
  ResetDeltaBase();
  return Status::OK();
}

void SortOperator::FinishRestore(StateReader* r) {
  State& s = *state_;
  if (!r->ok()) return;
  const size_t n = s.arena.size();
  if (s.alive.size() != n || s.live_rows != s.arena.live()) {
    r->Fail("the sort holds " + std::to_string(s.live_rows) + " live rows but its arena " +
            std::to_string(s.arena.live()) + " of " + std::to_string(n));
    return;
  }
  if (!input_has_retractions_ && s.live_rows != n) {
    r->Fail("the sort of an insert-only input holds released rows");
    return;
  }
  // A Limit over insert-only input never holds more than its first offset + fetch rows.
  if (order_.empty() && fetch_ >= 0 && !input_has_retractions_ &&
      static_cast<uint64_t>(n) > static_cast<uint64_t>(offset_) + static_cast<uint64_t>(fetch_)) {
    r->Fail("the sort holds " + std::to_string(n) + " rows, more than its LIMIT keeps");
  }
}

Status SortOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("sort");
  s.arena.Restore(r);
  std::vector<uint32_t> released;
  GetColumn(r, &released);
  RETURN_IF_ERROR(r->status());
  const size_t n = s.arena.size();
  s.alive.assign(n, 1);
  for (size_t i = 0; i < released.size(); ++i) {
    const uint32_t id = released[i];
    if (id >= n || (i > 0 && id <= released[i - 1])) {
      r->Fail("the sort's released rows are out of order or outside its " + std::to_string(n) + " rows");
      break;
    }
    s.alive[id] = 0;
  }
  RETURN_IF_ERROR(r->status());
  s.live_rows = n - released.size();
  FinishRestore(r);
  RETURN_IF_ERROR(r->status());
  if (input_has_retractions_) {
    // The retraction index maps each whole row to its live copies, oldest first (ids are arrival
    // order).
    std::string key;
    for (uint32_t id = 0; id < n; ++id) {
      if (!s.alive[id]) continue;
      key.clear();
      EncodeWholeRow(s.arena.rows(), id, &key);
      s.copies[key].push_back(id);
    }
  }
  ResetDeltaBase();
  return Status::OK();
}

Status SortOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("sort-delta");
  s.arena.SnapshotTail(s.arena_base, w);
  PutColumn(w, s.released);  // base rows and new ones, in the order the retractions released them
  w->PutVarint(s.live_rows);
  ResetDeltaBase();
  return Status::OK();
}

Status SortOperator::RestoreDelta(StateReader* r) {
  State& s = *state_;
  r->ExpectTag("sort-delta");
  if (r->ok() && (!s.tracking || s.arena_base != s.arena.size() || !s.released.empty())) {
    r->Fail("a sort state delta applied to a state that changed since its last snapshot or restore");
  }
  RETURN_IF_ERROR(r->status());
  const size_t base = s.arena.size();
  s.arena.RestoreAppend(r);
  std::vector<uint32_t> released;
  GetColumn(r, &released);
  const size_t live = r->GetCount(0);
  RETURN_IF_ERROR(r->status());
  const size_t n = s.arena.size();
  s.alive.resize(n, 1);
  s.live_rows += n - base;
  std::string key;
  for (uint32_t id : released) {
    if (id >= n || !s.alive[id]) {
      r->Fail("a sort state delta releases row " + std::to_string(id) + ", which is not a live one of " +
              std::to_string(n));
      break;
    }
    s.alive[id] = 0;
    --s.live_rows;
    if (id >= base || !input_has_retractions_) continue;
    // A base row leaves the retraction index (new rows are added below only if still live).
    key.clear();
    EncodeWholeRow(s.arena.rows(), id, &key);
    auto it = s.copies.find(key);
    SLUICE_CHECK(it != s.copies.end());  // every live base row is indexed
    auto pos = std::find(it->second.rbegin(), it->second.rend(), id);
    SLUICE_CHECK(pos != it->second.rend());
    it->second.erase(std::next(pos).base());
    if (it->second.empty()) s.copies.erase(it);
  }
  if (r->ok() && live != s.live_rows) {
    r->Fail("a sort state delta expects " + std::to_string(live) + " live rows, not " + std::to_string(s.live_rows));
  }
  FinishRestore(r);
  // Partly applied: Operator::ApplyDelta drops the state (DropState).
  RETURN_IF_ERROR(r->status());
  if (input_has_retractions_) {
    for (size_t id = base; id < n; ++id) {
      if (!s.alive[id]) continue;
      key.clear();
      EncodeWholeRow(s.arena.rows(), id, &key);
      s.copies[key].push_back(static_cast<uint32_t>(id));
    }
  }
  ResetDeltaBase();
  return Status::OK();
}

Status SortOperator::OnWatermark(int64_t) {
  // Every row leaves at the end of the input; an earlier watermark would make them late downstream.
  return Status::OK();
}

Status SortOperator::OnEndOfInput() {
  State& s = *state_;
  const Chunk& rows = s.arena.rows();
  std::vector<uint32_t> ids;
  ids.reserve(s.live_rows);
  for (uint32_t id = 0; id < s.alive.size(); ++id) {
    if (s.alive[id]) ids.push_back(id);
  }
  if (!order_.empty()) {
    std::vector<std::string> keys(rows.size());
    for (uint32_t id : ids) EncodeOrder(rows, id, order_, 0, &keys[id]);
    std::stable_sort(ids.begin(), ids.end(), [&keys](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  }
  const size_t begin = std::min(ids.size(), static_cast<size_t>(offset_));
  size_t end = ids.size();
  if (fetch_ >= 0) end = std::min(end, begin + static_cast<size_t>(fetch_));
  const size_t chunk_size = OutputChunkSize(ctx_);
  for (size_t i = begin; i < end; i += chunk_size) {
    const size_t count = std::min(chunk_size, end - i);
    Chunk out(types_);
    s.arena.Gather(ids.data() + i, count, RowKind::kInsert, &out);
    RETURN_IF_ERROR(Emit(out));
  }
  RETURN_IF_ERROR(EmitWatermark(kMaxWatermark));
  return EmitEndOfInput();
}

}  // namespace sluice
