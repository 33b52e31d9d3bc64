#include "runtime/operators/over_aggregate_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/over_aggregate_state.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "types/vector.h"

namespace sluice {

using namespace over_aggregate_internal;  // NOLINT: the operator's own state types

OverAggregateOperator::OverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                             std::vector<int> partition_keys, int order_column, bool rowtime,
                                             bool rows_frame, int64_t preceding, std::vector<AccumulatorCall> calls,
                                             std::vector<LogicalType> output_types)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      partition_keys_(std::move(partition_keys)),
      order_column_(order_column),
      rowtime_(rowtime),
      rows_frame_(rows_frame),
      preceding_(preceding),
      layout_(std::move(calls)),
      output_types_(std::move(output_types)),
      state_(NewState()) {}

std::unique_ptr<OverAggregateOperator::State> OverAggregateOperator::NewState() const {
  auto fresh = std::make_unique<State>();
  State& s = *fresh;
  const auto& cs = layout_.calls();
  size_t align = 8;
  for (size_t a = 0; a < cs.size(); ++a) {
    align = std::max<size_t>(align, cs[a].function->state_align);
    s.offsets.push_back(layout_.offset(a));
  }
  SLUICE_CHECK_LE(align, alignof(std::max_align_t));
  s.stride = std::max<size_t>((layout_.state_bytes() + align - 1) / align * align, align);
  const bool bounded = preceding_ >= 0;
  std::vector<bool> needed(input_types_.size(), false);
  s.distinct_of.assign(cs.size(), -1);
  for (size_t a = 0; a < cs.size(); ++a) {
    const AccumulatorCall& c = cs[a];
    if (c.distinct) {
      DistinctStore ds;
      ds.call = a;
      if (c.args.size() == 1) {
        const LogicalType& t = input_types_[static_cast<size_t>(c.args[0])];
        switch (t.id()) {
          case TypeId::kBoolean:
          case TypeId::kTinyInt:
          case TypeId::kSmallInt:
          case TypeId::kInteger:
          case TypeId::kDate:
          case TypeId::kTime:
          case TypeId::kIntervalYearMonth:
          case TypeId::kBigInt:
          case TypeId::kTimestamp:
          case TypeId::kTimestampLtz:
          case TypeId::kIntervalDayTime:
            ds.column = c.args[0];
            ds.width = t.PhysicalWidth();
            break;
          default: break;
        }
      }
      if (ds.width == 0) {
        for (int col : c.args) needed[static_cast<size_t>(col)] = true;
      }
      if (c.filter < 0 && s.part_from_distinct < 0) s.part_from_distinct = static_cast<int>(s.distinct.size());
      s.distinct_of[a] = static_cast<int>(s.distinct.size());
      s.distinct.push_back(std::move(ds));
    } else {
      for (int col : c.args) needed[static_cast<size_t>(col)] = true;
      if (c.filter >= 0) needed[static_cast<size_t>(c.filter)] = true;
    }
  }
  if (bounded) {
    for (size_t c = 0; c < needed.size(); ++c) {
      if (needed[c]) s.val_columns.push_back(static_cast<int>(c));
    }
  }
  for (const LogicalType& t : input_types_) s.scratch.emplace_back(t, 1);
  s.agg_types.assign(output_types_.begin() + static_cast<std::ptrdiff_t>(input_types_.size()), output_types_.end());
  for (const LogicalType& t : input_types_) s.rows_vals.emplace_back(t);
  return fresh;
}

OverAggregateOperator::~OverAggregateOperator() { DestroyAccumulators(*state_); }

void OverAggregateOperator::DropState() {
  DestroyAccumulators(*state_);
  state_ = NewState();
}

void OverAggregateOperator::DestroyAccumulators(State& s) const {
  const auto& cs = layout_.calls();
  for (size_t id = 0; id < s.parts.size(); ++id) {
    if (!s.parts[static_cast<uint32_t>(id)].live) continue;
    uint8_t* st = s.States(static_cast<uint32_t>(id));
    for (size_t a = 0; a < cs.size(); ++a) {
      if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
    }
  }
}

size_t OverAggregateOperator::state_rows() const { return state_->pending_rows + state_->frame_rows; }

