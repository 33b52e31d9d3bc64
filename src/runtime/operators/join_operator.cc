#include "runtime/operators/join_operator.h"

#include <xxhash.h>

#include <limits>
#include <deque>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/join_operator_side.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

using namespace join_operator_internal;  // NOLINT: the join's own constants

Status JoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("join");
  sides_[0]->Snapshot(w);
  sides_[1]->Snapshot(w);
  w->PutI64(retractions_without_state_);
  bundle_.Snapshot(w);
  return Status::OK();
}

void JoinOperator::DropState() {
  for (int s = 0; s < 2; ++s) {
    const Side& old = *sides_[s];
    const std::vector<int>& unique_key = s == 0 ? options_.left_unique_key : options_.right_unique_key;
    auto fresh = std::make_unique<Side>(old.types, old.keys, unique_key, old.outer);
    fresh->ttl_micros = old.ttl_micros;
    fresh->bound_column = old.bound_column;
    fresh->bound_micros = old.bound_micros;
    sides_[s] = std::move(fresh);
  }
  retractions_without_state_ = 0;
  bundle_.Clear();
}

Status JoinOperator::RestoreState(StateReader* r) {
  r->ExpectTag("join");
  sides_[0]->Restore(r);
  sides_[1]->Restore(r);
  retractions_without_state_ = r->GetI64();
  bundle_.Restore(r);
  return r->status();
}

bool JoinOperator::CanSnapshotDelta() const { return !sides_[0]->compacted && !sides_[1]->compacted; }

Status JoinOperator::SnapshotDelta(StateWriter* w) {
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("join delta");
  w->Reserve(sides_[0]->DeltaBytesEstimate() + sides_[1]->DeltaBytesEstimate());
  sides_[0]->SnapshotDelta(w);
  sides_[1]->SnapshotDelta(w);
  w->PutI64(retractions_without_state_);
  bundle_.Snapshot(w);
  return Status::OK();
}

Status JoinOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("join delta");
  sides_[0]->RestoreDelta(r);
  sides_[1]->RestoreDelta(r);
  retractions_without_state_ = r->GetI64();
  bundle_.Restore(r);
  return r->status();
}

JoinOperator::JoinOperator(std::string name, JoinKind kind, std::vector<LogicalType> left_types,
                           std::vector<LogicalType> right_types, std::vector<int> left_keys, std::vector<int> right_keys,
                           ExprPtr residual, JoinOptions options)
    : Operator(std::move(name), 2),
      kind_(kind),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      residual_(std::move(residual)),
      options_(std::move(options)),
      bundle_({left_types_, right_types_}, options_.mini_batch_size) {
  SLUICE_CHECK_EQ(left_keys.size(), right_keys.size());
  out_types_ = left_types_;
  out_types_.insert(out_types_.end(), right_types_.begin(), right_types_.end());
  semi_anti_ = kind_ == JoinKind::kSemi || kind_ == JoinKind::kAnti;
  if (options_.null_safe_keys.empty()) options_.null_safe_keys.assign(left_keys.size(), false);
  SLUICE_CHECK_EQ(options_.null_safe_keys.size(), left_keys.size());
  for (int k : left_keys) SLUICE_CHECK(k >= 0 && static_cast<size_t>(k) < left_types_.size());
  for (int k : right_keys) SLUICE_CHECK(k >= 0 && static_cast<size_t>(k) < right_types_.size());
  // A semi/anti join counts the matches of its left rows as an outer side counts them.
  bool left_outer = kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull || semi_anti_;
  bool right_outer = kind_ == JoinKind::kRight || kind_ == JoinKind::kFull;
  sides_[0] = std::make_unique<Side>(left_types_, std::move(left_keys), options_.left_unique_key, left_outer);
  sides_[1] = std::make_unique<Side>(right_types_, std::move(right_keys), options_.right_unique_key, right_outer);
  sides_[0]->ttl_micros = options_.left_ttl_ms * 1000;
  sides_[1]->ttl_micros = options_.right_ttl_ms * 1000;
  const int bound_columns[2] = {options_.left_bound_column, options_.right_bound_column};
  const int64_t bound_micros[2] = {options_.left_bound_micros, options_.right_bound_micros};
  for (int s = 0; s < 2; ++s) {
    if (bound_columns[s] < 0) continue;
    Side& side = *sides_[s];
    SLUICE_CHECK(kind_ == JoinKind::kInner && side.ttl_micros == 0);
    SLUICE_CHECK(static_cast<size_t>(bound_columns[s]) < side.types.size() && side.types[bound_columns[s]].IsTimestamp());
    side.bound_column = bound_columns[s];
    side.bound_micros = bound_micros[s];
  }
}

