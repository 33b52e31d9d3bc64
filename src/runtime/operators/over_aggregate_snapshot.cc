// Full checkpoints of OverAggregateOperator (over_aggregate_operator.h): snapshots and restores.
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
#include "runtime/operators/over_aggregate_serde.h"
#include "runtime/operators/over_aggregate_state.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

using namespace over_aggregate_internal;  // NOLINT: the operator's own state types

void OverAggregateOperator::PutPendingHead(StateWriter* w, const State& s) {
  w->PutU64(s.pend_first);
  w->PutU64(s.pend_end);
  w->PutU64(s.in_next);
  w->PutI64(s.in_max);
  w->PutVarint(s.ooo.size());
  for (const auto& [t, pos] : s.ooo) {
    w->PutI64(t);
    w->PutU64(pos);
  }
}

void OverAggregateOperator::GetPendingHead(StateReader* r, State* s) {
  s->pend_first = r->GetU64();
  s->pend_end = r->GetU64();
  s->in_next = r->GetU64();
  s->in_max = r->GetI64();
  const size_t nheap = r->GetCount(16);
  s->ooo.clear();
  for (size_t i = 0; i < nheap && r->ok(); ++i) {
    const int64_t t = r->GetI64();
    s->ooo.emplace_back(t, r->GetU64());
  }
}

Status OverAggregateOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  w->PutTag("over-aggregate");
  w->PutVarint(cs.size());
  w->PutVarint(nd);
  w->PutI64(s.last_proc_time);
  w->PutU64(s.peak_bytes);
  w->PutI64(metrics_.peak_state_bytes);
  w->PutI64(metrics_.state_rows_at_peak);
  // Partitions: key, last processed time, frame rows, accumulator states.
  PutPoolIds(w, s.parts);
  w->PutVarint(s.part_index.capacity());
  for (size_t id = 0; id < s.parts.size(); ++id) {
    const Partition& p = s.parts[static_cast<uint32_t>(id)];
    if (p.live) PutPartition(w, p, s.States(static_cast<uint32_t>(id)), cs, s.offsets);
  }
  // DISTINCT counters and their encoded values.
  for (const DistinctStore& ds : s.distinct) {
    PutPoolIds(w, ds.keys);
    const std::vector<uint8_t> klive = LiveIds(ds.keys);
    for (size_t k = 0; k < klive.size(); ++k) {
      if (klive[k]) w->PutString(ds.keys[static_cast<uint32_t>(k)]);
    }
    PutPoolIds(w, ds.entries);
    w->PutVarint(ds.index.capacity());
    const std::vector<uint8_t> elive = LiveIds(ds.entries);
    for (size_t id = 0; id < elive.size(); ++id) {
      if (!elive[id]) continue;
      const DistinctEntry& e = ds.entries[static_cast<uint32_t>(id)];
      w->PutI64(e.value);
      w->PutU32(e.part);
      w->PutVarint(e.count);
    }
  }
  const bool bounded = preceding_ >= 0;
  if (bounded && !rows_frame_) {
    w->PutVarint(s.frame_head);
    w->PutVarint(s.frame.size());
    for (const FrameBlock& b : s.frame) {
      w->PutI64(b.base);
      w->PutVarint(b.size);
      PutFrameRows(w, b, 0, s.part_from_distinct < 0, nd, s.val_columns);
    }
  }
  if (bounded && rows_frame_) {
    w->PutVarint(s.rows_size);
    w->PutVarint(s.rows_released);
    for (int c : s.val_columns) w->PutVector(s.rows_vals[static_cast<size_t>(c)]);
    PutPods(w, s.rows_dref.data(), s.rows_size * nd);
    w->PutVarint(s.rows_frames.size());
    for (const RowsFrame& f : s.rows_frames) {
      w->PutVarint(f.size());
      PutPods(w, f.ids.data() + f.head, f.size());
    }
  }
  if (rowtime_) {
    PutPendingHead(w, s);
    s.ooo_pos.Put(w);
    w->PutVarint(s.pend.size());
    for (const PendingBlock& b : s.pend) PutPendingRows(w, b, 0);
  }
  ResetDeltaBase(s);
  return Status::OK();
}


// RestoreState's steps: reads a full snapshot into a fresh state `s`, checking every count, id and
// cross-reference. A step that finds the state corrupt fails the reader and returns.
struct OverAggregateOperator::StateReadback {
  StateReadback(const OverAggregateOperator& o, StateReader* reader, State& state)
      : op(o),
        r(reader),
        s(state),
        cs(o.layout_.calls()),
        nd(state.distinct.size()),
        bounded(o.preceding_ >= 0) {}

