#include "runtime/operators/batch_over_aggregate_operator.h"

#include <algorithm>
#include <cstdlib>

#include "runtime/job.h"
#include "state/sort_key.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

using BoundKind = OverFrameBound::Kind;

// A RANGE order key's value in its physical unit (the binder measured the offsets in the same unit).
long double NumericKey(const Vector& v, size_t row) {
  switch (v.type().id()) {
    case TypeId::kTinyInt: return v.data<int8_t>()[row];
    case TypeId::kSmallInt: return v.data<int16_t>()[row];
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth: return v.data<int32_t>()[row];
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kIntervalDayTime: return static_cast<long double>(v.data<int64_t>()[row]);
    case TypeId::kFloat: return v.data<float>()[row];
    case TypeId::kDouble: return v.data<double>()[row];
    case TypeId::kDecimal: return static_cast<long double>(v.data<__int128>()[row]);
    default: return 0;
  }
}

// One block of accumulator state, aligned for its layout.
struct Block {
  explicit Block(const AccumulatorLayout& l) : layout(l) {
    bytes = static_cast<uint8_t*>(std::aligned_alloc(l.block_align(), std::max(l.block_bytes(), l.block_align())));
    std::fill(bytes, bytes + l.block_bytes(), uint8_t{0});
    layout.Init(bytes);
  }
  ~Block() {
    layout.Destroy(bytes);
    std::free(bytes);
  }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  void Reset() {
    layout.Destroy(bytes);
    layout.Init(bytes);
  }
  const AccumulatorLayout& layout;
  uint8_t* bytes;
};

}  // namespace

BatchOverAggregateOperator::BatchOverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                                       std::vector<LogicalType> output_types, Options options)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      output_types_(std::move(output_types)),
      o_(std::move(options)),
      rows_(input_types_) {
  for (const auto& c : o_.calls) {
    // Frames from UNBOUNDED PRECEDING only add; the others retract (the binder chose the functions).
    layouts_.push_back(c.function ? std::make_unique<AccumulatorLayout>(std::vector<AccumulatorCall>{c}) : nullptr);
  }
}

std::string BatchOverAggregateOperator::PartitionKey(const Chunk& chunk, size_t row) const {
  std::string key;
  for (int k : o_.partition_keys) EncodeSortKeyValue(chunk.column(static_cast<size_t>(k)), row, true, true, &key);
  return key;
}

Status BatchOverAggregateOperator::Process(int, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  size_t begin = 0;
  for (size_t r = 0; r < chunk.size(); ++r) {
    if (!IsAccumulate(chunk.kind(r))) {
      return Status::Internal(name() + " received a " + std::string(RowKindShortString(chunk.kind(r))) +
                              " row; a batch OverAggregate reads insert-only input");
    }
    if (o_.partition_keys.empty()) continue;
    std::string key = PartitionKey(chunk, r);
    if (rows_.size() + (r - begin) > 0 && key != current_key_) {
      rows_.AppendFrom(chunk, nullptr, begin, r - begin, /*copy_strings=*/true);
      begin = r;
      RETURN_IF_ERROR(FinishPartition());
    }
    current_key_ = std::move(key);
  }
  rows_.AppendFrom(chunk, nullptr, begin, chunk.size() - begin, /*copy_strings=*/true);
  return Status::OK();
}

Status BatchOverAggregateOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FinishPartition());
  return EmitEndOfInput();
}

void BatchOverAggregateOperator::ComputeFrame(const OverFrame& f, std::vector<uint32_t>* start,
                                              std::vector<uint32_t>* end) const {
  const size_t n = rows_.size();
  start->resize(n);
  end->resize(n);
  const bool offsets = !f.rows && (f.start.kind == BoundKind::kPreceding || f.start.kind == BoundKind::kFollowing ||
                                   f.end.kind == BoundKind::kPreceding || f.end.kind == BoundKind::kFollowing);
  // RANGE with an offset: one numeric key, made ascending (a descending key is negated), and the rows
  // with a non-NULL key [nn_begin, nn_end) (NULLs sort together at one end).
  std::vector<long double> key;
  size_t nn_begin = 0, nn_end = n;
  if (offsets) {
    const SortKey& k = o_.order[0];
    const Vector& v = rows_.column(static_cast<size_t>(k.column));
    key.resize(n);
    for (size_t i = 0; i < n; ++i) key[i] = k.ascending ? NumericKey(v, i) : -NumericKey(v, i);
    while (nn_begin < n && v.IsNull(nn_begin)) ++nn_begin;
    while (nn_end > nn_begin && v.IsNull(nn_end - 1)) --nn_end;
  }
  // The first row of the non-NULL keys whose key is >= x (or > x when `after`).
  auto seek = [&](long double x, bool after) {
    auto it = std::partition_point(key.begin() + static_cast<long>(nn_begin), key.begin() + static_cast<long>(nn_end),
                                   [&](long double y) { return after ? y <= x : y < x; });
    return static_cast<uint32_t>(it - key.begin());
  };
  auto bound = [&](const OverFrameBound& b, size_t i, bool is_end) -> uint32_t {
    const int64_t off = static_cast<int64_t>(b.offset);
    switch (b.kind) {
      case BoundKind::kUnboundedPreceding: return 0;
      case BoundKind::kUnboundedFollowing: return static_cast<uint32_t>(n);
      case BoundKind::kCurrentRow:
        if (f.rows) return static_cast<uint32_t>(is_end ? i + 1 : i);
        return is_end ? peer_end_[i] : peer_start_[i];
      case BoundKind::kPreceding:
      case BoundKind::kFollowing: {
        const bool preceding = b.kind == BoundKind::kPreceding;
        if (f.rows) {
          const int64_t at = static_cast<int64_t>(i) + (preceding ? -off : off) + (is_end ? 1 : 0);
          return static_cast<uint32_t>(std::clamp<int64_t>(at, 0, static_cast<int64_t>(n)));
        }
        if (i < nn_begin || i >= nn_end) return is_end ? peer_end_[i] : peer_start_[i];  // a NULL key
        return seek(preceding ? key[i] - b.offset : key[i] + b.offset, is_end);
      }
    }
    return 0;
  };
  for (size_t i = 0; i < n; ++i) {
    (*start)[i] = bound(f.start, i, false);
    (*end)[i] = std::max((*start)[i], bound(f.end, i, true));
  }
}

