// Checkpoints of WindowAggregateOperator (window_aggregate_operator.h): the encodings of its slices,
// sessions, pending windows and late-firing state, full snapshots and deltas, and the checks after a
// restore.
#include "runtime/operators/window_aggregate_operator.h"

#include <algorithm>
#include <iterator>
#include <new>
#include <string_view>

#include <absl/container/flat_hash_map.h>

#include "common/check.h"
#include "common/clock.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/key_encoder.h"

namespace sluice {

void WindowAggregateOperator::PutStates(const uint8_t* states, StateWriter* w) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    if (f.serialize) {
      f.serialize(states + offsets_[a], w);
    } else {
      w->PutRaw(states + offsets_[a], f.state_size);
    }
  }
}

void WindowAggregateOperator::GetStates(uint8_t* states, StateReader* r) const {
  // `states` is initialized; a serialized state is read into a fresh one.
  for (size_t a = 0; a < aggs_.size() && r->ok(); ++a) {
    const AggregateFunction& f = *aggs_[a].function;
    uint8_t* st = states + offsets_[a];
    if (f.deserialize) {
      if (f.destroy) f.destroy(st);
      f.init(st);
      f.deserialize(st, r);
    } else {
      GetRawState(f, st, r);
    }
  }
}

void WindowAggregateOperator::PutDistinct(const DistinctValues* distinct, StateWriter* w) const {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    if (!aggs_[a].distinct) continue;
    w->PutChunk(distinct[a].values);
    if (!retracting_) continue;
    // Over an updating input, each value's count (in the order of `values`).
    const Chunk& values = distinct[a].values;
    for (size_t i = 0; i < values.size(); ++i) {
      std::string v;
      for (size_t c = 0; c < values.num_columns(); ++c) EncodeKeyValue(values.column(c), i, &v);
      w->PutI64(distinct[a].seen.at(v));
    }
  }
}

void WindowAggregateOperator::GetDistinct(DistinctValues* distinct, StateReader* r) const {
  for (size_t a = 0; a < aggs_.size() && r->ok(); ++a) {
    if (!aggs_[a].distinct) continue;
    DistinctValues& d = distinct[a];
    d.seen.clear();
    r->GetChunk(distinct_types_[a], &d.values);
    for (size_t i = 0; i < d.values.size() && r->ok(); ++i) {
      std::string v;
      for (size_t c = 0; c < d.values.num_columns(); ++c) EncodeKeyValue(d.values.column(c), i, &v);
      if (!d.seen.emplace(std::move(v), 1).second) r->Fail("a distinct value twice");
    }
    if (retracting_ && r->ok()) {
      for (size_t i = 0; i < d.values.size() && r->ok(); ++i) {
        std::string v;
        for (size_t c = 0; c < d.values.num_columns(); ++c) EncodeKeyValue(d.values.column(c), i, &v);
        d.seen[v] = r->GetI64();
      }
    }
    if (!r->ok()) d.values = Chunk(distinct_types_[a]);
  }
}

void WindowAggregateOperator::WriteEntry(const Entry& e, StateWriter* w) const {
  PutStates(e.states.get(), w);
  if (has_distinct_) PutDistinct(e.distinct.data(), w);
}

WindowAggregateOperator::Entry WindowAggregateOperator::ReadEntry(StateReader* r) const {
  Entry e = NewEntry();
  GetStates(e.states.get(), r);
  if (has_distinct_) GetDistinct(e.distinct.data(), r);
  return e;
}

void WindowAggregateOperator::PutBlocks(const Slice& s, const std::vector<uint32_t>& dirty, size_t first_new,
                                        StateWriter* w) const {
  const size_t n = s.index.size();
  if (plain_) {
    // Plain bytes (padding zeroed when the block was added): every block is written as it is.
    if (stride_ > 0) {
      w->Reserve((dirty.size() + n - first_new) * stride_);
      for (uint32_t id : dirty) w->PutRaw(Block(s, id), stride_);
      if (n > first_new) w->PutRaw(Block(s, static_cast<uint32_t>(first_new)), (n - first_new) * stride_);
    }
  } else {
    for (uint32_t id : dirty) PutStates(Block(s, id), w);
    for (size_t id = first_new; id < n; ++id) PutStates(Block(s, static_cast<uint32_t>(id)), w);
  }
  if (!has_distinct_) return;
  for (uint32_t id : dirty) PutDistinct(PartOf(s, id).distinct, w);
  for (size_t id = first_new; id < n; ++id) PutDistinct(PartOf(s, static_cast<uint32_t>(id)).distinct, w);
}

