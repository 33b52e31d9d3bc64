#include "runtime/operators/watermark_compacting_sink_materializer.h"

#include <algorithm>
#include <string>

#include "common/check.h"
#include "runtime/job.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/sort_key.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "types/value_format.h"

namespace sluice {

namespace {

constexpr uint32_t kNoRow = UINT32_MAX;
// The arena is rebuilt once released rows outnumber the live ones, from this many on.
constexpr size_t kCompactMin = 1 << 16;

}  // namespace

// Per key id: the row the sink holds (kNoRow when none) and the changes buffered since the last
// watermark (arena ids, with their kinds alongside). `dirty` lists the keys with buffered changes in
// the order their first one arrived; `in_dirty` marks them.
struct WatermarkCompactingSinkMaterializerOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}
  KeyIndex keys;
  std::vector<uint32_t> held;
  std::vector<std::vector<uint32_t>> pending;
  std::vector<std::vector<RowKind>> pending_kinds;
  std::vector<uint32_t> dirty;
  std::vector<uint8_t> in_dirty;
  RowArena arena;
  size_t live = 0;  // held rows plus buffered changes
  std::vector<std::string> encoded;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;
  std::vector<uint32_t> rows;  // scratch: the rows of the key being compacted

  size_t dead() const { return arena.size() - arena.live(); }
  void Release(uint32_t id) {
    arena.Release(id);
    --live;
  }
  // Rebuilds the arena with the live rows only, renumbering them.
  void CompactArena(const std::vector<LogicalType>& types) {
    RowArena fresh(types);
    for (size_t k = 0; k < held.size(); ++k) {
      if (held[k] != kNoRow) held[k] = fresh.Append(arena.rows(), held[k]);
      for (uint32_t& id : pending[k]) id = fresh.Append(arena.rows(), id);
    }
    arena = std::move(fresh);
  }
  void Resize(size_t n) {
    held.resize(n, kNoRow);
    pending.resize(n);
    pending_kinds.resize(n);
    in_dirty.resize(n, 0);
  }
};

WatermarkCompactingSinkMaterializerOperator::WatermarkCompactingSinkMaterializerOperator(
    std::string name, std::vector<LogicalType> types, std::vector<int> primary_key,
    std::vector<std::string> primary_key_names, std::vector<int> upsert_key, InsertConflictStrategy strategy)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      primary_key_(std::move(primary_key)),
      primary_key_names_(std::move(primary_key_names)),
      upsert_key_(std::move(upsert_key)),
      strategy_(strategy),
      state_(std::make_unique<State>(types_)) {
  SLUICE_CHECK(CompactsOnWatermarks(strategy_));
  SLUICE_CHECK_EQ(primary_key_.size(), primary_key_names_.size());
}

WatermarkCompactingSinkMaterializerOperator::~WatermarkCompactingSinkMaterializerOperator() = default;

size_t WatermarkCompactingSinkMaterializerOperator::state_rows() const { return state_->live; }

size_t WatermarkCompactingSinkMaterializerOperator::StateBytes() const {
  const State& s = *state_;
  return s.keys.MemoryUsage() + VectorBytes(s.held) + VectorBytes(s.pending) + VectorBytes(s.pending_kinds) +
         VectorBytes(s.dirty) + VectorBytes(s.in_dirty) + s.live * (sizeof(uint32_t) + sizeof(RowKind)) +
         s.arena.MemoryUsage();
}

Status WatermarkCompactingSinkMaterializerOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  State& s = *state_;
  EncodeKeys(chunk, primary_key_, &s.encoded);
  for (size_t i = 0; i < n; ++i) {
    bool inserted = false;
    const uint32_t key = s.keys.Insert(s.encoded[i], &inserted);
    if (inserted) s.Resize(s.keys.size());
    if (!s.in_dirty[key]) {
      s.in_dirty[key] = 1;
      s.dirty.push_back(key);
    }
    std::vector<uint32_t>& ids = s.pending[key];
    std::vector<RowKind>& kinds = s.pending_kinds[key];
    const bool add = IsAccumulate(chunk.kind(i));
    // A change cancels a buffered change of the opposite direction with the same content.
    size_t j = 0;
    while (j < ids.size() && (IsAccumulate(kinds[j]) == add || !s.arena.Equals(ids[j], chunk, i))) ++j;
    if (j < ids.size()) {
      s.Release(ids[j]);
      ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(j));
      kinds.erase(kinds.begin() + static_cast<std::ptrdiff_t>(j));
      continue;
    }
    ids.push_back(s.arena.Append(chunk, i));
    kinds.push_back(chunk.kind(i));
    ++s.live;
  }
  return Status::OK();
}

