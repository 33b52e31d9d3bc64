// RankBuffer: one Top-N partition's sorted buffer (Flink's TopNBuffer), encoded sort key -> the row
// ids of its ties in arrival order, with the subset of std::map's interface RankOperator uses.
//
// An entry is 32 bytes (RankKey, RankTieIds). A std::map costs a tree node (~40 bytes of links and allocator overhead) per sort key. Here the
// entries sit in sorted chunks of at most kMaxChunk entries (a one-level B-tree): a small partition
// (the usual Top-N, N rows) is one vector grown in small steps, and an unbounded one (a retracting
// input keeps every row) splits full chunks, so a lookup is two binary searches and an insert or
// erase moves at most kMaxChunk entries plus, on a split or an emptied chunk, the chunk list.
//
// Iterators are (chunk, position): any insert or erase invalidates them, except the iterator erase
// returns. Threading: the job's task thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/container/inlined_vector.h>

namespace sluice {

// The row ids of one sort key's ties, in arrival order, in 16 bytes: a sort key usually has one row,
// so up to two ids are kept inline and more in a heap array (absl::InlinedVector<uint32_t, 4> took 24).
class RankTieIds {
 public:
  RankTieIds() = default;
  RankTieIds(std::initializer_list<uint32_t> ids);
  explicit RankTieIds(size_t n);  // n zero ids
  RankTieIds(const RankTieIds& o);
  RankTieIds(RankTieIds&& o) noexcept : size_(o.size_), cap_(o.cap_), u_(o.u_) { o.size_ = o.cap_ = 0; }
  RankTieIds& operator=(const RankTieIds& o);
  RankTieIds& operator=(RankTieIds&& o) noexcept;
  ~RankTieIds() {
    if (cap_ > kInline) delete[] u_.heap;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t* data() { return cap_ > kInline ? u_.heap : u_.inline_ids; }
  const uint32_t* data() const { return cap_ > kInline ? u_.heap : u_.inline_ids; }
  uint32_t* begin() { return data(); }
  uint32_t* end() { return data() + size_; }
  const uint32_t* begin() const { return data(); }
  const uint32_t* end() const { return data() + size_; }
  uint32_t& operator[](size_t i) { return data()[i]; }
  uint32_t operator[](size_t i) const { return data()[i]; }
  uint32_t front() const { return data()[0]; }
  uint32_t back() const { return data()[size_ - 1]; }
  void push_back(uint32_t id);
  void pop_back() { --size_; }
  // Removes the id at `pos`; returns the position after it.
  uint32_t* erase(uint32_t* pos);
  // Heap bytes (0 while inline).
  size_t HeapBytes() const { return cap_ > kInline ? cap_ * sizeof(uint32_t) : 0; }
  bool operator==(const RankTieIds& o) const;
  bool operator!=(const RankTieIds& o) const { return !(*this == o); }

 private:
  static constexpr uint32_t kInline = 2;
  void Reserve(uint32_t cap);
  uint32_t size_ = 0;
  uint32_t cap_ = 0;  // <= kInline: inline
  union U {
    uint32_t inline_ids[kInline];
    uint32_t* heap;
  } u_{};
};

// An encoded sort key in 16 bytes: up to 15 bytes inline (a number, a timestamp, a short string: the
// usual ORDER BY), longer ones on the heap (a std::string took 32 bytes). Compares as its bytes.
class RankKey {
 public:
  RankKey() = default;
  explicit RankKey(std::string_view s);
  RankKey(const RankKey& o) : RankKey(o.view()) {}
  RankKey(RankKey&& o) noexcept;
  RankKey& operator=(const RankKey& o);
  RankKey& operator=(RankKey&& o) noexcept;
  ~RankKey() {
    if (is_heap()) delete[] heap_ptr();
  }

  std::string_view view() const {
    return is_heap() ? std::string_view(heap_ptr(), heap_size()) : std::string_view(raw_, tag());
  }
  operator std::string_view() const { return view(); }  // NOLINT: a key reads as its bytes
  size_t HeapBytes() const { return is_heap() ? heap_size() : 0; }

