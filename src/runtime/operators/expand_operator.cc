#include "runtime/operators/expand_operator.h"

namespace sluice {

ExpandOperator::ExpandOperator(std::string name, std::vector<std::vector<bool>> keep, std::vector<int64_t> expand_ids,
                               Schema output)
    : Operator(std::move(name), 1), keep_(std::move(keep)), expand_ids_(std::move(expand_ids)), output_(std::move(output)) {}

Status ExpandOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (n == 0) return Status::OK();
  const size_t sets = keep_.size();
  const size_t m = n * sets;
  // Output row r * sets + p is input row r in grouping set p.
  std::vector<uint32_t> parent(m);
  for (size_t r = 0; r < n; ++r) {
    for (size_t p = 0; p < sets; ++p) parent[r * sets + p] = static_cast<uint32_t>(r);
  }
  Chunk out;
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    Vector v(output_.field(c).type);
    v.AppendFrom(chunk.column(c), parent.data(), 0, m);
    for (size_t p = 0; p < sets; ++p) {
      if (keep_[p][c]) continue;
      for (size_t r = 0; r < n; ++r) v.SetNull(r * sets + p, true);
    }
    out.AddColumn(std::move(v));
  }
  Vector e(output_.field(chunk.num_columns()).type, m);
  int64_t* ids = e.data<int64_t>();
  for (size_t i = 0; i < m; ++i) ids[i] = expand_ids_[i % sets];
  out.AddColumn(std::move(e));
  auto& kinds = out.kind_vector();
  kinds.resize(m);
  for (size_t i = 0; i < m; ++i) kinds[i] = chunk.kind(parent[i]);
  return Emit(out);
}

}  // namespace sluice