  void Run();
  void ReadHeader();
  void ReadPartitions();
  // DISTINCT store d: its encoded values and its counters.
  void ReadDistinct(size_t d);
  // Checks the DISTINCT counter ids of one frame row of partition `slot` (kNone: the slot is taken
  // from the counter of call part_from_distinct) and counts the references; returns the slot.
  uint32_t Reference(const uint32_t* dref, uint32_t slot);
  void ReadRangeFrame();
  void ReadRowsFrames();
  void CheckDistinctCounts();
  // Rows waiting for the watermark: the blocks, then CheckPendingOrder.
  void ReadPending();
  // The out-of-order heap and positions against the pending rows, and the rows not yet taken.
  void CheckPendingOrder();
  bool LivePartition(uint64_t slot) const { return slot < s.parts.size() && s.parts[static_cast<uint32_t>(slot)].live; }

  const OverAggregateOperator& op;
  StateReader* r;
  State& s;
  const std::vector<AccumulatorCall>& cs;
  const size_t nd;
  const bool bounded;
  int64_t peak_state_bytes = 0;
  int64_t state_rows_at_peak = 0;
  std::vector<uint8_t> plive;               // live partition ids
  std::vector<std::vector<uint8_t>> elives;  // per DISTINCT store: live counter ids
  // References from frame rows: partition rows and DISTINCT counts, checked against the stored ones.
  std::vector<uint64_t> part_rows;
  std::vector<std::vector<uint32_t>> refs;
};

void OverAggregateOperator::StateReadback::Run() {
  ReadHeader();
  if (!r->ok()) return;
  ReadPartitions();
  if (!r->ok()) return;
  elives.resize(nd);
  for (size_t d = 0; d < nd && r->ok(); ++d) ReadDistinct(d);
  if (!r->ok()) return;
  part_rows.assign(s.parts.size(), 0);
  refs.resize(nd);
  for (size_t d = 0; d < nd; ++d) refs[d].assign(s.distinct[d].entries.size(), 0);
  if (bounded && !op.rows_frame_) ReadRangeFrame();
  if (bounded && op.rows_frame_ && r->ok()) ReadRowsFrames();
  if (!r->ok()) return;
  CheckDistinctCounts();
  if (!r->ok() || !op.rowtime_) return;
  ReadPending();
}

void OverAggregateOperator::StateReadback::ReadHeader() {
  r->ExpectTag("over-aggregate");
  const size_t ncalls = r->GetCount(0);
  const size_t ndistinct = r->GetCount(0);
  if (r->ok() && (ncalls != cs.size() || ndistinct != nd)) {
    r->Fail("state for " + std::to_string(ncalls) + " aggregate calls (" + std::to_string(ndistinct) +
            " DISTINCT), the operator has " + std::to_string(cs.size()) + " (" + std::to_string(nd) + ")");
  }
  s.last_proc_time = r->GetI64();
  s.peak_bytes = r->GetU64();
  peak_state_bytes = r->GetI64();
  state_rows_at_peak = r->GetI64();
}

void OverAggregateOperator::StateReadback::ReadPartitions() {
  plive = GetPoolIds(r, &s.parts, 10, "partition");
  const size_t pcap = r->GetCount(0);
  if (!r->ok()) return;
  if (!PlausibleCapacity(pcap, s.parts.size())) return r->Fail("partition index of " + std::to_string(pcap) + " slots");
  s.part_index.Reset(pcap);
  s.GrowStatePages(s.parts.size());
  for (size_t id = 0; id < plive.size() && r->ok(); ++id) {
    if (!plive[id]) continue;
    const uint32_t slot = static_cast<uint32_t>(id);
    Partition& p = s.parts[slot];
    GetPartition(r, &p, s.States(slot), cs, s.offsets);
    if (p.key.capacity() > 15) s.key_heap_bytes += p.key.capacity();
    const uint64_t h = p.hash;
    if (s.part_index.Find(h, [&](uint32_t x) { return s.parts[x].hash == h && s.parts[x].key == p.key; }) != kNone) {
      return r->Fail("partition key stored twice");
    }
    s.part_index.Insert(h, slot, [&](uint32_t x) { return s.parts[x].hash; });
  }
}