Status WatermarkCompactingSinkMaterializerOperator::OnWatermark(int64_t watermark) {
  // Every buffered change arrived before this watermark, which is past the one it arrived after.
  RETURN_IF_ERROR(Compact());
  return Operator::OnWatermark(watermark);
}

Status WatermarkCompactingSinkMaterializerOperator::Compact() {
  State& s = *state_;
  for (uint32_t key : s.dirty) {
    RETURN_IF_ERROR(CompactKey(key));
    s.in_dirty[key] = 0;
  }
  s.dirty.clear();
  return Flush();
}

bool WatermarkCompactingSinkMaterializerOperator::SameRow(uint32_t a, uint32_t b) const {
  const Chunk& rows = state_->arena.rows();
  if (upsert_key_.empty()) return RowsEqual(rows, a, rows, b);
  for (int c : upsert_key_) {
    const Vector& v = rows.column(static_cast<size_t>(c));
    if (!ValuesEqual(v, a, v, b)) return false;
  }
  return true;
}

Status WatermarkCompactingSinkMaterializerOperator::CompactKey(uint32_t key) {
  State& s = *state_;
  const uint32_t held = s.held[key];
  std::vector<uint32_t>& rows = s.rows;
  rows.clear();
  if (held != kNoRow) rows.push_back(held);
  const std::vector<uint32_t>& ids = s.pending[key];
  const std::vector<RowKind>& kinds = s.pending_kinds[key];
  for (size_t j = 0; j < ids.size(); ++j) {
    auto same = std::find_if(rows.begin(), rows.end(), [&](uint32_t r) { return SameRow(r, ids[j]); });
    if (IsAccumulate(kinds[j])) {
      // With an upsert key an addition replaces its key's row; without one every addition is a row.
      if (!upsert_key_.empty() && same != rows.end()) {
        *same = ids[j];
      } else {
        rows.push_back(ids[j]);
      }
    } else if (same != rows.end()) {
      rows.erase(same);
    } else {
      // A retraction of a row not held (Flink logs that state was cleared).
      ++metrics_.retractions_without_state;
    }
  }
  uint32_t next = held;
  if (rows.size() > 1) {
    if (strategy_ == InsertConflictStrategy::kError) return ConflictError(rows[0]);
    // DO NOTHING: the first row wins when the key held none; a held row stays.
    if (held == kNoRow) {
      next = rows[0];
      s.out_ids.push_back(next);
      s.out_kinds.push_back(RowKind::kInsert);
    }
  } else if (rows.empty()) {
    next = kNoRow;
    if (held != kNoRow) {
      s.out_ids.push_back(held);
      s.out_kinds.push_back(RowKind::kDelete);
    }
  } else if (held == kNoRow) {
    next = rows[0];
    s.out_ids.push_back(next);
    s.out_kinds.push_back(RowKind::kInsert);
  } else if (!RowsEqual(s.arena.rows(), held, s.arena.rows(), rows[0])) {
    next = rows[0];
    s.out_ids.push_back(next);
    s.out_kinds.push_back(RowKind::kUpdateAfter);
  }
  // Every buffered row but the new held one, and the old held row when replaced, is released (their
  // slots stay until Flush gathered the output).
  for (uint32_t id : ids) {
    if (id != next) s.Release(id);
  }
  if (held != kNoRow && held != next) s.Release(held);
  s.held[key] = next;
  s.pending[key].clear();
  s.pending_kinds[key].clear();
  return Status::OK();
}

