#include "engine/result_table.h"

#include <algorithm>

#include "state/key_encoder.h"
#include "state/row_arena.h"

namespace sluice {

namespace {

// Rebuild the arena once this many removed rows outnumber the live ones.
constexpr size_t kMinDeadRowsToCompact = 1 << 14;

}  // namespace

MaterializedTable::MaterializedTable() = default;
MaterializedTable::~MaterializedTable() = default;
MaterializedTable::MaterializedTable(MaterializedTable&&) noexcept = default;
MaterializedTable& MaterializedTable::operator=(MaterializedTable&&) noexcept = default;

void MaterializedTable::Apply(const Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return;
  if (!arena_) {
    for (size_t c = 0; c < chunk.num_columns(); ++c) {
      types_.push_back(chunk.column(c).type());
      all_columns_.push_back(static_cast<int>(c));
    }
    arena_ = std::make_unique<RowArena>(types_);
  }
  EncodeKeys(chunk, all_columns_, &keys_);
  // Added rows go to the arena in one columnar append; their ids follow in row order.
  sel_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) sel_.push_back(static_cast<uint32_t>(i));
  }
  uint32_t next_id = sel_.empty() ? 0 : arena_->AppendMany(chunk, sel_.data(), sel_.size());
  live_.resize(arena_->size(), true);
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) {
      index_[keys_[i]].push_back(next_id++);
      ++live_rows_;
      continue;
    }
    auto it = index_.find(keys_[i]);
    if (it == index_.end()) {
      ++unmatched_;
      continue;
    }
    live_[it->second.back()] = false;
    arena_->Release(it->second.back());
    --live_rows_;
    it->second.pop_back();
    if (it->second.empty()) index_.erase(it);
  }
  MaybeCompact();
}

std::vector<uint32_t> MaterializedTable::LiveIds() const {
  std::vector<uint32_t> ids;
  ids.reserve(live_rows_);
  for (size_t id = 0; id < live_.size(); ++id) {
    if (live_[id]) ids.push_back(static_cast<uint32_t>(id));
  }
  return ids;
}

void MaterializedTable::MaybeCompact() {
  const size_t dead = live_.size() - live_rows_;
  if (dead < kMinDeadRowsToCompact || dead < live_rows_) return;
  const std::vector<uint32_t> ids = LiveIds();
  std::vector<uint32_t> new_id(live_.size(), 0);
  for (size_t j = 0; j < ids.size(); ++j) new_id[ids[j]] = static_cast<uint32_t>(j);
  auto fresh = std::make_unique<RowArena>(types_);
  if (!ids.empty()) fresh->AppendMany(arena_->rows(), ids.data(), ids.size());
  arena_ = std::move(fresh);
  for (auto& [key, copies] : index_) {
    for (uint32_t& id : copies) id = new_id[id];
  }
  live_.assign(ids.size(), true);
}

std::vector<Chunk> MaterializedTable::Chunks(size_t capacity) const {
  std::vector<Chunk> out;
  if (!arena_) return out;
  const std::vector<uint32_t> ids = LiveIds();
  for (size_t first = 0; first < ids.size(); first += capacity) {
    Chunk c(types_);
    arena_->Gather(ids.data() + first, std::min(capacity, ids.size() - first), RowKind::kInsert, &c);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::vector<Value>> MaterializedTable::rows() const {
  std::vector<std::vector<Value>> out;
  out.reserve(live_rows_);
  if (!arena_) return out;
  for (uint32_t id : LiveIds()) out.push_back(arena_->rows().GetRow(id));
  return out;
}

}  // namespace sluice
