#include "runtime/operators/interval_join_operator.h"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

constexpr int64_t kMicrosPerMilli = 1000;

// A kept row of one side of one key. Written raw into checkpoints, so it has no padding.
struct Entry {
  int64_t time;
  uint64_t seq;      // arrival order over both sides
  uint32_t row;      // id in the side's arena
  uint32_t matched;  // 1: joined at least once (outer sides pad the rows that never did)
};
static_assert(sizeof(Entry) == 24 && std::has_unique_object_representations_v<Entry>);

struct KeyState {
  std::vector<Entry> entries[2];  // sorted by (time, seq) from head
  size_t head[2] = {0, 0};
  size_t Size(int side) const { return entries[side].size() - head[side]; }
  bool Empty() const { return Size(0) == 0 && Size(1) == 0; }
};

// A kept row's expiry; a min-heap on (deadline, seq). Derived from the key states (one per kept
// entry), so it is rebuilt after a restore, never written.
struct Expiry {
  int64_t deadline;
  uint64_t seq;
  uint32_t key;  // key id
};
struct ExpiresLater {
  bool operator()(const Expiry& a, const Expiry& b) const {
    return a.deadline != b.deadline ? a.deadline > b.deadline : a.seq > b.seq;
  }
};

// A candidate match: a probe row, and the other side's kept entry (key id, position in its list).
struct Pair {
  uint32_t row;
  uint32_t key;
  uint32_t pos;
};

// Arenas and keys are compacted once most of them are garbage, from this size on.
constexpr size_t kCompactMin = 1 << 14;

