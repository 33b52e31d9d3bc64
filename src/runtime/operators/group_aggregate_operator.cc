#include "runtime/operators/group_aggregate_operator.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "common/clock.h"
#include "common/config.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/sort_key.h"
#include "state/state_serde.h"
#include "runtime/operators/accumulators.h"

namespace sluice {

struct GroupAggregateOperator::Group {
  uint32_t key_id = 0;
  int64_t last_access = 0;  // processing time of the last row (state TTL)
  AccumulatorGroup acc;
};



GroupAggregateOperator::GroupAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                               std::vector<int> keys, std::vector<Agg> aggs,
                                               std::vector<LogicalType> output_types, bool emit_update_before,
                                               int64_t mini_batch_size, int64_t mini_batch_latency_ms,
                                               int64_t state_ttl_ms)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      keys_(std::move(keys)),
      aggs_(std::move(aggs)),
      output_types_(std::move(output_types)),
      emit_update_before_(emit_update_before),
      state_ttl_micros_(state_ttl_ms * 1000),
      mini_batch_size_(mini_batch_size),
      mini_batch_latency_micros_(mini_batch_latency_ms * 1000),
      batch_(input_types_),
      layout_(aggs_) {
  std::vector<LogicalType> key_types;
  for (int k : keys_) key_types.push_back(input_types_[static_cast<size_t>(k)]);
  key_store_ = Chunk(key_types);
}

GroupAggregateOperator::~GroupAggregateOperator() {
  for (auto& [k, g] : groups_) DestroyGroup(g.get());
}

GroupAggregateOperator::Group* GroupAggregateOperator::NewGroup(const Chunk& chunk, size_t row) {
  auto g = std::make_unique<Group>();
  g->key_id = static_cast<uint32_t>(key_store_.size());
  for (size_t k = 0; k < keys_.size(); ++k) {
    key_store_.column(k).AppendFrom(chunk.column(static_cast<size_t>(keys_[k])), nullptr, row, 1, /*copy_strings=*/true);
  }
  key_store_.kind_vector().push_back(RowKind::kInsert);
  layout_.Init(&g->acc);
  g->last_access = now_micros_;
  Group* raw = g.get();
  groups_.emplace(encoded_[row], std::move(g));
  return raw;
}

GroupAggregateOperator::Group* GroupAggregateOperator::Lookup(const std::string& key) {
  auto it = groups_.find(key);
  if (it == groups_.end()) return nullptr;
  Group* g = it->second.get();
  if (state_ttl_micros_ > 0 && now_micros_ - g->last_access >= state_ttl_micros_) {
    ++metrics_.expired_states;
    DestroyGroup(g);
    groups_.erase(it);
    return nullptr;
  }
  g->last_access = now_micros_;
  return g;
}

void GroupAggregateOperator::SweepExpired() {
  if (state_ttl_micros_ <= 0 || now_micros_ - last_sweep_micros_ < state_ttl_micros_) return;
  last_sweep_micros_ = now_micros_;
  for (auto it = groups_.begin(); it != groups_.end();) {
    if (now_micros_ - it->second->last_access >= state_ttl_micros_) {
      ++metrics_.expired_states;
      DestroyGroup(it->second.get());
      it = groups_.erase(it);
    } else {
      ++it;
    }
  }
}

void GroupAggregateOperator::DestroyGroup(Group* g) { layout_.Destroy(&g->acc); }

void GroupAggregateOperator::Update(Group* g, const Chunk& chunk, size_t row, bool retract) {
  layout_.Update(&g->acc, chunk, row, retract);
}

void GroupAggregateOperator::AppendResult(const Group& g, RowKind kind, Chunk* out) {
  const size_t nk = keys_.size();
  for (size_t k = 0; k < nk; ++k) out->column(k).AppendRow(key_store_.column(k), g.key_id);
  const size_t row = out->size();
  for (size_t a = 0; a < aggs_.size(); ++a) out->column(nk + a).Resize(row + 1);
  layout_.Finalize(g.acc, out, nk, row);
  out->kind_vector().push_back(kind);
}

