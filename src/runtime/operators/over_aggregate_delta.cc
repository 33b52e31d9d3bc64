// Incremental checkpoints of OverAggregateOperator (over_aggregate_operator.h): deltas against the
// state at the last snapshot or restore.
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

void OverAggregateOperator::ResetDeltaBase(State& s) {
  s.part_dirty.Reset(s.parts.size());
  s.parts.MarkBase();
  for (DistinctStore& ds : s.distinct) {
    ds.entry_dirty.Reset(ds.entries.size());
    ds.entries.MarkBase();
    ds.key_dirty.Reset(ds.keys.size());
    ds.keys.MarkBase();
  }
  s.frame_base_blocks = s.frame.size();
  s.frame_base_back = s.frame.empty() ? 0 : s.frame.back().size;
  s.frame_popped = 0;
  s.rows_base = s.rows_size;
  s.rows_compacted = false;
  s.pend_base_first = s.pend_first;
  s.pend_base_blocks = s.pend.size();
  s.pend_base_back = s.pend.empty() ? 0 : s.pend.back().size;
}

std::vector<uint64_t> OverAggregateOperator::BaseSizes(const State& s, bool at_base) {
  std::vector<uint64_t> v;
  v.push_back(at_base ? s.part_dirty.base() : s.parts.size());
  for (const DistinctStore& ds : s.distinct) {
    v.push_back(at_base ? ds.key_dirty.base() : ds.keys.size());
    v.push_back(at_base ? ds.entry_dirty.base() : ds.entries.size());
  }
  v.push_back(at_base ? s.frame_base_blocks : s.frame.size());
  v.push_back(at_base ? s.frame_base_back : s.frame.empty() ? 0 : s.frame.back().size);
  v.push_back(at_base ? s.rows_base : s.rows_size);
  v.push_back(at_base ? s.pend_base_first : s.pend_first);
  v.push_back(at_base ? s.pend_base_blocks : s.pend.size());
  v.push_back(at_base ? s.pend_base_back : s.pend.empty() ? 0 : s.pend.back().size);
  return v;
}

bool OverAggregateOperator::CanSnapshotDelta() const {
  const State& s = *state_;
  if (!has_snapshot_base() || s.rows_compacted) return false;
  // Items (partitions, DISTINCT counters and values, rows) a delta would write against those a full
  // snapshot would: once nearly everything changed since the base (state that turns over within a
  // checkpoint interval), the delta is no smaller, so a full snapshot is written (a new base).
  size_t changed = s.part_dirty.dirty().size() + (s.parts.size() - s.part_dirty.base());
  size_t total = s.parts.live();
  for (const DistinctStore& ds : s.distinct) {
    changed += ds.entry_dirty.dirty().size() + (ds.entries.size() - ds.entry_dirty.base()) + ds.key_dirty.dirty().size() +
               (ds.keys.size() - ds.key_dirty.base());
    total += ds.entries.live() + ds.keys.live();
  }
  const size_t kept = s.frame_base_blocks - std::min(s.frame_popped, s.frame_base_blocks);
  if (kept > 0) changed += s.frame[kept - 1].size - s.frame_base_back;
  for (size_t bi = kept; bi < s.frame.size(); ++bi) changed += s.frame[bi].size;
  changed += s.rows_size - s.rows_base;
  total += s.frame_rows;
  const uint64_t pend_base_end =
      s.pend_base_first + (s.pend_base_blocks == 0 ? 0 : (s.pend_base_blocks - 1) * kBlock + s.pend_base_back);
  changed += s.pend_end - std::max(std::min(pend_base_end, s.pend_end), s.pend_first);
  total += s.pend_end - s.pend_first;
  return changed <= total;
}

