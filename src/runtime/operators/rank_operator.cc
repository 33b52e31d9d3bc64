#include "runtime/operators/rank_operator.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>

#include "common/check.h"
#include "runtime/job.h"
#include "runtime/operators/rank_state.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/kept_rows.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

constexpr uint32_t kNoRow = std::numeric_limits<uint32_t>::max();
// Compaction threshold: rebuild the arena once at least this many released rows reach half the live
// ones (as the keep-last deduplication: the arena then holds at most 1.5 times the kept rows).
constexpr size_t kMinDeadRowsToCompact = 1 << 16;

}  // namespace

namespace {

// One partition's buffer: its sort keys in order, each with the ids of its tied rows.
void PutPartition(StateWriter* w, const RankBuffer& buffer) {
  w->PutVarint(buffer.size());
  for (const auto& [sort_key, ids] : buffer) {
    w->PutString(sort_key);
    w->PutVarint(ids.size());
    w->PutRaw(ids.data(), ids.size() * sizeof(uint32_t));
  }
}

// Reads what PutPartition wrote into an empty `buffer`, refusing sort keys out of order or without
// rows and row ids outside the arena's `arena_rows`; returns the partition's row count.
size_t GetPartition(StateReader* r, size_t arena_rows, RankBuffer* buffer) {
  size_t rows = 0;
  const size_t nkeys = r->GetCount(2);
  for (size_t k = 0; k < nkeys && r->ok(); ++k) {
    std::string sort_key = r->GetString();
    const size_t nids = r->GetCount(sizeof(uint32_t));
    if (!r->ok()) break;
    if (nids == 0) {
      r->Fail("a Top-N sort key without rows");
      break;
    }
    if (!buffer->empty() && !(buffer->back().first < sort_key)) {
      r->Fail("Top-N sort keys out of order");
      break;
    }
    RankTieIds ids(nids);
    r->GetRaw(ids.data(), nids * sizeof(uint32_t));
    if (!r->ok()) break;
    for (uint32_t id : ids) {
      if (id >= arena_rows) {
        r->Fail("a ranked row outside the arena");
        break;
      }
    }
    rows += nids;
    buffer->push_back(std::move(sort_key), std::move(ids));
  }
  return rows;
}

// The counters after a restore must agree with the restored rows.
void CheckRowCounts(StateReader* r, size_t buffered_rows, size_t live_rows, size_t dead_rows, const RowArena& arena) {
  if (!r->ok()) return;
  if (buffered_rows != live_rows || arena.live() != live_rows || live_rows + dead_rows != arena.size()) {
    r->Fail("Top-N row counts disagree: " + std::to_string(buffered_rows) + " ranked rows, " +
            std::to_string(live_rows) + " live and " + std::to_string(dead_rows) + " released of " +
            std::to_string(arena.size()) + " stored rows");
  }
}

}  // namespace

void RankOperator::ResetDeltaBase() {
  State& s = *state_;
  s.dirty.Reset(s.partitions.size());
  s.arena_base = s.arena.size();
  s.renumbered = false;
}

Status RankOperator::SnapshotState(StateWriter* w) {
  State& st = *state_;
  w->PutTag("rank");
  st.arena.Snapshot(w);
  st.partition_index.Snapshot(w);
  for (const Partition& p : st.partitions) PutPartition(w, p.buffer);
  w->PutVarint(st.live_rows);
  w->PutVarint(st.dead_rows);
  w->PutI64(st.retractions_not_found);
  ResetDeltaBase();
  return Status::OK();
}

void RankOperator::DropState() { state_ = std::make_unique<State>(types_); }