void WindowAggregateOperator::GetBlocks(Slice& s, const std::vector<uint32_t>& dirty, size_t base, size_t size,
                                        StateReader* r) const {
  if (!r->ok()) return;
  if (plain_ && stride_ > 0 && dirty.size() + (size - base) > r->remaining() / stride_) {
    r->Fail("window aggregate blocks longer than their data");
    return;
  }
  GrowSlice(s, size);
  if (plain_) {
    if (stride_ > 0) {
      for (uint32_t id : dirty) r->GetRaw(Block(s, id), stride_);
      if (size > base) r->GetRaw(Block(s, static_cast<uint32_t>(base)), (size - base) * stride_);
      const AggregateFunction* bad = nullptr;
      auto valid = [&](uint32_t id) {
        for (size_t a = 0; a < aggs_.size(); ++a) {
          if (!RawStateValid(*aggs_[a].function, Block(s, id) + offsets_[a])) bad = aggs_[a].function.get();
        }
        return bad == nullptr;
      };
      bool ok = r->ok();
      for (uint32_t id : dirty) ok = ok && valid(id);
      for (size_t id = base; id < size && ok; ++id) ok = valid(static_cast<uint32_t>(id));
      if (bad != nullptr) r->Fail("an invalid " + bad->name + " state");
    }
  } else {
    for (uint32_t id : dirty) GetStates(Block(s, id), r);
    for (size_t id = base; id < size && r->ok(); ++id) GetStates(Block(s, static_cast<uint32_t>(id)), r);
  }
  if (!has_distinct_) return;
  const size_t na = aggs_.size();
  for (uint32_t id : dirty) GetDistinct(&s.distinct[static_cast<size_t>(id) * na], r);
  for (size_t id = base; id < size && r->ok(); ++id) GetDistinct(&s.distinct[id * na], r);
}

void WindowAggregateOperator::PutSlice(const Slice& s, StateWriter* w) const {
  s.index.Snapshot(w);
  w->PutChunk(s.keys);
  PutBlocks(s, {}, 0, w);
}

void WindowAggregateOperator::GetSlice(Slice& s, StateReader* r) const {
  s.index.Restore(r);
  r->GetChunk(key_types_, &s.keys);
  if (r->ok() && s.keys.size() != s.index.size()) r->Fail("slice keys and key rows differ in number");
  if (r->ok()) GetBlocks(s, {}, 0, s.index.size(), r);
}