Status OverAggregateOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(!s.rows_compacted);
  const auto& cs = layout_.calls();
  const size_t nd = s.distinct.size();
  const bool bounded = preceding_ >= 0;
  const bool rows_frames = bounded && rows_frame_;
  const bool with_part = s.part_from_distinct < 0;
  w->PutTag("over-aggregate-delta");
  // The base's sizes: a delta is refused on a state of other sizes (a delta of another chain).
  const std::vector<uint64_t> base = BaseSizes(s, true);
  PutPods(w, base.data(), base.size());
  w->PutI64(s.last_proc_time);
  w->PutU64(s.peak_bytes);
  w->PutI64(metrics_.peak_state_bytes);
  w->PutI64(metrics_.state_rows_at_peak);
  // Partitions written since the base: freed, or their key, times, states and ROWS frame.
  PutPoolDelta(w, s.parts);
  w->PutVarint(s.part_index.capacity());
  PutWritten(w, s.part_dirty, s.parts.size(), [&](uint32_t id) {
    const Partition& p = s.parts[id];
    w->PutBool(p.live);
    if (!p.live) return;
    PutPartition(w, p, s.States(id), cs, s.offsets);
    if (rows_frames) {
      const RowsFrame& f = s.rows_frames[id];
      w->PutVarint(f.size());
      PutPods(w, f.ids.data() + f.head, f.size());
    }
  });
  // DISTINCT values and counters written since the base.
  for (const DistinctStore& ds : s.distinct) {
    PutPoolDelta(w, ds.keys);
    PutWritten(w, ds.key_dirty, ds.keys.size(), [&](uint32_t id) { w->PutString(ds.keys[id]); });
    PutPoolDelta(w, ds.entries);
    w->PutVarint(ds.index.capacity());
    PutWritten(w, ds.entry_dirty, ds.entries.size(), [&](uint32_t id) {
      const DistinctEntry& e = ds.entries[id];
      w->PutI64(e.value);
      w->PutU32(e.part);
      w->PutU32(e.count);
    });
  }
  // RANGE frame: the base's blocks popped since (the first ones), the rows its last block gained if
  // it is still queued, the blocks added since.
  if (bounded && !rows_frame_) {
    const size_t popped = std::min(s.frame_popped, s.frame_base_blocks);
    const size_t kept = s.frame_base_blocks - popped;
    w->PutVarint(popped);
    w->PutVarint(s.frame_head);
    if (kept > 0) {
      const FrameBlock& b = s.frame[kept - 1];
      w->PutVarint(b.size - s.frame_base_back);
      PutFrameRows(w, b, s.frame_base_back, with_part, nd, s.val_columns);
    }
    w->PutVarint(s.frame.size() - kept);
    for (size_t bi = kept; bi < s.frame.size(); ++bi) {
      const FrameBlock& b = s.frame[bi];
      w->PutI64(b.base);
      w->PutVarint(b.size);
      PutFrameRows(w, b, 0, with_part, nd, s.val_columns);
    }
  }
  // ROWS frames: the rows stored since the base (the frames came with their partitions).
  if (rows_frames) {
    w->PutVarint(s.rows_size);
    w->PutVarint(s.rows_released);
    const size_t n = s.rows_size - s.rows_base;
    for (int c : s.val_columns) w->PutVectorRange(s.rows_vals[static_cast<size_t>(c)], s.rows_base, n);
    PutPods(w, s.rows_dref.data() + s.rows_base * nd, n * nd);
  }
  // Rows waiting for the watermark: positions, the out-of-order heap (in full), the out-of-order
  // positions' queue, and the blocks as the RANGE frame's.
  if (rowtime_) {
    PutPendingHead(w, s);
    s.ooo_pos.PutDelta(w);
    const size_t popped = std::min<size_t>((s.pend_first - s.pend_base_first) / kBlock, s.pend_base_blocks);
    const size_t kept = s.pend_base_blocks - popped;
    w->PutVarint(popped);
    if (kept > 0) PutPendingRows(w, s.pend[kept - 1], s.pend_base_back);
    w->PutVarint(s.pend.size() - kept);
    for (size_t bi = kept; bi < s.pend.size(); ++bi) PutPendingRows(w, s.pend[bi], 0);
  }
  ResetDeltaBase(s);
  return Status::OK();
}

