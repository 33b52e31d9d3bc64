#include "runtime/operators/window_aggregate_operator.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/key_encoder.h"

namespace sluice {

namespace {
constexpr int64_t kMicrosPerMs = 1000;
constexpr size_t kMaxArgs = 8;
}  // namespace

WindowAggregateOperator::WindowAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                                 std::vector<int> keys, std::vector<Agg> aggs,
                                                 std::vector<LogicalType> output_types, WindowSpec window,
                                                 int time_column, bool proctime, bool local_time, bool with_window_time)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      keys_(std::move(keys)),
      aggs_(std::move(aggs)),
      output_types_(std::move(output_types)),
      window_(window),
      time_column_(time_column),
      proctime_(proctime),
      local_time_(local_time),
      with_window_time_(with_window_time) {
  for (const auto& a : aggs_) {
    size_t align = std::max<size_t>(a.function->state_align, 1);
    state_bytes_ = (state_bytes_ + align - 1) / align * align;
    offsets_.push_back(state_bytes_);
    state_bytes_ += a.function->state_size;
  }
  for (int k : keys_) key_types_.push_back(input_types_[static_cast<size_t>(k)]);
  for (const auto& a : aggs_) has_distinct_ |= a.distinct;
}

WindowAggregateOperator::~WindowAggregateOperator() {
  for (auto& [end, slice] : slices_) FreeSlice(slice);
  for (auto& [key, sk] : session_keys_) {
    for (auto& [start, session] : sk.sessions) DestroyEntry(session.acc);
  }
}

void WindowAggregateOperator::DestroyEntry(Entry& e) const {
  if (!e.states) return;
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (aggs_[a].function->destroy) aggs_[a].function->destroy(e.states.get() + offsets_[a]);
  }
  e.states.reset();
}

void WindowAggregateOperator::FreeSlice(Slice& slice) {
  for (Entry& e : slice.entries) DestroyEntry(e);
  slice.entries.clear();
  slice.index.clear();
}

void WindowAggregateOperator::SetLateFiring(int64_t lateness_ms, int64_t delay_ms, bool emit_update_before) {
  SLUICE_CHECK(!proctime_);
  SLUICE_CHECK(window_.kind != WindowKind::kSession);
  lateness_us_ = lateness_ms * kMicrosPerMs;
  late_delay_us_ = delay_ms * kMicrosPerMs;
  emit_update_before_ = emit_update_before;
}

bool WindowAggregateOperator::Expired(int64_t window_end, int64_t progress) const {
  return WindowClockToUtc(window_end, local_time_, ctx_) - kMicrosPerMs + lateness_us_ <= progress;
}

int64_t WindowAggregateOperator::NowMicros() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  return clock ? clock->NowMicros() : 0;
}

bool WindowAggregateOperator::Fired(int64_t window_end, int64_t progress) const {
  // Flink fires a window once time reaches its last millisecond (window_end - 1 ms).
  return WindowClockToUtc(window_end, local_time_, ctx_) - kMicrosPerMs <= progress;
}

WindowAggregateOperator::Slice& WindowAggregateOperator::SliceFor(int64_t slice_end) {
  auto [it, inserted] = slices_.try_emplace(slice_end);
  if (inserted) {
    it->second.keys = Chunk(key_types_);
    // Every window this slice belongs to and that has not fired yet now holds rows.
    const int64_t progress = proctime_ ? kMinWatermark : current_watermark();
    const int64_t step = window_.SliceMicros();
    const int64_t last = window_.LastWindowEnd(slice_end);
    for (int64_t e = slice_end; e <= last; e += step) {
      if (!Fired(e, progress)) pending_ends_.insert(e);
    }
  }
  return it->second;
}

WindowAggregateOperator::Entry WindowAggregateOperator::NewEntry() const {
  Entry e;
  // 16-byte aligned by operator new[] on this platform, enough for DECIMAL slots.
  e.states.reset(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  for (size_t a = 0; a < aggs_.size(); ++a) aggs_[a].function->init(e.states.get() + offsets_[a]);
  if (!has_distinct_) return e;  // most entries need no distinct-value sets
  e.distinct.resize(aggs_.size());
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (!aggs_[a].distinct) continue;
    std::vector<LogicalType> types;
    for (int c : aggs_[a].args) types.push_back(input_types_[static_cast<size_t>(c)]);
    e.distinct[a].values = Chunk(types);
  }
  return e;
}