bool AnyKeyNull(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

// a + b, clamped to the int64 range (deadlines near the ends of time).
int64_t SaturatingAdd(int64_t a, int64_t b) {
  __int128 s = static_cast<__int128>(a) + b;
  if (s > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (s < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(s);
}

void PutKeyState(StateWriter* w, const KeyState& ks) {
  for (int side = 0; side < 2; ++side) {
    const size_t n = ks.Size(side);
    w->PutVarint(n);
    if (n > 0) w->PutRaw(ks.entries[side].data() + ks.head[side], n * sizeof(Entry));
  }
}

void GetKeyState(StateReader* r, KeyState* ks) {
  for (int side = 0; side < 2; ++side) {
    GetColumn(r, &ks->entries[side]);
    ks->head[side] = 0;
  }
}

}  // namespace

// Keyed state: join keys get dense ids from a KeyIndex; per key id the kept rows of both sides. A key
// whose rows all expired keeps its id and an empty state until the keys are compacted.
//
// Incremental checkpoints: a delta holds the arenas' new rows, the new key bytes and the whole state
// of every key written since the base (a row kept, matched or expired: DeltaTracker over keys) and of
// every new key; the expiry heaps are derived. State churns here (rows expire by watermark), so
// arenas and keys are compacted once mostly garbage; that renumbers them, which a delta cannot
// express: CanSnapshotDelta() is then false until the next full snapshot. A full snapshot drops
// released rows (and empty keys, when many) first.
struct IntervalJoinOperator::State {
  State(const std::vector<LogicalType>& l, const std::vector<LogicalType>& r) : arenas{RowArena(l), RowArena(r)} {}
  RowArena arenas[2];
  std::vector<Expiry> heaps[2];
  KeyIndex keys;
  std::vector<KeyState> key_states;  // per key id
  size_t live_keys = 0;              // keys with kept rows
  uint64_t next_seq = 0;
  std::unique_ptr<ExprEvaluator> residual;
  // Scratch reused across calls.
  std::vector<std::string> encoded;
  std::vector<int64_t> times;
  std::vector<uint8_t> status;   // per input row: 0 dropped, 1 probe only, 2 probe and keep
  std::vector<uint8_t> matched;  // per input row
  std::vector<Pair> pairs;       // candidates, in probe row order
  std::vector<uint8_t> pass;     // per candidate: the residual condition holds
  std::vector<uint32_t> out_mine, out_theirs, kept;
  std::vector<uint32_t> pads[2];

  // The base of the next delta (the state at the last snapshot or restore).
  DeltaTracker key_delta;
  size_t arena_base[2] = {0, 0};
  bool compacted = false;

  void ResetDeltaBase() {
    key_delta.Reset(key_states.size());
    for (int side = 0; side < 2; ++side) arena_base[side] = arenas[side].size();
    compacted = false;
  }
};

void IntervalJoinOperator::CompactArena(int side) {
  State& s = *state_;
  RowArena& arena = s.arenas[side];
  RowArena fresh(side == 0 ? left_types_ : right_types_);
  for (KeyState& ks : s.key_states) {
    std::vector<Entry>& es = ks.entries[side];
    for (size_t i = ks.head[side]; i < es.size(); ++i) es[i].row = fresh.Append(arena.rows(), es[i].row);
  }
  arena = std::move(fresh);
  s.compacted = true;
}

void IntervalJoinOperator::CompactKeys() {
  State& s = *state_;
  KeyIndex fresh;
  std::vector<KeyState> kept;
  kept.reserve(s.live_keys);
  std::vector<uint32_t> renumber(s.key_states.size(), kNullRow);
  for (uint32_t k = 0; k < s.key_states.size(); ++k) {
    if (s.key_states[k].Empty()) continue;
    renumber[k] = fresh.Insert(s.keys.key(k));
    kept.push_back(std::move(s.key_states[k]));
  }
  s.keys = std::move(fresh);
  s.key_states = std::move(kept);
  for (auto& heap : s.heaps) {
    for (Expiry& x : heap) x.key = renumber[x.key];
  }
  s.compacted = true;
}

void IntervalJoinOperator::RebuildHeaps() {
  State& s = *state_;
  const int64_t keep[2] = {-lower_us_, upper_us_};
  for (int side = 0; side < 2; ++side) {
    std::vector<Expiry>& heap = s.heaps[side];
    heap.clear();
    for (uint32_t k = 0; k < s.key_states.size(); ++k) {
      const KeyState& ks = s.key_states[k];
      for (size_t i = ks.head[side]; i < ks.entries[side].size(); ++i) {
        const Entry& e = ks.entries[side][i];
        heap.push_back(Expiry{SaturatingAdd(e.time, keep[side]), e.seq, k});
      }
    }
    std::make_heap(heap.begin(), heap.end(), ExpiresLater());
  }
}

void IntervalJoinOperator::ValidateAndDerive(StateReader* r) {
  State& s = *state_;
  if (!r->ok()) return;
  if (s.key_states.size() != s.keys.size()) return r->Fail("interval join key states do not match their keys");
  s.live_keys = 0;
  for (const KeyState& ks : s.key_states) {
    for (int side = 0; side < 2; ++side) {
      const std::vector<Entry>& es = ks.entries[side];
      for (size_t i = ks.head[side]; i < es.size(); ++i) {
        const Entry& e = es[i];
        const bool ordered = i == ks.head[side] || es[i - 1].time < e.time ||
                             (es[i - 1].time == e.time && es[i - 1].seq < e.seq);
        if (e.row >= s.arenas[side].size() || e.matched > 1 || e.seq >= s.next_seq || !ordered) {
          return r->Fail("interval join kept row out of range");
        }
      }
    }
    s.live_keys += ks.Empty() ? 0 : 1;
  }
  RebuildHeaps();
}

Status IntervalJoinOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  // Only live rows go into the checkpoint; empty keys too when they are many.
  for (int side = 0; side < 2; ++side) {
    if (s.arenas[side].live() < s.arenas[side].size()) CompactArena(side);
  }
  if ((s.key_states.size() - s.live_keys) * 8 > s.key_states.size()) CompactKeys();
  w->PutTag("interval-join");
  for (int side = 0; side < 2; ++side) s.arenas[side].Snapshot(w);
  s.keys.Snapshot(w);
  for (const KeyState& ks : s.key_states) PutKeyState(w, ks);
  w->PutU64(s.next_seq);
  s.ResetDeltaBase();
  return Status::OK();
}

void IntervalJoinOperator::DropState() {
  auto fresh = std::make_unique<State>(left_types_, right_types_);
  fresh->residual = std::move(state_->residual);  // built by Open from the plan
  state_ = std::move(fresh);
}

Status IntervalJoinOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("interval-join");
  for (int side = 0; side < 2; ++side) s.arenas[side].Restore(r);
  s.keys.Restore(r);
  s.key_states.resize(r->ok() ? s.keys.size() : 0);
  for (KeyState& ks : s.key_states) {
    if (!r->ok()) break;
    GetKeyState(r, &ks);
  }
  s.next_seq = r->GetU64();
  ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
  return Status::OK();
}

