#include "runtime/operators/hash_join_operator.h"

#include <absl/container/flat_hash_map.h>

#include <string_view>

#include "state/key_encoder.h"

namespace sluice {

namespace {

// Candidate pairs evaluated (and emitted) at once.
constexpr size_t kPairBatch = 4096;
// Per build row: the next build row with the same key (kNone ends the chain).
constexpr uint32_t kNone = 0xFFFFFFFFu;

}  // namespace

HashJoinOperator::HashJoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                                   std::vector<LogicalType> right_types, std::vector<int> left_keys,
                                   std::vector<int> right_keys, ExprPtr residual,
                                   std::vector<LogicalType> output_types)
    : BatchJoinOperator(std::move(name), "hash-join", kind, std::move(left_types), std::move(right_types),
                        std::move(left_keys), std::move(right_keys), std::move(residual), std::move(output_types)) {}

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
  std::vector<uint32_t> pad;
  size_t batch_begin = 0;  // first left row of the pairs not flushed yet
  auto flush = [&](size_t end) -> Status {
    RETURN_IF_ERROR(FlushPairs());
    if (!left_outer()) return Status::OK();
    pad.clear();
    for (size_t l = batch_begin; l < end; ++l) {
      if (!left_matched_[l]) pad.push_back(static_cast<uint32_t>(l));
    }
    return EmitPadded(0, pad);
  };
  for (size_t l = 0; l < left_.size(); ++l) {
    if (!NullKey(left_, left_keys_, l)) {
      auto it = heads.find(std::string_view(left_encoded[l]));
      if (it != heads.end()) {
        for (uint32_t r = it->second.first; r != kNone; r = next[r]) AddPair(static_cast<uint32_t>(l), r);
      }
    }
    if (pending_pairs() >= kPairBatch) {
      RETURN_IF_ERROR(flush(l + 1));
      batch_begin = l + 1;
    }
  }
  RETURN_IF_ERROR(flush(left_.size()));
  if (right_outer()) {
    pad.clear();
    for (size_t r = 0; r < right_.size(); ++r) {
      if (!right_matched_[r]) pad.push_back(static_cast<uint32_t>(r));
    }
    RETURN_IF_ERROR(EmitPadded(1, pad));
  }
  return Status::OK();
}

}  // namespace sluice