void WindowAggregateOperator::MergeInto(Entry& dst, Entry& src) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (!aggs_[a].distinct) {
      aggs_[a].function->merge(dst.states.get() + offsets_[a], src.states.get() + offsets_[a]);
      continue;
    }
    DistinctValues& from = src.distinct[a];
    DistinctValues& to = dst.distinct[a];
    for (size_t r = 0; r < from.values.size(); ++r) {
      std::string v;
      for (size_t i = 0; i < from.values.num_columns(); ++i) EncodeKeyValue(from.values.column(i), r, &v);
      if (!to.seen.insert(std::move(v)).second) continue;
      to.values.AppendFrom(from.values, nullptr, r, 1, /*copy_strings=*/true);
    }
  }
  DestroyEntry(src);
}

WindowAggregateOperator::Entry& WindowAggregateOperator::EntryFor(Slice& slice, const Chunk& chunk, size_t row) {
  auto [it, inserted] = slice.index.try_emplace(encoded_[row], static_cast<uint32_t>(slice.entries.size()));
  if (inserted) {
    Entry e = NewEntry();
    e.key = &it->first;  // unordered_map keys stay put
    for (size_t k = 0; k < keys_.size(); ++k) {
      slice.keys.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, row, 1, /*copy_strings=*/true);
    }
    slice.keys.kind_vector().push_back(RowKind::kInsert);
    slice.entries.push_back(std::move(e));
  }
  return slice.entries[it->second];
}

void WindowAggregateOperator::Accumulate(Entry& e, const Chunk& chunk, size_t row) {
  const Vector* args[kMaxArgs];
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const Agg& agg = aggs_[a];
    if (agg.filter >= 0) {
      const Vector& f = chunk.column(static_cast<size_t>(agg.filter));
      if (f.IsNull(row) || f.data<uint8_t>()[row] == 0) continue;
    }
    if (agg.distinct) {
      std::string v;
      for (int c : agg.args) EncodeKeyValue(chunk.column(static_cast<size_t>(c)), row, &v);
      DistinctValues& d = e.distinct[a];
      if (!d.seen.insert(std::move(v)).second) continue;
      for (size_t i = 0; i < agg.args.size(); ++i) {
        d.values.column(i).AppendFrom(chunk.column(static_cast<size_t>(agg.args[i])), nullptr, row, 1, /*copy_strings=*/true);
      }
      d.values.kind_vector().push_back(RowKind::kInsert);
      continue;
    }
    size_t n = std::min(agg.args.size(), kMaxArgs);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(agg.args[i]));
    agg.function->update(e.states.get() + offsets_[a], args, row, false);
  }
}

Status WindowAggregateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  RETURN_IF_ERROR(WindowRowTimes(chunk, time_column_, proctime_, local_time_, ctx_, name(), &times_));
  if (proctime_) RETURN_IF_ERROR(FireUpTo(ProcessingProgress(), false));
  EncodeKeys(chunk, keys_, &encoded_);
  if (window_.kind == WindowKind::kSession) return ProcessSessions(chunk);
  const int64_t watermark = current_watermark();
  Chunk late_out(output_types_);
  if (late_delay_us_ > 0 && !late_timers_.empty()) FireDueLateTimers(NowMicros(), &late_out);
  Slice* slice = nullptr;
  int64_t slice_end = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t end = window_.SliceEnd(times_[i]);
    // Expired is Fired when there is no allowed lateness.
    if (!proctime_ && Expired(window_.LastWindowEnd(end), watermark)) {
      ReportLate(chunk, i, chunk.column(static_cast<size_t>(time_column_)).data<int64_t>()[i]);
      continue;
    }
    if (slice == nullptr || end != slice_end) {
      slice = &SliceFor(end);
      slice_end = end;
    }
    Accumulate(EntryFor(*slice, chunk, i), chunk, i);
    if (lateness_us_ > 0 && Fired(end, watermark)) {
      LateRow(end, encoded_[i], &late_out);
      RETURN_IF_ERROR(EmitIfFull(&late_out, false));
    }
  }
  return EmitIfFull(&late_out, true);
}

