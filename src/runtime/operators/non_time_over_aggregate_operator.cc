#include "runtime/operators/non_time_over_aggregate_operator.h"

#include <algorithm>
#include <unordered_map>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/sort_key.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

// Output chunks are cut after this many rows (never between a -U and its +U).
constexpr size_t kOutRows = 1024;

uint8_t* Bytes(std::vector<__int128>& v) { return reinterpret_cast<uint8_t*>(v.data()); }
const uint8_t* Bytes(const std::vector<__int128>& v) { return reinterpret_cast<const uint8_t*>(v.data()); }

}  // namespace

struct NonTimeOverAggregateOperator::Partition {
  std::vector<std::string> keys;  // each row's encoded ORDER BY value, ascending
  std::vector<uint32_t> ids;      // the rows' arena ids, parallel to keys
  std::vector<__int128> total;    // the accumulators over every row (16-byte aligned storage)
};

struct NonTimeOverAggregateOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}
  RowArena arena;
  std::unordered_map<std::string, Partition> partitions;
  size_t live_rows = 0;
  size_t released = 0;
  size_t key_bytes = 0;  // partition keys and ORDER BY encodings
};

NonTimeOverAggregateOperator::NonTimeOverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                                           std::vector<int> partition_keys, int order_column,
                                                           bool rows_frame, std::vector<AccumulatorCall> calls,
                                                           std::vector<LogicalType> output_types,
                                                           bool emit_update_before)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      partition_keys_(std::move(partition_keys)),
      order_column_(order_column),
      rows_frame_(rows_frame),
      layout_(calls),
      output_types_(std::move(output_types)),
      emit_update_before_(emit_update_before),
      state_(std::make_unique<State>(input_types_)) {
  SLUICE_CHECK_LE(layout_.block_align(), sizeof(__int128));
  std::vector<LogicalType> result_types;
  for (size_t a = 0; a < calls.size(); ++a) {
    result_types.push_back(output_types_[input_types_.size() + a]);
    const AccumulatorCall& c = calls[a];
    // AVG's accumulator counts its arguments too: a row can leave the average as it was (an INT average
    // rounds) and still change it (random query 2029-60: Flink went on updating the later rows).
    const bool avg = c.function->name == "AVG";
    if ((c.function->name == "SUM" || avg) && !c.args.empty() &&
        (avg || input_types_[static_cast<size_t>(c.args[0])].nullable())) {
      sum_count_args_.push_back(c.args[0]);
    }
  }
  compare_ = Chunk(result_types, 2);
}

NonTimeOverAggregateOperator::~NonTimeOverAggregateOperator() { DropState(); }

void NonTimeOverAggregateOperator::DropState() {
  if (state_) {
    for (auto& [key, p] : state_->partitions) layout_.Destroy(Bytes(p.total));
  }
  state_ = std::make_unique<State>(input_types_);
}

size_t NonTimeOverAggregateOperator::state_rows() const { return state_->live_rows; }

size_t NonTimeOverAggregateOperator::StateBytes() const {
  const State& s = *state_;
  size_t heap = 0;
  if (!layout_.plain()) {
    for (const auto& [key, p] : s.partitions) heap += layout_.HeapBytes(Bytes(p.total));
  }
  return s.arena.MemoryUsage() + s.key_bytes +
         s.partitions.size() * (sizeof(Partition) + layout_.block_bytes() + 2 * sizeof(void*)) +
         s.live_rows * (sizeof(std::string) + sizeof(uint32_t)) + heap;
}

bool NonTimeOverAggregateOperator::ChangesSumCount(const Chunk& chunk, size_t row) const {
  for (int c : sum_count_args_) {
    if (!chunk.column(static_cast<size_t>(c)).IsNull(row)) return true;
  }
  return false;
}

void NonTimeOverAggregateOperator::AppendResult(uint32_t id, const uint8_t* block, RowKind kind, Chunk* out) const {
  state_->arena.GatherColumns(&id, 1, 0, out);
  const size_t row = out->size();
  const size_t first = input_types_.size();
  for (size_t a = 0; a < layout_.calls().size(); ++a) out->column(first + a).Resize(row + 1);
  layout_.Finalize(block, out, first, row);
  out->kind_vector().push_back(kind);
}

bool NonTimeOverAggregateOperator::SameResults(const uint8_t* a, const uint8_t* b) {
  // A fresh pair of rows each time, so string results do not pile up in the vectors' heaps.
  std::vector<LogicalType> types;
  for (const auto& c : compare_.columns()) types.push_back(c.type());
  compare_ = Chunk(types, 2);
  layout_.Finalize(a, &compare_, 0, 0);
  layout_.Finalize(b, &compare_, 0, 1);
  for (size_t c = 0; c < compare_.num_columns(); ++c) {
    if (!ValuesEqual(compare_.column(c), 0, compare_.column(c), 1)) return false;
  }
  return true;
}

