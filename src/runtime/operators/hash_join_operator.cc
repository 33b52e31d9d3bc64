#include "runtime/operators/hash_join_operator.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <string_view>

#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

// Candidate pairs evaluated (and emitted) at once.
constexpr size_t kPairBatch = 4096;

}  // namespace

HashJoinOperator::HashJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                                   std::vector<LogicalType> right_types, std::vector<int> left_keys,
                                   std::vector<int> right_keys, ExprPtr residual,
                                   std::vector<LogicalType> output_types)
    : Operator(std::move(name), 2),
      kind_(kind),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      out_types_(std::move(output_types)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      residual_(std::move(residual)),
      left_(left_types_),
      right_(right_types_) {
  pair_types_ = left_types_;
  pair_types_.insert(pair_types_.end(), right_types_.begin(), right_types_.end());
}

HashJoinOperator::~HashJoinOperator() = default;

Status HashJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (residual_) residual_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  return Status::OK();
}

Status HashJoinOperator::Process(int input, Chunk& chunk) {
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

bool HashJoinOperator::NullKey(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

Status HashJoinOperator::FlushPairs(std::vector<uint8_t>* left_matched, std::vector<uint8_t>* right_matched) {
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
    (*left_matched)[pairs_left_[p]] = 1;
    (*right_matched)[pairs_right_[p]] = 1;
  }
  Status st;
  if (kind_ != JoinKind::kSemi && kind_ != JoinKind::kAnti) st = EmitJoinedRows(out_types_, left_, pairs_left_, right_, pairs_right_);
  pairs_left_.clear();
  pairs_right_.clear();
  return st;
}

Status HashJoinOperator::Join() {
  // Build: chains of right rows per key, in arrival order.
  std::vector<std::string> right_encoded, left_encoded;
  EncodeKeys(right_, right_keys_, &right_encoded);
  std::vector<uint32_t> next(right_.size(), kNone);
  absl::flat_hash_map<std::string_view, std::pair<uint32_t, uint32_t>> heads;  // key -> (first, last)
  heads.reserve(right_.size());
  for (size_t r = 0; r < right_.size(); ++r) {
    if (NullKey(right_, right_keys_, r)) continue;
    auto [it, inserted] = heads.try_emplace(right_encoded[r], static_cast<uint32_t>(r), static_cast<uint32_t>(r));
    if (!inserted) {
      next[it->second.second] = static_cast<uint32_t>(r);
      it->second.second = static_cast<uint32_t>(r);
    }
  }
  // Probe in the left side's order. An outer left row's padded row follows its batch of pairs.
  EncodeKeys(left_, left_keys_, &left_encoded);
  std::vector<uint8_t> left_matched(left_.size(), 0), right_matched(right_.size(), 0);
  const bool left_outer = kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull;
  const bool right_outer = kind_ == JoinKind::kRight || kind_ == JoinKind::kFull;
  std::vector<uint32_t> pad_left, pad_right;
  size_t batch_begin = 0;  // first left row of the pairs not flushed yet
  auto flush = [&](size_t end) -> Status {
    RETURN_IF_ERROR(FlushPairs(&left_matched, &right_matched));
    if (!left_outer) return Status::OK();
    pad_left.clear();
    for (size_t l = batch_begin; l < end; ++l) {
      if (!left_matched[l]) pad_left.push_back(static_cast<uint32_t>(l));
    }
    pad_right.assign(pad_left.size(), kNullRow);
    return EmitJoinedRows(out_types_, left_, pad_left, right_, pad_right);
  };
  for (size_t l = 0; l < left_.size(); ++l) {
    if (!NullKey(left_, left_keys_, l)) {
      auto it = heads.find(std::string_view(left_encoded[l]));
      if (it != heads.end()) {
        for (uint32_t r = it->second.first; r != kNone; r = next[r]) {
          pairs_left_.push_back(static_cast<uint32_t>(l));
          pairs_right_.push_back(r);
        }
      }
    }
    if (pairs_left_.size() >= kPairBatch) {
      RETURN_IF_ERROR(flush(l + 1));
      batch_begin = l + 1;
    }
  }
  RETURN_IF_ERROR(flush(left_.size()));
  if (right_outer) {
    pad_right.clear();
    for (size_t r = 0; r < right_.size(); ++r) {
      if (!right_matched[r]) pad_right.push_back(static_cast<uint32_t>(r));
    }
    pad_left.assign(pad_right.size(), kNullRow);
    RETURN_IF_ERROR(EmitJoinedRows(out_types_, left_, pad_left, right_, pad_right));
  }
  if (kind_ == JoinKind::kSemi || kind_ == JoinKind::kAnti) {
    const uint8_t want = kind_ == JoinKind::kSemi ? 1 : 0;
    std::vector<uint32_t> sel;
    for (size_t l = 0; l < left_.size(); ++l) {
      if (left_matched[l] == want) sel.push_back(static_cast<uint32_t>(l));
    }
    const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
    for (size_t begin = 0; begin < sel.size(); begin += chunk_size) {
      const size_t m = std::min(chunk_size, sel.size() - begin);
      Chunk out(out_types_);
      out.AppendFrom(left_, sel.data() + begin, 0, m);
      RETURN_IF_ERROR(Emit(out));
    }
  }
  return Status::OK();
}

Status HashJoinOperator::OnEndOfInput() {
  RETURN_IF_ERROR(Join());
  DropState();
  return EmitEndOfInput();
}

size_t HashJoinOperator::StateBytes() const { return left_.MemoryUsage() + right_.MemoryUsage(); }

Status HashJoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("hash-join");
  w->PutChunk(left_);
  w->PutChunk(right_);
  return Status::OK();
}

Status HashJoinOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("hash-join");
  r->GetChunk(left_types_, &left_);
  r->GetChunk(right_types_, &right_);
  return r->status();
}

void HashJoinOperator::DropState() {
  left_ = Chunk(left_types_);
  right_ = Chunk(right_types_);
  pairs_left_.clear();
  pairs_right_.clear();
}

}  // namespace sluice
