#include "runtime/operators/drop_update_before_operator.h"

#include <vector>

namespace sluice {

Status DropUpdateBeforeOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  std::vector<uint32_t> keep;
  keep.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (chunk.kind(i) != RowKind::kUpdateBefore) keep.push_back(static_cast<uint32_t>(i));
  }
  if (keep.size() == n) return Emit(chunk);
  if (keep.empty()) return Status::OK();
  Chunk out;
  for (const auto& col : chunk.columns()) out.AddColumn(Vector(col.type()));
  out.AppendFrom(chunk, keep.data(), 0, keep.size());
  return Emit(out);
}

}  // namespace sluice
