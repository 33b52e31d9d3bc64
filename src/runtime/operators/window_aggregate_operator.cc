#include "runtime/operators/window_aggregate_operator.h"

#include <algorithm>
#include <iterator>
#include <new>
#include <string_view>

#include <absl/container/flat_hash_map.h>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_bytes.h"
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
  // A slice's blocks live in one std::vector<uint8_t>, whose storage operator new aligns: each block
  // starts at a multiple of the largest state alignment.
  size_t max_align = 1;
  for (const auto& a : aggs_) max_align = std::max<size_t>(max_align, a.function->state_align);
  SLUICE_CHECK_LE(max_align, static_cast<size_t>(__STDCPP_DEFAULT_NEW_ALIGNMENT__));
  stride_ = (state_bytes_ + max_align - 1) / max_align * max_align;
  for (int k : keys_) key_types_.push_back(input_types_[static_cast<size_t>(k)]);
  distinct_types_.resize(aggs_.size());
  for (size_t a = 0; a < aggs_.size(); ++a) {
    has_distinct_ |= aggs_[a].distinct;
    if (aggs_[a].function->serialize) plain_ = false;
    if (!aggs_[a].distinct) continue;
    for (int c : aggs_[a].args) distinct_types_[a].push_back(input_types_[static_cast<size_t>(c)]);
  }
}

WindowAggregateOperator::~WindowAggregateOperator() { DropState(); }

void WindowAggregateOperator::InitStates(uint8_t* states) const {
  for (size_t a = 0; a < aggs_.size(); ++a) aggs_[a].function->init(states + offsets_[a]);
}

void WindowAggregateOperator::DestroyStates(uint8_t* states) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (aggs_[a].function->destroy) aggs_[a].function->destroy(states + offsets_[a]);
  }
}

void WindowAggregateOperator::InitDistinct(DistinctValues* distinct) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (aggs_[a].distinct) distinct[a].values = Chunk(distinct_types_[a]);
  }
}

void WindowAggregateOperator::DestroyEntry(Entry& e) const {
  if (!e.states) return;
  DestroyStates(e.states.get());
  e.states.reset();
}

void WindowAggregateOperator::FreeSlice(Slice& slice) const {
  const size_t n = slice.blocks.size() / std::max<size_t>(stride_, 1);
  for (size_t id = 0; id < n && stride_ > 0; ++id) DestroyStates(Block(slice, static_cast<uint32_t>(id)));
  slice.blocks.clear();
}

void WindowAggregateOperator::GrowSlice(Slice& s, size_t size) const {
  const size_t old = s.blocks.size() / std::max<size_t>(stride_, 1);
  if (stride_ > 0) {
    s.blocks.resize(size * stride_);
    for (size_t id = old; id < size; ++id) InitStates(Block(s, static_cast<uint32_t>(id)));
  }
  if (!has_distinct_) return;
  const size_t na = aggs_.size();
  const size_t had = s.distinct.size() / na;
  s.distinct.resize(size * na);
  for (size_t id = had; id < size; ++id) InitDistinct(&s.distinct[id * na]);
}

WindowAggregateOperator::Slice::Slice(const WindowAggregateOperator* op) : owner(op), keys(op->key_types_) {}

WindowAggregateOperator::Slice::~Slice() { owner->FreeSlice(*this); }

std::unique_ptr<WindowAggregateOperator::Slice> WindowAggregateOperator::NewSlice() const {
  return std::make_unique<Slice>(this);
}

void WindowAggregateOperator::EraseFirstSlice() {
  auto it = slices_.begin();
  if (it->second->in_base) freed_since_base_.push_back(it->first);
  slices_.erase(it);
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
    it->second = NewSlice();
    // Every window this slice belongs to and that has not fired yet now holds rows.
    const int64_t progress = proctime_ ? kMinWatermark : current_watermark();
    const int64_t step = window_.SliceMicros();
    const int64_t last = window_.LastWindowEnd(slice_end);
    for (int64_t e = slice_end; e <= last; e += step) {
      if (!Fired(e, progress)) pending_ends_.insert(e);
    }
  }
  return *it->second;
}