Status OverAggregateOperator::RestoreDelta(StateReader* r) {
  // Patches the state in place (a failure leaves partial state for DropState), then reads it back as
  // a full snapshot, which checks it as RestoreState checks any and rebuilds the hash indexes.
  State& s = *state_;
  r->ExpectTag("over-aggregate-delta");
  const std::vector<uint64_t> base = BaseSizes(s, false);
  std::vector<uint64_t> delta_base;
  GetPods(r, base.size(), &delta_base);
  RETURN_IF_ERROR(r->status());
  if (delta_base != base) {
    r->Fail("a delta of another state (its base has other sizes)");
    return r->status();
  }
  s.last_proc_time = r->GetI64();
  s.peak_bytes = r->GetU64();
  metrics_.peak_state_bytes = r->GetI64();
  metrics_.state_rows_at_peak = r->GetI64();
  RETURN_IF_ERROR(PatchPartitions(r, s));
  RETURN_IF_ERROR(PatchDistinct(r, s));
  if (preceding_ >= 0 && !rows_frame_) RETURN_IF_ERROR(PatchRangeFrame(r, s));
  if (preceding_ >= 0 && rows_frame_) RETURN_IF_ERROR(PatchRowsFrames(r, s));
  if (rowtime_) RETURN_IF_ERROR(PatchPending(r, s));
  RETURN_IF_ERROR(r->status());
  return ReadBackAfterDelta(r);
}

Status OverAggregateOperator::PatchPartitions(StateReader* r, State& s) const {
  const auto& cs = layout_.calls();
  const bool rows_frames = preceding_ >= 0 && rows_frame_;
  const size_t pbase = s.parts.size();
  GetPoolDelta(r, &s.parts, 1, "partition");
  RETURN_IF_ERROR(r->status());
  s.GrowStatePages(s.parts.size());
  if (rows_frames) s.rows_frames.resize(s.parts.size());
  const size_t pcap = r->GetCount(0);
  if (r->ok() && !PlausibleCapacity(pcap, s.parts.size())) r->Fail("partition index of " + std::to_string(pcap) + " slots");
  RETURN_IF_ERROR(r->status());
  s.part_index.Reset(pcap);
  GetWritten(r, pbase, s.parts.size(), [&](uint32_t id) {
    Partition& p = s.parts[id];
    uint8_t* st = s.States(id);
    if (p.live) {
      for (size_t a = 0; a < cs.size(); ++a) {
        if (cs[a].function->destroy) cs[a].function->destroy(st + s.offsets[a]);
      }
      p.live = false;
      std::string().swap(p.key);
    }
    if (rows_frames) s.rows_frames[id] = RowsFrame();
    const bool live = r->GetBool();
    if (!live || !r->ok()) return;
    std::memset(st, 0, s.stride);
    GetPartition(r, &p, st, cs, s.offsets);
    if (rows_frames && r->ok()) GetPods(r, r->GetCount(4), &s.rows_frames[id].ids);
  });
  RETURN_IF_ERROR(r->status());
  // The free list names exactly the partitions that are not live.
  std::vector<uint8_t> free(s.parts.size(), 0);
  for (uint32_t id : s.parts.free_ids()) {
    if (free[id]) r->Fail("partition free list names id " + std::to_string(id) + " twice");
    RETURN_IF_ERROR(r->status());
    free[id] = 1;
  }
  for (size_t id = 0; id < free.size(); ++id) {
    if (s.parts[static_cast<uint32_t>(id)].live == (free[id] != 0)) {
      r->Fail("partition " + std::to_string(id) + " live and free, or neither");
      return r->status();
    }
  }
  return Status::OK();
}

Status OverAggregateOperator::PatchDistinct(StateReader* r, State& s) {
  for (DistinctStore& ds : s.distinct) {
    const size_t kbase = ds.keys.size();
    GetPoolDelta(r, &ds.keys, 1, "DISTINCT value");
    GetWritten(r, kbase, ds.keys.size(), [&](uint32_t id) { ds.keys[id] = r->GetString(); });
    const size_t ebase = ds.entries.size();
    GetPoolDelta(r, &ds.entries, 16, "DISTINCT counter");
    const size_t ecap = r->GetCount(0);
    if (r->ok() && !PlausibleCapacity(ecap, ds.entries.size())) r->Fail("DISTINCT index of " + std::to_string(ecap) + " slots");
    RETURN_IF_ERROR(r->status());
    ds.index.Reset(ecap);
    GetWritten(r, ebase, ds.entries.size(), [&](uint32_t id) {
      DistinctEntry& e = ds.entries[id];
      e.value = r->GetI64();
      e.part = r->GetU32();
      e.count = r->GetU32();
    });
    RETURN_IF_ERROR(r->status());
  }
  return Status::OK();
}