size_t OverAggregateOperator::state_bytes() const {
  const State& s = *state_;
  size_t b = s.parts.bytes() + s.part_index.bytes() + s.key_heap_bytes +
             s.state_pages.size() * Pool<Partition>::kPage * s.stride;
  for (const DistinctStore& ds : s.distinct) b += ds.entries.bytes() + ds.keys.bytes() + ds.index.bytes() + ds.key_heap_bytes;
  for (const FrameBlock& f : s.frame) {
    b += (f.dt.capacity() + f.part.capacity() + f.dref.capacity()) * sizeof(uint32_t) + VectorsBytes(f.vals);
  }
  for (const PendingBlock& p : s.pend) b += VectorsBytes(p.cols);
  b += s.ooo.capacity() * sizeof(s.ooo[0]) + s.ooo_pos.size() * sizeof(uint64_t);
  if (rows_frame_) {
    b += VectorsBytes(s.rows_vals) + s.rows_dref.capacity() * sizeof(uint32_t) + s.rows_frames.capacity() * sizeof(RowsFrame);
    for (const RowsFrame& f : s.rows_frames) b += f.ids.capacity() * sizeof(uint32_t);
  }
  return b;
}

void OverAggregateOperator::MeasureState() {
  State& s = *state_;
  const size_t b = state_bytes();
  if (b > s.peak_bytes) {
    s.peak_bytes = b;
    metrics_.peak_state_bytes = static_cast<int64_t>(b);
    metrics_.state_rows_at_peak = static_cast<int64_t>(s.frame_rows);
  }
}

size_t OverAggregateOperator::StateBytes() const { return state_bytes(); }

Status OverAggregateOperator::Process(int, Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("OverAggregate '" + name() + "' received an update; OVER aggregation needs an insert-only input");
  }
  if (!rowtime_) {
    // Processing time: every row of the chunk is processed now, one at a time.
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    const int64_t now = std::max(clock ? clock->NowMicros() : 0, s.last_proc_time);
    s.last_proc_time = now;
    std::vector<int64_t> times(n, now);
    RETURN_IF_ERROR(ProcessBatch(chunk, times, false));
    MeasureState();
    return Status::OK();
  }
  const Vector& time = chunk.column(static_cast<size_t>(order_column_));
  const int64_t watermark = current_watermark();
  const bool per_partition_lateness = rows_frame_ && preceding_ >= 0;
  if (per_partition_lateness) EncodeKeys(chunk, partition_keys_, &s.encoded);
  for (size_t i = 0; time.MayHaveNulls() && i < n; ++i) {
    if (time.IsNull(i)) {
      return Status::InvalidArgument("OverAggregate '" + name() + "': the event-time attribute of a row is NULL");
    }
  }
  std::vector<uint32_t> accepted;
  accepted.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = time.data<int64_t>()[i];
    bool late = t <= watermark;
    if (per_partition_lateness) {
      const std::string& key = s.encoded[i];
      const uint64_t h = XXH3_64bits(key.data(), key.size());
      const uint32_t slot = s.part_index.Find(h, [&](uint32_t id) { return s.parts[id].hash == h && s.parts[id].key == key; });
      late = slot != kNone && t <= s.parts[slot].last_time;
    }
    if (late) {
      ReportLate(chunk, i, t);
      continue;
    }
    const uint64_t pos = s.pend_end + accepted.size();
    if (t >= s.in_max) {
      s.in_max = t;
    } else {
      s.ooo.push_back({t, pos});
      std::push_heap(s.ooo.begin(), s.ooo.end(), std::greater<>());
      s.ooo_pos.push_back(pos);
    }
    accepted.push_back(static_cast<uint32_t>(i));
  }
  // Append the accepted rows to the pending blocks, columnar.
  size_t done = 0;
  while (done < accepted.size()) {
    if (s.pend.empty() || s.pend.back().size == kBlock) {
      PendingBlock& b = s.pend.emplace_back();
      for (const LogicalType& t : input_types_) {
        b.cols.emplace_back(t);
        b.cols.back().Reserve(kBlock);
      }
    }
    PendingBlock& b = s.pend.back();
    const size_t take = std::min(kBlock - b.size, accepted.size() - done);
    for (size_t c = 0; c < b.cols.size(); ++c) b.cols[c].AppendFrom(chunk.column(c), accepted.data() + done, 0, take, true);
    b.size += take;
    done += take;
  }
  s.pend_end += accepted.size();
  s.pending_rows += accepted.size();
  return Status::OK();
}