Status RankOperator::RestoreState(StateReader* r) {
  DropState();
  State& st = *state_;
  r->ExpectTag("rank");
  st.arena.Restore(r);
  st.partition_index.Restore(r);
  size_t buffered = 0;
  if (r->ok()) st.partitions.resize(st.partition_index.size());
  for (size_t i = 0; i < st.partitions.size() && r->ok(); ++i) {
    Partition& p = st.partitions[i];
    p.rows = GetPartition(r, st.arena.size(), &p.buffer);
    buffered += p.rows;
  }
  st.live_rows = r->GetCount(0);
  st.dead_rows = r->GetCount(0);
  st.retractions_not_found = r->GetI64();
  CheckRowCounts(r, buffered, st.live_rows, st.dead_rows, st.arena);
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

bool RankOperator::CanSnapshotDelta() const { return has_snapshot_base() && !state_->renumbered; }

Status RankOperator::SnapshotDelta(StateWriter* w) {
  State& st = *state_;
  SLUICE_CHECK(CanSnapshotDelta());
  const size_t base = st.dirty.base();
  w->PutTag("rank-delta");
  st.arena.SnapshotTail(st.arena_base, w);
  st.partition_index.SnapshotSince(base, w);
  const std::vector<uint32_t>& dirty = st.dirty.dirty();
  w->PutVarint(dirty.size());
  for (uint32_t id : dirty) {
    w->PutVarint(id);
    PutPartition(w, st.partitions[id].buffer);
  }
  for (size_t id = base; id < st.partitions.size(); ++id) PutPartition(w, st.partitions[id].buffer);
  w->PutVarint(st.live_rows);
  w->PutVarint(st.dead_rows);
  w->PutI64(st.retractions_not_found);
  ResetDeltaBase();
  return Status::OK();
}

Status RankOperator::RestoreDelta(StateReader* r) {
  State& st = *state_;
  r->ExpectTag("rank-delta");
  if (r->ok() && (st.renumbered || !st.dirty.dirty().empty() || st.dirty.base() != st.partitions.size() ||
                  st.arena_base != st.arena.size())) {
    r->Fail("a Top-N state delta applied to a state that changed since its last snapshot or restore");
  }
  RETURN_IF_ERROR(r->status());
  const size_t base = st.partitions.size();
  SLUICE_CHECK_EQ(base, st.partition_index.size());
  size_t buffered = st.live_rows;  // the rows of all buffers, kept up to date below
  st.arena.RestoreAppend(r);
  st.partition_index.RestoreAppend(r);
  const size_t ndirty = r->GetCount(2);
  for (size_t k = 0; k < ndirty && r->ok(); ++k) {
    const uint64_t id = r->GetVarint();
    if (r->ok() && id >= base) r->Fail("a Top-N state delta rewrites partition " + std::to_string(id) + " beyond its base");
    if (!r->ok()) break;
    Partition p;
    p.rows = GetPartition(r, st.arena.size(), &p.buffer);
    buffered = buffered - st.partitions[id].rows + p.rows;
    st.partitions[id] = std::move(p);
  }
  if (r->ok()) st.partitions.resize(st.partition_index.size());
  for (size_t id = base; id < st.partitions.size() && r->ok(); ++id) {
    Partition& p = st.partitions[id];
    p.rows = GetPartition(r, st.arena.size(), &p.buffer);
    buffered += p.rows;
  }
  st.live_rows = r->GetCount(0);
  st.dead_rows = r->GetCount(0);
  st.retractions_not_found = r->GetI64();
  CheckRowCounts(r, buffered, st.live_rows, st.dead_rows, st.arena);
  // Partly applied: Operator::ApplyDelta drops the state (DropState).
  RETURN_IF_ERROR(r->status());
  ResetDeltaBase();
  return Status::OK();
}

RankOperator::RankOperator(std::string name, std::vector<LogicalType> types, std::vector<int> partition_keys,
                           std::vector<SortKey> order, int64_t rank_start, int64_t rank_end,
                           bool output_rank_number, bool input_has_retractions, bool emit_update_before,
                           RankType rank_type)
    : Operator(std::move(name), 1),
      types_(std::move(types)),
      partition_keys_(std::move(partition_keys)),
      order_(std::move(order)),
      rank_start_(rank_start),
      rank_end_(rank_end),
      output_rank_number_(output_rank_number),
      input_has_retractions_(input_has_retractions),
      emit_update_before_(emit_update_before),
      rank_type_(rank_type),
      state_(std::make_unique<State>(types_)) {
  // The choice of Flink's StreamExecRank: RetractStrategy, else AppendFastStrategy with FastTop1
  // for a constant range 1..1.
  if (rank_type_ != RankType::kRowNumber) {
    strategy_ = Strategy::kTies;
  } else if (input_has_retractions_) {
    strategy_ = Strategy::kRetract;
  } else if (rank_start_ == 1 && rank_end_ == 1) {
    strategy_ = Strategy::kTop1;
  } else {
    strategy_ = Strategy::kAppendOnly;
  }
  with_row_number_ = output_rank_number_ || rank_start_ > 1;
  output_types_ = types_;
  if (output_rank_number_) output_types_.push_back(LogicalType::BigInt().WithNullable(false));
}

RankOperator::~RankOperator() = default;

size_t RankOperator::state_rows() const { return state_->live_rows; }
size_t RankOperator::num_partitions() const { return state_->partitions.size(); }
int64_t RankOperator::retractions_not_found() const { return state_->retractions_not_found; }

Status RankOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  const int width = static_cast<int>(types_.size());
  if (rank_start_ < 1 || rank_end_ < rank_start_) {
    return Status::InvalidArgument("Rank '" + name() + "': invalid rank range " + std::to_string(rank_start_) +
                                   ".." + std::to_string(rank_end_) +
                                   "; a streaming Top-N needs 1 <= start <= end (the rank end must be specified)");
  }
  for (int k : partition_keys_) {
    if (k < 0 || k >= width) {
      return Status::InvalidArgument("Rank '" + name() + "': PARTITION BY column " + std::to_string(k) +
                                     " is outside the " + std::to_string(width) + " input columns");
    }
  }
  for (const SortKey& o : order_) {
    if (o.column < 0 || o.column >= width) {
      return Status::InvalidArgument("Rank '" + name() + "': ORDER BY column " + std::to_string(o.column) +
                                     " is outside the " + std::to_string(width) + " input columns");
    }
    const LogicalType& t = types_[static_cast<size_t>(o.column)];
    if (!IsSortKeyEncodable(t)) {
      return Status::NotSupported("Rank '" + name() + "': cannot ORDER BY a column of type " + t.ToString() +
                                  "; nested types have no order");
    }
  }
  return Status::OK();
}