bool IntervalJoinOperator::CanSnapshotDelta() const { return !state_->compacted; }

Status IntervalJoinOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(!s.compacted);
  w->PutTag("interval-join delta");
  for (int side = 0; side < 2; ++side) s.arenas[side].SnapshotTail(s.arena_base[side], w);
  const size_t key_base = s.key_delta.base();
  s.keys.SnapshotSince(key_base, w);
  // The state of keys written since the base, then that of the new keys.
  PutValuesDelta(w, s.key_states, s.key_delta, PutKeyState);
  w->PutU64(s.next_seq);
  s.ResetDeltaBase();
  return Status::OK();
}

Status IntervalJoinOperator::RestoreDelta(StateReader* r) {
  State& s = *state_;
  r->ExpectTag("interval-join delta");
  for (int side = 0; side < 2; ++side) s.arenas[side].RestoreAppend(r);
  s.keys.RestoreAppend(r);
  ApplyValuesDelta(r, s.keys.size(), 6, &s.key_states, GetKeyState);
  const uint64_t next_seq = r->GetU64();
  if (r->ok() && next_seq < s.next_seq) r->Fail("an interval join delta goes back in arrival order");
  s.next_seq = next_seq;
  ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
  return Status::OK();
}

IntervalJoinOperator::IntervalJoinOperator(std::string name, std::vector<LogicalType> left_types,
                                           std::vector<LogicalType> right_types, IntervalJoinSpec spec)
    : Operator(std::move(name), 2),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      spec_(std::move(spec)),
      lower_us_(spec_.lower_ms * kMicrosPerMilli),
      upper_us_(spec_.upper_ms * kMicrosPerMilli),
      state_(std::make_unique<State>(left_types_, right_types_)) {
  SLUICE_CHECK_EQ(spec_.left_keys.size(), spec_.right_keys.size());
  output_types_ = left_types_;
  output_types_.insert(output_types_.end(), right_types_.begin(), right_types_.end());
}

IntervalJoinOperator::~IntervalJoinOperator() = default;

size_t IntervalJoinOperator::kept_rows(int side) const { return state_->heaps[side].size(); }
size_t IntervalJoinOperator::kept_keys() const { return state_->live_keys; }

Status IntervalJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (spec_.residual) state_->residual = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{spec_.residual}, ctx->eval);
  return Status::OK();
}

int64_t IntervalJoinOperator::ProcessingTime() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  return clock ? clock->NowMicros() : 0;
}

size_t IntervalJoinOperator::StateBytes() const {
  const State& s = *state_;
  size_t bytes = s.keys.MemoryUsage() + VectorBytes(s.key_states) + s.key_delta.MemoryUsage();
  for (int side = 0; side < 2; ++side) {
    // A kept row has one entry in its key's list (capacities not walked: one entry per live row).
    bytes += s.arenas[side].MemoryUsage() + VectorBytes(s.heaps[side]) + s.arenas[side].live() * sizeof(Entry);
  }
  return bytes;
}

// One arriving chunk's view of the join: its side, the other side, and its row's bounds.
struct IntervalJoinOperator::Side {
  int side;
  int other;
  bool outer;
  const std::vector<int>* keys;
  int64_t lo, hi;  // the other side's rows a row at t can match: [t + lo, t + hi]
  int64_t keep;    // a kept row expires once progress reaches time + keep
  int64_t late;    // a row is late once progress reaches time + late
};

IntervalJoinOperator::Side IntervalJoinOperator::SideOf(int input) const {
  Side d;
  d.side = input;
  d.other = 1 - input;
  d.outer = input == 0 ? spec_.left_outer : spec_.right_outer;
  d.keys = input == 0 ? &spec_.left_keys : &spec_.right_keys;
  d.lo = input == 0 ? -upper_us_ : lower_us_;
  d.hi = input == 0 ? -lower_us_ : upper_us_;
  d.keep = input == 0 ? -lower_us_ : upper_us_;
  d.late = input == 0 ? -lower_us_ + std::max<int64_t>(upper_us_, 0) : upper_us_ + std::max<int64_t>(-lower_us_, 0);
  return d;
}