void OverAggregateOperator::StateReadback::ReadDistinct(size_t d) {
  DistinctStore& ds = s.distinct[d];
  const std::vector<uint8_t> klive = GetPoolIds(r, &ds.keys, 1, "DISTINCT value");
  for (size_t k = 0; k < klive.size() && r->ok(); ++k) {
    if (!klive[k]) continue;
    std::string& key = ds.keys[static_cast<uint32_t>(k)];
    key = r->GetString();
    if (key.capacity() > 15) ds.key_heap_bytes += key.capacity();
  }
  if (!r->ok()) return;
  if (ds.width != 0 && klive.size() != 0) return r->Fail("encoded DISTINCT values for an inline DISTINCT argument");
  elives[d] = GetPoolIds(r, &ds.entries, 13, "DISTINCT counter");
  const std::vector<uint8_t>& elive = elives[d];
  const size_t ecap = r->GetCount(0);
  if (!r->ok()) return;
  if (!PlausibleCapacity(ecap, ds.entries.size())) return r->Fail("DISTINCT index of " + std::to_string(ecap) + " slots");
  ds.index.Reset(ecap);
  std::vector<uint8_t> key_used(klive.size(), 0);
  for (size_t id = 0; id < elive.size() && r->ok(); ++id) {
    if (!elive[id]) continue;
    DistinctEntry& e = ds.entries[static_cast<uint32_t>(id)];
    e.value = r->GetI64();
    e.part = r->GetU32();
    const uint64_t count = r->GetVarint();
    if (!r->ok()) return;
    if (count == 0 || count > std::numeric_limits<uint32_t>::max()) return r->Fail("DISTINCT counter with count " + std::to_string(count));
    e.count = static_cast<uint32_t>(count);
    if (!LivePartition(e.part & ~kNullBit)) return r->Fail("DISTINCT counter of an unknown partition");
    if (ds.width == 0) {
      if (e.value < 0 || static_cast<uint64_t>(e.value) >= klive.size() || !klive[static_cast<size_t>(e.value)] ||
          key_used[static_cast<size_t>(e.value)]) {
        return r->Fail("DISTINCT counter names a missing or shared value");
      }
      key_used[static_cast<size_t>(e.value)] = 1;
    }
    const uint64_t h = s.DistinctHash(ds, e);
    const uint32_t self = static_cast<uint32_t>(id);
    const uint32_t dup = ds.index.Find(h, [&](uint32_t x) {
      const DistinctEntry& o = ds.entries[x];
      if (o.part != e.part) return false;
      return ds.width ? o.value == e.value
                      : ds.keys[static_cast<uint32_t>(o.value)] == ds.keys[static_cast<uint32_t>(e.value)];
    });
    if (dup != kNone) return r->Fail("DISTINCT counter stored twice");
    ds.index.Insert(h, self, [&](uint32_t x) { return s.DistinctHash(ds, ds.entries[x]); });
  }
  if (!r->ok()) return;
  for (size_t k = 0; k < klive.size(); ++k) {
    if (klive[k] && !key_used[k]) return r->Fail("DISTINCT value without a counter");
  }
}

uint32_t OverAggregateOperator::StateReadback::Reference(const uint32_t* dref, uint32_t slot) {
  if (slot == kNone) {
    const uint32_t id = dref[s.part_from_distinct];
    if (id >= s.distinct[static_cast<size_t>(s.part_from_distinct)].entries.size() ||
        !elives[static_cast<size_t>(s.part_from_distinct)][id]) {
      r->Fail("frame row without its partition's DISTINCT counter");
      return kNone;
    }
    slot = s.distinct[static_cast<size_t>(s.part_from_distinct)].entries[id].part & ~kNullBit;
  }
  if (!LivePartition(slot)) {
    r->Fail("frame row of an unknown partition");
    return kNone;
  }
  for (size_t d = 0; d < nd; ++d) {
    const uint32_t id = dref[d];
    if (id == kNone) continue;
    if (id >= refs[d].size() || !elives[d][id] || (s.distinct[d].entries[id].part & ~kNullBit) != slot) {
      r->Fail("frame row names a DISTINCT counter of another partition or none");
      return kNone;
    }
    ++refs[d][id];
  }
  return slot;
}