void JoinOperator::DropEntry(int s, uint32_t e, std::string* key, std::string* identity) {
  Side& side = *sides_[s];
  Side::Entry& en = side.entries[e];
  const Chunk& rows = side.arena.rows();
  if (side.indexed) {
    identity->clear();
    for (int c : side.identity_columns) EncodeKeyValue(rows.column(static_cast<size_t>(c)), en.row, identity);
    side.index.erase(*identity);
  }
  side.stored -= side.Count(e);
  uint32_t g;
  if (side.bound_column >= 0) {
    g = side.entry_groups[e];
  } else {
    key->clear();
    for (int c : side.keys) EncodeKeyValue(rows.column(static_cast<size_t>(c)), en.row, key);
    g = side.group_keys.Find(*key);
  }
  SLUICE_CHECK(g != KeyIndex::kNotFound);
  side.Unlink(g, e);
  side.arena.Release(en.row);
  side.FreeEntry(e);
}

void JoinOperator::ExpireRows(int s, int64_t now) {
  Side& side = *sides_[s];
  std::string key;
  std::string identity;
  while (!side.expiry.empty() && side.expiry.front().time + side.ttl_micros <= now) {
    const Side::Expiry x = side.expiry.front();
    side.PopExpiry();
    const uint32_t e = x.entry;
    const int32_t count = side.Count(e);
    if (count == 0 || side.written[e] != x.time) continue;  // freed, or written again since
    metrics_.expired_states += count;
    DropEntry(s, e, &key, &identity);
  }
}

void JoinOperator::DropBoundRows(int s, int64_t watermark) {
  Side& side = *sides_[s];
  std::string key;
  std::string identity;
  for (; side.bound_cursor < side.entries.size(); ++side.bound_cursor) {
    const uint32_t e = side.bound_cursor;
    if (side.entries[e].row == kNoRow) continue;  // freed
    if (side.Deadline(side.entries[e].row) > watermark) break;
    DropEntry(s, e, &key, &identity);
  }
  side.MaybeCompact();
}

JoinOperator::~JoinOperator() = default;

Status JoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (residual_) residual_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  if (ctx->chunk_size > 0) chunk_size_ = ctx->chunk_size;
  return Status::OK();
}

int64_t JoinOperator::stored_rows(int input) const { return sides_[input]->stored; }

size_t JoinOperator::StateBytes() const {
  size_t bytes = 0;
  for (const auto& s : sides_) {
    bytes += s->arena.MemoryUsage() + VectorBytes(s->entries) + VectorBytes(s->assocs) + VectorBytes(s->written) +
             VectorBytes(s->free_entries) + s->group_keys.MemoryUsage() + VectorBytes(s->groups) +
             s->expiry.size() * sizeof(Side::Expiry) + s->entry_delta.MemoryUsage() + s->group_delta.MemoryUsage() +
             NodeBytes(s->index.size(), sizeof(std::pair<const std::string, uint32_t>));
  }
  return bytes + bundle_.MemoryUsage();
}

Status JoinOperator::Process(int input, Chunk& chunk) {
  SLUICE_CHECK(input == 0 || input == 1);
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  if (bundle_.enabled()) return bundle_.Add(input, chunk, [this] { return CloseBundle(); });
  return ProcessInput(input, chunk);
}