int64_t WindowAggregateOperator::ProcessingProgress() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  // The clock's current millisecond may still receive rows, so windows close once it has passed
  // their end: rows of the same millisecond as a window's last always count for it.
  return (clock ? clock->NowMicros() : 0) - kMicrosPerMs;
}

Status WindowAggregateOperator::OnWatermark(int64_t watermark) {
  if (late_delay_us_ > 0 && !late_timers_.empty()) {
    Chunk out(output_types_);
    FireDueLateTimers(NowMicros(), &out);
    RETURN_IF_ERROR(EmitIfFull(&out, true));
  }
  RETURN_IF_ERROR(FireUpTo(proctime_ ? ProcessingProgress() : watermark, false));
  return EmitWatermark(watermark);
}

Status WindowAggregateOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark, true));
  return EmitEndOfInput();
}

Status WindowAggregateOperator::EmitIfFull(Chunk* out, bool force) {
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  if (out->size() == 0 || (!force && out->size() < chunk_size)) return Status::OK();
  Chunk full = std::move(*out);
  *out = Chunk(output_types_);
  return Emit(full);
}

Status WindowAggregateOperator::FireUpTo(int64_t progress, bool all) {
  if (window_.kind == WindowKind::kSession) return FireSessions(progress, all);
  Chunk out(output_types_);
  // Late updates due, or of windows that expire now, go before the windows firing now.
  if (lateness_us_ > 0) RETURN_IF_ERROR(FlushLateTimers(progress, all, &out));
  while (!pending_ends_.empty()) {
    const int64_t end = *pending_ends_.begin();
    if (!all && !Fired(end, progress)) break;
    pending_ends_.erase(pending_ends_.begin());
    FireWindow(end, &out);
    // Windows fire in order of their ends, so a slice whose last window ended here is done (with
    // late firing, once its last window expires: ExpireLateState).
    while (lateness_us_ == 0 && !slices_.empty() && window_.LastWindowEnd(slices_.begin()->first) <= end) {
      FreeSlice(slices_.begin()->second);
      slices_.erase(slices_.begin());
    }
    RETURN_IF_ERROR(EmitIfFull(&out, false));
  }
  if (lateness_us_ > 0) FreeExpired(progress, all);
  return EmitIfFull(&out, true);
}

void WindowAggregateOperator::FireWindow(int64_t end, Chunk* out) {
  const int64_t start = window_.WindowStart(end);
  std::vector<const Slice*> parts;
  for (auto it = slices_.upper_bound(start); it != slices_.end() && it->first <= end; ++it) parts.push_back(&it->second);
  // The window's groups: keys in order of first appearance over its slices.
  struct Group {
    const Slice* slice;
    uint32_t entry;
    std::vector<const Entry*> parts;
  };
  std::vector<Group> groups;
  if (parts.size() == 1) {
    for (uint32_t j = 0; j < parts[0]->entries.size(); ++j) groups.push_back({parts[0], j, {&parts[0]->entries[j]}});
  } else {
    std::unordered_map<std::string_view, size_t> index;
    for (const Slice* s : parts) {
      for (uint32_t j = 0; j < s->entries.size(); ++j) {
        const Entry& e = s->entries[j];
        auto [it, inserted] = index.try_emplace(std::string_view(*e.key), groups.size());
        if (inserted) groups.push_back({s, j, {}});
        groups[it->second].parts.push_back(&e);
      }
    }
  }
  if (groups.empty()) return;
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  for (const Group& g : groups) {
    AppendResult(g.slice->keys, g.entry, g.parts, start, end, scratch.get(), out);
    if (lateness_us_ > 0) Remember(end, *g.slice->entries[g.entry].key, *out, out->size() - 1);
  }
}

void WindowAggregateOperator::Remember(int64_t end, const std::string& key, const Chunk& chunk, size_t row) {
  FiredWindow& fw = fired_[end];
  if (fw.results.num_columns() == 0) fw.results = Chunk(output_types_);
  fw.index[key] = static_cast<uint32_t>(fw.results.size());
  fw.results.AppendFrom(chunk, nullptr, row, 1, /*copy_strings=*/true);
}

