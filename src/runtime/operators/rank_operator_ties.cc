// RankOperator's RANK and DENSE_RANK strategy (see rank_operator.h): ranks shared by tied rows.
//
// A partition's buffer maps each sort key to its tied rows, so a group's RANK is 1 + the rows of the
// groups before it and its DENSE_RANK 1 + the number of groups before it. A row arriving in group G
// ranks as G; the groups after G move one rank down (RANK), or one down only when G is new
// (DENSE_RANK). A retracted row leaves G; the groups after it move one rank up (RANK), or only when G
// emptied (DENSE_RANK). Only the rows whose old or new rank is at most rank_end produce changes, so
// each walk stops there.
#include <iterator>

#include "runtime/operators/rank_operator.h"
#include "runtime/operators/rank_state.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

using Buffer = RankBuffer;

// How far a group moves the ranks after it: its row count (RANK) or 1 (DENSE_RANK).
int64_t Width(const Buffer::const_iterator& group, bool dense) {
  return dense ? 1 : static_cast<int64_t>(group->second.size());
}

}  // namespace

RankOperator::RankType RankOperator::RankTypeOf(const std::string& function) {
  if (function == "RANK") return RankType::kRank;
  if (function == "DENSE_RANK") return RankType::kDenseRank;
  return RankType::kRowNumber;
}

void RankOperator::ChangeRank(uint32_t id, int64_t old_rank, int64_t new_rank) {
  auto in_range = [this](int64_t r) { return r >= rank_start_ && r <= rank_end_; };
  const bool was = old_rank > 0 && in_range(old_rank);
  const bool is = new_rank > 0 && in_range(new_rank);
  auto out = [this, id](RowKind kind, int64_t rank) {
    if (output_rank_number_) {
      Collect(id, kind, rank);
    } else {
      CollectPlain(id, kind);
    }
  };
  if (was && is) {
    if (output_rank_number_ && old_rank != new_rank) {
      out(RowKind::kUpdateBefore, old_rank);
      out(RowKind::kUpdateAfter, new_rank);
    }
  } else if (was) {
    out(RowKind::kDelete, old_rank);
  } else if (is) {
    out(RowKind::kInsert, new_rank);
  }
}

void RankOperator::AccumulateTies(Partition& p, std::string& sort_key, uint32_t id) {
  const bool dense = rank_type_ == RankType::kDenseRank;
  auto [own, fresh] = p.buffer.try_emplace(std::move(sort_key));
  own->second.push_back(id);
  ++p.rows;
  int64_t own_rank = 1;
  for (auto it = p.buffer.begin(); it != own && own_rank <= rank_end_; ++it) own_rank += Width(it, dense);
  if (own_rank <= rank_end_) {
    ChangeRank(id, 0, own_rank);
    const int64_t shift = dense ? (fresh ? 1 : 0) : 1;
    int64_t next = own_rank + Width(own, dense);  // the new rank of the group after this one
    for (auto it = std::next(own); shift > 0 && it != p.buffer.end(); ++it) {
      const int64_t old_rank = next - shift;
      if (old_rank > rank_end_) break;
      for (uint32_t r : it->second) ChangeRank(r, old_rank, next);
      next += Width(it, dense);
    }
  }
  if (!input_has_retractions_) TrimTies(p);
}

void RankOperator::TrimTies(Partition& p) {
  const bool dense = rank_type_ == RankType::kDenseRank;
  int64_t rank = 1;
  auto it = p.buffer.begin();
  while (it != p.buffer.end() && rank <= rank_end_) {
    rank += Width(it, dense);
    ++it;
  }
  while (it != p.buffer.end()) {
    for (uint32_t r : it->second) {
      ReleaseRow(r);
      --p.rows;
    }
    it = p.buffer.erase(it);
  }
}

void RankOperator::RetractTies(Partition& p, const std::string& sort_key, const Chunk& chunk, size_t row) {
  State& s = *state_;
  const bool dense = rank_type_ == RankType::kDenseRank;
  auto own = p.buffer.find(sort_key);
  RankTieIds* ids = own == p.buffer.end() ? nullptr : &own->second;
  size_t index = 0;
  while (ids && index < ids->size() && !RowsEqual(s.arena.rows(), (*ids)[index], chunk, row)) ++index;
  if (!ids || index == ids->size()) {
    // An insert-only input never retracts; with retractions every row is kept, so this is a mismatch.
    ++s.retractions_not_found;
    return;
  }
  int64_t own_rank = 1;
  for (auto it = p.buffer.begin(); it != own && own_rank <= rank_end_; ++it) own_rank += Width(it, dense);
  const uint32_t removed = (*ids)[index];
  ChangeRank(removed, own_rank, 0);
  ids->erase(ids->begin() + static_cast<std::ptrdiff_t>(index));
  const bool emptied = ids->empty();
  // The new rank of the group after this one.
  int64_t next = dense ? own_rank + (emptied ? 0 : 1) : own_rank + static_cast<int64_t>(ids->size());
  auto after = emptied ? p.buffer.erase(own) : std::next(own);
  --p.rows;
  const int64_t shift = dense ? (emptied ? 1 : 0) : 1;
  for (auto it = after; shift > 0 && it != p.buffer.end() && next <= rank_end_; ++it) {
    for (uint32_t r : it->second) ChangeRank(r, next + shift, next);
    next += Width(it, dense);
  }
  ReleaseRow(removed);
}

}  // namespace sluice