Status IntervalJoinOperator::Process(int input, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("IntervalJoin '" + name() +
                                   "' received an update or delete; an interval join needs insert-only inputs, as in Flink");
  }
  const Side d = SideOf(input);
  if (spec_.lower_ms > spec_.upper_ms) {
    // Nothing can match: outer rows leave padded at once, others are dropped.
    if (!d.outer) return Status::OK();
    std::vector<uint32_t> mine(n), theirs(n, kNullRow);
    for (size_t i = 0; i < n; ++i) mine[i] = static_cast<uint32_t>(i);
    return EmitPairs(d, chunk, mine, theirs);
  }
  int64_t progress;
  RETURN_IF_ERROR(ReadTimes(d, chunk, &progress));
  EncodeKeys(chunk, *d.keys, &state_->encoded);
  FindCandidates(d, chunk, progress);
  RETURN_IF_ERROR(FilterCandidates(d, chunk));
  RETURN_IF_ERROR(EmitMatches(d, chunk));
  KeepRows(d, chunk);
  return Status::OK();
}

Status IntervalJoinOperator::EmitPairs(const Side& d, const Chunk& chunk, const std::vector<uint32_t>& mine,
                                       const std::vector<uint32_t>& theirs) {
  // This side's columns from the chunk, the other side's from its arena, in left ++ right order.
  if (mine.empty()) return Status::OK();
  const Chunk& other_rows = state_->arenas[d.other].rows();
  return d.side == 0 ? EmitJoinedRows(output_types_, chunk, mine, other_rows, theirs)
                     : EmitJoinedRows(output_types_, other_rows, theirs, chunk, mine);
}

Status IntervalJoinOperator::ReadTimes(const Side& d, const Chunk& chunk, int64_t* progress) {
  State& s = *state_;
  const size_t n = chunk.size();
  s.times.resize(n);
  if (!spec_.rowtime) {
    const int64_t now = ProcessingTime();
    *progress = now - 1;
    std::fill(s.times.begin(), s.times.end(), now);
    return ExpireUpTo(*progress);
  }
  *progress = current_watermark();
  const Vector& t = chunk.column(static_cast<size_t>(d.side == 0 ? spec_.left_time : spec_.right_time));
  for (size_t i = 0; i < n; ++i) {
    if (t.IsNull(i)) {
      return Status::InvalidArgument("IntervalJoin '" + name() + "': the event-time attribute of a " +
                                     (d.side == 0 ? "left" : "right") + " row is NULL");
    }
    s.times[i] = t.data<int64_t>()[i];
  }
  return Status::OK();
}

void IntervalJoinOperator::FindCandidates(const Side& d, const Chunk& chunk, int64_t progress) {
  // Candidate pairs: probe row, and the other side's kept entry (key, position), in row order.
  State& s = *state_;
  const size_t n = chunk.size();
  s.pairs.clear();
  s.status.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = s.times[i];
    if (spec_.rowtime && SaturatingAdd(t, d.late) <= progress) {
      ReportLate(chunk, i, t, d.side);
      continue;
    }
    if (AnyKeyNull(chunk, *d.keys, i)) {
      s.status[i] = 1;  // never matches, never kept
      continue;
    }
    s.status[i] = SaturatingAdd(t, d.keep) > progress ? 2 : 1;
    const uint32_t key = s.keys.Find(s.encoded[i]);
    if (key == KeyIndex::kNotFound) continue;
    const KeyState& ks = s.key_states[key];
    const std::vector<Entry>& es = ks.entries[d.other];
    const int64_t from = SaturatingAdd(t, d.lo), to = SaturatingAdd(t, d.hi);
    auto first = std::lower_bound(es.begin() + static_cast<std::ptrdiff_t>(ks.head[d.other]), es.end(), from,
                                  [](const Entry& e, int64_t x) { return e.time < x; });
    for (auto e = first; e != es.end() && e->time <= to; ++e) {
      s.pairs.push_back(Pair{static_cast<uint32_t>(i), key, static_cast<uint32_t>(e - es.begin())});
    }
  }
}

