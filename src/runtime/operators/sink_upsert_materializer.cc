#include "runtime/operators/sink_upsert_materializer.h"

#include <xxhash.h>

#include <string>
#include <unordered_map>

#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/state_serde.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

}  // namespace

struct SinkUpsertMaterializerOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}
  // Per primary-key value: the live rows (arena ids), oldest first.
  std::unordered_map<std::string, std::vector<uint32_t>, StringHash> rows;
  RowArena arena;
  size_t live = 0;
  size_t dead = 0;
  std::vector<std::string> encoded;
  std::vector<uint32_t> out_ids;
  std::vector<RowKind> out_kinds;
};

SinkUpsertMaterializerOperator::SinkUpsertMaterializerOperator(std::string name, std::vector<LogicalType> types,
                                                               std::vector<int> primary_key, bool emit_update_before)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      primary_key_(std::move(primary_key)),
      emit_update_before_(emit_update_before),
      state_(std::make_unique<State>(types_)) {}

SinkUpsertMaterializerOperator::~SinkUpsertMaterializerOperator() = default;

size_t SinkUpsertMaterializerOperator::state_rows() const { return state_->live; }

Status SinkUpsertMaterializerOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("upsert-materializer");
  w->PutVarint(s.rows.size());
  for (const auto& [key, ids] : s.rows) {
    w->PutString(key);
    w->PutVarint(ids.size());
    for (uint32_t id : ids) w->PutU32(id);
  }
  s.arena.Snapshot(w);
  w->PutVarint(s.live);
  w->PutVarint(s.dead);
  return Status::OK();
}

Status SinkUpsertMaterializerOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(types_);
  State& s = *fresh;
  r->ExpectTag("upsert-materializer");
  const size_t n = r->GetCount(2);
  std::vector<uint32_t> all;
  for (size_t i = 0; i < n && r->ok(); ++i) {
    std::string key = r->GetString();
    std::vector<uint32_t> ids(r->GetCount(4));
    for (auto& id : ids) id = r->GetU32();
    all.insert(all.end(), ids.begin(), ids.end());
    s.rows.emplace(std::move(key), std::move(ids));
  }
  s.arena.Restore(r);
  s.live = r->GetCount(0);
  s.dead = r->GetCount(0);
  for (uint32_t id : all) {
    if (r->ok() && id >= s.arena.rows().size()) r->Fail("materialized row outside the arena");
  }
  RETURN_IF_ERROR(r->status());
  state_ = std::move(fresh);
  return Status::OK();
}

Status SinkUpsertMaterializerOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  State& s = *state_;
  EncodeKeys(chunk, primary_key_, &s.encoded);
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint32_t>& list = s.rows[s.encoded[i]];
    if (IsAccumulate(chunk.kind(i))) {
      const uint32_t id = s.arena.Append(chunk, i);
      if (list.empty()) {
        s.out_ids.push_back(id);
        s.out_kinds.push_back(RowKind::kInsert);
      } else {
        if (emit_update_before_) {
          s.out_ids.push_back(list.back());
          s.out_kinds.push_back(RowKind::kUpdateBefore);
        }
        s.out_ids.push_back(id);
        s.out_kinds.push_back(RowKind::kUpdateAfter);
      }
      list.push_back(id);
      ++s.live;
      continue;
    }
    size_t pos = 0;
    while (pos < list.size() && !RowsEqual(s.arena.rows(), list[pos], chunk, i)) ++pos;
    if (pos == list.size()) {
      ++metrics_.retractions_without_state;
      if (list.empty()) s.rows.erase(s.encoded[i]);
      continue;
    }
    const uint32_t removed = list[pos];
    const bool was_latest = pos + 1 == list.size();
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(pos));
    --s.live;
    ++s.dead;
    if (list.empty()) {
      s.out_ids.push_back(removed);
      s.out_kinds.push_back(RowKind::kDelete);
      s.rows.erase(s.encoded[i]);
    } else if (was_latest) {
      if (emit_update_before_) {
        s.out_ids.push_back(removed);
        s.out_kinds.push_back(RowKind::kUpdateBefore);
      }
      s.out_ids.push_back(list.back());
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
  // Released rows stay in the arena until it is rebuilt; rebuild once they outnumber the live ones.
  if (s.dead >= (1u << 16) && s.dead > s.live) {
    RowArena fresh(types_);
    for (auto& [key, list] : s.rows) {
      for (uint32_t& id : list) id = fresh.Append(s.arena.rows(), id);
    }
    s.arena = std::move(fresh);
    s.dead = 0;
  }
  return Status::OK();
}

}  // namespace sluice