size_t RankOperator::StateBytes() const {
  const State& s = *state_;
  // Each live row sits in its partition's sorted buffer under its encoded sort key (ties inline): at
  // most one chunk entry per row.
  return s.partition_index.MemoryUsage() + VectorBytes(s.partitions) + s.arena.MemoryUsage() + s.dirty.MemoryUsage() +
         s.live_rows * sizeof(RankBuffer::Entry);
}

Status RankOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!input_has_retractions_ && !chunk.AllInserts()) {
    for (size_t i = 0; i < n; ++i) {
      if (chunk.kind(i) != RowKind::kInsert) {
        return Status::InvalidArgument("Rank '" + name() + "' was planned for an insert-only input but received a " +
                                       std::string(RowKindShortString(chunk.kind(i))) + " change");
      }
    }
  }
  State& s = *state_;
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;

  // Partition of every row.
  EncodeKeys(chunk, partition_keys_, &s.encoded);
  s.partition_of_row.resize(n);
  s.partition_index.InsertMany(s.encoded.data(), n, s.partition_of_row.data());
  s.partitions.resize(s.partition_index.size());  // new partitions (ids in order of first appearance)
  // Sort key of every row, column by column.
  s.sort_keys.resize(n);
  for (auto& k : s.sort_keys) k.clear();
  for (const SortKey& o : order_) {
    const Vector& v = chunk.column(static_cast<size_t>(o.column));
    for (size_t i = 0; i < n; ++i) EncodeSortKeyValue(v, i, o.ascending, o.nulls_first, &s.sort_keys[i]);
  }

  // Rows that may be stored go to the arena in one columnar append. For the append strategies the
  // test against the state before this chunk is a superset of the exact one (the state only gets
  // more selective as rows arrive), so candidates that lose later are released at once.
  s.sel.clear();
  for (size_t i = 0; i < n; ++i) {
    const bool candidate = strategy_ == Strategy::kRetract || strategy_ == Strategy::kTies
                               ? IsAccumulate(chunk.kind(i))
                               : CanEnter(s.partitions[s.partition_of_row[i]], s.sort_keys[i]);
    if (candidate) s.sel.push_back(static_cast<uint32_t>(i));
  }
  s.row_id.assign(n, kNoRow);
  if (!s.sel.empty()) {
    const uint32_t base = s.arena.AppendMany(chunk, s.sel.data(), s.sel.size());
    for (size_t j = 0; j < s.sel.size(); ++j) s.row_id[s.sel[j]] = base + static_cast<uint32_t>(j);
    s.live_rows += s.sel.size();
  }

  for (size_t i = 0; i < n; ++i) {
    const uint32_t partition = s.partition_of_row[i];
    Partition& p = s.partitions[partition];
    const uint32_t id = s.row_id[i];
    // A stored row or a retraction may change the partition's buffer.
    if (id != kNoRow || strategy_ == Strategy::kRetract || strategy_ == Strategy::kTies) s.dirty.Mark(partition);
    switch (strategy_) {
      case Strategy::kTop1:
        if (id != kNoRow) ProcessTop1(p, s.sort_keys[i], id);
        break;
      case Strategy::kAppendOnly:
        if (id != kNoRow) ProcessAppendOnly(p, s.sort_keys[i], id);
        break;
      case Strategy::kRetract:
        if (id != kNoRow) {
          AccumulateRetractable(p, s.sort_keys[i], id);
        } else {
          RetractRetractable(p, s.sort_keys[i], chunk, i);
        }
        break;
      case Strategy::kTies:
        if (id != kNoRow) {
          AccumulateTies(p, s.sort_keys[i], id);
        } else {
          RetractTies(p, s.sort_keys[i], chunk, i);
        }
        break;
    }
    // Flush between input rows only, so the changes of one row (a -U/+U pair) stay together.
    if (s.out_ids.size() >= chunk_size) RETURN_IF_ERROR(Flush());
  }
  RETURN_IF_ERROR(Flush());
  MaybeCompact();
  return Status::OK();
}

