#include "engine/result_table.h"

namespace sluice {

void MaterializedTable::Apply(const Chunk& chunk) {
  for (size_t i = 0; i < chunk.size(); ++i) Apply(chunk.kind(i), chunk.GetRow(i));
}

void MaterializedTable::Apply(RowKind kind, std::vector<Value> row) {
  if (IsAccumulate(kind)) {
    rows_.push_back(std::move(row));
    return;
  }
  // Remove the most recent equal row (a retraction usually follows its insertion closely).
  for (size_t i = rows_.size(); i-- > 0;) {
    if (rows_[i] == row) {
      rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
  ++unmatched_;
}

}  // namespace sluice