WindowAggregateOperator::Entry WindowAggregateOperator::NewEntry() const {
  Entry e;
  // 16-byte aligned by operator new[] on this platform, enough for DECIMAL slots.
  e.states.reset(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  InitStates(e.states.get());
  if (!has_distinct_) return e;  // most entries need no distinct-value sets
  e.distinct.resize(aggs_.size());
  InitDistinct(e.distinct.data());
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

uint32_t WindowAggregateOperator::GroupFor(Slice& slice, const Chunk& chunk, size_t row) {
  bool inserted = false;
  const uint32_t id = slice.index.Insert(encoded_[row], &inserted);
  if (inserted) {
    for (size_t k = 0; k < keys_.size(); ++k) {
      slice.keys.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, row, 1, /*copy_strings=*/true);
    }
    slice.keys.kind_vector().push_back(RowKind::kInsert);
    GrowSlice(slice, slice.index.size());
  }
  return id;
}

void WindowAggregateOperator::Accumulate(uint8_t* states, DistinctValues* distinct, const Chunk& chunk, size_t row) {
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
      DistinctValues& d = distinct[a];
      if (!d.seen.insert(std::move(v)).second) continue;
      for (size_t i = 0; i < agg.args.size(); ++i) {
        d.values.column(i).AppendFrom(chunk.column(static_cast<size_t>(agg.args[i])), nullptr, row, 1, /*copy_strings=*/true);
      }
      d.values.kind_vector().push_back(RowKind::kInsert);
      continue;
    }
    size_t n = std::min(agg.args.size(), kMaxArgs);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(agg.args[i]));
    agg.function->update(states + offsets_[a], args, row, false);
  }
}

size_t WindowAggregateOperator::StateBytes() const {
  size_t bytes = VectorBytes(freed_since_base_) + NodeBytes(pending_ends_.size(), sizeof(int64_t));
  for (const auto& [end, s] : slices_) {
    bytes += s->index.MemoryUsage() + s->keys.MemoryUsage() + VectorBytes(s->blocks) + VectorBytes(s->distinct) +
             s->dirty.MemoryUsage();
  }
  // A session key: its key row, one open session and its accumulators (an estimate).
  bytes += NodeBytes(session_keys_.size(), sizeof(std::pair<const std::string, SessionKey>) + sizeof(Session) + stride_);
  bytes += NodeBytes(session_key_of_seq_.size(), sizeof(std::pair<const uint64_t, std::string>)) +
           NodeBytes(session_timers_.size(), sizeof(std::tuple<int64_t, uint64_t, int64_t>));
  for (const auto& [end, fired] : fired_) {
    bytes += fired.results.MemoryUsage() + NodeBytes(fired.index.size(), sizeof(std::pair<const std::string, uint32_t>));
  }
  return bytes + NodeBytes(late_timers_.size() + late_pending_.size(), 2 * sizeof(int64_t) + sizeof(std::string));
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
    const uint32_t id = GroupFor(*slice, chunk, i);
    slice->dirty.Mark(id);
    Accumulate(Block(*slice, id), has_distinct_ ? &slice->distinct[static_cast<size_t>(id) * aggs_.size()] : nullptr,
               chunk, i);
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
      EraseFirstSlice();
    }
    RETURN_IF_ERROR(EmitIfFull(&out, false));
  }
  if (lateness_us_ > 0) FreeExpired(progress, all);
  return EmitIfFull(&out, true);
}