bool RankOperator::CanEnter(const Partition& p, const std::string& sort_key) const {
  if (p.buffer.empty()) return true;
  if (strategy_ == Strategy::kTop1) return sort_key < p.buffer.begin()->first;
  // Flink's checkSortKeyInBufferRange with the buffer size rank_end.
  return sort_key < p.buffer.back().first || static_cast<int64_t>(p.rows) < rank_end_;
}

void RankOperator::ProcessTop1(Partition& p, std::string& sort_key, uint32_t id) {
  if (p.buffer.empty()) {
    p.buffer.push_back(std::move(sort_key), RankTieIds{id});
    p.rows = 1;
    Collect(id, RowKind::kInsert, 1);
    return;
  }
  auto top = p.buffer.begin();
  if (!(sort_key < top->first)) {  // ties keep the first row
    ReleaseRow(id);
    return;
  }
  const uint32_t prev = top->second.front();
  // The partition key is a unique key of a Top-1, hence an update rather than delete + insert.
  Collect(prev, RowKind::kUpdateBefore, 1);
  Collect(id, RowKind::kUpdateAfter, 1);
  ReleaseRow(prev);
  p.buffer.clear();
  p.buffer.push_back(std::move(sort_key), RankTieIds{id});
}

void RankOperator::ProcessAppendOnly(Partition& p, std::string& sort_key, uint32_t id) {
  if (!CanEnter(p, sort_key)) {
    ReleaseRow(id);
    return;
  }
  auto own = p.buffer.try_emplace(std::move(sort_key)).first;
  own->second.push_back(id);
  ++p.rows;
  if (with_row_number_) {
    // Every rank from the new row's down to rank_end changes its row: the new row takes its rank and
    // each following row moves one down; the last one fills a new rank, or drops out.
    int64_t rank = 0;
    bool found = false;
    uint32_t current = kNoRow;
    auto it = p.buffer.begin();
    for (; it != p.buffer.end() && rank <= rank_end_; ++it) {
      if (!found && it == own) {
        rank += static_cast<int64_t>(it->second.size());
        current = id;
        found = true;
      } else if (found) {
        for (size_t j = 0; j < it->second.size() && rank <= rank_end_; ++j) {
          const uint32_t prev = it->second[j];
          Collect(prev, RowKind::kUpdateBefore, rank);
          Collect(current, RowKind::kUpdateAfter, rank);
          current = prev;
          ++rank;
        }
      } else {
        rank += static_cast<int64_t>(it->second.size());
      }
    }
    if (rank <= rank_end_) {
      SLUICE_CHECK(current != kNoRow);
      Collect(current, RowKind::kInsert, rank);
    }
    // Sort keys entirely beyond the top are forgotten.
    while (it != p.buffer.end()) {
      for (uint32_t r : it->second) {
        ReleaseRow(r);
        --p.rows;
      }
      it = p.buffer.erase(it);
    }
    return;
  }
  if (static_cast<int64_t>(p.rows) > rank_end_) {
    auto last = std::prev(p.buffer.end());
    const uint32_t last_row = last->second.back();
    last->second.pop_back();
    if (last->second.empty()) p.buffer.erase(last);
    --p.rows;
    ReleaseRow(last_row);
    if (last_row == id) return;
    CollectPlain(last_row, RowKind::kDelete);
  }
  CollectPlain(id, RowKind::kInsert);
}