void NonTimeOverAggregateOperator::Recompute(Partition& p, size_t pos, bool inserted, RowKind kind,
                                             bool sum_count_changes, Chunk* out) {
  const Chunk& rows = state_->arena.rows();
  const size_t words = (layout_.block_bytes() + sizeof(__int128) - 1) / sizeof(__int128);
  std::vector<__int128> before(words), after(words);
  uint8_t* old_b = Bytes(before);
  uint8_t* new_b = Bytes(after);
  layout_.Init(old_b);
  layout_.Init(new_b);
  bool emitting = true;
  const size_t n = p.ids.size();
  for (size_t i = 0; i < n;) {
    // A group: one row (ROWS) or the rows of one ORDER BY value (RANGE).
    size_t end = i + 1;
    if (!rows_frame_) {
      while (end < n && p.keys[end] == p.keys[i]) ++end;
    }
    for (size_t j = i; j < end; ++j) {
      if (j != pos || !inserted) layout_.Update(old_b, rows, p.ids[j], false);
      if (j != pos || inserted) layout_.Update(new_b, rows, p.ids[j], false);
    }
    if (emitting && end > pos) {
      const bool same = !sum_count_changes && SameResults(old_b, new_b);
      if (i <= pos) {
        // The changed row's group: the row itself, and (RANGE) its peers when their result changed.
        for (size_t j = i; j < end; ++j) {
          if (j == pos) {
            AppendResult(p.ids[j], inserted ? new_b : old_b, inserted ? kind : RowKind::kDelete, out);
          } else if (!same) {
            if (emit_update_before_) AppendResult(p.ids[j], old_b, RowKind::kUpdateBefore, out);
            AppendResult(p.ids[j], new_b, RowKind::kUpdateAfter, out);
          }
        }
      } else if (same) {
        emitting = false;  // as Flink: the first later result that did not change ends the updates
      } else {
        for (size_t j = i; j < end; ++j) {
          if (emit_update_before_) AppendResult(p.ids[j], old_b, RowKind::kUpdateBefore, out);
          AppendResult(p.ids[j], new_b, RowKind::kUpdateAfter, out);
        }
      }
    }
    i = end;
  }
  layout_.Destroy(old_b);
  layout_.Destroy(Bytes(p.total));
  p.total = std::move(after);
}

Status NonTimeOverAggregateOperator::ProcessRow(const Chunk& chunk, size_t row, const std::string& key, Chunk* out) {
  State& s = *state_;
  std::string sort;
  EncodeSortKeyValue(chunk.column(static_cast<size_t>(order_column_)), row, /*ascending=*/true,
                     /*nulls_first=*/true, &sort);
  const RowKind kind = chunk.kind(row);
  if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
    auto [it, fresh] = s.partitions.try_emplace(key);
    Partition& p = it->second;
    if (fresh) {
      p.total.resize((layout_.block_bytes() + sizeof(__int128) - 1) / sizeof(__int128));
      layout_.Init(Bytes(p.total));
      s.key_bytes += key.size();
    }
    const uint32_t id = s.arena.Append(chunk, row);
    ++s.live_rows;
    s.key_bytes += sort.size();
    const size_t pos = static_cast<size_t>(std::upper_bound(p.keys.begin(), p.keys.end(), sort) - p.keys.begin());
    // After every row (RANGE: after every row of a smaller ORDER BY value): nothing else changes.
    const bool last = pos == p.keys.size() && (rows_frame_ || p.keys.empty() || p.keys.back() != sort);
    p.keys.insert(p.keys.begin() + static_cast<std::ptrdiff_t>(pos), std::move(sort));
    p.ids.insert(p.ids.begin() + static_cast<std::ptrdiff_t>(pos), id);
    if (last) {
      layout_.Update(Bytes(p.total), chunk, row, false);
      AppendResult(id, Bytes(p.total), kind, out);
    } else {
      Recompute(p, pos, /*inserted=*/true, kind, ChangesSumCount(chunk, row), out);
    }
    return Status::OK();
  }
  auto it = s.partitions.find(key);
  size_t pos = SIZE_MAX;
  if (it != s.partitions.end()) {
    Partition& p = it->second;
    auto lo = std::lower_bound(p.keys.begin(), p.keys.end(), sort);
    for (size_t j = static_cast<size_t>(lo - p.keys.begin()); j < p.keys.size() && p.keys[j] == sort; ++j) {
      if (s.arena.Equals(p.ids[j], chunk, row)) {
        pos = j;
        break;
      }
    }
  }
  if (pos == SIZE_MAX) {
    ++metrics_.retractions_without_state;  // Flink's numOfSortKeysNotFound / numOfIdsNotFound
    return Status::OK();
  }
  Partition& p = it->second;
  Recompute(p, pos, /*inserted=*/false, kind, ChangesSumCount(chunk, row), out);
  s.arena.Release(p.ids[pos]);
  ++s.released;
  --s.live_rows;
  s.key_bytes -= p.keys[pos].size();
  p.keys.erase(p.keys.begin() + static_cast<std::ptrdiff_t>(pos));
  p.ids.erase(p.ids.begin() + static_cast<std::ptrdiff_t>(pos));
  if (p.ids.empty()) {
    layout_.Destroy(Bytes(p.total));
    s.key_bytes -= key.size();
    s.partitions.erase(it);
  }
  return Status::OK();
}