Status IntervalJoinOperator::FilterCandidates(const Side& d, const Chunk& chunk) {
  // The residual condition decides which candidates match.
  State& s = *state_;
  const std::vector<Pair>& pairs = s.pairs;
  s.pass.assign(pairs.size(), 1);
  if (!s.residual || pairs.empty()) return Status::OK();
  std::vector<uint32_t> mine, theirs;
  for (const Pair& p : pairs) {
    mine.push_back(p.row);
    theirs.push_back(s.key_states[p.key].entries[d.other][p.pos].row);
  }
  const Chunk& other_rows = s.arenas[d.other].rows();
  Chunk joined(output_types_);
  const size_t nl = left_types_.size();
  const Chunk& l = d.side == 0 ? chunk : other_rows;
  const Chunk& r = d.side == 0 ? other_rows : chunk;
  const std::vector<uint32_t>& lsel = d.side == 0 ? mine : theirs;
  const std::vector<uint32_t>& rsel = d.side == 0 ? theirs : mine;
  for (size_t c = 0; c < nl; ++c) AppendSelectedOrNull(&joined.column(c), l.column(c), lsel.data(), pairs.size());
  for (size_t c = 0; c < right_types_.size(); ++c) {
    AppendSelectedOrNull(&joined.column(nl + c), r.column(c), rsel.data(), pairs.size());
  }
  joined.kind_vector().assign(pairs.size(), RowKind::kInsert);
  std::vector<uint32_t> sel;
  RETURN_IF_ERROR(s.residual->Filter(joined, &sel));
  std::fill(s.pass.begin(), s.pass.end(), 0);
  for (uint32_t k : sel) s.pass[k] = 1;
  return Status::OK();
}

Status IntervalJoinOperator::EmitMatches(const Side& d, const Chunk& chunk) {
  // Output in input order: each row's matches in the other side's (time, arrival) order, or its
  // padding when it matched nothing and will not be kept.
  State& s = *state_;
  const size_t n = chunk.size();
  s.out_mine.clear();
  s.out_theirs.clear();
  s.matched.assign(n, 0);
  size_t p = 0;
  for (size_t i = 0; i < n; ++i) {
    for (; p < s.pairs.size() && s.pairs[p].row == i; ++p) {
      if (!s.pass[p]) continue;
      Entry& e = s.key_states[s.pairs[p].key].entries[d.other][s.pairs[p].pos];
      if (!e.matched) {
        e.matched = 1;
        s.key_delta.Mark(s.pairs[p].key);
      }
      s.matched[i] = 1;
      s.out_mine.push_back(static_cast<uint32_t>(i));
      s.out_theirs.push_back(e.row);
    }
    if (s.status[i] == 1 && d.outer && !s.matched[i]) {
      s.out_mine.push_back(static_cast<uint32_t>(i));
      s.out_theirs.push_back(kNullRow);
    }
  }
  return EmitPairs(d, chunk, s.out_mine, s.out_theirs);
}

void IntervalJoinOperator::KeepRows(const Side& d, const Chunk& chunk) {
  // Keep the rows that rows of the other side may still match.
  State& s = *state_;
  std::vector<uint32_t>& kept = s.kept;
  kept.clear();
  for (size_t i = 0; i < chunk.size(); ++i) {
    if (s.status[i] == 2) kept.push_back(static_cast<uint32_t>(i));
  }
  if (kept.empty()) return;
  const int side = d.side;
  const uint32_t base = s.arenas[side].AppendMany(chunk, kept.data(), kept.size());
  for (size_t k = 0; k < kept.size(); ++k) {
    const size_t i = kept[k];
    bool inserted = false;
    const uint32_t key = s.keys.Insert(s.encoded[i], &inserted);
    if (inserted) s.key_states.emplace_back();
    KeyState& ks = s.key_states[key];
    if (ks.Empty()) ++s.live_keys;
    s.key_delta.Mark(key);
    std::vector<Entry>& es = ks.entries[side];
    const Entry e{s.times[i], s.next_seq++, base + static_cast<uint32_t>(k), s.matched[i] != 0 ? 1u : 0u};
    if (es.empty() || es.back().time <= e.time) {
      es.push_back(e);
    } else {
      auto at = std::upper_bound(es.begin() + static_cast<std::ptrdiff_t>(ks.head[side]), es.end(), e.time,
                                 [](int64_t x, const Entry& y) { return x < y.time; });
      es.insert(at, e);
    }
    s.heaps[side].push_back(Expiry{SaturatingAdd(e.time, d.keep), e.seq, key});
    std::push_heap(s.heaps[side].begin(), s.heaps[side].end(), ExpiresLater());
  }
}