void RankOperator::AccumulateRetractable(Partition& p, std::string& sort_key, uint32_t id) {
  auto own = p.buffer.try_emplace(std::move(sort_key)).first;
  own->second.push_back(id);
  ++p.rows;
  int64_t rank = 0;
  bool found = false;
  if (with_row_number_) {
    uint32_t current = kNoRow;
    for (auto it = p.buffer.begin(); it != p.buffer.end() && rank <= rank_end_; ++it) {
      if (!found && it == own) {
        rank += static_cast<int64_t>(it->second.size());
        current = id;
        found = true;
      } else if (found) {
        for (size_t j = 0; j < it->second.size() && rank <= rank_end_; ++j) {
          const uint32_t prev = it->second[j];
          Collect(prev, RowKind::kUpdateBefore, rank);
          Collect(current, RowKind::kUpdateAfter, rank);
          current = prev;
          ++rank;
        }
      } else {
        rank += static_cast<int64_t>(it->second.size());
      }
    }
    if (rank <= rank_end_) {
      SLUICE_CHECK(current != kNoRow);
      Collect(current, RowKind::kInsert, rank);
    }
    return;
  }
  bool insert_new = false;
  uint32_t pushed_out = kNoRow;
  for (auto it = p.buffer.begin(); it != p.buffer.end() && rank <= rank_end_; ++it) {
    const int64_t count = static_cast<int64_t>(it->second.size());
    if (!found && it == own) {
      rank += count;
      insert_new = rank >= rank_start_ && rank <= rank_end_;
      found = true;
    } else if (found) {
      // The row that was at rank_end moves to rank_end + 1.
      if (rank + count <= rank_end_) {
        rank += count;
      } else {
        pushed_out = it->second[static_cast<size_t>(rank_end_ - rank)];
        break;
      }
    } else {
      rank += count;
    }
  }
  if (pushed_out != kNoRow) CollectPlain(pushed_out, RowKind::kDelete);
  if (insert_new) CollectPlain(id, RowKind::kInsert);
}

void RankOperator::RetractRetractable(Partition& p, const std::string& sort_key, const Chunk& chunk, size_t row) {
  State& s = *state_;
  const Chunk& stored = s.arena.rows();
  auto own = p.buffer.find(sort_key);
  if (own == p.buffer.end()) {
    ++s.retractions_not_found;
    return;
  }
  bool found = false;
  size_t found_index = 0;
  if (with_row_number_) {
    // The retracted row's rank and every rank below it take the next row; the last rank empties.
    int64_t rank = 0;
    uint32_t prev = kNoRow;
    for (auto it = p.buffer.begin(); it != p.buffer.end() && rank <= rank_end_; ++it) {
      const RankTieIds& ids = it->second;
      if (!found && it == own) {
        for (size_t j = 0; j < ids.size() && rank <= rank_end_; ++j) {
          const uint32_t r = ids[j];
          if (!found && RowsEqual(stored, r, chunk, row)) {
            prev = r;
            found = true;
            found_index = j;
          } else if (found) {
            Collect(prev, RowKind::kUpdateBefore, rank);
            Collect(r, RowKind::kUpdateAfter, rank);
            prev = r;
          }
          ++rank;
        }
      } else if (found) {
        for (size_t j = 0; j < ids.size() && rank <= rank_end_; ++j) {
          const uint32_t r = ids[j];
          Collect(prev, RowKind::kUpdateBefore, rank);
          Collect(r, RowKind::kUpdateAfter, rank);
          prev = r;
          ++rank;
        }
      } else {
        rank += static_cast<int64_t>(ids.size());
      }
    }
    if (found && rank <= rank_end_) Collect(prev, RowKind::kDelete, rank);
  } else {
    // The retracted row leaves with -D; the row at rank_end + 1 (if any) moves up with +I.
    int64_t next_rank = 1;
    for (auto it = p.buffer.begin(); it != p.buffer.end() && next_rank <= rank_end_; ++it) {
      const RankTieIds& ids = it->second;
      if (!found && it == own) {
        for (size_t j = 0; j < ids.size() && next_rank <= rank_end_; ++j) {
          const uint32_t r = ids[j];
          if (!found && RowsEqual(stored, r, chunk, row)) {
            Collect(r, RowKind::kDelete, next_rank);
            --next_rank;
            found = true;
            found_index = j;
          } else if (found && next_rank == rank_end_) {
            Collect(r, RowKind::kInsert, next_rank);
          }
          ++next_rank;
        }
      } else if (found) {
        const int64_t last_rank = next_rank + static_cast<int64_t>(ids.size()) - 1;
        if (last_rank < rank_end_) {
          next_rank = last_rank + 1;
        } else {
          CollectPlain(ids[static_cast<size_t>(rank_end_ - next_rank)], RowKind::kInsert);
          break;
        }
      } else {
        next_rank += static_cast<int64_t>(ids.size());
      }
    }
  }
  RankTieIds& ids = own->second;
  if (!found) {
    // Not among the top rows: remove the stored copy without any output.
    for (size_t j = 0; j < ids.size(); ++j) {
      if (RowsEqual(stored, ids[j], chunk, row)) {
        found = true;
        found_index = j;
        break;
      }
    }
    if (!found) {
      ++s.retractions_not_found;
      return;
    }
  }
  const uint32_t removed = ids[found_index];
  ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(found_index));
  if (ids.empty()) p.buffer.erase(own);
  --p.rows;
  ReleaseRow(removed);
}

