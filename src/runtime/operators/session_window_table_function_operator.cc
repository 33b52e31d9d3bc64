#include "runtime/operators/session_window_table_function_operator.h"

#include <algorithm>

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/key_encoder.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

constexpr int64_t kMicrosPerMs = 1000;
constexpr size_t kMinReleasedToCompact = 1 << 14;

}  // namespace

SessionWindowTableFunctionOperator::SessionWindowTableFunctionOperator(std::string name,
                                                                       std::vector<LogicalType> output_types,
                                                                       int64_t gap_ms, int time_column, bool local_time,
                                                                       std::vector<int> partition_keys, bool proctime)
    : Operator(std::move(name), 1),
      input_types_(output_types.begin(), output_types.end() - 3),
      output_types_(std::move(output_types)),
      gap_us_(gap_ms * kMicrosPerMs),
      time_column_(time_column),
      local_time_(local_time),
      partition_keys_(std::move(partition_keys)),
      proctime_(proctime),
      arena_(input_types_) {}

int64_t SessionWindowTableFunctionOperator::ProcessingProgress() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  return (clock ? clock->NowMicros() : 0) - kMicrosPerMs;
}

bool SessionWindowTableFunctionOperator::Assign(const std::string& key, int64_t ts, uint32_t id) {
  Sessions& sessions = sessions_[key];
  int64_t start = ts;
  int64_t end = ts + gap_us_;
  // Pending sessions that touch [ts, ts + gap]: those starting at or before its end whose end reaches ts.
  auto it = sessions.upper_bound(end);
  std::vector<Sessions::iterator> merged;
  while (it != sessions.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end < ts) break;
    merged.push_back(prev);
    it = prev;
  }
  if (!proctime_ && merged.empty() && WindowFired(end, current_watermark(), local_time_, ctx_)) {
    if (sessions.empty()) sessions_.erase(key);
    return false;
  }
  Session session;
  for (auto m : merged) {
    start = std::min(start, m->first);
    end = std::max(end, m->second.end);
    by_end_.erase({m->second.end, key, m->first});
    session.ids.insert(session.ids.end(), m->second.ids.begin(), m->second.ids.end());
    sessions.erase(m);
  }
  session.ids.push_back(id);
  if (merged.size() > 1) std::sort(session.ids.begin(), session.ids.end());
  session.end = end;
  by_end_.insert({end, key, start});
  sessions.emplace(start, std::move(session));
  return true;
}

Status SessionWindowTableFunctionOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  // Processing time: sessions the clock has passed fire before the new rows join.
  if (proctime_) RETURN_IF_ERROR(FireUpTo(ProcessingProgress(), false));
  std::vector<int64_t> times;
  RETURN_IF_ERROR(WindowRowTimes(chunk, time_column_, proctime_, local_time_, ctx_, name(), &times, /*changes=*/true));
  if (partition_keys_.empty()) {
    keys_.assign(n, std::string());
  } else {
    EncodeKeys(chunk, partition_keys_, &keys_);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = static_cast<uint32_t>(arena_.size());
    if (!Assign(keys_[i], times[i], id)) {
      ReportLate(chunk, i, chunk.column(static_cast<size_t>(time_column_)).data<int64_t>()[i]);
      continue;
    }
    arena_.Append(chunk, i);
  }
  return Status::OK();
}

Status SessionWindowTableFunctionOperator::FireUpTo(int64_t watermark, bool all) {
  const size_t nin = input_types_.size();
  while (!by_end_.empty()) {
    const auto& [end, key, start] = *by_end_.begin();
    if (!all && !WindowFired(end, watermark, local_time_, ctx_)) break;
    auto sit = sessions_.find(key);
    auto it = sit->second.find(start);
    const std::vector<uint32_t>& rows = it->second.ids;
    Chunk part(input_types_);
    arena_.Gather(rows.data(), rows.size(), RowKind::kInsert, &part);
    const size_t m = part.size();
    Vector start_col(output_types_[nin], m), end_col(output_types_[nin + 1], m), time_col(output_types_[nin + 2], m);
    const int64_t window_time = WindowClockToUtc(end, local_time_, ctx_) - kMicrosPerMs;
    std::fill(start_col.data<int64_t>(), start_col.data<int64_t>() + m, start);
    std::fill(end_col.data<int64_t>(), end_col.data<int64_t>() + m, end);
    std::fill(time_col.data<int64_t>(), time_col.data<int64_t>() + m, window_time);
    Chunk rows_out;
    for (size_t c = 0; c < nin; ++c) rows_out.AddColumn(std::move(part.column(c)));
    rows_out.AddColumn(std::move(start_col));
    rows_out.AddColumn(std::move(end_col));
    rows_out.AddColumn(std::move(time_col));
    rows_out.SetSizeFromColumns();
    // Each row leaves with its own kind (the arena keeps it): over an updating input a -U/-D leaves as
    // a -U/-D with its session's bounds, as Flink's UnalignedWindowTableFunctionOperator.
    const RowKind* stored = arena_.rows().kinds();
    RowKind* kinds = rows_out.kinds();
    for (size_t r = 0; r < m; ++r) kinds[r] = stored[rows[r]];
    for (uint32_t id : rows) arena_.Release(id);
    sit->second.erase(it);
    if (sit->second.empty()) sessions_.erase(sit);
    by_end_.erase(by_end_.begin());
    RETURN_IF_ERROR(Emit(rows_out));
  }
  Compact();
  return Status::OK();
}