Status OverAggregateOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  auto time_at = [&](uint64_t pos) {
    const uint64_t rel = pos - s.pend_first;
    const PendingBlock& b = s.pend[rel / kBlock];
    return b.cols[static_cast<size_t>(order_column_)].data<int64_t>()[rel % kBlock];
  };
  std::vector<uint64_t> positions;
  std::vector<int64_t> times;
  for (;;) {
    positions.clear();
    times.clear();
    // Take rows in (time, arrival) order up to the watermark; a batch ends on a time boundary.
    for (;;) {
      while (!s.ooo_pos.empty() && s.ooo_pos.front() == s.in_next) {
        s.ooo_pos.pop_front();
        ++s.in_next;
      }
      bool have = false, from_heap = false;
      int64_t t = 0;
      uint64_t pos = 0;
      if (s.in_next < s.pend_end) {
        have = true;
        pos = s.in_next;
        t = time_at(pos);
      }
      if (!s.ooo.empty() && (!have || s.ooo.front() < std::make_pair(t, pos))) {
        have = true;
        from_heap = true;
        t = s.ooo.front().first;
        pos = s.ooo.front().second;
      }
      if (!have || t > watermark) break;
      if (positions.size() >= chunk_size && t != times.back()) break;
      if (from_heap) {
        std::pop_heap(s.ooo.begin(), s.ooo.end(), std::greater<>());
        s.ooo.pop_back();
      } else {
        ++s.in_next;
      }
      positions.push_back(pos);
      times.push_back(t);
    }
    if (positions.empty()) break;
    // Gather the batch: runs of positions within one block at a time.
    Chunk batch(input_types_);
    std::vector<uint32_t> sel;
    for (size_t i = 0; i < positions.size();) {
      const size_t blk = (positions[i] - s.pend_first) / kBlock;
      sel.clear();
      size_t j = i;
      while (j < positions.size() && (positions[j] - s.pend_first) / kBlock == blk) {
        sel.push_back(static_cast<uint32_t>((positions[j] - s.pend_first) % kBlock));
        ++j;
      }
      PendingBlock& b = s.pend[blk];
      for (size_t c = 0; c < input_types_.size(); ++c) batch.column(c).AppendFrom(b.cols[c], sel.data(), 0, sel.size());
      b.done += sel.size();
      i = j;
    }
    batch.kind_vector().assign(positions.size(), RowKind::kInsert);
    s.pending_rows -= positions.size();
    while (!s.pend.empty() && s.pend.front().done == kBlock) {
      s.pend.pop_front();
      s.pend_first += kBlock;
    }
    RETURN_IF_ERROR(ProcessBatch(batch, times, true));
  }
  MeasureState();
  return EmitWatermark(watermark);
}

// One ProcessBatch call: the batch, the aggregates computed for its rows so far, and the steps that
// update the state (accumulate, retract, frames, partitions).
struct OverAggregateOperator::BatchRun {
  BatchRun(const OverAggregateOperator& op, State& state, const Chunk& in)
      : s(state),
        cs(op.layout_.calls()),
        input_types(op.input_types_),
        batch(in),
        nd(state.distinct.size()),
        rows_frame(op.rows_frame_),
        preceding(op.preceding_),
        bounded(op.preceding_ >= 0),
        range_bounded(bounded && !op.rows_frame_),
        aggs(state.agg_types, in.size()) {}

