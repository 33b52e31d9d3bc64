#include "runtime/operators/sink_upsert_materializer.h"

#include <string>

#include "common/check.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

// Keys and arena rows are compacted once the garbage outnumbers the live ones, from this size on.
constexpr size_t kCompactMin = 1 << 16;

}  // namespace

// Keyed state: upsert keys get dense ids from a KeyIndex; per id the live rows (arena ids), oldest
// first. A key whose rows are all gone keeps its id and an empty list until the keys are compacted.
//
// Incremental checkpoints: a delta holds the new key bytes, the whole row list of every key written
// since the base (DeltaTracker over keys) and of every new key, and the arena's new rows. Compacting
// the arena or the keys renumbers them, which a delta cannot express: CanSnapshotDelta() is then false
// until the next full snapshot. A full snapshot drops released rows (and empty keys, when many) first.
struct SinkUpsertMaterializerOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}
  KeyIndex keys;
  std::vector<std::vector<uint32_t>> lists;  // per key id: live rows (arena ids), oldest first
  RowArena arena;
  size_t live = 0;       // rows in the lists
  size_t live_keys = 0;  // keys with a non-empty list
  std::vector<std::string> encoded;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;

  // The base of the next delta (the state at the last snapshot or restore).
  DeltaTracker key_delta;
  size_t arena_base = 0;
  bool compacted = false;

  size_t dead() const { return arena.size() - arena.live(); }
  void ResetDeltaBase() {
    key_delta.Reset(lists.size());
    arena_base = arena.size();
    compacted = false;
  }
  // Rebuilds the arena with the live rows only, in key order.
  void CompactArena(const std::vector<LogicalType>& types) {
    RowArena fresh(types);
    for (auto& list : lists) {
      for (uint32_t& id : list) id = fresh.Append(arena.rows(), id);
    }
    arena = std::move(fresh);
    compacted = true;
  }
  // Drops the keys without rows, renumbering the others (in id order).
  void CompactKeys() {
    KeyIndex fresh;
    std::vector<std::vector<uint32_t>> kept;
    kept.reserve(live_keys);
    for (uint32_t k = 0; k < lists.size(); ++k) {
      if (lists[k].empty()) continue;
      fresh.Insert(keys.key(k));
      kept.push_back(std::move(lists[k]));
    }
    keys = std::move(fresh);
    lists = std::move(kept);
    compacted = true;
  }
  // Refuses restored state that points outside its tables; recounts the derived counters.
  void ValidateAndDerive(StateReader* r) {
    if (!r->ok()) return;
    if (lists.size() != keys.size()) return r->Fail("materialized rows do not match their keys");
    live = 0;
    live_keys = 0;
    for (const auto& list : lists) {
      for (uint32_t id : list) {
        if (id >= arena.size()) return r->Fail("materialized row outside the arena");
      }
      live += list.size();
      live_keys += list.empty() ? 0 : 1;
    }
    if (live > arena.live()) r->Fail("more materialized rows than live rows in the arena");
  }
};

SinkUpsertMaterializerOperator::SinkUpsertMaterializerOperator(std::string name, std::vector<LogicalType> types,
                                                               std::vector<int> primary_key)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      primary_key_(std::move(primary_key)),
      state_(std::make_unique<State>(types_)) {}

SinkUpsertMaterializerOperator::~SinkUpsertMaterializerOperator() = default;

size_t SinkUpsertMaterializerOperator::state_rows() const { return state_->live; }

Status SinkUpsertMaterializerOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  // Only live rows go into the checkpoint; empty keys too when they are many.
  if (s.dead() > 0) s.CompactArena(types_);
  if ((s.lists.size() - s.live_keys) * 8 > s.lists.size()) s.CompactKeys();
  w->PutTag("upsert-materializer");
  s.keys.Snapshot(w);
  for (const auto& list : s.lists) PutColumn(w, list);
  s.arena.Snapshot(w);
  s.ResetDeltaBase();
  return Status::OK();
}

void SinkUpsertMaterializerOperator::DropState() { state_ = std::make_unique<State>(types_); }

Status SinkUpsertMaterializerOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("upsert-materializer");
  s.keys.Restore(r);
  s.lists.resize(r->ok() ? s.keys.size() : 0);
  for (auto& list : s.lists) {
    if (!r->ok()) break;
    GetColumn(r, &list);
  }
  s.arena.Restore(r);
  s.ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
  return Status::OK();
}

