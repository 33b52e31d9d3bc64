#include "runtime/operators/group_aggregate_operator.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "common/check.h"
#include "common/clock.h"
#include "common/config.h"
#include "common/release_copy.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/sort_key.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

GroupAggregateOperator::GroupAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                               std::vector<int> keys, std::vector<Agg> aggs,
                                               std::vector<LogicalType> output_types, bool emit_update_before,
                                               int64_t mini_batch_size, bool two_phase,
                                               int64_t state_ttl_ms, bool insert_only_input)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      keys_(std::move(keys)),
      aggs_(std::move(aggs)),
      output_types_(std::move(output_types)),
      emit_update_before_(emit_update_before),
      layout_(aggs_, insert_only_input, /*share_states=*/true),
      stride_(layout_.block_bytes()),
      state_ttl_micros_(state_ttl_ms * 1000),
      mini_batch_size_(mini_batch_size),
      two_phase_(two_phase),
      bundle_({input_types_}, mini_batch_size),
      global_batch_(input_types_) {
  // Blocks live in one std::vector<uint8_t>, whose storage operator new aligns to this.
  SLUICE_CHECK_LE(layout_.block_align(), static_cast<size_t>(__STDCPP_DEFAULT_NEW_ALIGNMENT__));
  std::vector<LogicalType> key_types;
  for (int k : keys_) key_types.push_back(input_types_[static_cast<size_t>(k)]);
  key_store_ = Chunk(key_types);
}

GroupAggregateOperator::~GroupAggregateOperator() { DropState(); }

uint32_t GroupAggregateOperator::NewGroup(const std::string& key, const Chunk& chunk, size_t row) {
  bool inserted = false;
  const uint32_t id = index_.Insert(key, &inserted);
  if (inserted) {
    for (size_t k = 0; k < keys_.size(); ++k) {
      key_store_.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, row, 1,
                                      /*copy_strings=*/true);
    }
    key_store_.kind_vector().push_back(RowKind::kInsert);
    // The per-id arrays double without holding both copies (common/release_copy.h): all of them
    // double at the same id, so their old copies would otherwise be resident together.
    if (live_.size() == live_.capacity()) GrowReleasingSource(&live_, live_.size() + 1);
    live_.push_back(1);
    if (state_ttl_micros_ > 0) last_access_.push_back(now_micros_);
    if (blocks_.size() + stride_ > blocks_.capacity()) GrowReleasingSource(&blocks_, blocks_.size() + stride_);
    blocks_.resize(blocks_.size() + stride_);
  } else {
    SetMeta(id, GroupMeta{now_micros_, 1});
    dirty_.Mark(id);
  }
  layout_.Init(block(id));
  ++live_groups_;
  return id;
}

void GroupAggregateOperator::DropGroup(uint32_t id) {
  layout_.Destroy(block(id));
  if (!layout_.plain()) heap_.Touch(id);
  SetMeta(id, GroupMeta{0, 0});
  --live_groups_;
  dirty_.Mark(id);
}

uint32_t GroupAggregateOperator::Lookup(const std::string& key) {
  const uint32_t id = index_.Find(key);
  if (id == KeyIndex::kNotFound) return kNoGroup;
  if (!live_[id]) return kNoGroup;
  if (state_ttl_micros_ > 0) {
    if (now_micros_ - last_access_[id] >= state_ttl_micros_) {
      ++metrics_.expired_states;
      DropGroup(id);
      return kNoGroup;
    }
    last_access_[id] = now_micros_;
  }
  dirty_.Mark(id);
  return id;
}

void GroupAggregateOperator::SweepExpired() {
  if (state_ttl_micros_ <= 0 || now_micros_ - last_sweep_micros_ < state_ttl_micros_) return;
  last_sweep_micros_ = now_micros_;
  for (size_t id = 0; id < live_.size(); ++id) {
    if (live_[id] && now_micros_ - last_access_[id] >= state_ttl_micros_) {
      ++metrics_.expired_states;
      DropGroup(static_cast<uint32_t>(id));
    }
  }
}

void GroupAggregateOperator::AppendResult(uint32_t id, const uint8_t* b, RowKind kind, Chunk* out) {
  const size_t nk = keys_.size();
  for (size_t k = 0; k < nk; ++k) out->column(k).AppendRow(key_store_.column(k), id);
  const size_t row = out->size();
  for (size_t a = 0; a < aggs_.size(); ++a) out->column(nk + a).Resize(row + 1);
  layout_.Finalize(b, out, nk, row);
  out->kind_vector().push_back(kind);
}