void RankOperator::Collect(uint32_t id, RowKind kind, int64_t rank) {
  if (kind == RowKind::kUpdateBefore && !emit_update_before_) return;
  if (rank < rank_start_ || rank > rank_end_) return;
  State& s = *state_;
  s.out_ids.push_back(id);
  s.out_kinds.push_back(kind);
  s.out_ranks.push_back(rank);
}

void RankOperator::CollectPlain(uint32_t id, RowKind kind) {
  if (kind == RowKind::kUpdateBefore && !emit_update_before_) return;
  SLUICE_CHECK(!output_rank_number_);
  State& s = *state_;
  s.out_ids.push_back(id);
  s.out_kinds.push_back(kind);
  s.out_ranks.push_back(0);
}

void RankOperator::ReleaseRow(uint32_t id) {
  State& s = *state_;
  s.arena.Release(id);
  --s.live_rows;
  ++s.dead_rows;
}

Status RankOperator::Flush() {
  State& s = *state_;
  const size_t n = s.out_ids.size();
  if (n == 0) return Status::OK();
  Chunk out(output_types_);
  s.arena.Gather(s.out_ids.data(), n, RowKind::kInsert, &out);
  std::copy(s.out_kinds.begin(), s.out_kinds.end(), out.kinds());
  if (output_rank_number_) {
    Vector& ranks = out.column(types_.size());
    ranks.Resize(n);
    std::copy(s.out_ranks.begin(), s.out_ranks.end(), ranks.data<int64_t>());
  }
  s.out_ids.clear();
  s.out_kinds.clear();
  s.out_ranks.clear();
  return Emit(out);
}

void RankOperator::MaybeCompact() {
  State& s = *state_;
  if (s.dead_rows < kMinDeadRowsToCompact || 2 * s.dead_rows < s.live_rows) return;
  // The kept rows stay in arena order (RowArena::Retain moves them in place: no second copy).
  KeptRows kept(s.arena.size());
  for (const Partition& p : s.partitions) {
    for (const auto& [key, ids] : p.buffer) {
      for (uint32_t id : ids) kept.Mark(id);
    }
  }
  kept.Finish();
  SLUICE_CHECK_EQ(kept.ids().size(), s.live_rows);
  for (Partition& p : s.partitions) {
    for (auto& [key, ids] : p.buffer) {
      for (uint32_t& id : ids) id = kept.NewId(id);
    }
  }
  s.arena.Retain(kept.ids().data(), kept.ids().size());
  s.dead_rows = 0;
  s.renumbered = true;  // no delta can express the new row ids: the next snapshot is a full one
}

}  // namespace sluice