bool GroupAggregateOperator::SameResult(const Chunk& a, size_t ra, const Chunk& b, size_t rb) const {
  // Bitwise per value, as Flink's record equaliser compares binary rows.
  for (size_t c = keys_.size(); c < a.num_columns(); ++c) {
    if (!ValuesEqual(a.column(c), ra, b.column(c), rb)) return false;
  }
  return true;
}

Status GroupAggregateOperator::Process(int, Chunk& chunk) {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  int64_t now = clock ? clock->NowMicros() : 0;
  now_micros_ = now;
  SweepExpired();
  if (mini_batch_size_ <= 0) return ProcessRows(chunk);
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  // A batch closes after exactly mini_batch_size rows (as Flink counts elements), so results do not
  // depend on how the input was chunked; the latency bound closes it early on processing time.
  size_t pos = 0;
  while (pos < chunk.size()) {
    if (batch_.size() == 0) batch_started_micros_ = now;
    size_t room = static_cast<size_t>(mini_batch_size_) - batch_.size();
    size_t take = std::min(room, chunk.size() - pos);
    batch_.AppendFrom(chunk, nullptr, pos, take);
    pos += take;
    if (static_cast<int64_t>(batch_.size()) >= mini_batch_size_) RETURN_IF_ERROR(FlushBatch());
  }
  bool late = mini_batch_latency_micros_ > 0 && now - batch_started_micros_ >= mini_batch_latency_micros_;
  if (late && batch_.size() > 0) return FlushBatch();
  return Status::OK();
}

Status GroupAggregateOperator::OnEndOfInput() {
  if (batch_.size() > 0) RETURN_IF_ERROR(FlushBatch());
  // A global aggregation (no GROUP BY) in batch mode has exactly one result row, also over an empty
  // input (COUNT(*) = 0, SUM/MIN/MAX/AVG NULL), as Flink's batch aggregates. A streaming job emits
  // only on input, so there no row ever arrives (Flink's GroupAggFunction), and neither does here.
  // Input that was all retracted again leaves no group either, and the batch answer is the same.
  if (keys_.empty() && groups_.empty() && ctx_ && ctx_->config && IsBatchRuntimeMode(*ctx_->config)) {
    Group empty;
    layout_.Init(&empty.acc);
    Chunk out(output_types_);
    AppendResult(empty, RowKind::kInsert, &out);
    layout_.Destroy(&empty.acc);
    RETURN_IF_ERROR(Emit(out));
  }
  return EmitEndOfInput();
}

Status GroupAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("group-aggregate");
  std::vector<uint32_t> ids;
  ids.reserve(groups_.size());
  for (const auto& [key, g] : groups_) ids.push_back(g->key_id);
  Chunk keys;
  for (const auto& c : key_store_.columns()) keys.AddColumn(Vector(c.type()));
  keys.AppendFrom(key_store_, ids.data(), 0, ids.size());
  w->Reserve(groups_.size() * (24 + layout_.state_bytes()) + keys.MemoryUsage());
  w->PutVarint(groups_.size());
  w->PutChunk(keys);
  for (const auto& [key, g] : groups_) {
    w->PutString(key);
    w->PutI64(g->last_access);
    layout_.Serialize(g->acc, w);
  }
  w->PutI64(last_sweep_micros_);
  // The open mini-batch is part of the state (applying it early would change the changes emitted).
  w->PutChunk(batch_);
  w->PutI64(batch_started_micros_);
  return Status::OK();
}

Status GroupAggregateOperator::RestoreState(StateReader* r) {
  r->ExpectTag("group-aggregate");
  const size_t n = r->GetCount(1);
  std::vector<LogicalType> key_types;
  for (const auto& c : key_store_.columns()) key_types.push_back(c.type());
  r->GetChunk(key_types, &key_store_);
  if (r->ok() && key_store_.size() != n) r->Fail("group keys and groups differ in number");
  for (auto& [k, g] : groups_) DestroyGroup(g.get());
  groups_.clear();
  for (size_t i = 0; i < n && r->ok(); ++i) {
    std::string key = r->GetString();
    auto g = std::make_unique<Group>();
    g->key_id = static_cast<uint32_t>(i);
    g->last_access = r->GetI64();
    layout_.Init(&g->acc);
    layout_.Deserialize(&g->acc, r);
    auto [it, inserted] = groups_.emplace(std::move(key), std::move(g));
    if (!inserted) {
      r->Fail("duplicate group key");
      DestroyGroup(it->second.get());
    }
  }
  last_sweep_micros_ = r->GetI64();
  r->GetChunk(input_types_, &batch_);
  batch_started_micros_ = r->GetI64();
  return r->status();
}