bool GroupAggregateOperator::SameResult(const Chunk& a, size_t ra, const Chunk& b, size_t rb) const {
  // Bitwise per value, as Flink's record equaliser compares binary rows.
  for (size_t c = keys_.size(); c < a.num_columns(); ++c) {
    if (!ValuesEqual(a.column(c), ra, b.column(c), rb)) return false;
  }
  return true;
}

size_t GroupAggregateOperator::StateBytes() const {
  size_t heap = 0;
  if (!layout_.plain()) {
    heap = heap_.Total([this](uint32_t id) { return live_[id] ? layout_.HeapBytes(block(id)) : size_t{0}; }) +
           heap_.MemoryUsage();
  }
  return index_.MemoryUsage() + key_store_.MemoryUsage() + VectorBytes(live_) + VectorBytes(last_access_) + VectorBytes(blocks_) +
         dirty_.MemoryUsage() + bundle_.MemoryUsage() + global_batch_.MemoryUsage() + heap + net_results_.MemoryUsage() +
         VectorBytes(net_slot_) + VectorBytes(net_keys_);
}

Status GroupAggregateOperator::Process(int, Chunk& chunk) {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  int64_t now = clock ? clock->NowMicros() : 0;
  now_micros_ = now;
  SweepExpired();
  if (mini_batch_size_ <= 0) return net_changes_ ? ProcessRowsNet(chunk) : ProcessRows(chunk);
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  return bundle_.Add(0, chunk, [this] { return CloseBundle(); });
}

Status GroupAggregateOperator::CloseBundle() {
  Chunk rows = bundle_.Take();
  if (!two_phase_) return ApplyBundle(std::move(rows));
  // The local phase emits one partial result per key of its bundle; each is one element of the global
  // phase's bundle, which closes after mini_batch_size of them.
  std::vector<std::vector<uint32_t>> per_key;
  GroupRowsByKey(rows, keys_, &encoded_, &per_key);
  for (const auto& key_rows : per_key) {
    global_batch_.AppendFrom(rows, key_rows.data(), 0, key_rows.size());
    if (++global_count_ >= mini_batch_size_) {
      global_count_ = 0;
      Chunk global = std::move(global_batch_);
      global_batch_ = Chunk(input_types_);
      RETURN_IF_ERROR(ApplyBundle(std::move(global)));
    }
  }
  return Status::OK();
}

Status GroupAggregateOperator::FinishBundles() {
  if (!bundle_.empty()) RETURN_IF_ERROR(CloseBundle());
  if (global_batch_.size() == 0) return Status::OK();
  global_count_ = 0;
  Chunk global = std::move(global_batch_);
  global_batch_ = Chunk(input_types_);
  return ApplyBundle(std::move(global));
}

Status GroupAggregateOperator::OnWatermark(int64_t watermark) {
  if (mini_batch_size_ > 0) RETURN_IF_ERROR(FinishBundles());
  return Operator::OnWatermark(watermark);
}

Status GroupAggregateOperator::PrepareSnapshotPreBarrier(int64_t) {
  RETURN_IF_ERROR(FlushNet());
  return FinishBundles();
}

Status GroupAggregateOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FlushNet());
  RETURN_IF_ERROR(FinishBundles());
  // A global aggregation (no GROUP BY) in batch mode has exactly one result row, also over an empty
  // input (COUNT(*) = 0, SUM/MIN/MAX/AVG NULL), as Flink's batch aggregates. A streaming job emits
  // only on input, so there no row ever arrives (Flink's GroupAggFunction), and neither does here.
  // Input that was all retracted again leaves no group either, and the batch answer is the same.
  if (keys_.empty() && live_groups_ == 0 && ctx_ && ctx_->config && IsBatchRuntimeMode(*ctx_->config)) {
    std::vector<uint8_t> empty(stride_);
    layout_.Init(empty.data());
    Chunk out(output_types_);
    AppendResult(0, empty.data(), RowKind::kInsert, &out);
    layout_.Destroy(empty.data());
    RETURN_IF_ERROR(Emit(out));
  }
  return EmitEndOfInput();
}

