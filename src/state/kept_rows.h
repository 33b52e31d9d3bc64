// KeptRows: the rows an arena compaction keeps, in ascending id order, and each kept row's new id.
// Operators mark the ids their state still names (in any order), then hand ids() to
// RowArena::Retain, which moves fixed-width columns down in place for ascending ids and copies the
// rest front to back, and renumber their references with NewId. A bitmap over the arena's ids gives
// both the order and the new ids (the kept ids below one: a rank over the bitmap's words) without a
// sort: one bit per arena row plus four bytes per 64 rows.
//
// Threading: one operator's task thread.
#pragma once

#include <cstdint>
#include <vector>

namespace sluice {

class KeptRows {
 public:
  explicit KeptRows(size_t arena_size) : bits_((arena_size + 63) / 64, 0) {}

  // Marks row `id` (below the arena size) as kept; marking a row twice keeps it once.
  void Mark(uint32_t id) { bits_[id >> 6] |= uint64_t{1} << (id & 63); }

  // After the last Mark: computes ids() and the ranks NewId reads.
  void Finish() {
    rank_.resize(bits_.size());
    size_t count = 0;
    for (uint64_t b : bits_) count += static_cast<size_t>(__builtin_popcountll(b));
    ids_.clear();
    ids_.reserve(count);
    for (size_t w = 0; w < bits_.size(); ++w) {
      rank_[w] = static_cast<uint32_t>(ids_.size());
      for (uint64_t b = bits_[w]; b != 0; b &= b - 1) {
        ids_.push_back(static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(b))));
      }
    }
  }

  // The kept ids, ascending (after Finish).
  const std::vector<uint32_t>& ids() const { return ids_; }
  // The new id of a kept row: its position in ids() (after Finish).
  uint32_t NewId(uint32_t id) const {
    const uint64_t below = bits_[id >> 6] & ((uint64_t{1} << (id & 63)) - 1);
    return rank_[id >> 6] + static_cast<uint32_t>(__builtin_popcountll(below));
  }

 private:
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> rank_;
  std::vector<uint32_t> ids_;
};

}  // namespace sluice