void WindowAggregateOperator::PutScalars(StateWriter* w) const {
  w->PutVarint(pending_ends_.size());
  for (int64_t end : pending_ends_) w->PutI64(end);
  // SESSION windows, keys in first-seen order (so equal states write equal bytes).
  std::vector<const std::pair<const std::string, SessionKey>*> keys;
  keys.reserve(session_keys_.size());
  for (const auto& kv : session_keys_) keys.push_back(&kv);
  std::sort(keys.begin(), keys.end(), [](const auto* a, const auto* b) { return a->second.seq < b->second.seq; });
  w->PutVarint(keys.size());
  for (const auto* kv : keys) {
    const SessionKey& sk = kv->second;
    w->PutString(kv->first);
    w->PutChunk(sk.key);
    w->PutU64(sk.seq);
    w->PutVarint(sk.sessions.size());
    for (const auto& [start, session] : sk.sessions) {
      w->PutI64(start);
      w->PutI64(session.end);
      w->PutI64(session.timer_end);
      WriteEntry(session.acc, w);
    }
  }
  w->PutVarint(session_timers_.size());
  for (const auto& [end, seq, start] : session_timers_) {
    w->PutI64(end);
    w->PutU64(seq);
    w->PutI64(start);
  }
  w->PutU64(next_session_seq_);
  // Late firing: per fired window its results, and the key of each remembered row in row order.
  w->PutVarint(fired_.size());
  for (const auto& [end, fw] : fired_) {
    w->PutI64(end);
    w->PutBool(fw.results.num_columns() > 0);
    if (fw.results.num_columns() > 0) w->PutChunk(fw.results);
    std::vector<const std::pair<const std::string, uint32_t>*> rows;
    rows.reserve(fw.index.size());
    for (const auto& kv : fw.index) rows.push_back(&kv);
    std::sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->second < b->second; });
    w->PutVarint(rows.size());
    for (const auto* kv : rows) {
      w->PutString(kv->first);
      w->PutU32(kv->second);
    }
  }
  w->PutVarint(late_timers_.size());
  for (const auto& [due, what] : late_timers_) {
    w->PutI64(due.first);
    w->PutU64(due.second);
    w->PutI64(what.first);
    w->PutString(what.second);
  }
  w->PutVarint(late_pending_.size());
  for (const auto& [end, key] : late_pending_) {
    w->PutI64(end);
    w->PutString(key);
  }
  w->PutU64(next_late_seq_);
}

void WindowAggregateOperator::ClearScalars() {
  for (auto& [key, sk] : session_keys_) {
    for (auto& [start, s] : sk.sessions) DestroyEntry(s.acc);
  }
  session_keys_.clear();
  session_key_of_seq_.clear();
  session_timers_.clear();
  pending_ends_.clear();
  fired_.clear();
  late_timers_.clear();
  late_pending_.clear();
  next_session_seq_ = 0;
  next_late_seq_ = 0;
}

void WindowAggregateOperator::GetScalars(StateReader* r) {
  ClearScalars();
  const size_t nends = r->GetCount(8);
  for (size_t i = 0; i < nends && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (r->ok() && !pending_ends_.insert(end).second) r->Fail("pending window " + std::to_string(end) + " twice");
  }
  GetSessions(r);
  next_session_seq_ = r->GetU64();
  GetFiredWindows(r);
  const size_t nlate = r->GetCount(25);
  for (size_t i = 0; i < nlate && r->ok(); ++i) {
    const int64_t due = r->GetI64();
    const uint64_t seq = r->GetU64();
    const int64_t end = GetWindowEnd(r);
    std::string key = r->GetString();
    if (r->ok() && !late_timers_.emplace(std::make_pair(due, seq), std::make_pair(end, std::move(key))).second) {
      r->Fail("a late-firing timer twice");
    }
  }
  const size_t npending = r->GetCount(9);
  for (size_t i = 0; i < npending && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    std::string key = r->GetString();
    if (r->ok() && !late_pending_.emplace(end, std::move(key)).second) r->Fail("a pending late update twice");
  }
  next_late_seq_ = r->GetU64();
}

// The SESSION state of GetScalars: the keys with their sessions, then the session timers.
void WindowAggregateOperator::GetSessions(StateReader* r) {
  const size_t nkeys = r->GetCount(2);
  for (size_t i = 0; i < nkeys && r->ok(); ++i) {
    std::string key = r->GetString();
    if (!r->ok()) break;
    auto [kit, inserted] = session_keys_.try_emplace(key);
    if (!inserted) {
      r->Fail("a session key twice");
      break;
    }
    SessionKey& sk = kit->second;
    r->GetChunk(key_types_, &sk.key);
    if (r->ok() && sk.key.size() != 1) r->Fail("a session key of " + std::to_string(sk.key.size()) + " rows");
    sk.seq = r->GetU64();
    if (r->ok() && !session_key_of_seq_.emplace(sk.seq, key).second) r->Fail("two session keys of one sequence number");
    const size_t ns = r->GetCount(24);
    for (size_t j = 0; j < ns && r->ok(); ++j) {
      const int64_t start = GetWindowEnd(r);
      Session s;
      s.end = GetWindowEnd(r);
      s.timer_end = GetWindowEnd(r);
      s.acc = ReadEntry(r);
      if (!sk.sessions.try_emplace(start, std::move(s)).second) {
        DestroyEntry(s.acc);  // try_emplace left `s` alone
        r->Fail("two sessions of one start");
      }
    }
  }
  const size_t ntimers = r->GetCount(24);
  for (size_t i = 0; i < ntimers && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    const uint64_t seq = r->GetU64();
    const int64_t start = GetWindowEnd(r);
    if (!r->ok()) break;
    auto seq_it = session_key_of_seq_.find(seq);
    if (seq_it == session_key_of_seq_.end()) {
      r->Fail("session timer for an unknown key");
      break;
    }
    const auto& sessions = session_keys_.at(seq_it->second).sessions;
    if (sessions.find(start) == sessions.end()) {
      r->Fail("session timer for an unknown session");
      break;
    }
    if (!session_timers_.emplace(end, seq, start).second) {
      r->Fail("a session timer twice");
      break;
    }
  }
}