void GroupAggregateOperator::PutMetas(StateWriter* w, size_t begin, size_t end) const {
  w->PutVarint(end - begin);
  GroupMeta batch[256];
  for (size_t id = begin; id < end;) {
    const size_t n = std::min<size_t>(std::size(batch), end - id);
    for (size_t i = 0; i < n; ++i) batch[i] = MetaOf(id + i);
    w->PutRaw(batch, n * sizeof(GroupMeta));
    id += n;
  }
}

void GroupAggregateOperator::ResetDeltaBase() { dirty_.Reset(live_.size()); }

void GroupAggregateOperator::PutBlocks(StateWriter* w, const std::vector<uint32_t>& dirty, size_t first_new) const {
  const size_t n = live_.size();
  if (layout_.plain()) {
    // Plain bytes: dead blocks are zeroed, so every block is written as it is.
    w->Reserve((dirty.size() + n - first_new) * stride_);
    for (uint32_t id : dirty) w->PutRaw(block(id), stride_);
    if (n > first_new) w->PutRaw(block(static_cast<uint32_t>(first_new)), (n - first_new) * stride_);
    return;
  }
  // Blocks that own heap memory (DISTINCT counts, MIN/MAX with retraction, LISTAGG, ...): the whole
  // state of each live group, through the functions' serializers.
  for (uint32_t id : dirty) {
    if (live_[id]) layout_.Serialize(block(id), w);
  }
  for (size_t id = first_new; id < n; ++id) {
    if (live_[id]) layout_.Serialize(block(static_cast<uint32_t>(id)), w);
  }
}

void GroupAggregateOperator::GetBlocks(StateReader* r, size_t base, size_t size) {
  // live_ already holds the restored liveness of every id; blocks_ holds the `base` blocks restored
  // so far (the dirty ones are overwritten), and grows to `size` blocks.
  const std::vector<uint32_t>& dirty = dirty_.dirty();
  if (!r->ok()) return;
  if (layout_.plain() && (dirty.size() + size - base) > r->remaining() / stride_) {
    r->Fail("group aggregate blocks longer than their data");
    return;
  }
  blocks_.resize(size * stride_);
  if (layout_.plain()) {
    for (uint32_t id : dirty) r->GetRaw(block(id), stride_);
    if (size > base) r->GetRaw(block(static_cast<uint32_t>(base)), (size - base) * stride_);
    const AggregateFunction* bad = nullptr;
    auto valid = [&](uint32_t id) {
      for (size_t a = 0; a < layout_.calls().size(); ++a) {
        if (!RawStateValid(*layout_.calls()[a].function, block(id) + layout_.offset(a))) bad = layout_.calls()[a].function.get();
      }
      return bad == nullptr;
    };
    bool ok = r->ok();
    for (uint32_t id : dirty) ok = ok && valid(id);
    for (size_t id = base; id < size && ok; ++id) ok = valid(static_cast<uint32_t>(id));
    if (bad != nullptr) r->Fail("an invalid " + bad->name + " state");
    return;
  }
  auto get = [&](uint32_t id) {
    heap_.Touch(id);
    layout_.Destroy(block(id));
    if (!live_[id] || !r->ok()) return;
    layout_.Init(block(id));
    layout_.Deserialize(block(id), r);
  };
  for (uint32_t id : dirty) get(id);
  for (size_t id = base; id < size; ++id) get(static_cast<uint32_t>(id));
}

void GroupAggregateOperator::PutScalars(StateWriter* w) const {
  w->PutI64(last_sweep_micros_);
  // The open bundles are part of the state: a checkpoint's barrier closes them first (Flink's
  // prepareSnapshotPreBarrier), but a snapshot without one ('sluice.exec.checkpoint-roundtrip') must not
  // change the changes emitted. They hold fewer than mini-batch-size rows or partial results (each
  // partial result is at most the local bundle's rows), so deltas write them whole.
  bundle_.Snapshot(w);
  w->PutChunk(global_batch_);
  w->PutI64(global_count_);
}

void GroupAggregateOperator::GetScalars(StateReader* r) {
  last_sweep_micros_ = r->GetI64();
  bundle_.Restore(r);
  r->GetChunk(input_types_, &global_batch_);
  global_count_ = r->GetI64();
  const bool global_ok = global_batch_.size() == 0
                             ? global_count_ == 0
                             : two_phase_ && global_count_ > 0 && global_count_ < mini_batch_size_ &&
                                   static_cast<size_t>(global_count_) <= global_batch_.size();
  if (r->ok() && !global_ok) {
    r->Fail("a global mini-batch of " + std::to_string(global_count_) + " partial results in " +
            std::to_string(global_batch_.size()) + " rows for a mini-batch size of " + std::to_string(mini_batch_size_));
  }
}