bool SinkUpsertMaterializerOperator::CanSnapshotDelta() const { return !state_->compacted; }

Status SinkUpsertMaterializerOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(!s.compacted);
  w->PutTag("upsert-materializer delta");
  const size_t key_base = s.key_delta.base();
  s.keys.SnapshotSince(key_base, w);
  // The row lists of keys written since the base, then those of the new keys.
  PutValuesDelta(w, s.lists, s.key_delta, [](StateWriter* out, const auto& list) { PutColumn(out, list); });
  s.arena.SnapshotTail(s.arena_base, w);
  s.ResetDeltaBase();
  return Status::OK();
}

Status SinkUpsertMaterializerOperator::RestoreDelta(StateReader* r) {
  State& s = *state_;
  r->ExpectTag("upsert-materializer delta");
  s.keys.RestoreAppend(r);
  ApplyValuesDelta(r, s.keys.size(), 5, &s.lists, [](StateReader* in, auto* list) { GetColumn(in, list); });
  s.arena.RestoreAppend(r);
  s.ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
  return Status::OK();
}

size_t SinkUpsertMaterializerOperator::StateBytes() const {
  const State& s = *state_;
  return s.keys.MemoryUsage() + VectorBytes(s.lists) + s.live * sizeof(uint32_t) + s.arena.MemoryUsage() +
         s.key_delta.MemoryUsage();
}

Status SinkUpsertMaterializerOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  State& s = *state_;
  EncodeKeys(chunk, primary_key_, &s.encoded);
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) {
      bool inserted = false;
      const uint32_t key = s.keys.Insert(s.encoded[i], &inserted);
      if (inserted) s.lists.emplace_back();
      std::vector<uint32_t>& list = s.lists[key];
      const uint32_t id = s.arena.Append(chunk, i);
      if (list.empty()) {
        s.out_ids.push_back(id);
        s.out_kinds.push_back(RowKind::kInsert);
        ++s.live_keys;
      } else {
        // As Flink's SinkUpsertMaterializer: +U without a before-image, even into a sink that stores
        // them (a print sink with a key; measured against Flink 2.2.1, tests/flink/cases/on_conflict_deduplicate).
        s.out_ids.push_back(id);
        s.out_kinds.push_back(RowKind::kUpdateAfter);
      }
      list.push_back(id);
      s.key_delta.Mark(key);
      ++s.live;
      continue;
    }
    const uint32_t key = s.keys.Find(s.encoded[i]);
    std::vector<uint32_t>* list = key == KeyIndex::kNotFound ? nullptr : &s.lists[key];
    size_t pos = 0;
    if (list != nullptr) {
      while (pos < list->size() && !RowsEqual(s.arena.rows(), (*list)[pos], chunk, i)) ++pos;
    }
    if (list == nullptr || pos == list->size()) {
      ++metrics_.retractions_without_state;
      continue;
    }
    const uint32_t removed = (*list)[pos];
    const bool was_latest = pos + 1 == list->size();
    list->erase(list->begin() + static_cast<std::ptrdiff_t>(pos));
    s.key_delta.Mark(key);
    --s.live;
    if (list->empty()) {
      s.out_ids.push_back(removed);
      s.out_kinds.push_back(RowKind::kDelete);
      --s.live_keys;
    } else if (was_latest) {
      s.out_ids.push_back(list->back());
      s.out_kinds.push_back(RowKind::kUpdateAfter);
    }
    s.arena.Release(removed);
  }
  return Flush();
}

Status SinkUpsertMaterializerOperator::Flush() {
  State& s = *state_;
  if (s.out_ids.empty()) return Status::OK();
  Chunk out(types_);
  s.arena.Gather(s.out_ids.data(), s.out_ids.size(), RowKind::kInsert, &out);
  std::copy(s.out_kinds.begin(), s.out_kinds.end(), out.kinds());
  s.out_ids.clear();
  s.out_kinds.clear();
  RETURN_IF_ERROR(Emit(out));
  // Released rows stay in the arena until it is rebuilt, and keys without rows in the key index until
  // it is: rebuild each once its garbage outnumbers what is live.
  if (s.dead() >= kCompactMin && s.dead() > s.live) s.CompactArena(types_);
  const size_t empty_keys = s.lists.size() - s.live_keys;
  if (empty_keys >= kCompactMin && empty_keys > s.live_keys) s.CompactKeys();
  return Status::OK();
}

}  // namespace sluice
