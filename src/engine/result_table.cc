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
    for (size_t c = 0; c < chunk.num_columns(); ++c) types_.push_back(chunk.column(c).type());
    by_upsert_key_ = !key_columns_.empty();
    if (!by_upsert_key_) {
      for (size_t c = 0; c < chunk.num_columns(); ++c) key_columns_.push_back(static_cast<int>(c));
    }
    arena_ = std::make_unique<RowArena>(types_);
  }
  // Added rows go to the arena in one columnar append; their ids follow in row order.
  sel_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) sel_.push_back(static_cast<uint32_t>(i));
  }
  if (!indexed_ && sel_.size() < n) BuildIndex();
  uint32_t next_id = sel_.empty() ? 0 : arena_->AppendMany(chunk, sel_.data(), sel_.size());
  live_.resize(arena_->size(), true);
  live_rows_ += sel_.size();
  if (!indexed_) return;  // insert-only so far: nothing to match
  older_.resize(arena_->size(), kNone);
  EncodeKeys(chunk, key_columns_, &keys_);
  for (size_t i = 0; i < n; ++i) {
    if (IsAccumulate(chunk.kind(i))) {
      Add(keys_[i], next_id++);
    } else {
      Retract(keys_[i], chunk.kind(i));
    }
  }
  MaybeCompact();
}

void MaterializedTable::BuildIndex() {
  indexed_ = true;
  older_.assign(arena_->size(), kNone);
  if (arena_->size() == 0) return;
  EncodeKeys(arena_->rows(), key_columns_, &keys_);
  for (size_t id = 0; id < keys_.size(); ++id) Add(keys_[id], static_cast<uint32_t>(id));
}

void MaterializedTable::Add(const std::string& key, uint32_t id) {
  auto it = index_.find(key);
  if (it == index_.end()) it = index_.emplace(key, Entry{}).first;
  Entry& e = it->second;
  if (by_upsert_key_) {
    // The key's row is replaced (a +U whose -U was not sent, or an upsert).
    if (e.newest != kNone) Remove(e.newest);
    e.newest = id;
    e.count = 1;
    return;
  }
  older_[id] = e.newest;
  e.newest = id;
  ++e.count;
}

void MaterializedTable::Retract(const std::string& key, RowKind kind) {
  auto it = index_.find(key);
  if (it == index_.end() || it->second.newest == kNone) {
    ++unmatched_;
    return;
  }
  Entry& e = it->second;
  const uint32_t id = e.newest;
  Remove(id);
  if (by_upsert_key_) {
    // After a -U the key's +U usually follows: keep the entry for it.
    e.newest = kNone;
    e.count = 0;
    if (kind == RowKind::kDelete) index_.erase(it);
    return;
  }
  e.newest = older_[id];
  if (--e.count == 0) index_.erase(it);
}

void MaterializedTable::Remove(uint32_t id) {
  live_[id] = false;
  arena_->Release(id);
  --live_rows_;
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
  std::vector<uint32_t> new_id(live_.size(), kNone);
  for (size_t j = 0; j < ids.size(); ++j) new_id[ids[j]] = static_cast<uint32_t>(j);
  auto remap = [&new_id](uint32_t id) { return id == kNone ? kNone : new_id[id]; };
  auto fresh = std::make_unique<RowArena>(types_);
  if (!ids.empty()) fresh->AppendMany(arena_->rows(), ids.data(), ids.size());
  arena_ = std::move(fresh);
  std::vector<uint32_t> older(ids.size(), kNone);
  for (size_t j = 0; j < ids.size(); ++j) older[j] = remap(older_[ids[j]]);
  older_ = std::move(older);
  for (auto& [key, e] : index_) e.newest = remap(e.newest);
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
