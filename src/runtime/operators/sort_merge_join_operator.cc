#include "runtime/operators/sort_merge_join_operator.h"

#include <algorithm>
#include <cmath>

#include "state/sort_key.h"

namespace sluice {

namespace {

// Candidate pairs evaluated (and emitted) at once.
constexpr size_t kPairBatch = 4096;

// Appends the encoding of row `row` of `vec`, ascending, NULLs first; -0.0 encodes as 0.0 (equal under
// SQL '=', and adjacent in the order, so equal keys stay one run).
void AppendKey(const Vector& vec, size_t row, const Vector& zero, std::string* out) {
  const TypeId id = vec.type().id();
  if (vec.IsValid(row) && ((id == TypeId::kDouble && vec.data<double>()[row] == 0.0) ||
                           (id == TypeId::kFloat && vec.data<float>()[row] == 0.0f))) {
    EncodeSortKeyValue(zero, 0, true, true, out);
    return;
  }
  EncodeSortKeyValue(vec, row, true, true, out);
}

}  // namespace

SortMergeJoinOperator::SortMergeJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                                             std::vector<LogicalType> right_types, std::vector<int> left_keys,
                                             std::vector<int> right_keys, ExprPtr residual,
                                             std::vector<LogicalType> output_types)
    : BatchJoinOperator(std::move(name), "sort-merge-join", kind, std::move(left_types), std::move(right_types),
                        std::move(left_keys), std::move(right_keys), std::move(residual), std::move(output_types)) {}

SortMergeJoinOperator::SortedSide SortMergeJoinOperator::Sort(const Chunk& rows, const std::vector<int>& key_columns) {
  SortedSide s;
  s.keys.resize(rows.size());
  std::vector<Vector> zeros;  // +0.0 of each key column's type (any value for other types)
  for (int k : key_columns) zeros.emplace_back(rows.column(static_cast<size_t>(k)).type(), 1);
  for (size_t r = 0; r < rows.size(); ++r) {
    if (NullKey(rows, key_columns, r)) {
      s.null_keyed.push_back(static_cast<uint32_t>(r));
      continue;
    }
    for (size_t i = 0; i < key_columns.size(); ++i) {
      AppendKey(rows.column(static_cast<size_t>(key_columns[i])), r, zeros[i], &s.keys[r]);
    }
    s.order.push_back(static_cast<uint32_t>(r));
  }
  std::stable_sort(s.order.begin(), s.order.end(), [&s](uint32_t a, uint32_t b) { return s.keys[a] < s.keys[b]; });
  return s;
}

Status SortMergeJoinOperator::PadRange(int side, const std::vector<uint32_t>& order, size_t* begin, size_t end) {
  const bool outer = side == 0 ? left_outer() : right_outer();
  const std::vector<uint8_t>& matched = side == 0 ? left_matched_ : right_matched_;
  std::vector<uint32_t> pad;
  if (outer) {
    for (size_t p = *begin; p < end; ++p) {
      if (!matched[order[p]]) pad.push_back(order[p]);
    }
  }
  *begin = std::max(*begin, end);
  return EmitPadded(side, pad);
}

Status SortMergeJoinOperator::Join() {
  const SortedSide ls = Sort(left_, left_keys_);
  const SortedSide rs = Sort(right_, right_keys_);
  // Rows with a NULL key match nothing.
  if (left_outer()) RETURN_IF_ERROR(EmitPadded(0, ls.null_keyed));
  if (right_outer()) RETURN_IF_ERROR(EmitPadded(1, rs.null_keyed));
  const bool semi_anti = kind_ == JoinKind::kSemi || kind_ == JoinKind::kAnti;
  const size_t nl = ls.order.size(), nr = rs.order.size();
  size_t lpad = 0, rpad = 0;  // first sorted positions not yet padded (or passed)
  // Flushes the pending pairs; the left rows before sorted position `ldone` and the right rows before
  // `rdone` have all their candidates behind them, so their padding is due.
  auto flush = [&](size_t ldone, size_t rdone) -> Status {
    RETURN_IF_ERROR(FlushPairs());
    RETURN_IF_ERROR(PadRange(0, ls.order, &lpad, ldone));
    return PadRange(1, rs.order, &rpad, rdone);
  };
  size_t i = 0, j = 0;
  while (i < nl && j < nr) {
    const int c = ls.keys[ls.order[i]].compare(rs.keys[rs.order[j]]);
    if (c < 0) {
      ++i;
      continue;
    }
    if (c > 0) {
      ++j;
      continue;
    }
    const std::string& key = ls.keys[ls.order[i]];
    size_t iend = i + 1, jend = j + 1;
    while (iend < nl && ls.keys[ls.order[iend]] == key) ++iend;
    while (jend < nr && rs.keys[rs.order[jend]] == key) ++jend;
    if (semi_anti && !has_residual()) {
      // Every left row of the run has a match; the pairs themselves are never emitted.
      for (size_t p = i; p < iend; ++p) left_matched_[ls.order[p]] = 1;
    } else {
      for (size_t p = i; p < iend; ++p) {
        for (size_t q = j; q < jend; ++q) AddPair(ls.order[p], rs.order[q]);
        if (pending_pairs() >= kPairBatch) RETURN_IF_ERROR(flush(p + 1, j));
      }
    }
    i = iend;
    j = jend;
  }
  return flush(nl, nr);
}

}  // namespace sluice