Status JoinOperator::ProcessInput(int input, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  Side& in = *sides_[input];
  SLUICE_CHECK_EQ(chunk.num_columns(), in.types.size());
  for (auto& side : sides_) {
    if (side->index_stale) side->RebuildIndex();
  }
  if (in.ttl_micros > 0 || sides_[1 - input]->ttl_micros > 0) {
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    now_micros_ = clock ? clock->NowMicros() : 0;
    for (int s = 0; s < 2; ++s) {
      if (sides_[s]->ttl_micros > 0) ExpireRows(s, now_micros_);
    }
  }

  EncodeKeys(chunk, in.keys, &keys_);
  key_matchable_.assign(n, 1);
  for (size_t p = 0; p < in.keys.size(); ++p) {
    if (options_.null_safe_keys[p]) continue;
    const Vector& col = chunk.column(static_cast<size_t>(in.keys[p]));
    if (!col.MayHaveNulls()) continue;
    for (size_t i = 0; i < n; ++i) {
      if (col.IsNull(i)) key_matchable_[i] = 0;
    }
  }
  if (!in.indexed && !chunk.AllInserts()) in.BuildIndex();
  if (in.indexed) EncodeKeys(chunk, in.identity_columns, &identities_);

  size_t begin = 0;
  while (begin < n) {
    size_t end = begin;
    RETURN_IF_ERROR(CollectMatches(input, chunk, begin, &end));
    RETURN_IF_ERROR(ProcessSlice(input, chunk, begin, end));
    begin = end;
  }
  RETURN_IF_ERROR(FlushOutput(input, chunk));
  in.MaybeCompact();
  return Status::OK();
}

Status JoinOperator::CollectMatches(int input, const Chunk& chunk, size_t begin, size_t* end) {
  const Side& other = *sides_[1 - input];
  cand_rows_.clear();
  cand_entries_.clear();
  cand_other_rows_.clear();
  // Candidate offsets per input row, relative to `begin`.
  match_offsets_.clear();
  size_t i = begin;
  const size_t n = chunk.size();
  while (i < n && (i == begin || cand_rows_.size() < kMaxSlicePairs)) {
    match_offsets_.push_back(static_cast<uint32_t>(cand_rows_.size()));
    if (key_matchable_[i]) {
      const uint32_t g = other.group_keys.Find(keys_[i]);
      if (g != KeyIndex::kNotFound) {
        for (uint32_t e = other.groups[g].head; e != kNoEntry; e = other.entries[e].next) {
          cand_rows_.push_back(static_cast<uint32_t>(i));
          cand_entries_.push_back(e);
          cand_other_rows_.push_back(other.entries[e].row);
        }
      }
    }
    ++i;
  }
  match_offsets_.push_back(static_cast<uint32_t>(cand_rows_.size()));
  *end = i;

  if (!residual_eval_ || cand_rows_.empty()) {
    match_entries_.swap(cand_entries_);
    return Status::OK();
  }
  // Filter the candidate pairs by the residual condition, in batches of left++right rows.
  const size_t input_first = input == 0 ? 0 : left_types_.size();
  const size_t other_first = input == 0 ? left_types_.size() : 0;
  std::vector<uint8_t> keep(cand_rows_.size(), 0);
  for (size_t off = 0; off < cand_rows_.size(); off += kResidualBatch) {
    size_t len = std::min(kResidualBatch, cand_rows_.size() - off);
    Chunk pairs(out_types_, 0);
    for (size_t c = 0; c < chunk.num_columns(); ++c) {
      pairs.column(input_first + c).AppendFrom(chunk.column(c), cand_rows_.data() + off, 0, len);
    }
    other.arena.GatherColumns(cand_other_rows_.data() + off, len, other_first, &pairs);
    pairs.kind_vector().assign(len, RowKind::kInsert);
    RETURN_IF_ERROR(residual_eval_->Filter(pairs, &sel_));
    for (uint32_t s : sel_) keep[off + s] = 1;
  }
  // Compact the candidates to the matches, rewriting the per-row offsets.
  match_entries_.clear();
  size_t row_index = 0;
  uint32_t next_boundary = match_offsets_[1];
  std::vector<uint32_t> offsets(match_offsets_.size(), 0);
  for (size_t p = 0; p < cand_rows_.size(); ++p) {
    while (p >= next_boundary) {
      ++row_index;
      offsets[row_index] = static_cast<uint32_t>(match_entries_.size());
      next_boundary = match_offsets_[row_index + 1];
    }
    if (keep[p]) match_entries_.push_back(cand_entries_[p]);
  }
  for (size_t r = row_index + 1; r < offsets.size(); ++r) offsets[r] = static_cast<uint32_t>(match_entries_.size());
  match_offsets_.swap(offsets);
  return Status::OK();
}

