#include "runtime/operators/batch_join_operator.h"

#include <algorithm>

#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_serde.h"

namespace sluice {

BatchJoinOperator::BatchJoinOperator(std::string name, std::string state_tag, JoinKind kind,
                                     std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
                                     std::vector<int> left_keys, std::vector<int> right_keys, ExprPtr residual,
                                     std::vector<LogicalType> output_types)
    : Operator(std::move(name), 2),
      kind_(kind),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      out_types_(std::move(output_types)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      left_(left_types_),
      right_(right_types_),
      state_tag_(std::move(state_tag)),
      residual_(std::move(residual)) {
  pair_types_ = left_types_;
  pair_types_.insert(pair_types_.end(), right_types_.begin(), right_types_.end());
}

BatchJoinOperator::~BatchJoinOperator() = default;

Status BatchJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (residual_) residual_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  return Status::OK();
}

Status BatchJoinOperator::Process(int input, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  for (size_t r = 0; r < chunk.size(); ++r) {
    if (!IsAccumulate(chunk.kind(r))) {
      return Status::Internal(name() + " received a " + std::string(RowKindShortString(chunk.kind(r))) +
                              " row; a batch join reads insert-only inputs");
    }
  }
  Chunk& side = input == 0 ? left_ : right_;
  side.AppendFrom(chunk, nullptr, 0, chunk.size(), /*copy_strings=*/true);
  return Status::OK();
}

bool BatchJoinOperator::NullKey(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

Status BatchJoinOperator::FlushPairs() {
  if (pairs_left_.empty()) return Status::OK();
  if (residual_eval_) {
    Chunk pairs(pair_types_, 0);
    const size_t nl = left_types_.size();
    for (size_t c = 0; c < nl; ++c) pairs.column(c).AppendFrom(left_.column(c), pairs_left_.data(), 0, pairs_left_.size());
    for (size_t c = 0; c < right_types_.size(); ++c) {
      pairs.column(nl + c).AppendFrom(right_.column(c), pairs_right_.data(), 0, pairs_right_.size());
    }
    pairs.kind_vector().assign(pairs_left_.size(), RowKind::kInsert);
    RETURN_IF_ERROR(residual_eval_->Filter(pairs, &sel_));
    size_t n = 0;
    for (uint32_t s : sel_) {
      pairs_left_[n] = pairs_left_[s];
      pairs_right_[n] = pairs_right_[s];
      ++n;
    }
    pairs_left_.resize(n);
    pairs_right_.resize(n);
  }
  for (size_t p = 0; p < pairs_left_.size(); ++p) {
    left_matched_[pairs_left_[p]] = 1;
    right_matched_[pairs_right_[p]] = 1;
  }
  Status st;
  if (kind_ != JoinKind::kSemi && kind_ != JoinKind::kAnti) st = EmitJoinedRows(out_types_, left_, pairs_left_, right_, pairs_right_);
  pairs_left_.clear();
  pairs_right_.clear();
  return st;
}

Status BatchJoinOperator::EmitPadded(int side, const std::vector<uint32_t>& rows) {
  if (rows.empty()) return Status::OK();
  const std::vector<uint32_t> nulls(rows.size(), kNullRow);
  return side == 0 ? EmitJoinedRows(out_types_, left_, rows, right_, nulls)
                   : EmitJoinedRows(out_types_, left_, nulls, right_, rows);
}

Status BatchJoinOperator::EmitSemiAnti() {
  const uint8_t want = kind_ == JoinKind::kSemi ? 1 : 0;
  std::vector<uint32_t> sel;
  for (size_t l = 0; l < left_.size(); ++l) {
    if (left_matched_[l] == want) sel.push_back(static_cast<uint32_t>(l));
  }
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  for (size_t begin = 0; begin < sel.size(); begin += chunk_size) {
    const size_t m = std::min(chunk_size, sel.size() - begin);
    Chunk out(out_types_);
    out.AppendFrom(left_, sel.data() + begin, 0, m);
    RETURN_IF_ERROR(Emit(out));
  }
  return Status::OK();
}

Status BatchJoinOperator::OnEndOfInput() {
  left_matched_.assign(left_.size(), 0);
  right_matched_.assign(right_.size(), 0);
  RETURN_IF_ERROR(Join());
  RETURN_IF_ERROR(FlushPairs());
  if (kind_ == JoinKind::kSemi || kind_ == JoinKind::kAnti) RETURN_IF_ERROR(EmitSemiAnti());
  DropState();
  return EmitEndOfInput();
}

size_t BatchJoinOperator::StateBytes() const { return left_.MemoryUsage() + right_.MemoryUsage(); }

Status BatchJoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag(state_tag_);
  w->PutChunk(left_);
  w->PutChunk(right_);
  return Status::OK();
}

Status BatchJoinOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag(state_tag_);
  r->GetChunk(left_types_, &left_);
  r->GetChunk(right_types_, &right_);
  return r->status();
}

void BatchJoinOperator::DropState() {
  left_ = Chunk(left_types_);
  right_ = Chunk(right_types_);
  pairs_left_.clear();
  pairs_right_.clear();
  left_matched_.clear();
  right_matched_.clear();
}

}  // namespace sluice