  // Processes the batch's rows in order: rows with equal `times` together or one at a time.
  void Run(const std::vector<int64_t>& times, bool ties_together);
  // Processes rows `rows` (batch row numbers, arrival order) of partition `slot` at time t.
  void Process(uint32_t slot, int64_t t, const uint32_t* rows, size_t count);
  // Processes batch rows [i, j), all of time t: per partition in first-appearance order, each with
  // its rows in arrival order (counting sort).
  void ProcessTies(size_t i, size_t j, int64_t t);
  // Accumulates row r of the batch into partition `slot`, writing its DISTINCT counter ids to dref.
  void Accumulate(uint32_t slot, uint8_t* st, size_t r, uint32_t* dref);
  // Counts row r's value of DISTINCT call `c` (store `ds`) in partition `slot`; returns the counter id
  // and whether the value is new to the partition (then the call's accumulator takes it).
  std::pair<uint32_t, bool> CountDistinct(DistinctStore& ds, const AccumulatorCall& c, uint32_t slot, size_t r);
  // Retracts stored row `r` of `vals` (with DISTINCT counter ids `dref`) from partition `slot`.
  void Retract(uint8_t* st, const std::vector<Vector>& vals, size_t r, const uint32_t* dref);
  void FreePartition(uint32_t slot);
  uint32_t FindOrCreate(std::string& key);
  // Retracts and frees every RANGE frame row with time below `lower`.
  void Expire(int64_t lower);
  void AppendFrame(int64_t t, uint32_t slot, size_t r);
  // ROWS frames: stores row r (the retracted columns and DISTINCT ids) and returns its id.
  uint32_t StoreRow(size_t r);
  // Renumbers the stored ROWS rows still in a frame, dropping the released ones.
  void CompactRows();
  void Emit(uint8_t* st, size_t r);

  void SetArgs(const AccumulatorCall& c, const std::vector<Vector>& cols) {
    const size_t m = std::min<size_t>(c.args.size(), 8);
    for (size_t i = 0; i < m; ++i) args[i] = &cols[static_cast<size_t>(c.args[i])];
  }
  static bool Passes(const Vector& f, size_t row) { return !f.IsNull(row) && f.data<uint8_t>()[row] != 0; }

  State& s;
  const std::vector<AccumulatorCall>& cs;
  const std::vector<LogicalType>& input_types;
  const Chunk& batch;
  const size_t nd;
  const bool rows_frame;
  const int64_t preceding;
  const bool bounded;
  const bool range_bounded;
  Chunk aggs;
  size_t k = 0;
  const Vector* args[8];
};

void OverAggregateOperator::BatchRun::Accumulate(uint32_t slot, uint8_t* st, size_t r, uint32_t* dref) {
  for (size_t a = 0; a < cs.size(); ++a) {
    const AccumulatorCall& c = cs[a];
    const int d = s.distinct_of[a];
    if (c.filter >= 0 && !Passes(batch.column(static_cast<size_t>(c.filter)), r)) {
      if (d >= 0) dref[d] = kNone;
      continue;
    }
    if (d >= 0) {
      const auto [id, fresh] = CountDistinct(s.distinct[static_cast<size_t>(d)], c, slot, r);
      dref[d] = id;
      if (!fresh) continue;
    }
    SetArgs(c, batch.columns());
    c.function->update(st + s.offsets[a], args, r, false);
  }
}