void WindowAggregateOperator::LateRow(int64_t slice_end, const std::string& key, Chunk* out) {
  const int64_t watermark = current_watermark();
  const int64_t step = window_.SliceMicros();
  const int64_t last = window_.LastWindowEnd(slice_end);
  // The windows holding the slice end at slice_end, slice_end + step, ...; they fire in that order.
  for (int64_t e = slice_end; e <= last && Fired(e, watermark); e += step) {
    if (Expired(e, watermark)) continue;
    if (late_delay_us_ == 0) {
      RefireKey(e, key, out);
      continue;
    }
    if (!late_pending_.insert({e, key}).second) continue;  // an update is already scheduled
    late_timers_.emplace(std::make_pair(NowMicros() + late_delay_us_, next_late_seq_++), std::make_pair(e, key));
  }
}

void WindowAggregateOperator::RefireKey(int64_t end, const std::string& key, Chunk* out) {
  const int64_t start = window_.WindowStart(end);
  std::vector<const Entry*> parts;
  const Slice* key_slice = nullptr;
  uint32_t key_row = 0;
  for (auto it = slices_.upper_bound(start); it != slices_.end() && it->first <= end; ++it) {
    auto f = it->second.index.find(key);
    if (f == it->second.index.end()) continue;
    if (key_slice == nullptr) {
      key_slice = &it->second;
      key_row = f->second;
    }
    parts.push_back(&it->second.entries[f->second]);
  }
  SLUICE_CHECK(key_slice != nullptr);  // the late row was accumulated into one of the window's slices
  Chunk fresh(output_types_);
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  AppendResult(key_slice->keys, key_row, parts, start, end, scratch.get(), &fresh);
  FiredWindow& fw = fired_[end];
  if (fw.results.num_columns() == 0) fw.results = Chunk(output_types_);
  auto prev = fw.index.find(key);
  if (prev != fw.index.end()) {
    std::string before, after;
    for (size_t c = 0; c < fresh.num_columns(); ++c) {
      EncodeKeyValue(fw.results.column(c), prev->second, &before);
      EncodeKeyValue(fresh.column(c), 0, &after);
    }
    if (before == after) return;  // Flink emits nothing when the result did not change
    if (emit_update_before_) {
      out->AppendRow(fw.results, prev->second);
      out->kind_vector().back() = RowKind::kUpdateBefore;
    }
    out->AppendRow(fresh, 0);
    out->kind_vector().back() = RowKind::kUpdateAfter;
    prev->second = static_cast<uint32_t>(fw.results.size());
  } else {
    out->AppendRow(fresh, 0);
    fw.index.emplace(key, static_cast<uint32_t>(fw.results.size()));
  }
  fw.results.AppendFrom(fresh, nullptr, 0, 1, /*copy_strings=*/true);
}

void WindowAggregateOperator::FireDueLateTimers(int64_t now, Chunk* out) {
  while (!late_timers_.empty() && late_timers_.begin()->first.first <= now) {
    auto [end, key] = std::move(late_timers_.begin()->second);
    late_timers_.erase(late_timers_.begin());
    late_pending_.erase({end, key});
    RefireKey(end, key, out);
  }
}

Status WindowAggregateOperator::FlushLateTimers(int64_t progress, bool all, Chunk* out) {
  if (late_timers_.empty()) return Status::OK();
  FireDueLateTimers(NowMicros(), out);
  // Updates still scheduled for windows that expire now are emitted before their state goes.
  for (auto it = late_timers_.begin(); it != late_timers_.end();) {
    const auto [end, key] = it->second;
    if (!all && !Expired(end, progress)) {
      ++it;
      continue;
    }
    it = late_timers_.erase(it);
    late_pending_.erase({end, key});
    RefireKey(end, key, out);
    RETURN_IF_ERROR(EmitIfFull(out, false));
  }
  return Status::OK();
}

void WindowAggregateOperator::FreeExpired(int64_t progress, bool all) {
  while (!fired_.empty() && (all || Expired(fired_.begin()->first, progress))) fired_.erase(fired_.begin());
  while (!slices_.empty() && (all || Expired(window_.LastWindowEnd(slices_.begin()->first), progress))) {
    FreeSlice(slices_.begin()->second);
    slices_.erase(slices_.begin());
  }
}