std::vector<uint32_t> SessionWindowTableFunctionOperator::WaitingRows() const {
  std::vector<uint32_t> ids;
  ids.reserve(arena_.live());
  for (const auto& [key, sessions] : sessions_) {
    for (const auto& [start, s] : sessions) ids.insert(ids.end(), s.ids.begin(), s.ids.end());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void SessionWindowTableFunctionOperator::Compact() {
  const size_t live = arena_.live();
  const size_t released = arena_.size() - live;
  if (live == 0) {
    if (arena_.size() > 0) arena_ = RowArena(input_types_);
    return;
  }
  if (released < kMinReleasedToCompact || released < live) return;
  // Renumbered in arrival order, so merged sessions keep their rows' order.
  const std::vector<uint32_t> order = WaitingRows();
  std::vector<uint32_t> renumbered(arena_.size());
  for (size_t i = 0; i < order.size(); ++i) renumbered[order[i]] = static_cast<uint32_t>(i);
  for (auto& [key, sessions] : sessions_) {
    for (auto& [start, s] : sessions) {
      for (uint32_t& id : s.ids) id = renumbered[id];
    }
  }
  RowArena fresh(input_types_);
  fresh.AppendMany(arena_.rows(), order.data(), order.size());
  arena_ = std::move(fresh);
}

Status SessionWindowTableFunctionOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FireUpTo(proctime_ ? ProcessingProgress() : watermark, false));
  return EmitWatermark(watermark);
}

Status SessionWindowTableFunctionOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark, true));
  return EmitEndOfInput();
}

size_t SessionWindowTableFunctionOperator::StateBytes() const {
  // Per session: its map node, its by-end entry and its ids.
  size_t bytes = arena_.MemoryUsage() + sessions_.size() * 64;
  for (const auto& [key, sessions] : sessions_) {
    bytes += key.size() + sessions.size() * (96 + 2 * key.size());
  }
  return bytes + arena_.live() * sizeof(uint32_t);
}

Status SessionWindowTableFunctionOperator::SnapshotState(StateWriter* w) {
  // The waiting rows in arrival order (restored with ids 0..n-1 in that order), then each session with
  // its rows' positions in that order: a session merged after a restore keeps its rows' arrival order.
  const std::vector<uint32_t> order = WaitingRows();
  arena_.SnapshotRows(order, w);
  size_t count = 0;
  for (const auto& [key, sessions] : sessions_) count += sessions.size();
  w->PutVarint(count);
  for (const auto& [key, sessions] : sessions_) {
    for (const auto& [start, s] : sessions) {
      w->PutString(key);
      w->PutI64(start);
      w->PutI64(s.end);
      w->PutU64(s.ids.size());
      for (uint32_t id : s.ids) {
        w->PutVarint(static_cast<uint64_t>(std::lower_bound(order.begin(), order.end(), id) - order.begin()));
      }
    }
  }
  return Status::OK();
}

Status SessionWindowTableFunctionOperator::RestoreState(StateReader* r) {
  DropState();
  arena_.Restore(r);
  const size_t rows = arena_.size();
  std::vector<bool> seen(rows, false);
  size_t placed = 0;
  const size_t count = r->GetCount(4);
  for (size_t i = 0; i < count && r->ok(); ++i) {
    std::string key = r->GetString();
    const int64_t start = r->GetI64();
    const int64_t end = r->GetI64();
    const uint64_t n = r->GetU64();
    if (!r->ok()) break;
    if (end < start || n == 0 || n > rows - placed) {
      r->Fail("an invalid session window state");
      break;
    }
    Session s;
    s.end = end;
    for (uint64_t k = 0; k < n && r->ok(); ++k) {
      const uint64_t id = r->GetVarint();
      if (id >= rows || seen[id]) {
        r->Fail("an invalid session window state");
        break;
      }
      seen[id] = true;
      s.ids.push_back(static_cast<uint32_t>(id));
    }
    if (!r->ok()) break;
    placed += n;
    by_end_.insert({end, key, start});
    sessions_[key].emplace(start, std::move(s));
  }
  if (r->ok() && placed != rows) r->Fail("an invalid session window state");
  return r->status();
}

void SessionWindowTableFunctionOperator::DropState() {
  arena_ = RowArena(input_types_);
  sessions_.clear();
  by_end_.clear();
}

}  // namespace sluice