// The fired windows' remembered results (late firing) of GetScalars.
void WindowAggregateOperator::GetFiredWindows(StateReader* r) {
  const size_t nfired = r->GetCount(9);
  for (size_t i = 0; i < nfired && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (!r->ok()) break;
    auto [fit, inserted] = fired_.try_emplace(end);
    if (!inserted) {
      r->Fail("fired window " + std::to_string(end) + " twice");
      break;
    }
    FiredWindow& fw = fit->second;
    if (r->GetBool()) r->GetChunk(output_types_, &fw.results);
    const size_t n = r->GetCount(5);
    for (size_t j = 0; j < n && r->ok(); ++j) {
      std::string key = r->GetString();
      const uint32_t row = r->GetU32();
      if (r->ok() && row >= fw.results.size()) r->Fail("remembered result out of range");
      if (r->ok() && !fw.index.emplace(std::move(key), row).second) {
        r->Fail("a key remembered twice for fired window " + std::to_string(end));
      }
    }
  }
}

// What the code after a restore relies on, beyond what reading checked (ids within their slices,
// distinct values unique, remembered rows in range, session timers naming a key and a start):
// - the state belongs to this operator's kind of window: slices and pending windows for sliced ones,
//   sessions for SESSION; emitted results only with early or late firing, timers only with a delay;
// - every slice and pending window end lies on the slice grid, every slice has its key rows, blocks
//   and distinct values for each id, and every pending window holds a slice (FireWindow, and the
//   slice freeing that follows firing);
// - every late-firing timer is in late_pending_ and the other way round, each (window, key) once, its
//   sequence number below next_late_seq_, and one of the window's slices holds its key (RefireKey
//   CHECKs that; those slices live until the window expires, when the timer has fired);
// - SESSION: every key has a session and a sequence number below next_session_seq_ (a new key must
//   not take it over); its sessions are non-empty, disjoint and not adjacent (adjacent ones would
//   have merged), each with start < timer_end <= end and exactly one timer, at timer_end (a merge
//   erases the timer by timer_end, and FireSessions finds the session of every timer).
void WindowAggregateOperator::Validate(StateReader* r) const {
  if (r->ok()) ValidateStateKind(r);
  if (r->ok()) ValidateSliceGrid(r);
  if (r->ok()) ValidateLateTimers(r);
  if (r->ok()) ValidateSessions(r);
}

// The state kinds this operator's window and emit strategy hold.
void WindowAggregateOperator::ValidateStateKind(StateReader* r) const {
  if (window_.kind == WindowKind::kSession) {
    if (!slices_.empty() || !pending_ends_.empty() || !fired_.empty() || !late_timers_.empty() ||
        !late_pending_.empty()) {
      r->Fail("slices or window ends in the state of SESSION windows");
      return;
    }
  } else if (!session_keys_.empty() || !session_timers_.empty()) {
    r->Fail("sessions in the state of " + window_.Explain("time") + " windows");
    return;
  }
  if (!Updates() && !fired_.empty()) {
    r->Fail("emitted window results without early or late firing");
    return;
  }
  if (late_delay_us_ <= 0 && early_delay_us_ <= 0 && (!late_timers_.empty() || !late_pending_.empty())) {
    r->Fail("early- or late-firing timers without a firing delay");
  }
}

