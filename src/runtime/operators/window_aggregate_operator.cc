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
  visible_aggs_ = aggs_.size();
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

void WindowAggregateOperator::SetEarlyFiring(int64_t delay_ms, bool emit_update_before) {
  SLUICE_CHECK(window_.kind != WindowKind::kSession);
  SLUICE_CHECK_GE(delay_ms, 0);
  early_delay_us_ = delay_ms * kMicrosPerMs;
  emit_update_before_ = emit_update_before;
}

Status WindowAggregateOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  // A restored operator's scheduled updates need a timer of this run.
  armed_.clear();
  ArmTimer();
  return Status::OK();
}

void WindowAggregateOperator::ArmTimer() {
  if (ctx_ == nullptr || ctx_->timers == nullptr || late_timers_.empty()) return;
  const int64_t due = late_timers_.begin()->first.first;
  if (!armed_.empty() && *armed_.begin() <= due) return;
  armed_.insert(due);
  ctx_->timers->RegisterTimer(due, this);
}

Status WindowAggregateOperator::OnProcessingTime(int64_t timestamp_micros) {
  armed_.erase(timestamp_micros);
  Chunk out(output_types_);
  FireDueLateTimers(NowMicros(), &out);
  ArmTimer();
  return EmitIfFull(&out, true);
}

void WindowAggregateOperator::SetRetracting() {
  SLUICE_CHECK(!aggs_.empty() && aggs_.back().args.empty() && !aggs_.back().distinct);
  retracting_ = true;
  visible_aggs_ = aggs_.size() - 1;
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
      const int64_t count = from.seen.at(v);
      auto [it, inserted] = to.seen.try_emplace(std::move(v), 0);
      it->second += count;
      if (inserted) to.values.AppendFrom(from.values, nullptr, r, 1, /*copy_strings=*/true);
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
  const bool retract = !IsAccumulate(chunk.kind(row));
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
      auto [it, inserted] = d.seen.try_emplace(std::move(v), 0);
      it->second += retract ? -1 : 1;
      if (!inserted) continue;
      for (size_t i = 0; i < agg.args.size(); ++i) {
        d.values.column(i).AppendFrom(chunk.column(static_cast<size_t>(agg.args[i])), nullptr, row, 1, /*copy_strings=*/true);
      }
      d.values.kind_vector().push_back(RowKind::kInsert);
      continue;
    }
    size_t n = std::min(agg.args.size(), kMaxArgs);
    for (size_t i = 0; i < n; ++i) args[i] = &chunk.column(static_cast<size_t>(agg.args[i]));
    agg.function->update(states + offsets_[a], args, row, retract);
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

void WindowAggregateOperator::SetAttachedWindows(int window_start_column) {
  SLUICE_CHECK(!proctime_);
  window_start_column_ = window_start_column;
  if (window_.kind == WindowKind::kSession) return;
  // Slices of 1 ms: every window end (a whole millisecond) is a slice end, and a slice is one window,
  // whatever grid the window's ends lie on (a HOP whose size is no multiple of its slide too).
  attached_window_ = window_;
  WindowSpec slices;
  slices.kind = WindowKind::kTumble;
  slices.size_ms = 1;
  window_ = slices;
}

