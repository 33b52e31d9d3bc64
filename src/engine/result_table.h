// MaterializedTable: folds a changelog into the table it describes, as Flink's SQL client 'table'
// result mode and the .test runner's `final` expectations do.
//
// +I and +U add a row; -U and -D remove the most recently added equal row (a retraction of a row
// that is not there is counted, never silently ignored). Rows keep the order in which they were
// added, so the folded table of a deterministic changelog is deterministic.
//
// With an upsert key (SetUpsertKey: the query's unique key, plan/traits.h UpsertKeyIndexes) rows are
// matched by their key columns alone: +I/+U replace the key's row (the new row goes to the end, as a
// removal and an add), -U removes it and leaves a marker that the +U following it reuses, -D removes
// it. For a changelog of that key (what the planner guarantees) this is the same table, in the same
// order, as matching whole rows; it encodes and hashes only the key and never allocates per change.
//
// Linear in the changelog: rows are stored column-wise in a RowArena (no boxed values), and a hash
// index from each row's encoded key (state/key_encoder.h: equal under GROUP BY semantics; the whole
// row without an upsert key) to its live row ids finds a retraction's row in O(1). Equal whole rows
// chain their ids (newest first), so a retraction pops the newest copy without a list per row. The
// index is built only when the first retraction arrives: an insert-only result is just appended.
// Removed rows leave holes that a rebuild drops once they outnumber the live rows, so memory follows
// the table, not the changelog.
//
// Threading: single-threaded value.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <memory>
#include <string>
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

  // Matches rows by these columns (a unique key of every row the changelog holds at once) instead of
  // whole rows. Call before the first Apply; empty keeps whole-row matching.
  void SetUpsertKey(std::vector<int> key_columns) { key_columns_ = std::move(key_columns); }

  void Apply(const Chunk& chunk);
  // The live rows in order, as insert-only chunks of at most `capacity` rows.
  std::vector<Chunk> Chunks(size_t capacity = Chunk::kDefaultCapacity) const;
  // The live rows in order, boxed (for printing and tests).
  std::vector<std::vector<Value>> rows() const;
  size_t size() const { return live_rows_; }
  // Retractions that found no matching row.
  int64_t unmatched_retractions() const { return unmatched_; }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // Per encoded key: the newest live row id with it (kNone: an upsert key's row retracted by -U), and
  // how many live rows have it (whole-row matching; 0 or 1 with an upsert key).
  struct Entry {
    uint32_t newest = kNone;
    uint32_t count = 0;
  };
  // Builds the index over the rows stored so far (at the first retraction).
  void BuildIndex();
  void Add(const std::string& key, uint32_t id);
  void Retract(const std::string& key, RowKind kind);
  void Remove(uint32_t id);
  void MaybeCompact();
  std::vector<uint32_t> LiveIds() const;

  std::unique_ptr<RowArena> arena_;  // created by the first chunk, with its column types
  std::vector<LogicalType> types_;
  std::vector<int> key_columns_;  // the upsert key, or every column
  bool by_upsert_key_ = false;
  bool indexed_ = false;
  absl::flat_hash_map<std::string, Entry> index_;
  std::vector<uint32_t> older_;  // by row id: the next older live row with the same key (kNone: none)
  std::vector<bool> live_;       // by row id
  size_t live_rows_ = 0;
  int64_t unmatched_ = 0;
  // Scratch.
  std::vector<std::string> keys_;
  std::vector<uint32_t> sel_;
};

}  // namespace sluice