void WindowAggregateOperator::AppendResult(const Chunk& keys, size_t key_row, const std::vector<const Entry*>& parts,
                                           int64_t start, int64_t end, uint8_t* scratch, Chunk* out) const {
  const size_t nk = keys_.size(), na = aggs_.size();
  const Vector* args[kMaxArgs];
  const size_t row = out->size();
  for (size_t k = 0; k < nk; ++k) out->column(k).AppendRow(keys.column(k), key_row);
  for (size_t a = 0; a < na; ++a) {
    const AggregateFunction& fn = *aggs_[a].function;
    Vector& v = out->column(nk + a);
    v.Resize(row + 1);
    if (!aggs_[a].distinct && parts.size() == 1) {
      fn.finalize(parts[0]->states.get() + offsets_[a], &v, row);
      continue;
    }
    uint8_t* state = scratch + offsets_[a];
    fn.init(state);
    if (!aggs_[a].distinct) {
      for (const Entry* e : parts) fn.merge(state, e->states.get() + offsets_[a]);
    } else {
      // The union of the parts' distinct values, each accumulated once.
      std::unordered_set<std::string> seen;
      for (const Entry* e : parts) {
        const Chunk& values = e->distinct[a].values;
        for (size_t i = 0; i < values.num_columns() && i < kMaxArgs; ++i) args[i] = &values.column(i);
        for (size_t r = 0; r < values.size(); ++r) {
          if (parts.size() > 1) {
            std::string key;
            for (size_t i = 0; i < values.num_columns(); ++i) EncodeKeyValue(values.column(i), r, &key);
            if (!seen.insert(std::move(key)).second) continue;
          }
          fn.update(state, args, r, false);
        }
      }
    }
    fn.finalize(state, &v, row);
    if (fn.destroy) fn.destroy(state);
  }
  const int64_t props[3] = {start, end, WindowClockToUtc(end, local_time_, ctx_) - kMicrosPerMs};
  for (size_t p = 0; p < (with_window_time_ ? 3u : 2u); ++p) {
    Vector& v = out->column(nk + na + p);
    v.Resize(row + 1);
    v.data<int64_t>()[row] = props[p];
  }
  out->kind_vector().push_back(RowKind::kInsert);
}

Status WindowAggregateOperator::ProcessSessions(const Chunk& chunk) {
  const int64_t watermark = current_watermark();
  const int64_t gap = window_.size_ms * kMicrosPerMs;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const int64_t ts = times_[i];
    int64_t start = ts, end = ts + gap;
    auto kit = session_keys_.find(encoded_[i]);
    // The open sessions [s, e) that [ts, ts + gap) touches (s <= end && e >= start): a run ending
    // before the first session starting after `end`.
    auto& touched = touched_sessions_;
    touched.clear();
    if (kit != session_keys_.end()) {
      auto& sessions = kit->second.sessions;
      auto it = sessions.upper_bound(end);
      while (it != sessions.begin()) {
        auto prev = std::prev(it);
        if (prev->second.end < start) break;
        touched.push_back(prev);
        it = prev;
      }
      std::reverse(touched.begin(), touched.end());
    }
    if (touched.empty() && !proctime_ && Fired(end, watermark)) {
      ReportLate(chunk, i, chunk.column(static_cast<size_t>(time_column_)).data<int64_t>()[i]);
      continue;
    }
    if (kit == session_keys_.end()) {
      SessionKey sk;
      sk.key = Chunk(key_types_);
      for (size_t k = 0; k < keys_.size(); ++k) {
        sk.key.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, i, 1, /*copy_strings=*/true);
      }
      sk.key.kind_vector().push_back(RowKind::kInsert);
      sk.seq = next_session_seq_++;
      session_key_of_seq_[sk.seq] = encoded_[i];
      kit = session_keys_.emplace(encoded_[i], std::move(sk)).first;
    }
    SessionKey& sk = kit->second;
    if (touched.size() == 1 && touched[0]->first <= start) {
      // The common case: the row extends (or falls into) one session with the same start. Its timer
      // stays at the old end and is moved on when it comes due (FireSessions).
      Session& session = touched[0]->second;
      session.end = std::max(session.end, end);
      Accumulate(session.acc, chunk, i);
      continue;
    }
    Entry acc;
    for (auto& t : touched) {
      start = std::min(start, t->first);
      end = std::max(end, t->second.end);
      session_timers_.erase({t->second.timer_end, sk.seq, t->first});
      if (!acc.states) {
        acc = std::move(t->second.acc);
      } else {
        MergeInto(acc, t->second.acc);
      }
      sk.sessions.erase(t);
    }
    if (!acc.states) acc = NewEntry();
    Accumulate(acc, chunk, i);
    sk.sessions.emplace(start, Session{end, end, std::move(acc)});
    session_timers_.insert({end, sk.seq, start});
  }
  return Status::OK();
}