Status BatchOverAggregateOperator::FinishPartition() {
  const size_t n = rows_.size();
  if (n == 0) return Status::OK();
  // Peers: rows with equal order keys (all rows when there is no ORDER BY).
  peer_start_.resize(n);
  peer_end_.resize(n);
  {
    std::vector<std::string> enc(o_.order.empty() ? 0 : n);
    for (size_t i = 0; i < enc.size(); ++i) {
      for (const auto& k : o_.order) {
        EncodeSortKeyValue(rows_.column(static_cast<size_t>(k.column)), i, k.ascending, k.nulls_first, &enc[i]);
      }
    }
    size_t s = 0;
    for (size_t i = 1; i <= n; ++i) {
      if (i < n && (enc.empty() || enc[i] == enc[i - 1])) continue;
      for (size_t j = s; j < i; ++j) {
        peer_start_[j] = static_cast<uint32_t>(s);
        peer_end_[j] = static_cast<uint32_t>(i);
      }
      s = i;
    }
  }
  // The output: the partition's rows, then one column per call.
  const size_t nc = input_types_.size();
  Chunk out(output_types_);
  for (size_t c = 0; c < nc; ++c) out.column(c) = rows_.column(c);
  for (size_t c = nc; c < output_types_.size(); ++c) out.column(c).Resize(n);
  out.kind_vector().assign(n, RowKind::kInsert);
  std::vector<uint32_t> start, end;
  for (size_t a = 0; a < o_.calls.size(); ++a) {
    if (!layouts_[a]) {
      ShiftColumn(a, &out.column(nc + a));
      continue;
    }
    ComputeFrame(o_.frames[a], &start, &end);
    const AccumulatorLayout& layout = *layouts_[a];
    Block block(layout);
    uint32_t from = 0, to = 0;  // the rows accumulated now: [from, to)
    for (size_t i = 0; i < n; ++i) {
      if (start[i] < from || end[i] < to) {  // the frame moved back: rebuild it
        block.Reset();
        from = to = start[i];
      }
      for (; to < end[i]; ++to) layout.Update(block.bytes, rows_, to, /*retract=*/false);
      for (; from < start[i]; ++from) layout.Update(block.bytes, rows_, from, /*retract=*/true);
      if (layout.has_checks()) RETURN_IF_ERROR(layout.Check(block.bytes));
      layout.Finalize(block.bytes, &out, nc + a, i);
    }
  }
  // Emitted in chunks of the job's chunk size.
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  if (n <= chunk_size) {
    RETURN_IF_ERROR(Emit(out));
  } else {
    for (size_t begin = 0; begin < n; begin += chunk_size) {
      Chunk part(output_types_);
      part.AppendFrom(out, nullptr, begin, std::min(chunk_size, n - begin));
      RETURN_IF_ERROR(Emit(part));
    }
  }
  rows_ = Chunk(input_types_);
  return Status::OK();
}

void BatchOverAggregateOperator::ShiftColumn(size_t a, Vector* out) const {
  const int64_t n = static_cast<int64_t>(rows_.size());
  const int64_t shift = o_.shifts[a];
  const Vector& x = rows_.column(static_cast<size_t>(o_.calls[a].args[0]));
  const Vector* d = o_.calls[a].args.size() > 1 ? &rows_.column(static_cast<size_t>(o_.calls[a].args[1])) : nullptr;
  out->Resize(0);
  // Runs of rows that take x of row i + shift are appended at once. As Flink's batch LEAD/LAG, a row
  // whose target row is missing or holds a NULL x takes the default (its own row's), else NULL.
  int64_t i = 0;
  while (i < n) {
    const int64_t j = i + shift;
    const bool has_target = j >= 0 && j < n && (!d || !x.IsNull(static_cast<size_t>(j)));
    int64_t e = i + 1;
    if (has_target) {
      while (e < n && e + shift < n && (!d || !x.IsNull(static_cast<size_t>(e + shift)))) ++e;
      out->AppendFrom(x, nullptr, static_cast<size_t>(j), static_cast<size_t>(e - i));
    } else {
      while (e < n && !(e + shift >= 0 && e + shift < n && (!d || !x.IsNull(static_cast<size_t>(e + shift))))) ++e;
      if (d) {
        out->AppendFrom(*d, nullptr, static_cast<size_t>(i), static_cast<size_t>(e - i));
      } else {
        const size_t at = out->size();
        out->Resize(at + static_cast<size_t>(e - i));
        for (size_t r = at; r < out->size(); ++r) out->SetNull(r, true);
      }
    }
    i = e;
  }
}

void BatchOverAggregateOperator::DropState() {
  rows_ = Chunk(input_types_);
  current_key_.clear();
}

Status BatchOverAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("batch-over");
  w->PutChunk(rows_);
  return Status::OK();
}

Status BatchOverAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("batch-over");
  r->GetChunk(input_types_, &rows_);
  if (rows_.size() > 0 && !o_.partition_keys.empty()) current_key_ = PartitionKey(rows_, 0);
  return r->status();
}

}  // namespace sluice