void OverAggregateOperator::StateReadback::ReadRangeFrame() {
  s.frame_head = r->GetCount(0);
  const size_t nblocks = r->GetCount(9);
  for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
    FrameBlock& b = s.frame.emplace_back();
    b.base = r->GetI64();
    const size_t size = r->GetCount(4);
    if (!r->ok()) return;
    if (size == 0 || size > kBlock) return r->Fail("frame block of " + std::to_string(size) + " rows");
    if (b.base > std::numeric_limits<int64_t>::max() - int64_t{0xFFFFFFFF}) return r->Fail("frame block time out of range");
    GetFrameRows(r, &b, size, s.part_from_distinct < 0, nd, s.val_columns, op.input_types_);
  }
  if (!r->ok()) return;
  if (s.frame.empty() ? s.frame_head != 0 : s.frame_head > s.frame.front().size) return r->Fail("frame head out of range");
  // Rows enter the frame in time order and leave it from the front (expire).
  int64_t prev_time = kNever;
  for (size_t bi = 0; bi < s.frame.size() && r->ok(); ++bi) {
    const FrameBlock& b = s.frame[bi];
    for (size_t i = bi == 0 ? s.frame_head : 0; i < b.size; ++i) {
      const int64_t t = b.base + static_cast<int64_t>(b.dt[i]);
      if (t < prev_time) return r->Fail("RANGE frame rows out of time order");
      prev_time = t;
      const uint32_t slot = Reference(b.dref.data() + i * nd, s.part_from_distinct < 0 ? b.part[i] : kNone);
      if (slot == kNone) return;
      ++part_rows[slot];
      ++s.frame_rows;
    }
  }
  for (size_t id = 0; id < plive.size(); ++id) {
    if (plive[id] && (part_rows[id] == 0 || part_rows[id] != s.parts[static_cast<uint32_t>(id)].rows)) {
      return r->Fail("partition row count does not match its frame");
    }
  }
}

void OverAggregateOperator::StateReadback::ReadRowsFrames() {
  s.rows_size = r->GetCount(0);
  s.rows_released = r->GetCount(0);
  if (!r->ok()) return;
  if (s.rows_size >= kNullBit || s.rows_released > s.rows_size) return r->Fail("stored ROWS frame rows out of range");
  for (int c : s.val_columns) {
    Vector& v = s.rows_vals[static_cast<size_t>(c)];
    r->GetVector(op.input_types_[static_cast<size_t>(c)], &v);
    if (r->ok() && v.size() != s.rows_size) return r->Fail("stored ROWS frame column of another length");
  }
  if (!r->ok()) return;
  if (nd > 0 && s.rows_size > r->remaining() / (nd * sizeof(uint32_t))) return r->Fail("stored ROWS frame rows exceed the state");
  GetPods(r, s.rows_size * nd, &s.rows_dref);
  const size_t nframes = r->GetCount(1);
  if (r->ok() && nframes != s.parts.size()) return r->Fail("ROWS frames for another number of partitions");
  s.rows_frames.resize(nframes);
  // Each stored row is in one frame at most (it is retracted once), a frame's oldest first.
  std::vector<uint8_t> in_frame(s.rows_size, 0);
  for (size_t f = 0; f < nframes && r->ok(); ++f) {
    GetPods(r, r->GetCount(4), &s.rows_frames[f].ids);
    if (!r->ok()) return;
    if (!s.rows_frames[f].ids.empty() && !plive[f]) return r->Fail("ROWS frame of a freed partition");
    if (static_cast<int64_t>(s.rows_frames[f].ids.size()) > op.preceding_ + 1) return r->Fail("ROWS frame larger than its bound");
    const std::vector<uint32_t>& ids = s.rows_frames[f].ids;
    for (size_t i = 0; i < ids.size(); ++i) {
      const uint32_t id = ids[i];
      if (id >= s.rows_size) return r->Fail("ROWS frame names a row out of range");
      if (in_frame[id] || (i > 0 && id <= ids[i - 1])) return r->Fail("ROWS frame rows out of order or in two frames");
      in_frame[id] = 1;
      if (Reference(s.rows_dref.data() + static_cast<size_t>(id) * nd, static_cast<uint32_t>(f)) == kNone) return;
      ++s.frame_rows;
    }
  }
  if (r->ok() && s.frame_rows != s.rows_size - s.rows_released) return r->Fail("stored ROWS frame rows do not match the frames");
}

void OverAggregateOperator::StateReadback::CheckDistinctCounts() {
  for (size_t d = 0; d < nd && bounded; ++d) {
    for (size_t id = 0; id < refs[d].size(); ++id) {
      if (elives[d][id] && refs[d][id] != s.distinct[d].entries[static_cast<uint32_t>(id)].count) {
        return r->Fail("DISTINCT count does not match the frame rows");
      }
    }
  }
}

