#include "runtime/operators/rank_buffer.h"

#include <algorithm>

namespace sluice {

namespace {

// Capacity for one more entry: small steps (a Top-N partition holds few keys; a doubled vector would
// waste more than the tree nodes it replaces), capped at the chunk size.
size_t GrownCapacity(size_t size) {
  return std::min<size_t>(RankBuffer::kMaxChunk + 1, size + std::max<size_t>(2, size / 4));
}

}  // namespace

RankTieIds::RankTieIds(std::initializer_list<uint32_t> ids) {
  Reserve(static_cast<uint32_t>(ids.size()));
  for (uint32_t id : ids) push_back(id);
}

RankTieIds::RankTieIds(size_t n) {
  Reserve(static_cast<uint32_t>(n));
  std::fill(data(), data() + n, 0u);
  size_ = static_cast<uint32_t>(n);
}

RankTieIds::RankTieIds(const RankTieIds& o) {
  Reserve(o.size_);
  std::copy(o.begin(), o.end(), data());
  size_ = o.size_;
}

RankTieIds& RankTieIds::operator=(const RankTieIds& o) {
  if (this != &o) *this = RankTieIds(o);
  return *this;
}

RankTieIds& RankTieIds::operator=(RankTieIds&& o) noexcept {
  if (this == &o) return *this;
  if (cap_ > kInline) delete[] u_.heap;
  size_ = o.size_;
  cap_ = o.cap_;
  u_ = o.u_;
  o.size_ = o.cap_ = 0;
  return *this;
}

void RankTieIds::Reserve(uint32_t cap) {
  if (cap <= std::max(cap_, kInline)) return;
  auto* heap = new uint32_t[cap];
  std::copy(begin(), end(), heap);
  if (cap_ > kInline) delete[] u_.heap;
  u_.heap = heap;
  cap_ = cap;
}

void RankTieIds::push_back(uint32_t id) {
  if (size_ == std::max(cap_, kInline)) Reserve(size_ + std::max<uint32_t>(2, size_ / 2));
  data()[size_++] = id;
}

uint32_t* RankTieIds::erase(uint32_t* pos) {
  std::copy(pos + 1, end(), pos);
  --size_;
  return pos;
}

bool RankTieIds::operator==(const RankTieIds& o) const {
  return size_ == o.size_ && std::equal(begin(), end(), o.begin());
}

RankKey::RankKey(std::string_view s) {
  if (s.size() <= kInline) {
    std::memcpy(raw_, s.data(), s.size());
    raw_[kInline] = static_cast<char>(s.size());
    return;
  }
  char* p = new char[s.size()];
  std::memcpy(p, s.data(), s.size());
  const auto n = static_cast<uint32_t>(s.size());
  std::memcpy(raw_, &p, sizeof p);
  std::memcpy(raw_ + sizeof p, &n, sizeof n);
  raw_[kInline] = static_cast<char>(kHeapTag);
}

RankKey::RankKey(RankKey&& o) noexcept {
  std::memcpy(raw_, o.raw_, sizeof raw_);
  std::memset(o.raw_, 0, sizeof o.raw_);
}

RankKey& RankKey::operator=(const RankKey& o) {
  if (this != &o) *this = RankKey(o.view());
  return *this;
}

RankKey& RankKey::operator=(RankKey&& o) noexcept {
  if (this == &o) return *this;
  if (is_heap()) delete[] heap_ptr();
  std::memcpy(raw_, o.raw_, sizeof raw_);
  std::memset(o.raw_, 0, sizeof o.raw_);
  return *this;
}

size_t RankBuffer::size() const {
  size_t n = 0;
  for (const Chunk& c : chunks_) n += c.size();
  return n;
}

size_t RankBuffer::MemoryUsage() const {
  size_t bytes = chunks_.capacity() > 1 ? chunks_.capacity() * sizeof(Chunk) : 0;
  for (const Chunk& c : chunks_) bytes += c.capacity() * sizeof(Entry);
  return bytes;
}

RankBuffer::iterator RankBuffer::LowerBound(const std::string& key) {
  // The first chunk whose last key is not less than `key`.
  auto chunk = std::partition_point(chunks_.begin(), chunks_.end(),
                                    [&key](const Chunk& c) { return c.back().first < key; });
  if (chunk == chunks_.end()) return end();
  auto pos = std::partition_point(chunk->begin(), chunk->end(), [&key](const Entry& e) { return e.first < key; });
  return iterator(this, static_cast<size_t>(chunk - chunks_.begin()), static_cast<size_t>(pos - chunk->begin()));
}

RankBuffer::iterator RankBuffer::find(const std::string& key) {
  iterator it = LowerBound(key);
  if (it == end() || it->first != key) return end();
  return it;
}

std::pair<RankBuffer::iterator, bool> RankBuffer::try_emplace(std::string&& key) {
  iterator it = LowerBound(key);
  if (it != end() && it->first == key) return {it, false};
  if (chunks_.empty()) {
    chunks_.emplace_back();
    return {InsertAt(0, 0, std::move(key)), true};
  }
  // Past the last key: append to the last chunk.
  if (it == end()) return {InsertAt(chunks_.size() - 1, chunks_.back().size(), std::move(key)), true};
  return {InsertAt(it.chunk_, it.pos_, std::move(key)), true};
}

RankBuffer::iterator RankBuffer::InsertAt(size_t c, size_t pos, std::string&& key) {
  Chunk& chunk = chunks_[c];
  if (chunk.size() == chunk.capacity()) chunk.reserve(GrownCapacity(chunk.size()));
  chunk.insert(chunk.begin() + static_cast<std::ptrdiff_t>(pos), Entry{RankKey(key), {}});
  if (chunk.size() <= kMaxChunk) return iterator(this, c, pos);
  // Split: the upper half moves to a new chunk after this one.
  const size_t half = chunk.size() / 2;
  Chunk upper;
  upper.reserve(GrownCapacity(chunk.size() - half));
  std::move(chunk.begin() + static_cast<std::ptrdiff_t>(half), chunk.end(), std::back_inserter(upper));
  chunk.erase(chunk.begin() + static_cast<std::ptrdiff_t>(half), chunk.end());
  chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(c + 1), std::move(upper));
  return pos < half ? iterator(this, c, pos) : iterator(this, c + 1, pos - half);
}

void RankBuffer::push_back(std::string&& key, RankTieIds&& ids) {
  if (chunks_.empty() || chunks_.back().size() >= kMaxChunk / 2) chunks_.emplace_back();
  Chunk& chunk = chunks_.back();
  if (chunk.size() == chunk.capacity()) chunk.reserve(GrownCapacity(chunk.size()));
  chunk.push_back(Entry{RankKey(key), std::move(ids)});
}

RankBuffer::iterator RankBuffer::erase(const_iterator it) {
  const size_t c = it.chunk_;
  Chunk& chunk = chunks_[c];
  chunk.erase(chunk.begin() + static_cast<std::ptrdiff_t>(it.pos_));
  if (chunk.empty()) {
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(c));
    return iterator(this, c, 0);
  }
  // Merge a small chunk with the next one, so erasures cannot leave many tiny chunks.
  if (c + 1 < chunks_.size() && chunk.size() + chunks_[c + 1].size() <= kMaxChunk / 2) {
    Chunk& next = chunks_[c + 1];
    std::move(next.begin(), next.end(), std::back_inserter(chunk));
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(c + 1));
  }
  if (it.pos_ == chunks_[c].size()) return iterator(this, c + 1, 0);
  return iterator(this, c, it.pos_);
}

}  // namespace sluice