Status OverAggregateOperator::PatchRangeFrame(StateReader* r, State& s) const {
  const size_t nd = s.distinct.size();
  const bool with_part = s.part_from_distinct < 0;
  const size_t popped = r->GetCount(0);
  const size_t head = r->GetCount(0);
  if (r->ok() && popped > s.frame.size()) r->Fail("a frame delta pops " + std::to_string(popped) + " blocks of " + std::to_string(s.frame.size()));
  RETURN_IF_ERROR(r->status());
  for (size_t i = 0; i < popped; ++i) s.frame.pop_front();
  s.frame_head = head;
  if (!s.frame.empty()) {
    FrameBlock& b = s.frame.back();
    const size_t grown = r->GetCount(4);
    if (r->ok() && grown > kBlock - b.size) r->Fail("frame block of more than " + std::to_string(kBlock) + " rows");
    if (r->ok()) GetFrameRows(r, &b, grown, with_part, nd, s.val_columns, input_types_);
  }
  const size_t nblocks = r->GetCount(9);
  for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
    FrameBlock& b = s.frame.emplace_back();
    b.base = r->GetI64();
    const size_t size = r->GetCount(4);
    if (!r->ok()) break;
    if (size == 0 || size > kBlock) {
      r->Fail("frame block of " + std::to_string(size) + " rows");
    } else if (b.base > std::numeric_limits<int64_t>::max() - int64_t{0xFFFFFFFF}) {
      r->Fail("frame block time out of range");
    }
    RETURN_IF_ERROR(r->status());
    GetFrameRows(r, &b, size, with_part, nd, s.val_columns, input_types_);
  }
  return r->status();
}

Status OverAggregateOperator::PatchRowsFrames(StateReader* r, State& s) const {
  const size_t nd = s.distinct.size();
  const size_t size = r->GetCount(0);
  const size_t released = r->GetCount(0);
  if (r->ok() && (size < s.rows_size || size >= kNullBit || released > size)) r->Fail("stored ROWS frame rows out of range");
  RETURN_IF_ERROR(r->status());
  const size_t n = size - s.rows_size;
  Vector v;
  for (int c : s.val_columns) {
    r->GetVector(input_types_[static_cast<size_t>(c)], &v);
    if (r->ok() && v.size() != n) r->Fail("stored ROWS frame column of another length");
    RETURN_IF_ERROR(r->status());
    s.rows_vals[static_cast<size_t>(c)].AppendFrom(v, nullptr, 0, n, true);
  }
  if (nd > 0 && n > r->remaining() / (nd * sizeof(uint32_t))) r->Fail("stored ROWS frame rows exceed the state");
  std::vector<uint32_t> dref;
  GetPods(r, n * nd, &dref);
  RETURN_IF_ERROR(r->status());
  s.rows_dref.insert(s.rows_dref.end(), dref.begin(), dref.end());
  s.rows_size = size;
  s.rows_released = released;
  return Status::OK();
}

Status OverAggregateOperator::PatchPending(StateReader* r, State& s) const {
  GetPendingHead(r, &s);
  s.ooo_pos.ApplyDelta(r);
  const size_t popped = r->GetCount(0);
  if (r->ok() && popped > s.pend.size()) r->Fail("a pending rows delta pops " + std::to_string(popped) + " blocks of " + std::to_string(s.pend.size()));
  RETURN_IF_ERROR(r->status());
  for (size_t i = 0; i < popped; ++i) s.pend.pop_front();
  if (!s.pend.empty()) GetPendingRows(r, &s.pend.back(), input_types_);
  const size_t nblocks = r->GetCount(1);
  for (size_t bi = 0; bi < nblocks && r->ok(); ++bi) {
    PendingBlock& b = s.pend.emplace_back();
    if (GetPendingRows(r, &b, input_types_) == 0 && r->ok()) r->Fail("pending block of 0 rows");
  }
  return r->status();
}

Status OverAggregateOperator::ReadBackAfterDelta(StateReader* r) {
  // Read the patched state back as a full snapshot: RestoreState checks it and replaces state_.
  StateWriter full;
  RETURN_IF_ERROR(SnapshotState(&full));
  const std::string what = "the state after its delta";
  StateReader back(full.data(), what);
  Status st = RestoreState(&back);
  if (st.ok()) st = back.Finish();
  if (!st.ok()) {
    const std::string prefix = "Corrupt state of " + what + ": ";
    const std::string& m = st.message();
    r->Fail(what + ": " + (m.compare(0, prefix.size(), prefix) == 0 ? m.substr(prefix.size()) : m));
  }
  return r->status();
}

}  // namespace sluice
