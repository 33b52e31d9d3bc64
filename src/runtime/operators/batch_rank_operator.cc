#include "runtime/operators/batch_rank_operator.h"

#include <algorithm>

#include "runtime/job.h"
#include "state/sort_key.h"
#include "state/state_serde.h"

namespace sluice {

BatchRankOperator::BatchRankOperator(std::string name, std::vector<LogicalType> input_types,
                                     std::vector<LogicalType> output_types, Options options)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      output_types_(std::move(output_types)),
      o_(std::move(options)),
      rows_(input_types_) {}

Status BatchRankOperator::Process(int, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  for (size_t r = 0; r < chunk.size(); ++r) {
    if (!IsAccumulate(chunk.kind(r))) {
      return Status::Internal(name() + " received a " + std::string(RowKindShortString(chunk.kind(r))) +
                              " row; a batch rank reads insert-only input");
    }
  }
  rows_.AppendFrom(chunk, nullptr, 0, chunk.size(), /*copy_strings=*/true);
  return Status::OK();
}

Status BatchRankOperator::OnEndOfInput() {
  const size_t n = rows_.size();
  // Order-preserving encodings: the partition part (ascending, for grouping) and the order part.
  std::vector<std::string> part(n), order(n);
  for (size_t r = 0; r < n; ++r) {
    for (int k : o_.partition_keys) EncodeSortKeyValue(rows_.column(static_cast<size_t>(k)), r, true, true, &part[r]);
    for (size_t i = 0; i < o_.order_columns.size(); ++i) {
      EncodeSortKeyValue(rows_.column(static_cast<size_t>(o_.order_columns[i])), r, o_.ascending[i], o_.nulls_first[i],
                         &order[r]);
    }
  }
  std::vector<uint32_t> ids(n);
  for (size_t r = 0; r < n; ++r) ids[r] = static_cast<uint32_t>(r);
  const bool latest = o_.ties_latest_first;
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
    if (int c = part[a].compare(part[b]); c != 0) return c < 0;
    if (int c = order[a].compare(order[b]); c != 0) return c < 0;
    return latest ? a > b : a < b;
  });
  std::vector<uint32_t> out_ids;
  std::vector<int64_t> ranks;
  int64_t row_number = 0, rank = 0, dense = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = ids[i];
    const bool new_partition = i == 0 || part[id] != part[ids[i - 1]];
    const bool tie = !new_partition && order[id] == order[ids[i - 1]];
    row_number = new_partition ? 1 : row_number + 1;
    if (!tie) {
      rank = row_number;
      dense = new_partition ? 1 : dense + 1;
    }
    const int64_t r = o_.function == RankFunction::kRowNumber ? row_number
                      : o_.function == RankFunction::kRank    ? rank
                                                              : dense;
    if (r < o_.rank_start || (o_.rank_end >= 0 && r > o_.rank_end)) continue;
    out_ids.push_back(id);
    ranks.push_back(r);
  }
  RETURN_IF_ERROR(EmitRows(out_ids, ranks));
  DropState();
  return EmitEndOfInput();
}

Status BatchRankOperator::EmitRows(const std::vector<uint32_t>& ids, const std::vector<int64_t>& ranks) {
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  const size_t nc = input_types_.size();
  for (size_t begin = 0; begin < ids.size(); begin += chunk_size) {
    const size_t m = std::min(chunk_size, ids.size() - begin);
    Chunk out(output_types_);
    for (size_t c = 0; c < nc; ++c) out.column(c).AppendFrom(rows_.column(c), ids.data() + begin, 0, m);
    if (o_.output_rank_number) {
      Vector& rn = out.column(nc);
      rn.Resize(m);
      for (size_t i = 0; i < m; ++i) rn.data<int64_t>()[i] = ranks[begin + i];
    }
    out.kind_vector().assign(m, RowKind::kInsert);
    RETURN_IF_ERROR(Emit(out));
  }
  return Status::OK();
}

Status BatchRankOperator::SnapshotState(StateWriter* w) {
  w->PutTag("batch-rank");
  w->PutChunk(rows_);
  return Status::OK();
}

Status BatchRankOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("batch-rank");
  r->GetChunk(input_types_, &rows_);
  return r->status();
}

}  // namespace sluice
