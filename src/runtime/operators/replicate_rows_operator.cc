#include "runtime/operators/replicate_rows_operator.h"

namespace sluice {

Status ReplicateRowsOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  const Vector& count = chunk.column(0);
  std::vector<uint32_t> parent;
  for (size_t r = 0; r < n; ++r) {
    if (count.IsNull(r)) continue;
    const int64_t copies = count.data<int64_t>()[r];
    for (int64_t k = 0; k < copies; ++k) parent.push_back(static_cast<uint32_t>(r));
  }
  if (parent.empty()) return Status::OK();
  const size_t m = parent.size();
  const size_t width = chunk.num_columns();
  Chunk out;
  for (size_t c = 0; c < output_.size(); ++c) {
    // Output column c reads input column c, and the function's copies read columns 1..k again.
    const size_t src = c < width ? c : c - width + 1;
    Vector v(output_.field(c).type);
    v.AppendFrom(chunk.column(src), parent.data(), 0, m);
    out.AddColumn(std::move(v));
  }
  auto& kinds = out.kind_vector();
  kinds.resize(m);
  for (size_t i = 0; i < m; ++i) kinds[i] = chunk.kind(parent[i]);
  return Emit(out);
}

}  // namespace sluice
