// JoinOperator in mini-batch: the bundle of both inputs and how it is applied (join_operator.h).
#include <algorithm>
#include <unordered_map>

#include "runtime/operators/join_operator.h"
#include "runtime/operators/join_operator_side.h"
#include "state/key_encoder.h"

namespace sluice {

namespace {

// The rows of one unique key that remain after Flink's folding (InputSideHasUniqueKeyBundle and
// JoinKeyContainsUniqueKeyBundle fold alike), at most a retraction followed by an accumulate message:
// after an accumulate message, the next message replaces it (an accumulate) or cancels it (a
// retraction); after a retraction, a retraction replaces it and an accumulate message follows it.
void FoldUniqueKeyRows(const Chunk& rows, const std::vector<uint32_t>& arrivals, std::vector<uint32_t>* kept) {
  kept->clear();
  for (uint32_t r : arrivals) {
    const bool accumulate = IsAccumulate(rows.kind(r));
    if (!kept->empty()) {
      if (IsAccumulate(rows.kind(kept->back()))) {
        kept->pop_back();
        if (!accumulate) continue;
      } else if (!accumulate) {
        kept->pop_back();
      }
    }
    kept->push_back(r);
  }
}

}  // namespace

Chunk JoinOperator::FoldBundle(int input, const Chunk& rows, std::vector<uint8_t>* suppress) {
  const Side& side = *sides_[input];
  suppress->clear();
  std::vector<uint32_t> sel = side.has_unique_key ? FoldUniqueKeyBundle(side, rows, suppress) : FoldNoUniqueKeyBundle(side, rows);
  Chunk out(side.types);
  out.AppendFrom(rows, sel.data(), 0, sel.size());
  return out;
}

std::vector<uint32_t> JoinOperator::FoldNoUniqueKeyBundle(const Side& side, const Chunk& rows) {
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
  return sel;
}

std::vector<uint32_t> JoinOperator::FoldUniqueKeyBundle(const Side& side, const Chunk& rows,
                                                        std::vector<uint8_t>* suppress) {
  // Flink's JoinKeyContainsUniqueKeyBundle (one unique key per join key) and InputSideHasUniqueKeyBundle
  // (unique keys within a join key): each unique key's messages folded (FoldUniqueKeyRows), join keys
  // in order of first appearance and the unique keys of a join key in theirs. A retraction followed by
  // an accumulate message is a suppressed pair (Flink's processElementWithSuppress).
  std::vector<std::vector<uint32_t>> per_key;
  GroupRowsByKey(rows, side.keys, &keys_, &per_key);
  std::vector<uint32_t> key_of_row(rows.size());
  for (size_t k = 0; k < per_key.size(); ++k) {
    for (uint32_t r : per_key[k]) key_of_row[r] = static_cast<uint32_t>(k);
  }
  // The identity is the join key and the unique key together (join_operator_side.h).
  std::vector<std::string> identities;
  std::vector<std::vector<uint32_t>> per_identity;
  GroupRowsByKey(rows, side.identity_columns, &identities, &per_identity);
  std::stable_sort(per_identity.begin(), per_identity.end(),
                   [&](const auto& a, const auto& b) { return key_of_row[a[0]] < key_of_row[b[0]]; });
  std::vector<uint32_t> sel;
  std::vector<uint32_t> kept;
  for (const auto& arrivals : per_identity) {
    FoldUniqueKeyRows(rows, arrivals, &kept);
    const bool pair = kept.size() == 2;
    for (uint32_t r : kept) {
      sel.push_back(r);
      suppress->push_back(pair ? 1 : 0);
    }
  }
  return sel;
}

Status JoinOperator::CloseBundle() {
  std::vector<Chunk> rows = bundle_.TakeAll();
  // Flink applies the right side's bundle first, except for a RIGHT join (MiniBatch*JoinStreamOperator).
  const int first = kind_ == JoinKind::kRight ? 0 : 1;
  for (int input : {first, 1 - first}) {
    std::vector<uint8_t> suppress;
    Chunk folded = FoldBundle(input, rows[static_cast<size_t>(input)], &suppress);
    suppress_.swap(suppress);
    const Status status = ProcessInput(input, folded);
    suppress_.clear();
    RETURN_IF_ERROR(status);
  }
  return Status::OK();
}

Status JoinOperator::FinishBundle() { return bundle_.empty() ? Status::OK() : CloseBundle(); }

// A side with an event-time bound drops the rows the other input's watermark has passed.
Status JoinOperator::OnInputWatermark(int input, int64_t watermark) {
  RETURN_IF_ERROR(FinishBundle());
  const int s = 1 - input;
  if (sides_[s]->bound_column >= 0) DropBoundRows(s, watermark);
  return Status::OK();
}

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