Status IntervalJoinOperator::ExpireUpTo(int64_t progress) {
  State& s = *state_;
  // Per output row: the padded side's row id, kNullRow on the other.
  std::vector<uint32_t>* pads = s.pads;
  pads[0].clear();
  pads[1].clear();
  const bool outer[2] = {spec_.left_outer, spec_.right_outer};
  while (true) {
    int side = -1;
    for (int k = 0; k < 2; ++k) {
      if (s.heaps[k].empty() || s.heaps[k].front().deadline > progress) continue;
      if (side < 0 || ExpiresLater()(s.heaps[side].front(), s.heaps[k].front())) side = k;
    }
    if (side < 0) break;
    const Expiry x = s.heaps[side].front();
    std::pop_heap(s.heaps[side].begin(), s.heaps[side].end(), ExpiresLater());
    s.heaps[side].pop_back();
    KeyState& ks = s.key_states[x.key];
    s.key_delta.Mark(x.key);
    // Rows of a key expire in (time, arrival) order, so the expiring row is the key's first.
    std::vector<Entry>& es = ks.entries[side];
    SLUICE_CHECK_LT(ks.head[side], es.size());
    const Entry e = es[ks.head[side]];
    SLUICE_CHECK_EQ(e.seq, x.seq);
    ++ks.head[side];
    if (outer[side] && !e.matched) {
      pads[side].push_back(e.row);
      pads[1 - side].push_back(kNullRow);
    } else {
      s.arenas[side].Release(e.row);
    }
    if (ks.head[side] == es.size()) {
      es.clear();
      ks.head[side] = 0;
      if (ks.Size(1 - side) == 0) {
        // The key keeps its id (until the keys are compacted), not its memory.
        ks = KeyState();
        --s.live_keys;
      }
    } else if (ks.head[side] >= 64 && ks.head[side] * 2 >= es.size()) {
      es.erase(es.begin(), es.begin() + static_cast<std::ptrdiff_t>(ks.head[side]));
      ks.head[side] = 0;
    }
  }
  if (!pads[0].empty()) {
    RETURN_IF_ERROR(EmitJoinedRows(output_types_, s.arenas[0].rows(), pads[0], s.arenas[1].rows(), pads[1]));
    for (int k = 0; k < 2; ++k) {
      for (uint32_t id : pads[k]) {
        if (id != kNullRow) s.arenas[k].Release(id);
      }
    }
  }
  // Rebuild what is mostly garbage (renumbering rows or keys: the next checkpoint is a full one).
  for (int side = 0; side < 2; ++side) {
    const RowArena& arena = s.arenas[side];
    if (arena.size() >= kCompactMin && arena.live() * 2 < arena.size()) CompactArena(side);
  }
  const size_t empty_keys = s.key_states.size() - s.live_keys;
  if (empty_keys >= kCompactMin && empty_keys > s.live_keys) CompactKeys();
  return Status::OK();
}

Status IntervalJoinOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(ExpireUpTo(spec_.rowtime ? watermark : ProcessingTime() - 1));
  if (!spec_.rowtime || spec_.lower_ms > spec_.upper_ms || watermark == kMaxWatermark) return EmitWatermark(watermark);
  // Joined rows carry times up to max(-lower, upper) behind the watermark.
  const int64_t delay = std::max(-lower_us_, upper_us_);
  if (watermark < kMinWatermark + delay) return Status::OK();
  return EmitWatermark(watermark - delay);
}

Status IntervalJoinOperator::OnEndOfInput() {
  RETURN_IF_ERROR(ExpireUpTo(kMaxWatermark));
  return EmitEndOfInput();
}

}  // namespace sluice