Status WindowAggregateOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (window_start_column_ >= 0) {
    // The window_end column is on the window clock already (the window TVF's local time).
    const int64_t* ends = chunk.column(static_cast<size_t>(time_column_)).data<int64_t>();
    times_.resize(n);
    for (size_t i = 0; i < n; ++i) times_[i] = ends[i] - kMicrosPerMs;
  } else {
    RETURN_IF_ERROR(WindowRowTimes(chunk, time_column_, proctime_, local_time_, ctx_, name(), &times_, retracting_));
  }
  if (proctime_) RETURN_IF_ERROR(FireUpTo(ProcessingProgress(), false));
  EncodeKeys(chunk, keys_, &encoded_);
  if (window_.kind == WindowKind::kSession) return ProcessSessions(chunk);
  const int64_t watermark = current_watermark();
  // Processing-time windows hold rows of the clock's current millisecond: none of theirs has fired.
  const int64_t progress = proctime_ ? ProcessingProgress() : watermark;
  Chunk late_out(output_types_);
  if (!late_timers_.empty()) FireDueLateTimers(NowMicros(), &late_out);
  Slice* slice = nullptr;
  int64_t slice_end = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t end = window_.SliceEnd(times_[i]);
    // Expired is Fired when there is no allowed lateness.
    if (!proctime_ && Expired(window_.LastWindowEnd(end), watermark)) {
      ReportLate(chunk, i, LateEventTime(chunk, i));
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
    if (Updates()) {
      FireForRow(end, encoded_[i], progress, &late_out);
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
  if (!late_timers_.empty()) {
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
  // Updates due, or of windows that expire now, go before the windows firing now.
  if (Updates()) RETURN_IF_ERROR(FlushLateTimers(progress, all, &out));
  while (!pending_ends_.empty()) {
    const int64_t end = *pending_ends_.begin();
    if (!all && !Fired(end, progress)) break;
    pending_ends_.erase(pending_ends_.begin());
    FireWindow(end, &out);
    // Without late firing a window's emitted results are done once it fired (early firing).
    if (lateness_us_ == 0) fired_.erase(end);
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
  const int64_t start = WindowStartOf(end);
  std::vector<const Slice*> slices;
  for (auto it = slices_.upper_bound(window_.WindowStart(end)); it != slices_.end() && it->first <= end; ++it) {
    if (it->second->index.size() > 0) slices.push_back(it->second.get());
  }
  if (slices.empty()) return;
  std::unique_ptr<uint8_t[]> scratch(new uint8_t[std::max<size_t>(state_bytes_, 1)]);
  // With early or late firing, each key's result goes out as a change against what it emitted, and
  // a key whose rows were all retracted (no result) as a delete of what it emitted.
  Chunk fresh(output_types_);
  std::vector<std::pair<std::string_view, bool>> fresh_keys;  // (key, has a row in `fresh`)
  Chunk* results = Updates() ? &fresh : out;
  auto changes = [&] {
    size_t row = 0;
    for (const auto& [key, has_row] : fresh_keys) {
      if (has_row) {
        EmitChange(end, key, fresh, row++, out);
      } else {
        EmitDelete(end, key, out);
      }
    }
  };
  if (slices.size() == 1) {
    const Slice& s = *slices[0];
    for (uint32_t id = 0; id < s.index.size(); ++id) {
      const Part part = PartOf(s, id);
      const bool has_row = AppendResult(s.keys, id, &part, 1, start, end, scratch.get(), results);
      if (Updates()) fresh_keys.emplace_back(s.index.key(id), has_row);
    }
    changes();
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
    const bool has_row =
        AppendResult(s->keys, id, parts.data() + begin[g], begin[g + 1] - begin[g], start, end, scratch.get(), results);
    if (Updates()) fresh_keys.emplace_back(s->index.key(id), has_row);
  }
  changes();
}

void WindowAggregateOperator::FireForRow(int64_t slice_end, std::string_view key_view, int64_t progress, Chunk* out) {
  const std::string key(key_view);
  const int64_t step = window_.SliceMicros();
  // The windows holding the slice end at slice_end, slice_end + step, ..., last; Flink's group window
  // operator visits a row's windows latest first.
  for (int64_t e = window_.LastWindowEnd(slice_end); e >= slice_end; e -= step) {
    int64_t delay = -1;
    if (!Fired(e, progress)) {
      delay = early_delay_us_;
    } else if (lateness_us_ > 0 && !Expired(e, progress)) {
      delay = late_delay_us_;
    }
    if (delay == 0) {
      RefireKey(e, key, out);
    } else if (delay > 0) {
      Schedule(e, key, delay);
    }
  }
}

void WindowAggregateOperator::Schedule(int64_t end, std::string_view key, int64_t delay_us) {
  if (!late_pending_.insert({end, std::string(key)}).second) return;  // an update is already scheduled
  late_timers_.emplace(std::make_pair(NowMicros() + delay_us, next_late_seq_++), std::make_pair(end, std::string(key)));
  ArmTimer();
}

int64_t WindowAggregateOperator::LateEventTime(const Chunk& chunk, size_t row) const {
  // Attached windows: the row's window_time (window_end - 1 ms), as an instant.
  if (window_start_column_ >= 0) return WindowClockToUtc(times_[row], local_time_, ctx_);
  return chunk.column(static_cast<size_t>(time_column_)).data<int64_t>()[row];
}

int64_t WindowAggregateOperator::WindowStartOf(int64_t end) const {
  return window_start_column_ >= 0 ? attached_window_.WindowStart(end) : window_.WindowStart(end);
}

void WindowAggregateOperator::RefireKey(int64_t end, const std::string& key, Chunk* out) {
  const int64_t start = WindowStartOf(end);
  std::vector<Part> parts;
  const Slice* key_slice = nullptr;
  uint32_t key_row = 0;
  for (auto it = slices_.upper_bound(window_.WindowStart(end)); it != slices_.end() && it->first <= end; ++it) {
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
  // Over an updating input the key's rows may all be retracted: its emitted result is deleted.
  if (!AppendResult(key_slice->keys, key_row, parts.data(), parts.size(), start, end, scratch.get(), &fresh)) {
    EmitDelete(end, key, out);
    return;
  }
  EmitChange(end, key, fresh, 0, out);
}

void WindowAggregateOperator::EmitDelete(int64_t end, std::string_view key, Chunk* out) {
  auto fw = fired_.find(end);
  if (fw == fired_.end()) return;
  auto prev = fw->second.index.find(std::string(key));
  if (prev == fw->second.index.end()) return;  // nothing emitted for the key: nothing to delete
  // Always -D (also without update-before rows), as Flink's AggregateWindowOperator; the replaced row
  // stays in `results` until the next compaction (EmitChange).
  out->AppendRow(fw->second.results, prev->second);
  out->kind_vector().back() = RowKind::kDelete;
  fw->second.index.erase(prev);
}

void WindowAggregateOperator::EmitChange(int64_t end, std::string_view key_view, const Chunk& fresh, size_t row, Chunk* out) {
  FiredWindow& fw = fired_[end];
  if (fw.results.num_columns() == 0) fw.results = Chunk(output_types_);
  std::string key(key_view);
  auto prev = fw.index.find(key);
  if (prev != fw.index.end()) {
    std::string before, after;
    for (size_t c = 0; c < fresh.num_columns(); ++c) {
      EncodeKeyValue(fw.results.column(c), prev->second, &before);
      EncodeKeyValue(fresh.column(c), row, &after);
    }
    if (before == after) return;  // Flink emits nothing when the result did not change
    if (emit_update_before_) {
      out->AppendRow(fw.results, prev->second);
      out->kind_vector().back() = RowKind::kUpdateBefore;
    }
    out->AppendRow(fresh, row);
    out->kind_vector().back() = RowKind::kUpdateAfter;
    prev->second = static_cast<uint32_t>(fw.results.size());
  } else {
    out->AppendRow(fresh, row);
    fw.index.emplace(std::move(key), static_cast<uint32_t>(fw.results.size()));
  }
  fw.results.AppendFrom(fresh, nullptr, row, 1, /*copy_strings=*/true);
  // Replaced rows stay until they outnumber the live ones: then the live rows move to a new chunk
  // (amortized O(1) per update, memory bounded by twice the window's keys).
  if (fw.results.size() > 2 * fw.index.size() + 64) {
    Chunk live(output_types_);
    std::vector<std::pair<uint32_t, uint32_t*>> rows;  // old row, its index slot; kept in row order
    rows.reserve(fw.index.size());
    for (auto& kv : fw.index) rows.emplace_back(kv.second, &kv.second);
    std::sort(rows.begin(), rows.end());
    for (auto& [old_row, slot] : rows) {
      *slot = static_cast<uint32_t>(live.size());
      live.AppendFrom(fw.results, nullptr, old_row, 1, /*copy_strings=*/true);
    }
    fw.results = std::move(live);
  }
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

bool WindowAggregateOperator::AppendResult(const Chunk& keys, size_t key_row, const Part* parts, size_t num_parts,
                                           int64_t start, int64_t end, uint8_t* scratch, Chunk* out) const {
  const size_t nk = keys_.size(), na = visible_aggs_;
  if (retracting_) {
    // The key's row count over the window's slices (the hidden COUNT(*), merged): 0 means every row
    // was retracted, and Flink emits nothing for it.
    const AggregateFunction& fn = *aggs_.back().function;
    uint8_t* state = scratch + offsets_.back();
    fn.init(state);
    for (size_t p = 0; p < num_parts; ++p) fn.merge(state, parts[p].states + offsets_.back());
    Vector count(fn.result_type, 1);
    fn.finalize(state, &count, 0);
    if (count.data<int64_t>()[0] == 0) return false;
  }
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
      AccumulateDistinct(a, parts, num_parts, state);
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
  return true;
}

void WindowAggregateOperator::AccumulateDistinct(size_t a, const Part* parts, size_t num_parts, uint8_t* state) const {
  const AggregateFunction& fn = *aggs_[a].function;
  const Vector* args[kMaxArgs];
  // A value counts once when its count over the parts is > 0 (over an insert-only input every count
  // is 1, so: the union of the parts' values).
  absl::flat_hash_map<std::string, int64_t> total;
  if (retracting_) {
    for (size_t p = 0; p < num_parts; ++p) {
      for (const auto& [value, n] : parts[p].distinct[a].seen) total[value] += n;
    }
  }
  std::unordered_set<std::string> done;
  for (size_t p = 0; p < num_parts; ++p) {
    const Chunk& values = parts[p].distinct[a].values;
    for (size_t i = 0; i < values.num_columns() && i < kMaxArgs; ++i) args[i] = &values.column(i);
    for (size_t r = 0; r < values.size(); ++r) {
      if (num_parts > 1 || retracting_) {
        std::string key;
        for (size_t i = 0; i < values.num_columns(); ++i) EncodeKeyValue(values.column(i), r, &key);
        if (retracting_ && total[key] <= 0) continue;
        if (!done.insert(std::move(key)).second) continue;
      }
      fn.update(state, args, r, false);
    }
  }
}

Status WindowAggregateOperator::ProcessSessions(const Chunk& chunk) {
  const int64_t watermark = current_watermark();
  const int64_t gap = window_.size_ms * kMicrosPerMs;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const int64_t ts = times_[i];
    int64_t start = ts, end = ts + gap;
    if (window_start_column_ >= 0) {  // the row's own session (SetAttachedWindows)
      start = chunk.column(static_cast<size_t>(window_start_column_)).data<int64_t>()[i];
      end = ts + kMicrosPerMs;
    }
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
      ReportLate(chunk, i, LateEventTime(chunk, i));
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
    AppendResult(sk.key, 0, &part, 1, start, end, scratch.get(), &out);  // nothing when its rows were retracted
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

}  // namespace sluice