std::pair<uint32_t, bool> OverAggregateOperator::BatchRun::CountDistinct(DistinctStore& ds, const AccumulatorCall& c,
                                                                          uint32_t slot, size_t r) {
  DistinctEntry probe;
  probe.part = slot;
  std::string key;
  uint64_t h;
  if (ds.width) {
    const Vector& v = batch.column(static_cast<size_t>(ds.column));
    if (v.IsNull(r)) {
      probe.part |= kNullBit;
    } else {
      switch (ds.width) {
        case 1: probe.value = v.data<int8_t>()[r]; break;
        case 2: probe.value = v.data<int16_t>()[r]; break;
        case 4: probe.value = v.data<int32_t>()[r]; break;
        default: probe.value = v.data<int64_t>()[r]; break;
      }
    }
    h = Mix(Mix(static_cast<uint64_t>(probe.value)) ^ (static_cast<uint64_t>(probe.part) * 0x9E3779B97F4A7C15ULL));
  } else {
    for (int col : c.args) EncodeKeyValue(batch.column(static_cast<size_t>(col)), r, &key);
    h = Mix(XXH3_64bits(key.data(), key.size()) ^ (static_cast<uint64_t>(probe.part) * 0x9E3779B97F4A7C15ULL));
  }
  const uint32_t found = ds.index.Find(h, [&](uint32_t id) {
    const DistinctEntry& e = ds.entries[id];
    if (e.part != probe.part) return false;
    return ds.width ? e.value == probe.value : ds.keys[static_cast<uint32_t>(e.value)] == key;
  });
  if (found != kNone) {
    ++ds.entries[found].count;
    ds.entry_dirty.Mark(found);
    return {found, false};
  }
  const uint32_t id = ds.entries.Allocate();
  ds.entry_dirty.Mark(id);
  DistinctEntry& e = ds.entries[id];
  e = probe;
  e.count = 1;
  if (!ds.width) {
    const uint32_t kid = ds.keys.Allocate();
    ds.key_dirty.Mark(kid);
    ds.keys[kid] = std::move(key);
    if (ds.keys[kid].capacity() > 15) ds.key_heap_bytes += ds.keys[kid].capacity();
    e.value = kid;
  }
  ds.index.Insert(h, id, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
  return {id, true};
}

void OverAggregateOperator::BatchRun::Retract(uint8_t* st, const std::vector<Vector>& vals, size_t r,
                                               const uint32_t* dref) {
  for (size_t a = 0; a < cs.size(); ++a) {
    const AccumulatorCall& c = cs[a];
    const int d = s.distinct_of[a];
    if (d >= 0) {
      const uint32_t id = dref[d];
      if (id == kNone) continue;
      DistinctStore& ds = s.distinct[static_cast<size_t>(d)];
      DistinctEntry& e = ds.entries[id];
      ds.entry_dirty.Mark(id);
      if (--e.count > 0) continue;
      // The value's last row leaves the frame.
      ds.index.Erase(s.DistinctHash(ds, e), id, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
      if (ds.width) {
        Vector& v = s.scratch[static_cast<size_t>(ds.column)];
        v.SetNull(0, (e.part & kNullBit) != 0);
        switch (ds.width) {
          case 1: v.data<int8_t>()[0] = static_cast<int8_t>(e.value); break;
          case 2: v.data<int16_t>()[0] = static_cast<int16_t>(e.value); break;
          case 4: v.data<int32_t>()[0] = static_cast<int32_t>(e.value); break;
          default: v.data<int64_t>()[0] = e.value; break;
        }
        SetArgs(c, s.scratch);
        c.function->update(st + s.offsets[a], args, 0, true);
      } else {
        const uint32_t kid = static_cast<uint32_t>(e.value);
        if (ds.keys[kid].capacity() > 15) ds.key_heap_bytes -= ds.keys[kid].capacity();
        std::string().swap(ds.keys[kid]);
        ds.keys.Free(kid);
        ds.key_dirty.Mark(kid);
        SetArgs(c, vals);
        c.function->update(st + s.offsets[a], args, r, true);
      }
      ds.entries.Free(id);
      continue;
    }
    if (c.filter >= 0 && !Passes(vals[static_cast<size_t>(c.filter)], r)) continue;
    SetArgs(c, vals);
    c.function->update(st + s.offsets[a], args, r, true);
  }
}

void OverAggregateOperator::BatchRun::FreePartition(uint32_t slot) {
  Partition& p = s.parts[slot];
  uint8_t* st = s.States(slot);
  for (size_t a = 0; a < cs.size(); ++a) {
    if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
  }
  s.part_index.Erase(p.hash, slot, [&](uint32_t x) { return s.parts[x].hash; });
  if (p.key.capacity() > 15) s.key_heap_bytes -= p.key.capacity();
  std::string().swap(p.key);
  p.live = false;
  s.parts.Free(slot);
  s.part_dirty.Mark(slot);
}

uint32_t OverAggregateOperator::BatchRun::FindOrCreate(std::string& key) {
  const uint64_t h = XXH3_64bits(key.data(), key.size());
  uint32_t slot = s.part_index.Find(h, [&](uint32_t id) { return s.parts[id].hash == h && s.parts[id].key == key; });
  if (slot != kNone) return slot;
  slot = s.parts.Allocate();
  s.part_dirty.Mark(slot);
  s.GrowStatePages(slot + 1);
  Partition& p = s.parts[slot];
  p.key = std::move(key);
  if (p.key.capacity() > 15) s.key_heap_bytes += p.key.capacity();
  p.hash = h;
  p.last_time = kNever;
  p.rows = 0;
  p.mark = kNone;
  p.live = true;
  uint8_t* st = s.States(slot);
  std::memset(st, 0, s.stride);  // a reused slot: no padding bytes of the freed partition's states
  for (size_t a = 0; a < cs.size(); ++a) cs[a].function->init(st + s.offsets[a]);
  s.part_index.Insert(h, slot, [&](uint32_t x) { return s.parts[x].hash; });
  if (rows_frame && bounded && s.rows_frames.size() <= slot) s.rows_frames.resize(slot + 1);
  return slot;
}

void OverAggregateOperator::BatchRun::Expire(int64_t lower) {
  while (!s.frame.empty()) {
    FrameBlock& b = s.frame.front();
    if (s.frame_head == b.size) {
      s.frame.pop_front();
      ++s.frame_popped;
      s.frame_head = 0;
      continue;
    }
    const size_t i = s.frame_head;
    if (b.base + static_cast<int64_t>(b.dt[i]) >= lower) break;
    const uint32_t* dref = b.dref.data() + i * nd;
    const uint32_t slot = s.part_from_distinct >= 0
                              ? s.distinct[static_cast<size_t>(s.part_from_distinct)].entries[dref[s.part_from_distinct]].part & ~kNullBit
                              : b.part[i];
    Retract(s.States(slot), b.vals, i, dref);
    s.part_dirty.Mark(slot);
    ++s.frame_head;
    --s.frame_rows;
    if (--s.parts[slot].rows == 0) FreePartition(slot);
  }
}

void OverAggregateOperator::BatchRun::AppendFrame(int64_t t, uint32_t slot, size_t r) {
  if (s.frame.empty() || s.frame.back().size == kBlock || t - s.frame.back().base > int64_t{0xFFFFFFFF}) {
    FrameBlock& b = s.frame.emplace_back();
    b.base = t;
    b.dt.reserve(kBlock);
    if (s.part_from_distinct < 0) b.part.reserve(kBlock);
    b.dref.reserve(kBlock * nd);
    b.vals.resize(input_types.size());
    for (int c : s.val_columns) {
      b.vals[static_cast<size_t>(c)] = Vector(input_types[static_cast<size_t>(c)]);
      b.vals[static_cast<size_t>(c)].Reserve(kBlock);
    }
  }
  FrameBlock& b = s.frame.back();
  b.dt.push_back(static_cast<uint32_t>(t - b.base));
  if (s.part_from_distinct < 0) b.part.push_back(slot);
  b.dref.insert(b.dref.end(), s.dbuf.begin(), s.dbuf.end());
  for (int c : s.val_columns) b.vals[static_cast<size_t>(c)].AppendFrom(batch.column(static_cast<size_t>(c)), nullptr, r, 1, true);
  ++b.size;
  ++s.frame_rows;
}

void OverAggregateOperator::BatchRun::CompactRows() {
  std::vector<Vector> fresh;
  for (const LogicalType& t : input_types) fresh.emplace_back(t);
  std::vector<uint32_t> fresh_dref;
  uint32_t next = 0;
  for (RowsFrame& f : s.rows_frames) {
    for (size_t i = f.head; i < f.ids.size(); ++i) {
      for (int c : s.val_columns) {
        fresh[static_cast<size_t>(c)].AppendFrom(s.rows_vals[static_cast<size_t>(c)], nullptr, f.ids[i], 1, true);
      }
      fresh_dref.insert(fresh_dref.end(), s.rows_dref.begin() + static_cast<std::ptrdiff_t>(f.ids[i] * nd),
                        s.rows_dref.begin() + static_cast<std::ptrdiff_t>((f.ids[i] + 1) * nd));
      f.ids[i] = next++;
    }
  }
  s.rows_vals = std::move(fresh);
  s.rows_dref = std::move(fresh_dref);
  s.rows_size = next;
  s.rows_released = 0;
  s.rows_compacted = true;
}

uint32_t OverAggregateOperator::BatchRun::StoreRow(size_t r) {
  if (s.rows_size >= (1u << 14) && s.rows_released * 2 > s.rows_size) CompactRows();
  for (int c : s.val_columns) s.rows_vals[static_cast<size_t>(c)].AppendFrom(batch.column(static_cast<size_t>(c)), nullptr, r, 1, true);
  s.rows_dref.insert(s.rows_dref.end(), s.dbuf.begin(), s.dbuf.end());
  ++s.frame_rows;
  return static_cast<uint32_t>(s.rows_size++);
}

void OverAggregateOperator::BatchRun::Emit(uint8_t* st, size_t r) {
  for (size_t a = 0; a < cs.size(); ++a) {
    Vector& v = aggs.column(a);
    v.SetNull(k, false);
    cs[a].function->finalize(st + s.offsets[a], &v, k);
  }
  s.out_sel.push_back(static_cast<uint32_t>(r));
  ++k;
}

void OverAggregateOperator::BatchRun::Process(uint32_t slot, int64_t t, const uint32_t* rows, size_t count) {
  Partition& p = s.parts[slot];
  s.part_dirty.Mark(slot);
  uint8_t* st = s.States(slot);
  if (rows_frame) {
    for (size_t i = 0; i < count; ++i) {
      Accumulate(slot, st, rows[i], s.dbuf.data());
      if (bounded) {
        RowsFrame& f = s.rows_frames[slot];
        f.ids.push_back(StoreRow(rows[i]));
        while (static_cast<int64_t>(f.size()) > preceding + 1) {
          const uint32_t old = f.ids[f.head];
          Retract(st, s.rows_vals, old, s.rows_dref.data() + static_cast<size_t>(old) * nd);
          ++s.rows_released;
          --s.frame_rows;
          f.pop_front();
        }
      }
      Emit(st, rows[i]);
    }
  } else {
    for (size_t i = 0; i < count; ++i) {
      Accumulate(slot, st, rows[i], s.dbuf.data());
      if (range_bounded) {
        AppendFrame(t, slot, rows[i]);
        ++p.rows;
      }
    }
    for (size_t i = 0; i < count; ++i) Emit(st, rows[i]);
  }
  p.last_time = t;
}

void OverAggregateOperator::BatchRun::ProcessTies(size_t i, size_t j, int64_t t) {
  s.order.clear();
  for (size_t r = i; r < j; ++r) {
    Partition& p = s.parts[s.slots[r]];
    if (p.mark == kNone) {
      p.mark = static_cast<uint32_t>(s.order.size());
      s.order.push_back(s.slots[r]);
    }
  }
  s.counts.assign(s.order.size() + 1, 0);
  for (size_t r = i; r < j; ++r) ++s.counts[s.parts[s.slots[r]].mark + 1];
  for (size_t m = 1; m < s.counts.size(); ++m) s.counts[m] += s.counts[m - 1];
  s.group.resize(j - i);
  for (size_t r = i; r < j; ++r) s.group[s.counts[s.parts[s.slots[r]].mark]++] = static_cast<uint32_t>(r);
  for (uint32_t slot : s.order) s.parts[slot].mark = kNone;
  for (size_t g = 0; g < s.group.size();) {
    size_t h = g + 1;
    while (h < s.group.size() && s.slots[s.group[h]] == s.slots[s.group[g]]) ++h;
    Process(s.slots[s.group[g]], t, s.group.data() + g, h - g);
    g = h;
  }
}

void OverAggregateOperator::BatchRun::Run(const std::vector<int64_t>& times, bool ties_together) {
  const size_t n = batch.size();
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    if (ties_together) {
      while (j < n && times[j] == times[i]) ++j;
    }
    const int64_t t = times[i];
    if (range_bounded) Expire(t - preceding * 1000);
    for (size_t r = i; r < j; ++r) s.slots[r] = FindOrCreate(s.encoded[r]);
    if (j - i == 1) {
      const uint32_t r = static_cast<uint32_t>(i);
      Process(s.slots[i], t, &r, 1);
    } else {
      ProcessTies(i, j, t);
    }
    i = j;
  }
}

Status OverAggregateOperator::ProcessBatch(const Chunk& batch, const std::vector<int64_t>& times, bool ties_together) {
  State& s = *state_;
  const size_t n = batch.size();
  EncodeKeys(batch, partition_keys_, &s.encoded);
  s.slots.resize(n);
  s.out_sel.clear();
  s.dbuf.resize(s.distinct.size());
  BatchRun run(*this, s, batch);
  run.Run(times, ties_together);

  const size_t ni = input_types_.size();
  Chunk out(output_types_);
  for (size_t c = 0; c < ni; ++c) out.column(c).AppendFrom(batch.column(c), s.out_sel.data(), 0, n);
  for (size_t a = 0; a < run.aggs.num_columns(); ++a) out.column(ni + a) = std::move(run.aggs.column(a));
  out.kind_vector().assign(n, RowKind::kInsert);
  return Emit(out);
}

}  // namespace sluice