Status GroupAggregateOperator::FlushBatch() {
  Chunk rows = std::move(batch_);
  batch_ = Chunk(input_types_);
  const size_t n = rows.size();
  EncodeKeys(rows, keys_, &encoded_);
  // Rows per key, keys in order of first appearance (Flink's buffer is a LinkedHashMap).
  std::unordered_map<std::string, size_t> slot;
  std::vector<std::vector<uint32_t>> per_key;
  for (size_t r = 0; r < n; ++r) {
    auto [it, inserted] = slot.emplace(encoded_[r], per_key.size());
    if (inserted) per_key.emplace_back();
    per_key[it->second].push_back(static_cast<uint32_t>(r));
  }
  Chunk out(output_types_);
  Chunk prev(output_types_);
  Chunk now(output_types_);
  for (const auto& key_rows : per_key) {
    const std::string& key = encoded_[key_rows[0]];
    Group* g = Lookup(key);
    bool existed = g != nullptr;
    prev.Resize(0);
    if (existed) AppendResult(*g, RowKind::kUpdateBefore, &prev);
    for (uint32_t r : key_rows) {
      bool retract = !IsAccumulate(rows.kind(r));
      if (g == nullptr) {
        if (retract) {
          ++metrics_.retractions_without_state;
          continue;
        }
        g = NewGroup(rows, r);
      }
      Update(g, rows, r, retract);
    }
    if (g == nullptr) continue;
    if (g->acc.count <= 0) {
      if (existed) {
        out.AppendFrom(prev, nullptr, 0, 1);
        out.kind_vector().back() = RowKind::kDelete;
      }
      DestroyGroup(g);
      groups_.erase(key);
      continue;
    }
    now.Resize(0);
    AppendResult(*g, existed ? RowKind::kUpdateAfter : RowKind::kInsert, &now);
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

void GroupAggregateOperator::WriteResult(const Group& g, Chunk* out, size_t row) {
  const size_t nk = keys_.size();
  for (size_t k = 0; k < nk; ++k) {
    CopyValue(key_store_.column(k), g.key_id, &out->column(k), row, out_widths_[k], /*copy_bytes=*/false);
  }
  // The row may hold an earlier, discarded result; Finalize marks each value valid first.
  layout_.Finalize(g.acc, out, nk, row);
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
  size_t pos = 0;
  for (size_t r = 0; r < n; ++r) {
    bool retract = !IsAccumulate(chunk.kind(r));
    Group* g = Lookup(encoded_[r]);
    if (g == nullptr) {
      if (retract) {
        ++metrics_.retractions_without_state;
        continue;
      }
      g = NewGroup(chunk, r);
      Update(g, chunk, r, false);
      WriteResult(*g, &out, pos);
      kinds[pos++] = RowKind::kInsert;
      continue;
    }
    Chunk* before = emit_update_before_ ? &out : &prev;
    const size_t before_row = emit_update_before_ ? pos : r;
    WriteResult(*g, before, before_row);
    Update(g, chunk, r, retract);
    if (g->acc.count <= 0) {
      if (!emit_update_before_) {
        for (size_t c = 0; c < output_types_.size(); ++c) {
          CopyValue(prev.column(c), r, &out.column(c), pos, out_widths_[c], /*copy_bytes=*/true);
        }
      }
      kinds[pos++] = RowKind::kDelete;
      DestroyGroup(g);
      groups_.erase(encoded_[r]);
      continue;
    }
    const size_t after_row = emit_update_before_ ? pos + 1 : pos;
    WriteResult(*g, &out, after_row);
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