Status JoinOperator::ProcessSemiAntiRow(int input, const Chunk& chunk, size_t i, const uint32_t* m,
                                        const uint32_t* m_end) {
  const RowKind kind = chunk.kind(i);
  const uint32_t row = static_cast<uint32_t>(i);
  const bool anti = kind_ == JoinKind::kAnti;
  if (input == 0) {
    // A left row passes with its own kind when it has a match (semi) or none (anti).
    if ((m != m_end) != anti) RETURN_IF_ERROR(QueueOutput(input, chunk, kind, row, kNoRow));
    if (!IsAccumulate(kind)) {
      RetractRecord(input, i);
      return Status::OK();
    }
    int64_t associations = 0;
    for (; m != m_end; ++m) associations += sides_[1]->Count(*m);
    AddRecord(input, i, associations);
    return Status::OK();
  }
  // A right row changes the match counts of the left rows it joins with.
  Side& left = *sides_[0];
  const bool accumulate = IsAccumulate(kind);
  if (accumulate) AddRecord(input, i, -1);
  else RetractRecord(input, i);
  const int64_t edge = accumulate ? 0 : 1;  // the count at which the left row's visibility flips
  RowKind flipped = kind;
  if (anti) flipped = accumulate ? RowKind::kDelete : RowKind::kInsert;
  for (; m != m_end; ++m) {
    const Side::Entry& en = left.entries[*m];
    const int64_t old = left.assocs[*m];
    if (old == edge) {
      const int32_t count = left.Count(*m);
      for (int32_t c = 0; c < count; ++c) RETURN_IF_ERROR(QueueOutput(input, chunk, flipped, kNoRow, en.row));
    }
    left.assocs[*m] = accumulate ? old + 1 : old - 1;
    left.entry_delta.Mark(*m);
    left.Touch(*m, now_micros_);
  }
  return Status::OK();
}

void JoinOperator::AddRecord(int input, size_t i, int64_t assoc) {
  if (!key_matchable_[i]) return;  // a row that can never match needs no state
  Side& in = *sides_[input];
  const uint32_t row = first_new_row_ + static_cast<uint32_t>(pending_store_.size());
  if (in.indexed) {
    auto [it, inserted] = in.index.try_emplace(identities_[i], kNoEntry);
    if (!inserted) {
      Side::Entry& en = in.entries[it->second];
      if (in.has_unique_key) {
        // An upsert of the same unique key replaces the stored row.
        in.arena.Release(en.row);
        en.row = row;
        pending_store_.push_back(static_cast<uint32_t>(i));
      } else {
        ++in.links[it->second].count;
        ++in.stored;
      }
      if (in.outer) in.assocs[it->second] = assoc;
      in.entry_delta.Mark(it->second);
      in.Touch(it->second, now_micros_);
      return;
    }
    const uint32_t e = in.NewEntry(row, assoc);
    pending_store_.push_back(static_cast<uint32_t>(i));
    in.Link(in.GroupOf(keys_[i]), e);
    in.Touch(e, now_micros_);
    it->second = e;
  } else {
    const uint32_t e = in.NewEntry(row, assoc);
    pending_store_.push_back(static_cast<uint32_t>(i));
    in.Link(in.GroupOf(keys_[i]), e);
    in.Touch(e, now_micros_);
  }
  ++in.stored;
}