Status NonTimeOverAggregateOperator::Process(int, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  std::vector<std::string> keys;
  EncodeKeys(chunk, partition_keys_, &keys);
  Chunk out(output_types_);
  for (size_t i = 0; i < chunk.size(); ++i) {
    RETURN_IF_ERROR(ProcessRow(chunk, i, keys[i], &out));
    if (out.size() >= kOutRows) {
      RETURN_IF_ERROR(Emit(out));
      out = Chunk(output_types_);
    }
  }
  if (state_->released > 4096 && state_->released > state_->live_rows) Compact();
  return Emit(out);
}

void NonTimeOverAggregateOperator::Compact() {
  State& s = *state_;
  std::vector<uint32_t> ids;
  ids.reserve(s.live_rows);
  for (const auto& [key, p] : s.partitions) ids.insert(ids.end(), p.ids.begin(), p.ids.end());
  RowArena fresh(input_types_);
  uint32_t next = ids.empty() ? 0 : fresh.AppendMany(s.arena.rows(), ids.data(), ids.size());
  for (auto& [key, p] : s.partitions) {
    for (uint32_t& id : p.ids) id = next++;
  }
  s.arena = std::move(fresh);
  s.released = 0;
}

Status NonTimeOverAggregateOperator::SnapshotState(StateWriter* w) {
  const State& s = *state_;
  // Partitions in key order, so equal states write equal bytes.
  std::vector<const std::string*> order;
  order.reserve(s.partitions.size());
  for (const auto& [key, p] : s.partitions) order.push_back(&key);
  std::sort(order.begin(), order.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  std::vector<uint32_t> ids;
  ids.reserve(s.live_rows);
  w->PutTag("non-time-over");
  w->PutVarint(order.size());
  for (const std::string* key : order) {
    const Partition& p = s.partitions.at(*key);
    w->PutVarint(p.ids.size());
    ids.insert(ids.end(), p.ids.begin(), p.ids.end());
  }
  s.arena.SnapshotRows(ids, w);
  return Status::OK();
}

Status NonTimeOverAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("non-time-over");
  const size_t num_partitions = r->GetCount(1);
  std::vector<size_t> counts;
  size_t total = 0;
  for (size_t i = 0; i < num_partitions && r->ok(); ++i) {
    counts.push_back(r->GetCount(0));
    if (r->ok() && counts.back() == 0) r->Fail("a non-time OVER partition without rows");
    total += counts.back();
  }
  if (r->ok()) s.arena.Restore(r);
  RETURN_IF_ERROR(r->status());
  const Chunk& rows = s.arena.rows();
  if (total != rows.size()) r->Fail(std::to_string(total) + " rows in partitions but " + std::to_string(rows.size()) + " stored");
  RETURN_IF_ERROR(r->status());
  std::vector<std::string> keys;
  EncodeKeys(rows, partition_keys_, &keys);
  const size_t words = (layout_.block_bytes() + sizeof(__int128) - 1) / sizeof(__int128);
  size_t next = 0;
  for (size_t count : counts) {
    auto [it, fresh] = s.partitions.try_emplace(keys[next]);
    if (!fresh) {
      r->Fail("a non-time OVER partition appears twice");
      return r->status();
    }
    Partition& p = it->second;
    p.total.resize(words);
    layout_.Init(Bytes(p.total));
    s.key_bytes += keys[next].size();
    for (size_t j = next; j < next + count; ++j) {
      if (keys[j] != keys[next]) {
        r->Fail("rows of two partitions in one non-time OVER partition");
        return r->status();
      }
      std::string sort;
      EncodeSortKeyValue(rows.column(static_cast<size_t>(order_column_)), j, true, true, &sort);
      if (!p.keys.empty() && sort < p.keys.back()) {
        r->Fail("non-time OVER rows out of order");
        return r->status();
      }
      s.key_bytes += sort.size();
      p.keys.push_back(std::move(sort));
      p.ids.push_back(static_cast<uint32_t>(j));
      layout_.Update(Bytes(p.total), rows, j, false);
    }
    next += count;
  }
  s.live_rows = rows.size();
  return r->status();
}

}  // namespace sluice