void WindowAggregateOperator::FireWindow(int64_t end, Chunk* out) {
  const int64_t start = window_.WindowStart(end);
  std::vector<const Slice*> slices;
  for (auto it = slices_.upper_bound(start); it != slices_.end() && it->first <= end; ++it) {
    if (it->second->index.size() > 0) slices.push_back(it->second.get());
  }
  if (slices.empty()) return;
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  if (slices.size() == 1) {
    const Slice& s = *slices[0];
    for (uint32_t id = 0; id < s.index.size(); ++id) {
      const Part part = PartOf(s, id);
      AppendResult(s.keys, id, &part, 1, start, end, scratch.get(), out);
      if (lateness_us_ > 0) Remember(end, s.index.key(id), *out, out->size() - 1);
    }
    return;
  }
  // The window's groups: keys in order of first appearance over its slices (earliest slice first),
  // each with its parts in slice order, gathered into one flat array by a counting sort.
  absl::flat_hash_map<std::string_view, uint32_t> index;
  std::vector<std::pair<const Slice*, uint32_t>> first;  // per group: where its key first appears
  std::vector<uint32_t> group_of;                        // per (slice, id) in order: its group
  for (const Slice* s : slices) {
    for (uint32_t id = 0; id < s->index.size(); ++id) {
      auto [it, inserted] = index.try_emplace(s->index.key(id), static_cast<uint32_t>(first.size()));
      if (inserted) first.emplace_back(s, id);
      group_of.push_back(it->second);
    }
  }
  std::vector<uint32_t> begin(first.size() + 1, 0);
  for (uint32_t g : group_of) ++begin[g + 1];
  for (size_t g = 0; g < first.size(); ++g) begin[g + 1] += begin[g];
  std::vector<Part> parts(group_of.size());
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  size_t k = 0;
  for (const Slice* s : slices) {
    for (uint32_t id = 0; id < s->index.size(); ++id) parts[fill[group_of[k++]]++] = PartOf(*s, id);
  }
  for (size_t g = 0; g < first.size(); ++g) {
    const auto [s, id] = first[g];
    AppendResult(s->keys, id, parts.data() + begin[g], begin[g + 1] - begin[g], start, end, scratch.get(), out);
    if (lateness_us_ > 0) Remember(end, s->index.key(id), *out, out->size() - 1);
  }
}

void WindowAggregateOperator::Remember(int64_t end, std::string_view key, const Chunk& chunk, size_t row) {
  FiredWindow& fw = fired_[end];
  if (fw.results.num_columns() == 0) fw.results = Chunk(output_types_);
  fw.index[std::string(key)] = static_cast<uint32_t>(fw.results.size());
  fw.results.AppendFrom(chunk, nullptr, row, 1, /*copy_strings=*/true);
}

void WindowAggregateOperator::LateRow(int64_t slice_end, std::string_view key_view, Chunk* out) {
  const std::string key(key_view);
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
  std::vector<Part> parts;
  const Slice* key_slice = nullptr;
  uint32_t key_row = 0;
  for (auto it = slices_.upper_bound(start); it != slices_.end() && it->first <= end; ++it) {
    const uint32_t id = it->second->index.Find(key);
    if (id == KeyIndex::kNotFound) continue;
    if (key_slice == nullptr) {
      key_slice = it->second.get();
      key_row = id;
    }
    parts.push_back(PartOf(*it->second, id));
  }
  SLUICE_CHECK(key_slice != nullptr);  // the late row was accumulated into one of the window's slices
  Chunk fresh(output_types_);
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  AppendResult(key_slice->keys, key_row, parts.data(), parts.size(), start, end, scratch.get(), &fresh);
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
    EraseFirstSlice();
  }
}

