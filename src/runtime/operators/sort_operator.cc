#include "runtime/operators/sort_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "common/check.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
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
  size_t dead_rows = 0;
  bool fired = false;
  int64_t last_fired = 0;  // the largest rowtime emitted so far (valid when `fired`)

  std::vector<uint32_t> sel;
  std::vector<uint32_t> out_ids;
  std::string key;
};

Status TemporalSortOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("temporal-sort");
  w->PutVarint(s.waiting.size());
  for (const auto& [key, wt] : s.waiting) {  // in key order, equal keys in arrival order
    w->PutString(key);
    w->PutI64(wt.rowtime);
    w->PutU32(wt.id);
  }
  s.arena.Snapshot(w);
  w->PutVarint(s.dead_rows);
  w->PutBool(s.fired);
  w->PutI64(s.last_fired);
  return Status::OK();
}

Status TemporalSortOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(types_);
  State& s = *fresh;
  r->ExpectTag("temporal-sort");
  const size_t n = r->GetCount(13);
  std::vector<uint32_t> ids;
  for (size_t i = 0; i < n && r->ok(); ++i) {
    std::string key = r->GetString();
    State::Waiting wt;
    wt.rowtime = r->GetI64();
    wt.id = r->GetU32();
    ids.push_back(wt.id);
    s.waiting.emplace_hint(s.waiting.end(), std::move(key), wt);
  }
  s.arena.Restore(r);
  s.dead_rows = r->GetCount(0);
  s.fired = r->GetBool();
  s.last_fired = r->GetI64();
  for (uint32_t id : ids) {
    if (r->ok() && id >= s.arena.rows().size()) r->Fail("waiting row outside the arena");
  }
  RETURN_IF_ERROR(r->status());
  state_ = std::move(fresh);
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
    s.out_ids.push_back(it->second.id);
    s.arena.Release(it->second.id);
    ++s.dead_rows;
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
  s.dead_rows = 0;
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
  }
  return Status::OK();
}

Status SortOperator::SnapshotState(StateWriter* w) {
  const State& s = *state_;
  std::vector<uint32_t> live;
  live.reserve(s.live_rows);
  for (uint32_t id = 0; id < s.alive.size(); ++id) {
    if (s.alive[id]) live.push_back(id);
  }
  w->PutTag("sort");
  s.arena.SnapshotRows(live, w);
  return Status::OK();
}

Status SortOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(types_);
  State& s = *fresh;
  r->ExpectTag("sort");
  s.arena.Restore(r);
  // SnapshotRows writes no released rows; a count here means the bytes are not a sort's snapshot.
  if (r->ok() && s.arena.live() != s.arena.size()) r->Fail("the sort's rows include released rows");
  RETURN_IF_ERROR(r->status());
  const size_t n = s.arena.size();
  // A Limit over insert-only input never holds more than its first offset + fetch rows.
  if (order_.empty() && fetch_ >= 0 && !input_has_retractions_ &&
      static_cast<uint64_t>(n) > static_cast<uint64_t>(offset_) + static_cast<uint64_t>(fetch_)) {
    r->Fail("the sort holds " + std::to_string(n) + " rows, more than its LIMIT keeps");
    return r->status();
  }
  s.alive.assign(n, 1);
  s.live_rows = n;
  if (input_has_retractions_ && n > 0) {
    // The retraction index maps each whole row to its live copies, oldest first: rows restored in
    // arrival order give the same lists.
    std::vector<int> all(types_.size());
    std::iota(all.begin(), all.end(), 0);
    EncodeKeys(s.arena.rows(), all, &s.encoded);
    for (uint32_t id = 0; id < n; ++id) s.copies[s.encoded[id]].push_back(id);
  }
  state_ = std::move(fresh);
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