Status WindowAggregateOperator::FireSessions(int64_t progress, bool all) {
  Chunk out(output_types_);
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  while (!session_timers_.empty()) {
    const auto [end, seq, start] = *session_timers_.begin();
    if (!all && !Fired(end, progress)) break;
    session_timers_.erase(session_timers_.begin());
    auto kit = session_keys_.find(session_key_of_seq_.at(seq));
    SessionKey& sk = kit->second;
    auto it = sk.sessions.find(start);
    if (it->second.end != end) {
      // The session grew since its timer was set: wait for its current end.
      it->second.timer_end = it->second.end;
      session_timers_.insert({it->second.end, seq, start});
      continue;
    }
    AppendResult(sk.key, 0, {&it->second.acc}, start, end, scratch.get(), &out);
    DestroyEntry(it->second.acc);
    sk.sessions.erase(it);
    if (sk.sessions.empty()) {
      session_key_of_seq_.erase(seq);
      session_keys_.erase(kit);
    }
    RETURN_IF_ERROR(EmitIfFull(&out, false));
  }
  return EmitIfFull(&out, true);
}

void WindowAggregateOperator::WriteEntry(const Entry& e, StateWriter* w) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    const uint8_t* st = e.states.get() + offsets_[a];
    if (f.serialize) {
      f.serialize(st, w);
    } else {
      w->PutRaw(st, f.state_size);
    }
    if (aggs_[a].distinct) w->PutChunk(e.distinct[a].values);
  }
}

WindowAggregateOperator::Entry WindowAggregateOperator::ReadEntry(StateReader* r) const {
  Entry e = NewEntry();
  for (size_t a = 0; a < aggs_.size() && r->ok(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    uint8_t* st = e.states.get() + offsets_[a];
    if (f.deserialize) {
      f.deserialize(st, r);
    } else {
      r->GetRaw(st, f.state_size);
    }
    if (!aggs_[a].distinct) continue;
    DistinctValues& d = e.distinct[a];
    std::vector<LogicalType> types;
    for (int c : aggs_[a].args) types.push_back(input_types_[static_cast<size_t>(c)]);
    r->GetChunk(types, &d.values);
    for (size_t i = 0; i < d.values.size() && r->ok(); ++i) {
      std::string v;
      for (size_t c = 0; c < d.values.num_columns(); ++c) EncodeKeyValue(d.values.column(c), i, &v);
      d.seen.insert(std::move(v));
    }
  }
  return e;
}

Status WindowAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-aggregate");
  w->PutVarint(slices_.size());
  for (const auto& [end, slice] : slices_) {
    w->PutI64(end);
    w->PutChunk(slice.keys);
    w->PutVarint(slice.entries.size());
    for (const Entry& e : slice.entries) {
      w->PutString(*e.key);
      WriteEntry(e, w);
    }
  }
  w->PutVarint(pending_ends_.size());
  for (int64_t end : pending_ends_) w->PutI64(end);
  // SESSION windows.
  w->PutVarint(session_keys_.size());
  for (const auto& [key, sk] : session_keys_) {
    w->PutString(key);
    w->PutChunk(sk.key);
    w->PutU64(sk.seq);
    w->PutVarint(sk.sessions.size());
    for (const auto& [start, s] : sk.sessions) {
      w->PutI64(start);
      w->PutI64(s.end);
      w->PutI64(s.timer_end);
      WriteEntry(s.acc, w);
    }
  }
  w->PutVarint(session_timers_.size());
  for (const auto& [end, seq, start] : session_timers_) {
    w->PutI64(end);
    w->PutU64(seq);
    w->PutI64(start);
  }
  w->PutU64(next_session_seq_);
  // Late firing.
  w->PutVarint(fired_.size());
  for (const auto& [end, fw] : fired_) {
    w->PutI64(end);
    w->PutBool(fw.results.num_columns() > 0);
    if (fw.results.num_columns() > 0) w->PutChunk(fw.results);
    w->PutVarint(fw.index.size());
    for (const auto& [key, row] : fw.index) {
      w->PutString(key);
      w->PutU32(row);
    }
  }
  w->PutVarint(late_timers_.size());
  for (const auto& [due, what] : late_timers_) {
    w->PutI64(due.first);
    w->PutU64(due.second);
    w->PutI64(what.first);
    w->PutString(what.second);
  }
  w->PutVarint(late_pending_.size());
  for (const auto& [end, key] : late_pending_) {
    w->PutI64(end);
    w->PutString(key);
  }
  w->PutU64(next_late_seq_);
  return Status::OK();
}