void JoinOperator::RetractRecord(int input, size_t i) {
  if (!key_matchable_[i]) return;
  Side& in = *sides_[input];
  SLUICE_CHECK(in.indexed);
  auto it = in.index.find(identities_[i]);
  if (it == in.index.end()) {
    ++retractions_without_state_;
    ++metrics_.retractions_without_state;
    return;
  }
  const uint32_t e = it->second;
  Side::Entry& en = in.entries[e];
  int32_t& count = in.links[e].count;
  if (count > 1 && !in.has_unique_key) {
    --count;
    --in.stored;
    in.entry_delta.Mark(e);
    in.Touch(e, now_micros_);
    return;
  }
  in.stored -= count;
  const uint32_t g = in.group_keys.Find(keys_[i]);
  SLUICE_CHECK(g != KeyIndex::kNotFound);
  in.Unlink(g, e);
  in.arena.Release(en.row);
  in.FreeEntry(e);
  in.index.erase(it);
}

Status JoinOperator::ProcessAccumulate(int input, const Chunk& chunk, size_t i, const uint32_t* m,
                                       const uint32_t* m_end, bool suppress) {
  Side& in = *sides_[input];
  Side& other = *sides_[1 - input];
  const uint32_t row = static_cast<uint32_t>(i);
  // With a unique key, an accumulate message for a stored key replaces that row, whose matches are
  // already counted on the other side (Flink's isAdditionalMatch). Identical rows without a unique
  // key are separate rows and each one counts. The accumulate half of a suppressed pair replaces the
  // row its retraction left in state, after that retraction uncounted its matches: it counts again.
  bool additional = true;
  if (!suppress && in.has_unique_key && in.indexed && key_matchable_[i]) additional = !in.index.contains(identities_[i]);
  if (!in.outer) AddRecord(input, i, -1);
  if (m == m_end) {
    if (in.outer) {
      RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kInsert, row, kNoRow));
      AddRecord(input, i, 0);
    }
    return Status::OK();
  }
  const RowKind joined_kind = (in.outer || other.outer) ? RowKind::kInsert : chunk.kind(i);
  int64_t associations = 0;
  for (; m != m_end; ++m) {
    const Side::Entry& en = other.entries[*m];
    const int64_t old = other.outer ? other.assocs[*m] : 0;
    const int32_t count = other.Count(*m);
    for (int32_t c = 0; c < count; ++c) {
      if (other.outer && old == 0 && !suppress) {
        RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kDelete, kNoRow, en.row));
      }
      RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
    }
    associations += count;
    if (other.outer && (old == 0 || additional)) {
      other.assocs[*m] = old + 1;
      other.entry_delta.Mark(*m);
      other.Touch(*m, now_micros_);
    }
  }
  if (in.outer) AddRecord(input, i, associations);
  return Status::OK();
}

Status JoinOperator::ProcessRetract(int input, const Chunk& chunk, size_t i, const uint32_t* m, const uint32_t* m_end,
                                    bool suppress) {
  Side& in = *sides_[input];
  Side& other = *sides_[1 - input];
  const uint32_t row = static_cast<uint32_t>(i);
  // The retraction of a suppressed pair leaves the row in state for its accumulate message to replace.
  if (!suppress) RetractRecord(input, i);
  if (m == m_end) {
    if (in.outer) RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kDelete, row, kNoRow));
    return Status::OK();
  }
  const RowKind joined_kind = in.outer ? RowKind::kDelete : chunk.kind(i);
  for (; m != m_end; ++m) {
    const Side::Entry& en = other.entries[*m];
    const int64_t old = other.outer ? other.assocs[*m] : 0;
    const int32_t count = other.Count(*m);
    for (int32_t c = 0; c < count; ++c) {
      RETURN_IF_ERROR(QueueOutput(input, chunk, joined_kind, row, en.row));
      if (other.outer && old == 1 && !suppress) {
        RETURN_IF_ERROR(QueueOutput(input, chunk, RowKind::kInsert, kNoRow, en.row));
      }
    }
    if (other.outer) {
      other.assocs[*m] = old - 1;
      other.entry_delta.Mark(*m);
      other.Touch(*m, now_micros_);
    }
  }
  return Status::OK();
}