void OverAggregateOperator::StateReadback::ReadPending() {
  GetPendingHead(r, &s);
  s.ooo_pos.Get(r);
  const size_t nblocks = r->GetCount(1);
  size_t total = 0;
  for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
    PendingBlock& b = s.pend.emplace_back();
    GetPendingRows(r, &b, op.input_types_);
    if (r->ok() && (b.size == 0 || (bi + 1 < nblocks && b.size != kBlock))) {
      return r->Fail("pending block of " + std::to_string(b.size) + " rows");
    }
    total += b.size;
  }
  if (!r->ok()) return;
  if (s.pend_end < s.pend_first || s.pend_end - s.pend_first != total || s.in_next > s.pend_end) {
    return r->Fail("pending row positions do not match the pending blocks");
  }
  CheckPendingOrder();
}

void OverAggregateOperator::StateReadback::CheckPendingOrder() {
  auto ooo_pos = [&](size_t i) { return *(s.ooo_pos.begin() + static_cast<std::ptrdiff_t>(i)); };
  for (size_t i = 0; i < s.ooo_pos.size(); ++i) {
    if (ooo_pos(i) < s.in_next || ooo_pos(i) >= s.pend_end || (i > 0 && ooo_pos(i) <= ooo_pos(i - 1))) {
      return r->Fail("out-of-order positions out of range or order");
    }
  }
  // Positions before the first pending block were taken; the next in-order one skips them.
  if (s.in_next < s.pend_first) {
    const uint64_t gap = s.pend_first - s.in_next;
    if (s.ooo_pos.size() < gap || ooo_pos(gap - 1) != s.pend_first - 1) return r->Fail("next in-order row was freed");
  }
  if (!std::is_heap(s.ooo.begin(), s.ooo.end(), std::greater<>())) return r->Fail("out-of-order rows not in heap order");
  std::vector<uint64_t> heap_pos;
  for (const auto& [t, pos] : s.ooo) heap_pos.push_back(pos);
  std::sort(heap_pos.begin(), heap_pos.end());
  for (size_t i = 0; i < heap_pos.size(); ++i) {
    const uint64_t pos = heap_pos[i];
    if (pos < s.pend_first || pos >= s.pend_end || (i > 0 && pos == heap_pos[i - 1]) ||
        (pos >= s.in_next && !std::binary_search(s.ooo_pos.begin(), s.ooo_pos.end(), pos))) {
      return r->Fail("out-of-order row position out of range, repeated or not out of order");
    }
  }
  // The time of the pending row at `pos` (in [pend_first, pend_end)).
  auto time_at = [&](uint64_t pos) {
    const uint64_t rel = pos - s.pend_first;
    const Vector& v = s.pend[rel / kBlock].cols[static_cast<size_t>(op.order_column_)];
    return v.IsNull(rel % kBlock) ? kNever : v.data<int64_t>()[rel % kBlock];
  };
  // Out-of-order rows: the heap holds their times, before the latest in-order time (OnWatermark
  // takes rows by those times, merging the heap into the in-order sequence).
  for (const auto& [t, pos] : s.ooo) {
    if (t != time_at(pos) || t >= s.in_max) return r->Fail("out-of-order row with another time or not out of order");
  }
  // Rows not yet taken: the heap's and the in-order ones from in_next on, those in time order up to
  // in_max.
  std::vector<size_t> untaken(s.pend.size(), 0);
  for (uint64_t pos : heap_pos) ++untaken[(pos - s.pend_first) / kBlock];
  size_t k = 0;
  int64_t prev_time = kNever;
  for (uint64_t pos = std::max(s.in_next, s.pend_first); pos < s.pend_end; ++pos) {
    while (k < s.ooo_pos.size() && ooo_pos(k) < pos) ++k;
    if (k < s.ooo_pos.size() && ooo_pos(k) == pos) continue;
    const int64_t t = time_at(pos);
    if (t == kNever || t < prev_time || t > s.in_max) return r->Fail("pending in-order rows out of time order");
    prev_time = t;
    ++untaken[(pos - s.pend_first) / kBlock];
  }
  for (size_t bi = 0; bi < s.pend.size(); ++bi) {
    s.pend[bi].done = s.pend[bi].size - untaken[bi];
    s.pending_rows += untaken[bi];
  }
}

Status OverAggregateOperator::RestoreState(StateReader* r) {
  std::unique_ptr<State> fresh = NewState();
  State& s = *fresh;
  StateReadback readback(*this, r, s);
  readback.Run();
  if (!r->ok()) {
    DestroyAccumulators(s);
    return r->status();
  }
  ResetDeltaBase(s);
  DestroyAccumulators(*state_);
  state_ = std::move(fresh);
  metrics_.peak_state_bytes = readback.peak_state_bytes;
  metrics_.state_rows_at_peak = readback.state_rows_at_peak;
  return Status::OK();
}

}  // namespace sluice