  friend bool operator<(const RankKey& a, std::string_view b) { return a.view() < b; }
  friend bool operator<(std::string_view a, const RankKey& b) { return a < b.view(); }
  friend bool operator<(const RankKey& a, const RankKey& b) { return a.view() < b.view(); }
  friend bool operator==(const RankKey& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(std::string_view a, const RankKey& b) { return a == b.view(); }
  friend bool operator!=(const RankKey& a, std::string_view b) { return a.view() != b; }
  friend bool operator!=(std::string_view a, const RankKey& b) { return a != b.view(); }
  friend bool operator<(const RankKey& a, const std::string& b) { return a.view() < std::string_view(b); }
  friend bool operator<(const std::string& a, const RankKey& b) { return std::string_view(a) < b.view(); }
  friend bool operator==(const RankKey& a, const std::string& b) { return a.view() == std::string_view(b); }
  friend bool operator==(const std::string& a, const RankKey& b) { return std::string_view(a) == b.view(); }
  friend bool operator!=(const RankKey& a, const std::string& b) { return a.view() != std::string_view(b); }
  friend bool operator!=(const std::string& a, const RankKey& b) { return std::string_view(a) != b.view(); }

 private:
  static constexpr size_t kInline = 15;
  static constexpr unsigned char kHeapTag = 0xff;
  unsigned char tag() const { return static_cast<unsigned char>(raw_[kInline]); }
  bool is_heap() const { return tag() == kHeapTag; }
  char* heap_ptr() const {
    char* p;
    std::memcpy(&p, raw_, sizeof p);
    return p;
  }
  uint32_t heap_size() const {
    uint32_t n;
    std::memcpy(&n, raw_ + sizeof(char*), sizeof n);
    return n;
  }
  // Inline: the bytes, then the length in raw_[kInline]. On the heap: the pointer, the 32-bit size,
  // and kHeapTag in raw_[kInline].
  alignas(8) char raw_[kInline + 1] = {};
};
static_assert(sizeof(RankKey) == 16);

class RankBuffer {
 public:
  struct Entry {
    RankKey first;      // the encoded sort key
    RankTieIds second;  // its rows
  };
  static constexpr size_t kMaxChunk = 64;

  template <bool kConst>
  class Iter {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = Entry;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const Entry*, Entry*>;
    using reference = std::conditional_t<kConst, const Entry&, Entry&>;
    using Owner = std::conditional_t<kConst, const RankBuffer*, RankBuffer*>;

    Iter() = default;
    Iter(Owner b, size_t chunk, size_t pos) : b_(b), chunk_(chunk), pos_(pos) {}
    operator Iter<true>() const { return Iter<true>(b_, chunk_, pos_); }  // NOLINT: like std::map's

    reference operator*() const { return b_->chunks_[chunk_][pos_]; }
    pointer operator->() const { return &b_->chunks_[chunk_][pos_]; }
    Iter& operator++() {
      if (++pos_ == b_->chunks_[chunk_].size()) {
        ++chunk_;
        pos_ = 0;
      }
      return *this;
    }
    Iter& operator--() {
      if (pos_ == 0) {
        --chunk_;
        pos_ = b_->chunks_[chunk_].size() - 1;
      } else {
        --pos_;
      }
      return *this;
    }
    Iter operator++(int) {
      Iter old = *this;
      ++*this;
      return old;
    }
    Iter operator--(int) {
      Iter old = *this;
      --*this;
      return old;
    }
    bool operator==(const Iter& o) const { return chunk_ == o.chunk_ && pos_ == o.pos_; }
    bool operator!=(const Iter& o) const { return !(*this == o); }

   private:
    friend class RankBuffer;
    Owner b_ = nullptr;
    size_t chunk_ = 0;
    size_t pos_ = 0;
  };
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  bool empty() const { return chunks_.empty(); }
  // Sort keys (not rows); walks the chunks.
  size_t size() const;
  iterator begin() { return iterator(this, 0, 0); }
  iterator end() { return iterator(this, chunks_.size(), 0); }
  const_iterator begin() const { return const_iterator(this, 0, 0); }
  const_iterator end() const { return const_iterator(this, chunks_.size(), 0); }
  // The greatest sort key's entry; the buffer must not be empty.
  const Entry& back() const { return chunks_.back().back(); }

  iterator find(const std::string& key);
  // The entry of `key`, created without rows if absent; true when created.
  std::pair<iterator, bool> try_emplace(std::string&& key);
  // Appends an entry whose key is greater than every key in the buffer (a restore).
  void push_back(std::string&& key, RankTieIds&& ids);
  // Removes the entry; returns the one after it.
  iterator erase(const_iterator it);
  void clear() { chunks_.clear(); }
  // Heap bytes of the chunks (entries' long keys and spilled tie lists not included).
  size_t MemoryUsage() const;

 private:
  using Chunk = std::vector<Entry>;
  // The first position whose key is not less than `key` (end() when none).
  iterator LowerBound(const std::string& key);
  // Inserts into chunk c at pos (growing it in small steps, splitting it when over kMaxChunk).
  iterator InsertAt(size_t c, size_t pos, std::string&& key);

  absl::InlinedVector<Chunk, 1> chunks_;  // never an empty chunk
};

}  // namespace sluice