Status WatermarkCompactingSinkMaterializerOperator::ConflictError(uint32_t row) const {
  // Flink's TableRuntimeException text, the key as name=value pairs.
  std::string key;
  const Chunk& rows = state_->arena.rows();
  for (size_t i = 0; i < primary_key_.size(); ++i) {
    if (i > 0) key += ", ";
    key += primary_key_names_[i] + "=";
    const Vector& v = rows.column(static_cast<size_t>(primary_key_[i]));
    if (v.IsNull(row)) {
      key += "null";
    } else {
      AppendVectorText(v, row, &key);
    }
  }
  return Status::RuntimeError(
      "Primary key constraint violation: multiple distinct records with the same primary key detected. "
      "Conflicting key: [" +
      key + "]. Use ON CONFLICT DO NOTHING to keep the first record.");
}

Status WatermarkCompactingSinkMaterializerOperator::Flush() {
  State& s = *state_;
  const size_t chunk_size = ctx_ != nullptr && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  for (size_t begin = 0; begin < s.out_ids.size(); begin += chunk_size) {
    const size_t count = std::min(chunk_size, s.out_ids.size() - begin);
    Chunk out(types_);
    s.arena.Gather(s.out_ids.data() + begin, count, RowKind::kInsert, &out);
    std::copy(s.out_kinds.begin() + static_cast<std::ptrdiff_t>(begin),
              s.out_kinds.begin() + static_cast<std::ptrdiff_t>(begin + count), out.kinds());
    RETURN_IF_ERROR(Emit(out));
  }
  s.out_ids.clear();
  s.out_kinds.clear();
  if (s.dead() >= kCompactMin && s.dead() > s.live) s.CompactArena(types_);
  return Status::OK();
}

Status WatermarkCompactingSinkMaterializerOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  if (s.dead() > 0) s.CompactArena(types_);
  w->PutTag("watermark-compacting-materializer");
  s.keys.Snapshot(w);
  PutColumn(w, s.held);
  for (size_t k = 0; k < s.pending.size(); ++k) {
    PutColumn(w, s.pending[k]);
    PutColumn(w, s.pending_kinds[k]);
  }
  PutColumn(w, s.dirty);
  s.arena.Snapshot(w);
  return Status::OK();
}

void WatermarkCompactingSinkMaterializerOperator::DropState() { state_ = std::make_unique<State>(types_); }

Status WatermarkCompactingSinkMaterializerOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("watermark-compacting-materializer");
  s.keys.Restore(r);
  GetColumn(r, &s.held);
  if (r->ok() && s.held.size() != s.keys.size()) r->Fail("held rows do not match their keys");
  s.Resize(r->ok() ? s.keys.size() : 0);
  for (size_t k = 0; k < s.pending.size() && r->ok(); ++k) {
    GetColumn(r, &s.pending[k]);
    GetColumn(r, &s.pending_kinds[k]);
    if (r->ok() && s.pending[k].size() != s.pending_kinds[k].size()) r->Fail("buffered changes without their kinds");
  }
  GetColumn(r, &s.dirty);
  s.arena.Restore(r);
  // Every id must point into its table; the counters are derived.
  for (size_t k = 0; k < s.held.size() && r->ok(); ++k) {
    if (s.held[k] != kNoRow && s.held[k] >= s.arena.size()) r->Fail("held row outside the arena");
    for (uint32_t id : s.pending[k]) {
      if (id >= s.arena.size()) r->Fail("buffered row outside the arena");
    }
    for (RowKind kind : s.pending_kinds[k]) {
      if (static_cast<uint8_t>(kind) > static_cast<uint8_t>(RowKind::kDelete)) r->Fail("buffered change of no kind");
    }
    s.live += (s.held[k] != kNoRow ? 1 : 0) + s.pending[k].size();
  }
  for (uint32_t key : s.dirty) {
    if (!r->ok()) break;
    if (key >= s.keys.size() || s.in_dirty[key]) {
      r->Fail("bad list of keys with buffered changes");
      break;
    }
    s.in_dirty[key] = 1;
  }
  RETURN_IF_ERROR(r->status());
  return Status::OK();
}

}  // namespace sluice