// Slices, pending and fired windows on the slice grid; each slice's rows and states per key.
void WindowAggregateOperator::ValidateSliceGrid(StateReader* r) const {
  const size_t na = aggs_.size();
  for (const auto& [end, slice] : slices_) {
    if (!OnSliceGrid(end)) {
      r->Fail("slice end " + std::to_string(end) + " off the slice grid");
      return;
    }
    const size_t n = slice->index.size();
    if (slice->keys.size() != n || slice->blocks.size() != n * stride_ ||
        slice->distinct.size() != (has_distinct_ ? n * na : 0)) {
      r->Fail("slice " + std::to_string(end) + " has " + std::to_string(n) + " keys but not as many rows and states");
      return;
    }
  }
  for (int64_t end : pending_ends_) {
    auto it = slices_.upper_bound(window_.WindowStart(end));
    if (!OnSliceGrid(end) || it == slices_.end() || it->first > end) {
      r->Fail("pending window " + std::to_string(end) + " off the slice grid or without a slice");
      return;
    }
  }
  for (const auto& [end, fw] : fired_) {
    if (!OnSliceGrid(end)) {
      r->Fail("fired window " + std::to_string(end) + " off the slice grid");
      return;
    }
  }
}

// Late-firing timers and pending late updates match one to one, each held by a slice of its window.
void WindowAggregateOperator::ValidateLateTimers(StateReader* r) const {
  if (late_timers_.size() != late_pending_.size()) {
    r->Fail(std::to_string(late_timers_.size()) + " late-firing timers but " + std::to_string(late_pending_.size()) +
            " pending late updates");
    return;
  }
  std::set<std::pair<int64_t, std::string_view>> timed;
  for (const auto& [due, what] : late_timers_) {
    const auto& [end, key] = what;
    if (due.second >= next_late_seq_ || !OnSliceGrid(end) || late_pending_.count(what) == 0 ||
        !timed.emplace(end, key).second) {
      r->Fail("late-firing timer for window " + std::to_string(end) + " out of sequence, off the slice grid or not pending once");
      return;
    }
  }
  for (const auto& [due, what] : late_timers_) {
    const auto& [end, key] = what;
    bool held = false;
    for (auto it = slices_.upper_bound(window_.WindowStart(end)); it != slices_.end() && it->first <= end && !held; ++it) {
      held = it->second->index.Find(key) != KeyIndex::kNotFound;
    }
    if (!held) {
      r->Fail("late-firing timer for window " + std::to_string(end) + " and a key none of its slices holds");
      return;
    }
  }
}

// SESSION windows: each key's sessions disjoint and not adjacent, each with exactly one timer.
void WindowAggregateOperator::ValidateSessions(StateReader* r) const {
  size_t sessions = 0;
  for (const auto& [key, sk] : session_keys_) {
    if (sk.sessions.empty() || sk.seq >= next_session_seq_) {
      r->Fail("a session key without sessions or beyond the next sequence number");
      return;
    }
    const Session* prev = nullptr;
    for (const auto& [start, s] : sk.sessions) {
      if (!(start < s.timer_end && s.timer_end <= s.end) || (prev != nullptr && prev->end >= start)) {
        r->Fail("session [" + std::to_string(start) + ", " + std::to_string(s.end) + ") with its timer at " +
                std::to_string(s.timer_end) + " is empty, overlaps another or has its timer outside");
        return;
      }
      prev = &s;
    }
    sessions += sk.sessions.size();
  }
  if (session_timers_.size() != sessions) {
    r->Fail(std::to_string(session_timers_.size()) + " session timers for " + std::to_string(sessions) + " sessions");
    return;
  }
  for (const auto& [end, seq, start] : session_timers_) {
    // GetScalars found the key and the session.
    if (session_keys_.at(session_key_of_seq_.at(seq)).sessions.at(start).timer_end != end) {
      r->Fail("session timer at " + std::to_string(end) + " for a session whose timer is elsewhere");
      return;
    }
  }
}

