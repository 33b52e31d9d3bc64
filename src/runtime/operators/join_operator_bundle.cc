// JoinOperator in mini-batch: the bundle of both inputs and how it is applied (join_operator.h).
#include <unordered_map>

#include "runtime/operators/join_operator.h"
#include "runtime/operators/join_operator_side.h"
#include "state/key_encoder.h"

namespace sluice {

Chunk JoinOperator::FoldBundle(int input, const Chunk& rows) {
  const Side& side = *sides_[input];
  const size_t n = rows.size();
  // Flink's InputSideHasNoUniqueKeyBundle: per row content, an accumulate message cancels the latest
  // earlier retraction of an equal row in the bundle and vice versa. The rows still open for one
  // content are all of one kind (an opposite one would have cancelled), so the latest is the last.
  std::vector<int> all_columns(side.types.size());
  for (size_t c = 0; c < all_columns.size(); ++c) all_columns[c] = static_cast<int>(c);
  std::vector<std::string> contents;
  EncodeKeys(rows, all_columns, &contents);
  std::unordered_map<std::string_view, std::vector<uint32_t>> open;
  std::vector<uint8_t> alive(n, 1);
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint32_t>& same = open[contents[r]];
    if (!same.empty() && IsAccumulate(rows.kind(same.back())) != IsAccumulate(rows.kind(r))) {
      alive[same.back()] = 0;
      alive[r] = 0;
      same.pop_back();
    } else {
      same.push_back(static_cast<uint32_t>(r));
    }
  }
  std::vector<std::vector<uint32_t>> per_key;
  GroupRowsByKey(rows, side.keys, &keys_, &per_key);
  std::vector<uint32_t> sel;
  sel.reserve(n);
  for (const auto& key_rows : per_key) {
    for (uint32_t r : key_rows) {
      if (alive[r]) sel.push_back(r);
    }
  }
  Chunk out(side.types);
  out.AppendFrom(rows, sel.data(), 0, sel.size());
  return out;
}

Status JoinOperator::CloseBundle() {
  std::vector<Chunk> rows = bundle_.TakeAll();
  // Flink applies the right side's bundle first, except for a RIGHT join (MiniBatch*JoinStreamOperator).
  const int first = kind_ == JoinKind::kRight ? 0 : 1;
  for (int input : {first, 1 - first}) {
    Chunk folded = FoldBundle(input, rows[static_cast<size_t>(input)]);
    RETURN_IF_ERROR(ProcessInput(input, folded));
  }
  return Status::OK();
}

Status JoinOperator::FinishBundle() { return bundle_.empty() ? Status::OK() : CloseBundle(); }

Status JoinOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FinishBundle());
  return Operator::OnWatermark(watermark);
}

Status JoinOperator::PrepareSnapshotPreBarrier(int64_t) { return FinishBundle(); }

Status JoinOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FinishBundle());
  return Operator::OnEndOfInput();
}

}  // namespace sluice