Status GroupAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("group-aggregate");
  index_.Snapshot(w);
  w->Reserve(live_.size() * (sizeof(GroupMeta) + stride_) + key_store_.MemoryUsage());
  w->PutChunk(key_store_);
  PutMetas(w, 0, live_.size());
  PutBlocks(w, {}, 0);
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

Status GroupAggregateOperator::SnapshotDelta(StateWriter* w) {
  w->PutTag("group-aggregate-delta");
  const size_t base = dirty_.base();
  const size_t n = live_.size();
  index_.SnapshotSince(base, w);
  Chunk new_keys;
  for (const auto& c : key_store_.columns()) new_keys.AddColumn(Vector(c.type()));
  new_keys.AppendFrom(key_store_, nullptr, base, n - base);
  w->PutChunk(new_keys);
  // The groups written since the base (ids, then their metas), and the metas of the new groups.
  const std::vector<uint32_t>& dirty = dirty_.dirty();
  w->PutVarint(dirty.size());
  w->Reserve(dirty.size() * (sizeof(uint32_t) + sizeof(GroupMeta)) + (n - base) * sizeof(GroupMeta));
  if (!dirty.empty()) w->PutRaw(dirty.data(), dirty.size() * sizeof(uint32_t));
  for (uint32_t id : dirty) {
    const GroupMeta m = MetaOf(id);
    w->PutRaw(&m, sizeof m);
  }
  PutMetas(w, base, n);
  PutBlocks(w, dirty, base);
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

void GroupAggregateOperator::DropState() {
  if (!layout_.plain()) {
    // Every block, whatever its meta says: a delta that failed halfway may have marked a group dead
    // before its block was read. Destroy skips blocks that were never initialized (all zero).
    const size_t n = blocks_.size() / stride_;
    for (size_t id = 0; id < n; ++id) layout_.Destroy(block(static_cast<uint32_t>(id)));
  }
  index_.Clear();
  key_store_.Resize(0);
  live_.clear();
  last_access_.clear();
  blocks_.clear();
  live_groups_ = 0;
  bundle_.Clear();
  global_batch_.Resize(0);
  global_count_ = 0;
  last_sweep_micros_ = 0;
  dirty_.Reset(0);
  heap_.Reset();
}

Status GroupAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("group-aggregate");
  index_.Restore(r);
  std::vector<LogicalType> key_types;
  for (const auto& c : key_store_.columns()) key_types.push_back(c.type());
  r->GetChunk(key_types, &key_store_);
  if (r->ok() && key_store_.size() != index_.size()) r->Fail("group keys and key rows differ in number");
  const size_t nmetas = r->GetCount(sizeof(GroupMeta));
  if (r->ok() && nmetas != index_.size()) r->Fail("group keys and group states differ in number");
  if (r->ok()) ResizeMetas(nmetas);
  for (size_t id = 0; id < live_.size() && r->ok(); ++id) {
    GroupMeta m{};
    r->GetRaw(&m, sizeof m);
    if (r->ok() && m.live != 0 && m.live != 1) r->Fail("bad group liveness");
    if (!r->ok()) break;
    SetMeta(id, m);
    live_groups_ += static_cast<size_t>(m.live);
  }
  GetBlocks(r, 0, live_.size());
  GetScalars(r);
  // A state that could not be read whole is dropped (Operator::Restore calls DropState).
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

Status GroupAggregateOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("group-aggregate-delta");
  const size_t base = live_.size();
  if (r->ok() && (!dirty_.dirty().empty() || dirty_.base() != base)) {
    r->Fail("an incremental snapshot applied to a state that changed since its last snapshot or restore");
  }
  index_.RestoreAppend(r);
  std::vector<LogicalType> key_types;
  for (const auto& c : key_store_.columns()) key_types.push_back(c.type());
  Chunk new_keys;
  r->GetChunk(key_types, &new_keys);
  if (r->ok() && base + new_keys.size() != index_.size()) r->Fail("new group keys and key rows differ in number");
  if (r->ok()) key_store_.AppendFrom(new_keys, nullptr, 0, new_keys.size(), /*copy_strings=*/true);
  // The groups written since the base: ids (marked in dirty_, which GetBlocks reads), then metas.
  const size_t ndirty = r->GetCount(sizeof(uint32_t) + sizeof(GroupMeta));
  std::vector<uint32_t> ids(r->ok() ? ndirty : 0);
  if (!ids.empty()) r->GetRaw(ids.data(), ids.size() * sizeof(uint32_t));
  for (uint32_t id : ids) {
    if (!r->ok()) break;
    if (id >= base) {
      r->Fail("an incremental snapshot writes group " + std::to_string(id) + " beyond its base");
      break;
    }
    dirty_.Mark(id);
  }
  if (r->ok() && dirty_.dirty().size() != ids.size()) r->Fail("an incremental snapshot writes a group twice");
  int64_t live = static_cast<int64_t>(live_groups_);
  auto get_meta = [&](size_t id) {
    GroupMeta m{};
    r->GetRaw(&m, sizeof m);
    if (r->ok() && m.live != 0 && m.live != 1) r->Fail("bad group liveness");
    if (!r->ok()) return;
    live += m.live - live_[id];
    SetMeta(id, m);
  };
  for (uint32_t id : ids) {
    if (r->ok()) get_meta(id);
  }
  const size_t added = r->GetCount(sizeof(GroupMeta));
  if (r->ok() && base + added != index_.size()) r->Fail("group keys and group states differ in number");
  if (r->ok()) {
    ResizeMetas(base + added);
    for (size_t id = base; id < live_.size() && r->ok(); ++id) get_meta(id);
  }
  if (r->ok()) {
    live_groups_ = static_cast<size_t>(live);
    GetBlocks(r, base, live_.size());
  }
  GetScalars(r);
  // Half applied: Operator::ApplyDelta drops the state (DropState).
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

Status GroupAggregateOperator::ApplyBundle(Chunk rows) {
  std::vector<std::vector<uint32_t>> per_key;
  GroupRowsByKey(rows, keys_, &encoded_, &per_key);
  Chunk out(output_types_);
  Chunk prev(output_types_);
  Chunk now(output_types_);
  for (const auto& key_rows : per_key) {
    const std::string& key = encoded_[key_rows[0]];
    uint32_t id = Lookup(key);
    const bool existed = id != kNoGroup;
    prev.Resize(0);
    if (existed) AppendResult(id, block(id), RowKind::kUpdateBefore, &prev);
    for (uint32_t r : key_rows) {
      bool retract = !IsAccumulate(rows.kind(r));
      if (id == kNoGroup) {
        if (retract) {
          ++metrics_.retractions_without_state;
          continue;
        }
        id = NewGroup(key, rows, r);
      }
      layout_.Update(block(id), rows, r, retract);
      if (layout_.has_checks()) RETURN_IF_ERROR(layout_.Check(block(id)));
      if (!layout_.plain()) heap_.Touch(id);
    }
    if (id == kNoGroup) continue;
    if (layout_.count(block(id)) <= 0) {
      if (existed) {
        out.AppendFrom(prev, nullptr, 0, 1);
        out.kind_vector().back() = RowKind::kDelete;
      }
      DropGroup(id);
      continue;
    }
    now.Resize(0);
    AppendResult(id, block(id), existed ? RowKind::kUpdateAfter : RowKind::kInsert, &now);
    if (existed && SameResult(prev, 0, now, 0)) continue;
    if (existed && emit_update_before_) out.AppendFrom(prev, nullptr, 0, 1);
    out.AppendFrom(now, nullptr, 0, 1);
  }
  return Emit(out);
}

namespace {

// Copies the value at src[sr] over the existing row dst[dr] (types equal ignoring nullability). String
// views are copied as views (the caller shares the source's heaps with dst) unless `copy_bytes`.
void CopyValue(const Vector& src, size_t sr, Vector* dst, size_t dr, size_t width, bool copy_bytes) {
  if (src.IsNull(sr)) {
    dst->SetNull(dr, true);
    return;
  }
  dst->SetNull(dr, false);
  const LogicalType& t = src.type();
  if (t.IsNested()) {
    dst->SetValue(dr, src.GetValue(sr));
  } else if (t.IsStringLike()) {
    if (copy_bytes) dst->SetString(dr, src.GetString(sr));
    else dst->SetStringView(dr, src.GetString(sr));
  } else {
    std::memcpy(dst->raw_data() + dr * width, src.raw_data() + sr * width, width);
  }
}

}  // namespace

void GroupAggregateOperator::WriteResult(uint32_t id, Chunk* out, size_t row) {
  const size_t nk = keys_.size();
  for (size_t k = 0; k < nk; ++k) {
    CopyValue(key_store_.column(k), id, &out->column(k), row, out_widths_[k], /*copy_bytes=*/false);
  }
  // The row may hold an earlier, discarded result; Finalize marks each value valid first.
  layout_.Finalize(block(id), out, nk, row);
}

namespace {
constexpr size_t kPrefetchMinGroups = 1024;
}  // namespace

// Cache hints for the DISTINCT counts of a chunk's existing groups, in passes over the rows so the
// misses of different rows overlap: the groups' blocks, the counts objects they point to, then the
// index slots of the rows' tuples (groups with many distinct tuples miss the cache on each). A dead
// group's block is zeroed (no counts): its hints are no-ops.
void GroupAggregateOperator::PrefetchDistinct(const Chunk& chunk) const {
  const size_t n = chunk.size();
  std::vector<const uint8_t*> blocks(n, nullptr);
  for (size_t r = 0; r < n; ++r) {
    const uint32_t id = index_.Find(encoded_[r]);
    if (id == KeyIndex::kNotFound) continue;
    blocks[r] = block(id);
    __builtin_prefetch(blocks[r]);
  }
  for (size_t r = 0; r < n; ++r) {
    if (blocks[r] != nullptr) layout_.PrefetchCounts(blocks[r]);
  }
  for (size_t r = 0; r < n; ++r) {
    if (blocks[r] != nullptr) layout_.PrefetchTuples(blocks[r], chunk, r);
  }
}

Status GroupAggregateOperator::ProcessRows(Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  EncodeKeys(chunk, keys_, &encoded_);
  if (out_widths_.empty()) {
    for (const auto& t : output_types_) out_widths_.push_back(t.PhysicalWidth());
  }
  // Results are written in place into rows sized up front: each input row emits at most two changes.
  // Before-images that are not emitted go to `prev` (one row per input row). Both are new per chunk,
  // so string bytes the finalizers write do not pile up across chunks.
  Chunk out(output_types_, 2 * n);
  Chunk prev(output_types_, emit_update_before_ ? 0 : n);
  RowKind* kinds = out.kinds();
  // With few groups their counts stay cached and the hints cost more than they save (q15: one group).
  if (layout_.has_distinct() && live_groups_ >= kPrefetchMinGroups) PrefetchDistinct(chunk);
  size_t pos = 0;
  for (size_t r = 0; r < n; ++r) {
    bool retract = !IsAccumulate(chunk.kind(r));
    uint32_t id = Lookup(encoded_[r]);
    if (id == kNoGroup) {
      if (retract) {
        ++metrics_.retractions_without_state;
        continue;
      }
      id = NewGroup(encoded_[r], chunk, r);
      layout_.Update(block(id), chunk, r, false);
      if (layout_.has_checks()) RETURN_IF_ERROR(layout_.Check(block(id)));
      if (!layout_.plain()) heap_.Touch(id);
      WriteResult(id, &out, pos);
      kinds[pos++] = RowKind::kInsert;
      continue;
    }
    Chunk* before = emit_update_before_ ? &out : &prev;
    const size_t before_row = emit_update_before_ ? pos : r;
    WriteResult(id, before, before_row);
    layout_.Update(block(id), chunk, r, retract);
    if (layout_.has_checks()) RETURN_IF_ERROR(layout_.Check(block(id)));
    if (!layout_.plain()) heap_.Touch(id);
    if (layout_.count(block(id)) <= 0) {
      if (!emit_update_before_) {
        for (size_t c = 0; c < output_types_.size(); ++c) {
          CopyValue(prev.column(c), r, &out.column(c), pos, out_widths_[c], /*copy_bytes=*/true);
        }
      }
      kinds[pos++] = RowKind::kDelete;
      DropGroup(id);
      continue;
    }
    const size_t after_row = emit_update_before_ ? pos + 1 : pos;
    WriteResult(id, &out, after_row);
    if (SameResult(*before, before_row, out, after_row)) continue;
    if (emit_update_before_) kinds[pos++] = RowKind::kUpdateBefore;
    kinds[pos++] = RowKind::kUpdateAfter;
  }
  out.Resize(pos);
  // Key values are views into the key store's heap.
  for (size_t k = 0; k < keys_.size(); ++k) out.column(k).ShareHeapsWith(key_store_.column(k));
  return Emit(out);
}

}  // namespace sluice
