// MaterializedTable: folds a changelog into the table it describes, as Flink's SQL client 'table'
// result mode and the .test runner's `final` expectations do.
//
// +I and +U add a row; -U and -D remove one equal row (a retraction of a row that is not there is
// counted, never silently ignored). Rows keep the order in which they were first inserted, so the
// folded table of a deterministic changelog is deterministic.
//
// Threading: single-threaded value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types/value.h"
#include "types/vector.h"

namespace sluice {

class MaterializedTable {
 public:
  void Apply(const Chunk& chunk);
  void Apply(RowKind kind, std::vector<Value> row);
  const std::vector<std::vector<Value>>& rows() const { return rows_; }
  // Retractions that found no matching row.
  int64_t unmatched_retractions() const { return unmatched_; }

 private:
  std::vector<std::vector<Value>> rows_;
  int64_t unmatched_ = 0;
};

}  // namespace sluice
