// RankBuffer: one Top-N partition's sorted buffer (Flink's TopNBuffer), encoded sort key -> the row
// ids of its ties in arrival order, with the subset of std::map's interface RankOperator uses.
//
// A std::map costs a tree node (~40 bytes of links and allocator overhead) per sort key. Here the
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
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/inlined_vector.h>

namespace sluice {

// The row ids of one sort key's ties, in arrival order: a sort key usually has one or a few rows, kept
// inline (no allocation of their own).
using RankTieIds = absl::InlinedVector<uint32_t, 4>;

class RankBuffer {
 public:
  struct Entry {
    std::string first;  // the encoded sort key
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
  // Heap bytes of the chunks (entries' own strings and spilled tie lists not included).
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