Status WindowAggregateOperator::RestoreState(StateReader* r) {
  for (auto& [end, slice] : slices_) FreeSlice(slice);
  slices_.clear();
  for (auto& [key, sk] : session_keys_) {
    for (auto& [start, s] : sk.sessions) DestroyEntry(s.acc);
  }
  session_keys_.clear();
  session_key_of_seq_.clear();
  session_timers_.clear();
  pending_ends_.clear();
  fired_.clear();
  late_timers_.clear();
  late_pending_.clear();
  r->ExpectTag("window-aggregate");
  const size_t nslices = r->GetCount(9);
  for (size_t i = 0; i < nslices && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    Slice& slice = slices_[end];
    r->GetChunk(key_types_, &slice.keys);
    const size_t n = r->GetCount(1);
    if (r->ok() && n != slice.keys.size()) r->Fail("slice keys and entries differ in number");
    for (size_t j = 0; j < n && r->ok(); ++j) {
      auto [it, inserted] = slice.index.try_emplace(r->GetString(), static_cast<uint32_t>(j));
      if (!inserted) r->Fail("duplicate key in a slice");
      Entry e = ReadEntry(r);
      e.key = &it->first;
      slice.entries.push_back(std::move(e));
    }
  }
  const size_t nends = r->GetCount(8);
  for (size_t i = 0; i < nends && r->ok(); ++i) pending_ends_.insert(r->GetI64());
  const size_t nkeys = r->GetCount(2);
  for (size_t i = 0; i < nkeys && r->ok(); ++i) {
    std::string key = r->GetString();
    SessionKey& sk = session_keys_[key];
    r->GetChunk(key_types_, &sk.key);
    sk.seq = r->GetU64();
    session_key_of_seq_[sk.seq] = key;
    const size_t ns = r->GetCount(24);
    for (size_t j = 0; j < ns && r->ok(); ++j) {
      const int64_t start = r->GetI64();
      Session s;
      s.end = r->GetI64();
      s.timer_end = r->GetI64();
      s.acc = ReadEntry(r);
      sk.sessions.emplace(start, std::move(s));
    }
  }
  const size_t ntimers = r->GetCount(24);
  for (size_t i = 0; i < ntimers && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    const uint64_t seq = r->GetU64();
    const int64_t start = r->GetI64();
    if (session_key_of_seq_.count(seq) == 0) r->Fail("session timer for an unknown key");
    session_timers_.emplace(end, seq, start);
  }
  next_session_seq_ = r->GetU64();
  const size_t nfired = r->GetCount(9);
  for (size_t i = 0; i < nfired && r->ok(); ++i) {
    FiredWindow& fw = fired_[r->GetI64()];
    if (r->GetBool()) r->GetChunk(output_types_, &fw.results);
    const size_t n = r->GetCount(5);
    for (size_t j = 0; j < n && r->ok(); ++j) {
      std::string key = r->GetString();
      const uint32_t row = r->GetU32();
      if (row >= fw.results.size()) r->Fail("remembered result out of range");
      fw.index.emplace(std::move(key), row);
    }
  }
  const size_t nlate = r->GetCount(25);
  for (size_t i = 0; i < nlate && r->ok(); ++i) {
    const int64_t due = r->GetI64();
    const uint64_t seq = r->GetU64();
    const int64_t end = r->GetI64();
    late_timers_.emplace(std::make_pair(due, seq), std::make_pair(end, r->GetString()));
  }
  const size_t npending = r->GetCount(9);
  for (size_t i = 0; i < npending && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    late_pending_.emplace(end, r->GetString());
  }
  next_late_seq_ = r->GetU64();
  return r->status();
}

}  // namespace sluice
