// MaterializedTable: folds a changelog into the table it describes, as Flink's SQL client 'table'
// result mode and the .test runner's `final` expectations do.
//
// +I and +U add a row; -U and -D remove the most recently added equal row (a retraction of a row
// that is not there is counted, never silently ignored). Rows keep the order in which they were
// added, so the folded table of a deterministic changelog is deterministic.
//
// Linear in the changelog: rows are stored column-wise in a RowArena (no boxed values), and a hash
// index from each row's encoded values (state/key_encoder.h: equal under GROUP BY semantics) to the
// ids of its live copies finds a retraction's row in O(1). Removed rows leave holes that a rebuild
// drops once they outnumber the live rows, so memory follows the table, not the changelog.
//
// Threading: single-threaded value.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "types/value.h"
#include "types/vector.h"

namespace sluice {

class RowArena;

class MaterializedTable {
 public:
  MaterializedTable();
  ~MaterializedTable();
  MaterializedTable(MaterializedTable&&) noexcept;
  MaterializedTable& operator=(MaterializedTable&&) noexcept;

  void Apply(const Chunk& chunk);
  // The live rows in order, as insert-only chunks of at most `capacity` rows.
  std::vector<Chunk> Chunks(size_t capacity = Chunk::kDefaultCapacity) const;
  // The live rows in order, boxed (for printing and tests).
  std::vector<std::vector<Value>> rows() const;
  size_t size() const { return live_rows_; }
  // Retractions that found no matching row.
  int64_t unmatched_retractions() const { return unmatched_; }

 private:
  void MaybeCompact();
  std::vector<uint32_t> LiveIds() const;

  std::unique_ptr<RowArena> arena_;  // created by the first chunk, with its column types
  std::vector<LogicalType> types_;
  std::vector<int> all_columns_;
  std::unordered_map<std::string, std::vector<uint32_t>> index_;  // encoded row -> live ids, oldest first
  std::vector<bool> live_;                                         // by row id
  size_t live_rows_ = 0;
  int64_t unmatched_ = 0;
  // Scratch.
  std::vector<std::string> keys_;
  std::vector<uint32_t> sel_;
};

}  // namespace sluice