void WindowAggregateOperator::AppendResult(const Chunk& keys, size_t key_row, const Part* parts, size_t num_parts,
                                           int64_t start, int64_t end, uint8_t* scratch, Chunk* out) const {
  const size_t nk = keys_.size(), na = aggs_.size();
  const Vector* args[kMaxArgs];
  const size_t row = out->size();
  for (size_t k = 0; k < nk; ++k) out->column(k).AppendRow(keys.column(k), key_row);
  for (size_t a = 0; a < na; ++a) {
    const AggregateFunction& fn = *aggs_[a].function;
    Vector& v = out->column(nk + a);
    v.Resize(row + 1);
    if (!aggs_[a].distinct && num_parts == 1) {
      fn.finalize(parts[0].states + offsets_[a], &v, row);
      continue;
    }
    uint8_t* state = scratch + offsets_[a];
    fn.init(state);
    if (!aggs_[a].distinct) {
      for (size_t p = 0; p < num_parts; ++p) fn.merge(state, parts[p].states + offsets_[a]);
    } else {
      // The union of the parts' distinct values, each accumulated once.
      std::unordered_set<std::string> seen;
      for (size_t p = 0; p < num_parts; ++p) {
        const Chunk& values = parts[p].distinct[a].values;
        for (size_t i = 0; i < values.num_columns() && i < kMaxArgs; ++i) args[i] = &values.column(i);
        for (size_t r = 0; r < values.size(); ++r) {
          if (num_parts > 1) {
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
      Accumulate(session.acc.states.get(), session.acc.distinct.data(), chunk, i);
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
    Accumulate(acc.states.get(), acc.distinct.data(), chunk, i);
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
    const Part part{it->second.acc.states.get(), it->second.acc.distinct.data()};
    AppendResult(sk.key, 0, &part, 1, start, end, scratch.get(), &out);
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

void WindowAggregateOperator::PutStates(const uint8_t* states, StateWriter* w) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    if (f.serialize) {
      f.serialize(states + offsets_[a], w);
    } else {
      w->PutRaw(states + offsets_[a], f.state_size);
    }
  }
}

void WindowAggregateOperator::GetStates(uint8_t* states, StateReader* r) const {
  // `states` is initialized; a serialized state is read into a fresh one.
  for (size_t a = 0; a < aggs_.size() && r->ok(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    uint8_t* st = states + offsets_[a];
    if (f.deserialize) {
      if (f.destroy) f.destroy(st);
      f.init(st);
      f.deserialize(st, r);
    } else {
      GetRawState(f, st, r);
    }
  }
}

void WindowAggregateOperator::PutDistinct(const DistinctValues* distinct, StateWriter* w) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (aggs_[a].distinct) w->PutChunk(distinct[a].values);
  }
}

void WindowAggregateOperator::GetDistinct(DistinctValues* distinct, StateReader* r) const {
  for (size_t a = 0; a < aggs_.size() && r->ok(); ++a) {
    if (!aggs_[a].distinct) continue;
    DistinctValues& d = distinct[a];
    d.seen.clear();
    r->GetChunk(distinct_types_[a], &d.values);
    for (size_t i = 0; i < d.values.size() && r->ok(); ++i) {
      std::string v;
      for (size_t c = 0; c < d.values.num_columns(); ++c) EncodeKeyValue(d.values.column(c), i, &v);
      if (!d.seen.insert(std::move(v)).second) r->Fail("a distinct value twice");
    }
    if (!r->ok()) d.values = Chunk(distinct_types_[a]);
  }
}

void WindowAggregateOperator::WriteEntry(const Entry& e, StateWriter* w) const {
  PutStates(e.states.get(), w);
  if (has_distinct_) PutDistinct(e.distinct.data(), w);
}

WindowAggregateOperator::Entry WindowAggregateOperator::ReadEntry(StateReader* r) const {
  Entry e = NewEntry();
  GetStates(e.states.get(), r);
  if (has_distinct_) GetDistinct(e.distinct.data(), r);
  return e;
}

void WindowAggregateOperator::PutBlocks(const Slice& s, const std::vector<uint32_t>& dirty, size_t first_new,
                                        StateWriter* w) const {
  const size_t n = s.index.size();
  if (plain_) {
    // Plain bytes (padding zeroed when the block was added): every block is written as it is.
    if (stride_ > 0) {
      w->Reserve((dirty.size() + n - first_new) * stride_);
      for (uint32_t id : dirty) w->PutRaw(Block(s, id), stride_);
      if (n > first_new) w->PutRaw(Block(s, static_cast<uint32_t>(first_new)), (n - first_new) * stride_);
    }
  } else {
    for (uint32_t id : dirty) PutStates(Block(s, id), w);
    for (size_t id = first_new; id < n; ++id) PutStates(Block(s, static_cast<uint32_t>(id)), w);
  }
  if (!has_distinct_) return;
  for (uint32_t id : dirty) PutDistinct(PartOf(s, id).distinct, w);
  for (size_t id = first_new; id < n; ++id) PutDistinct(PartOf(s, static_cast<uint32_t>(id)).distinct, w);
}

void WindowAggregateOperator::GetBlocks(Slice& s, const std::vector<uint32_t>& dirty, size_t base, size_t size,
                                        StateReader* r) const {
  if (!r->ok()) return;
  if (plain_ && stride_ > 0 && dirty.size() + (size - base) > r->remaining() / stride_) {
    r->Fail("window aggregate blocks longer than their data");
    return;
  }
  GrowSlice(s, size);
  if (plain_) {
    if (stride_ > 0) {
      for (uint32_t id : dirty) r->GetRaw(Block(s, id), stride_);
      if (size > base) r->GetRaw(Block(s, static_cast<uint32_t>(base)), (size - base) * stride_);
      const AggregateFunction* bad = nullptr;
      auto valid = [&](uint32_t id) {
        for (size_t a = 0; a < aggs_.size(); ++a) {
          if (!RawStateValid(*aggs_[a].function, Block(s, id) + offsets_[a])) bad = aggs_[a].function.get();
        }
        return bad == nullptr;
      };
      bool ok = r->ok();
      for (uint32_t id : dirty) ok = ok && valid(id);
      for (size_t id = base; id < size && ok; ++id) ok = valid(static_cast<uint32_t>(id));
      if (bad != nullptr) r->Fail("an invalid " + bad->name + " state");
    }
  } else {
    for (uint32_t id : dirty) GetStates(Block(s, id), r);
    for (size_t id = base; id < size && r->ok(); ++id) GetStates(Block(s, static_cast<uint32_t>(id)), r);
  }
  if (!has_distinct_) return;
  const size_t na = aggs_.size();
  for (uint32_t id : dirty) GetDistinct(&s.distinct[static_cast<size_t>(id) * na], r);
  for (size_t id = base; id < size && r->ok(); ++id) GetDistinct(&s.distinct[id * na], r);
}

void WindowAggregateOperator::PutSlice(const Slice& s, StateWriter* w) const {
  s.index.Snapshot(w);
  w->PutChunk(s.keys);
  PutBlocks(s, {}, 0, w);
}

void WindowAggregateOperator::GetSlice(Slice& s, StateReader* r) const {
  s.index.Restore(r);
  r->GetChunk(key_types_, &s.keys);
  if (r->ok() && s.keys.size() != s.index.size()) r->Fail("slice keys and key rows differ in number");
  if (r->ok()) GetBlocks(s, {}, 0, s.index.size(), r);
}

void WindowAggregateOperator::PutScalars(StateWriter* w) const {
  w->PutVarint(pending_ends_.size());
  for (int64_t end : pending_ends_) w->PutI64(end);
  // SESSION windows, keys in first-seen order (so equal states write equal bytes).
  std::vector<const std::pair<const std::string, SessionKey>*> keys;
  keys.reserve(session_keys_.size());
  for (const auto& kv : session_keys_) keys.push_back(&kv);
  std::sort(keys.begin(), keys.end(), [](const auto* a, const auto* b) { return a->second.seq < b->second.seq; });
  w->PutVarint(keys.size());
  for (const auto* kv : keys) {
    const SessionKey& sk = kv->second;
    w->PutString(kv->first);
    w->PutChunk(sk.key);
    w->PutU64(sk.seq);
    w->PutVarint(sk.sessions.size());
    for (const auto& [start, session] : sk.sessions) {
      w->PutI64(start);
      w->PutI64(session.end);
      w->PutI64(session.timer_end);
      WriteEntry(session.acc, w);
    }
  }
  w->PutVarint(session_timers_.size());
  for (const auto& [end, seq, start] : session_timers_) {
    w->PutI64(end);
    w->PutU64(seq);
    w->PutI64(start);
  }
  w->PutU64(next_session_seq_);
  // Late firing: per fired window its results, and the key of each remembered row in row order.
  w->PutVarint(fired_.size());
  for (const auto& [end, fw] : fired_) {
    w->PutI64(end);
    w->PutBool(fw.results.num_columns() > 0);
    if (fw.results.num_columns() > 0) w->PutChunk(fw.results);
    std::vector<const std::pair<const std::string, uint32_t>*> rows;
    rows.reserve(fw.index.size());
    for (const auto& kv : fw.index) rows.push_back(&kv);
    std::sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->second < b->second; });
    w->PutVarint(rows.size());
    for (const auto* kv : rows) {
      w->PutString(kv->first);
      w->PutU32(kv->second);
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
}

void WindowAggregateOperator::ClearScalars() {
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
  next_session_seq_ = 0;
  next_late_seq_ = 0;
}

void WindowAggregateOperator::GetScalars(StateReader* r) {
  ClearScalars();
  const size_t nends = r->GetCount(8);
  for (size_t i = 0; i < nends && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (r->ok() && !pending_ends_.insert(end).second) r->Fail("pending window " + std::to_string(end) + " twice");
  }
  const size_t nkeys = r->GetCount(2);
  for (size_t i = 0; i < nkeys && r->ok(); ++i) {
    std::string key = r->GetString();
    if (!r->ok()) break;
    auto [kit, inserted] = session_keys_.try_emplace(key);
    if (!inserted) {
      r->Fail("a session key twice");
      break;
    }
    SessionKey& sk = kit->second;
    r->GetChunk(key_types_, &sk.key);
    if (r->ok() && sk.key.size() != 1) r->Fail("a session key of " + std::to_string(sk.key.size()) + " rows");
    sk.seq = r->GetU64();
    if (r->ok() && !session_key_of_seq_.emplace(sk.seq, key).second) r->Fail("two session keys of one sequence number");
    const size_t ns = r->GetCount(24);
    for (size_t j = 0; j < ns && r->ok(); ++j) {
      const int64_t start = GetWindowEnd(r);
      Session s;
      s.end = GetWindowEnd(r);
      s.timer_end = GetWindowEnd(r);
      s.acc = ReadEntry(r);
      if (!sk.sessions.try_emplace(start, std::move(s)).second) {
        DestroyEntry(s.acc);  // try_emplace left `s` alone
        r->Fail("two sessions of one start");
      }
    }
  }
  const size_t ntimers = r->GetCount(24);
  for (size_t i = 0; i < ntimers && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    const uint64_t seq = r->GetU64();
    const int64_t start = GetWindowEnd(r);
    if (!r->ok()) break;
    auto seq_it = session_key_of_seq_.find(seq);
    if (seq_it == session_key_of_seq_.end()) {
      r->Fail("session timer for an unknown key");
      break;
    }
    const auto& sessions = session_keys_.at(seq_it->second).sessions;
    if (sessions.find(start) == sessions.end()) {
      r->Fail("session timer for an unknown session");
      break;
    }
    if (!session_timers_.emplace(end, seq, start).second) {
      r->Fail("a session timer twice");
      break;
    }
  }
  next_session_seq_ = r->GetU64();
  const size_t nfired = r->GetCount(9);
  for (size_t i = 0; i < nfired && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (!r->ok()) break;
    auto [fit, inserted] = fired_.try_emplace(end);
    if (!inserted) {
      r->Fail("fired window " + std::to_string(end) + " twice");
      break;
    }
    FiredWindow& fw = fit->second;
    if (r->GetBool()) r->GetChunk(output_types_, &fw.results);
    const size_t n = r->GetCount(5);
    for (size_t j = 0; j < n && r->ok(); ++j) {
      std::string key = r->GetString();
      const uint32_t row = r->GetU32();
      if (r->ok() && row >= fw.results.size()) r->Fail("remembered result out of range");
      if (r->ok() && !fw.index.emplace(std::move(key), row).second) {
        r->Fail("a key remembered twice for fired window " + std::to_string(end));
      }
    }
  }
  const size_t nlate = r->GetCount(25);
  for (size_t i = 0; i < nlate && r->ok(); ++i) {
    const int64_t due = r->GetI64();
    const uint64_t seq = r->GetU64();
    const int64_t end = GetWindowEnd(r);
    std::string key = r->GetString();
    if (r->ok() && !late_timers_.emplace(std::make_pair(due, seq), std::make_pair(end, std::move(key))).second) {
      r->Fail("a late-firing timer twice");
    }
  }
  const size_t npending = r->GetCount(9);
  for (size_t i = 0; i < npending && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    std::string key = r->GetString();
    if (r->ok() && !late_pending_.emplace(end, std::move(key)).second) r->Fail("a pending late update twice");
  }
  next_late_seq_ = r->GetU64();
}

// What the code after a restore relies on, beyond what reading checked (ids within their slices,
// distinct values unique, remembered rows in range, session timers naming a key and a start):
// - the state belongs to this operator's kind of window: slices and pending windows for sliced ones,
//   sessions for SESSION; late-firing results only with late firing, its timers only with a delay;
// - every slice and pending window end lies on the slice grid, every slice has its key rows, blocks
//   and distinct values for each id, and every pending window holds a slice (FireWindow, and the
//   slice freeing that follows firing);
// - every late-firing timer is in late_pending_ and the other way round, each (window, key) once, its
//   sequence number below next_late_seq_, and one of the window's slices holds its key (RefireKey
//   CHECKs that; those slices live until the window expires, when the timer has fired);
// - SESSION: every key has a session and a sequence number below next_session_seq_ (a new key must
//   not take it over); its sessions are non-empty, disjoint and not adjacent (adjacent ones would
//   have merged), each with start < timer_end <= end and exactly one timer, at timer_end (a merge
//   erases the timer by timer_end, and FireSessions finds the session of every timer).
void WindowAggregateOperator::Validate(StateReader* r) const {
  if (!r->ok()) return;
  if (window_.kind == WindowKind::kSession) {
    if (!slices_.empty() || !pending_ends_.empty() || !fired_.empty() || !late_timers_.empty() ||
        !late_pending_.empty()) {
      r->Fail("slices or window ends in the state of SESSION windows");
      return;
    }
  } else if (!session_keys_.empty() || !session_timers_.empty()) {
    r->Fail("sessions in the state of " + window_.Explain("time") + " windows");
    return;
  }
  if (lateness_us_ == 0 && !fired_.empty()) {
    r->Fail("late-firing results without late firing");
    return;
  }
  if (late_delay_us_ == 0 && (!late_timers_.empty() || !late_pending_.empty())) {
    r->Fail("late-firing timers without a late-firing delay");
    return;
  }
  const size_t na = aggs_.size();
  for (const auto& [end, slice] : slices_) {
    if (!OnSliceGrid(end)) {
      r->Fail("slice end " + std::to_string(end) + " off the slice grid");
      return;
    }
    const size_t n = slice->index.size();
    if (slice->keys.size() != n || slice->blocks.size() != n * stride_ ||
        slice->distinct.size() != (has_distinct_ ? n * na : 0)) {
      r->Fail("slice " + std::to_string(end) + " has " + std::to_string(n) + " keys but not as many rows and states");
      return;
    }
  }
  for (int64_t end : pending_ends_) {
    auto it = slices_.upper_bound(window_.WindowStart(end));
    if (!OnSliceGrid(end) || it == slices_.end() || it->first > end) {
      r->Fail("pending window " + std::to_string(end) + " off the slice grid or without a slice");
      return;
    }
  }
  for (const auto& [end, fw] : fired_) {
    if (!OnSliceGrid(end)) {
      r->Fail("fired window " + std::to_string(end) + " off the slice grid");
      return;
    }
  }
  if (late_timers_.size() != late_pending_.size()) {
    r->Fail(std::to_string(late_timers_.size()) + " late-firing timers but " + std::to_string(late_pending_.size()) +
            " pending late updates");
    return;
  }
  std::set<std::pair<int64_t, std::string_view>> timed;
  for (const auto& [due, what] : late_timers_) {
    const auto& [end, key] = what;
    if (due.second >= next_late_seq_ || !OnSliceGrid(end) || late_pending_.count(what) == 0 ||
        !timed.emplace(end, key).second) {
      r->Fail("late-firing timer for window " + std::to_string(end) + " out of sequence, off the slice grid or not pending once");
      return;
    }
  }
  for (const auto& [due, what] : late_timers_) {
    const auto& [end, key] = what;
    bool held = false;
    for (auto it = slices_.upper_bound(window_.WindowStart(end)); it != slices_.end() && it->first <= end && !held; ++it) {
      held = it->second->index.Find(key) != KeyIndex::kNotFound;
    }
    if (!held) {
      r->Fail("late-firing timer for window " + std::to_string(end) + " and a key none of its slices holds");
      return;
    }
  }
  size_t sessions = 0;
  for (const auto& [key, sk] : session_keys_) {
    if (sk.sessions.empty() || sk.seq >= next_session_seq_) {
      r->Fail("a session key without sessions or beyond the next sequence number");
      return;
    }
    const Session* prev = nullptr;
    for (const auto& [start, s] : sk.sessions) {
      if (!(start < s.timer_end && s.timer_end <= s.end) || (prev != nullptr && prev->end >= start)) {
        r->Fail("session [" + std::to_string(start) + ", " + std::to_string(s.end) + ") with its timer at " +
                std::to_string(s.timer_end) + " is empty, overlaps another or has its timer outside");
        return;
      }
      prev = &s;
    }
    sessions += sk.sessions.size();
  }
  if (session_timers_.size() != sessions) {
    r->Fail(std::to_string(session_timers_.size()) + " session timers for " + std::to_string(sessions) + " sessions");
    return;
  }
  for (const auto& [end, seq, start] : session_timers_) {
    // GetScalars found the key and the session.
    if (session_keys_.at(session_key_of_seq_.at(seq)).sessions.at(start).timer_end != end) {
      r->Fail("session timer at " + std::to_string(end) + " for a session whose timer is elsewhere");
      return;
    }
  }
}

void WindowAggregateOperator::DropState() {
  slices_.clear();
  freed_since_base_.clear();
  ClearScalars();
  ResetDeltaBase();
}

void WindowAggregateOperator::ResetDeltaBase() {
  for (auto& [end, slice] : slices_) {
    slice->dirty.Reset(slice->index.size());
    slice->in_base = true;
  }
  freed_since_base_.clear();
}

Status WindowAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-aggregate");
  w->PutVarint(slices_.size());
  for (const auto& [end, slice] : slices_) {
    w->PutI64(end);
    PutSlice(*slice, w);
  }
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

Status WindowAggregateOperator::SnapshotDelta(StateWriter* w) {
  w->PutTag("window-aggregate-delta");
  // The base's slices freed since, then every live slice: a delta on the base's (its new keys, and
  // the blocks of its new and written ids; nothing else), a slice added since in full.
  PutWindowsDelta(
      w, slices_, freed_since_base_, [](const Slice& s) { return s.in_base; },
      [&](const Slice& s) {
        const size_t base = s.dirty.base();
        const size_t n = s.index.size();
        s.index.SnapshotSince(base, w);
        w->PutChunkRange(s.keys, base, n - base);
        const std::vector<uint32_t>& dirty = s.dirty.dirty();
        w->PutVarint(dirty.size());
        if (!dirty.empty()) w->PutRaw(dirty.data(), dirty.size() * sizeof(uint32_t));
        PutBlocks(s, dirty, base, w);
      },
      [&](const Slice& s) { PutSlice(s, w); });
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

Status WindowAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("window-aggregate");
  const size_t nslices = r->GetCount(9);
  for (size_t i = 0; i < nslices && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (!r->ok()) break;
    if (!slices_.empty() && end <= slices_.rbegin()->first) {
      r->Fail("slice " + std::to_string(end) + " twice or out of order");
      break;
    }
    auto it = slices_.try_emplace(end).first;
    it->second = NewSlice();
    GetSlice(*it->second, r);
  }
  GetScalars(r);
  Validate(r);
  ResetDeltaBase();
  return r->status();  // a failed restore is dropped whole (Operator::Restore calls DropState)
}

Status WindowAggregateOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("window-aggregate-delta");
  std::vector<uint32_t> ids;
  ApplyWindowsDelta(
      r, slices_, [&] { return NewSlice(); },
      [&](Slice& s) {
        const size_t base = s.index.size();
        s.index.RestoreAppend(r);
        Chunk new_keys;
        r->GetChunk(key_types_, &new_keys);
        if (r->ok() && base + new_keys.size() != s.index.size()) r->Fail("new slice keys and key rows differ in number");
        if (!r->ok()) return;
        s.keys.AppendFrom(new_keys, nullptr, 0, new_keys.size(), /*copy_strings=*/true);
        // The groups written since the base: ids below it, each once.
        const size_t ndirty = r->GetCount(sizeof(uint32_t));
        ids.assign(r->ok() ? ndirty : 0, 0);
        if (!ids.empty()) r->GetRaw(ids.data(), ids.size() * sizeof(uint32_t));
        for (uint32_t id : ids) {
          if (!r->ok()) return;
          if (id >= base) {
            r->Fail("a state delta writes group " + std::to_string(id) + " beyond its base");
            return;
          }
          s.dirty.Mark(id);
        }
        if (r->ok() && s.dirty.dirty().size() != ids.size()) r->Fail("a state delta writes a group twice");
        if (r->ok()) GetBlocks(s, ids, base, s.index.size(), r);
      },
      [&](Slice& s) { GetSlice(s, r); });
  GetScalars(r);
  Validate(r);
  ResetDeltaBase();
  return r->status();  // a failed delta is dropped whole (Operator::ApplyDelta calls DropState)
}

}  // namespace sluice