Status JoinOperator::ProcessSlice(int input, const Chunk& chunk, size_t begin, size_t end) {
  Side& in = *sides_[input];
  pending_store_.clear();
  first_new_row_ = static_cast<uint32_t>(in.arena.size());
  for (size_t i = begin; i < end; ++i) {
    const uint32_t* m = match_entries_.data() + match_offsets_[i - begin];
    const uint32_t* m_end = match_entries_.data() + match_offsets_[i - begin + 1];
    const bool suppress = !suppress_.empty() && suppress_[i] != 0;
    if (semi_anti_) {
      RETURN_IF_ERROR(ProcessSemiAntiRow(input, chunk, i, m, m_end));
    } else if (IsAccumulate(chunk.kind(i))) {
      RETURN_IF_ERROR(ProcessAccumulate(input, chunk, i, m, m_end, suppress));
    } else {
      RETURN_IF_ERROR(ProcessRetract(input, chunk, i, m, m_end, suppress));
    }
  }
  if (!pending_store_.empty()) in.arena.AppendMany(chunk, pending_store_.data(), pending_store_.size());
  return Status::OK();
}

Status JoinOperator::QueueOutput(int input, const Chunk& chunk, RowKind kind, uint32_t input_row, uint32_t other_row) {
  if (kind == RowKind::kUpdateBefore && !options_.emit_update_before) return Status::OK();
  if (out_kinds_.size() >= chunk_size_) {
    // Never split the -U rows of an update from its +U rows.
    bool keep_together = (last_kind_ == RowKind::kUpdateBefore &&
                          (kind == RowKind::kUpdateBefore || kind == RowKind::kUpdateAfter)) ||
                         (last_kind_ == RowKind::kUpdateAfter && kind == RowKind::kUpdateAfter);
    if (!keep_together) RETURN_IF_ERROR(FlushOutput(input, chunk));
  }
  out_kinds_.push_back(kind);
  out_input_rows_.push_back(input_row);
  out_other_rows_.push_back(other_row);
  last_kind_ = kind;
  return Status::OK();
}

Status JoinOperator::FlushOutput(int input, const Chunk& chunk) {
  if (out_kinds_.empty()) return Status::OK();
  const Side& other = *sides_[1 - input];
  if (semi_anti_) {
    // The left columns only: from the input chunk (left input) or the left side's arena.
    Chunk out(left_types_, 0);
    const size_t n = out_kinds_.size();
    for (size_t c = 0; c < left_types_.size(); ++c) {
      if (input == 0) AppendSelectedOrNull(&out.column(c), chunk.column(c), out_input_rows_.data(), n);
      else AppendSelectedOrNull(&out.column(c), other.arena.rows().column(c), out_other_rows_.data(), n);
    }
    out.kind_vector().swap(out_kinds_);
    out_kinds_.clear();
    out_input_rows_.clear();
    out_other_rows_.clear();
    return Emit(out);
  }
  Chunk out(out_types_, 0);
  const size_t input_first = input == 0 ? 0 : left_types_.size();
  const size_t other_first = input == 0 ? left_types_.size() : 0;
  const size_t n = out_kinds_.size();
  for (size_t c = 0; c < chunk.num_columns(); ++c) {
    AppendSelectedOrNull(&out.column(input_first + c), chunk.column(c), out_input_rows_.data(), n);
  }
  for (size_t c = 0; c < other.types.size(); ++c) {
    AppendSelectedOrNull(&out.column(other_first + c), other.arena.rows().column(c), out_other_rows_.data(), n);
  }
  out.kind_vector().swap(out_kinds_);
  out_kinds_.clear();
  out_input_rows_.clear();
  out_other_rows_.clear();
  return Emit(out);
}

}  // namespace sluice