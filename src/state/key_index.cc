#include "state/key_index.h"

#include <cstring>

#include "state/state_serde.h"

namespace sluice {

namespace {
constexpr size_t kBlockBytes = 1 << 20;
}  // namespace

KeyIndex::KeyIndex() = default;
KeyIndex::~KeyIndex() = default;
KeyIndex::KeyIndex(KeyIndex&&) noexcept = default;
KeyIndex& KeyIndex::operator=(KeyIndex&&) noexcept = default;

std::string_view KeyIndex::Store(std::string_view key) {
  if (key.empty()) return std::string_view();
  if (blocks_.empty() || block_used_ + key.size() > block_size_) {
    block_size_ = std::max(kBlockBytes, key.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* p = blocks_.back().get() + block_used_;
  std::memcpy(p, key.data(), key.size());
  block_used_ += key.size();
  bytes_ += key.size();
  return std::string_view(p, key.size());
}

uint32_t KeyIndex::Insert(std::string_view key, bool* inserted) {
  auto it = map_.find(key);
  if (it != map_.end()) {
    if (inserted) *inserted = false;
    return it->second;
  }
  const uint32_t id = static_cast<uint32_t>(keys_.size());
  std::string_view stored = Store(key);
  map_.emplace(stored, id);
  keys_.push_back(stored);
  if (inserted) *inserted = true;
  return id;
}

uint32_t KeyIndex::Find(std::string_view key) const {
  auto it = map_.find(key);
  return it == map_.end() ? kNotFound : it->second;
}

void KeyIndex::Clear() { *this = KeyIndex(); }

size_t KeyIndex::MemoryUsage() const {
  return blocks_.size() * kBlockBytes + map_.capacity() * (sizeof(std::pair<std::string_view, uint32_t>) + 1) +
         keys_.capacity() * sizeof(std::string_view);
}

void KeyIndex::SnapshotSince(size_t first_id, StateWriter* w) const {
  w->PutTag("keys");
  w->PutVarint(first_id);
  const size_t n = keys_.size() > first_id ? keys_.size() - first_id : 0;
  w->PutVarint(n);
  size_t total = 0;
  for (size_t i = first_id; i < keys_.size(); ++i) total += keys_[i].size();
  w->Reserve(total + n * 2);
  for (size_t i = first_id; i < keys_.size(); ++i) w->PutString(keys_[i]);
}

void KeyIndex::Restore(StateReader* r) {
  Clear();
  RestoreAppend(r);
}

void KeyIndex::RestoreAppend(StateReader* r) {
  r->ExpectTag("keys");
  const size_t first = r->GetCount(0);
  if (r->ok() && first != keys_.size()) {
    r->Fail("key index delta starts at key " + std::to_string(first) + " but " + std::to_string(keys_.size()) +
            " keys were restored");
  }
  const size_t n = r->GetCount(1);
  if (!r->ok()) return;
  map_.reserve(keys_.size() + n);
  keys_.reserve(keys_.size() + n);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    std::string_view k = r->GetStringView();
    if (!r->ok()) break;
    bool inserted = false;
    Insert(k, &inserted);
    if (!inserted) r->Fail("duplicate key in the key index");
  }
}

}  // namespace sluice