void WindowAggregateOperator::DropState() {
  slices_.clear();
  freed_since_base_.clear();
  ClearScalars();
  ResetDeltaBase();
}

void WindowAggregateOperator::ResetDeltaBase() {
  for (auto& [end, slice] : slices_) {
    slice->dirty.Reset(slice->index.size());
    slice->in_base = true;
  }
  freed_since_base_.clear();
}

Status WindowAggregateOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-aggregate");
  w->PutVarint(slices_.size());
  for (const auto& [end, slice] : slices_) {
    w->PutI64(end);
    PutSlice(*slice, w);
  }
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

Status WindowAggregateOperator::SnapshotDelta(StateWriter* w) {
  w->PutTag("window-aggregate-delta");
  // The base's slices freed since, then every live slice: a delta on the base's (its new keys, and
  // the blocks of its new and written ids; nothing else), a slice added since in full.
  PutWindowsDelta(
      w, slices_, freed_since_base_, [](const Slice& s) { return s.in_base; },
      [&](const Slice& s) {
        const size_t base = s.dirty.base();
        const size_t n = s.index.size();
        s.index.SnapshotSince(base, w);
        w->PutChunkRange(s.keys, base, n - base);
        const std::vector<uint32_t>& dirty = s.dirty.dirty();
        w->PutVarint(dirty.size());
        if (!dirty.empty()) w->PutRaw(dirty.data(), dirty.size() * sizeof(uint32_t));
        PutBlocks(s, dirty, base, w);
      },
      [&](const Slice& s) { PutSlice(s, w); });
  PutScalars(w);
  ResetDeltaBase();
  return Status::OK();
}

Status WindowAggregateOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("window-aggregate");
  const size_t nslices = r->GetCount(9);
  for (size_t i = 0; i < nslices && r->ok(); ++i) {
    const int64_t end = GetWindowEnd(r);
    if (!r->ok()) break;
    if (!slices_.empty() && end <= slices_.rbegin()->first) {
      r->Fail("slice " + std::to_string(end) + " twice or out of order");
      break;
    }
    auto it = slices_.try_emplace(end).first;
    it->second = NewSlice();
    GetSlice(*it->second, r);
  }
  GetScalars(r);
  Validate(r);
  if (r->ok()) ArmTimer();  // the restored scheduled updates
  ResetDeltaBase();
  return r->status();  // a failed restore is dropped whole (Operator::Restore calls DropState)
}

Status WindowAggregateOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("window-aggregate-delta");
  std::vector<uint32_t> ids;
  ApplyWindowsDelta(
      r, slices_, [&] { return NewSlice(); },
      [&](Slice& s) {
        const size_t base = s.index.size();
        s.index.RestoreAppend(r);
        Chunk new_keys;
        r->GetChunk(key_types_, &new_keys);
        if (r->ok() && base + new_keys.size() != s.index.size()) r->Fail("new slice keys and key rows differ in number");
        if (!r->ok()) return;
        s.keys.AppendFrom(new_keys, nullptr, 0, new_keys.size(), /*copy_strings=*/true);
        // The groups written since the base: ids below it, each once.
        const size_t ndirty = r->GetCount(sizeof(uint32_t));
        ids.assign(r->ok() ? ndirty : 0, 0);
        if (!ids.empty()) r->GetRaw(ids.data(), ids.size() * sizeof(uint32_t));
        for (uint32_t id : ids) {
          if (!r->ok()) return;
          if (id >= base) {
            r->Fail("a state delta writes group " + std::to_string(id) + " beyond its base");
            return;
          }
          s.dirty.Mark(id);
        }
        if (r->ok() && s.dirty.dirty().size() != ids.size()) r->Fail("a state delta writes a group twice");
        if (r->ok()) GetBlocks(s, ids, base, s.index.size(), r);
      },
      [&](Slice& s) { GetSlice(s, r); });
  GetScalars(r);
  Validate(r);
  if (r->ok()) ArmTimer();  // the restored scheduled updates
  ResetDeltaBase();
  return r->status();  // a failed delta is dropped whole (Operator::ApplyDelta calls DropState)
}

}  // namespace sluice