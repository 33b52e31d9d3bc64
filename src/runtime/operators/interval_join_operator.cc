#include "runtime/operators/interval_join_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

constexpr int64_t kMicrosPerMilli = 1000;

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

// A kept row of one side of one key.
struct Entry {
  int64_t time;
  uint64_t seq;   // arrival order over both sides
  uint32_t row;   // id in the side's arena
  bool matched;   // joined at least once (outer sides pad the rows that never did)
};

struct KeyState {
  std::vector<Entry> entries[2];  // sorted by (time, seq) from head
  size_t head[2] = {0, 0};
  size_t Size(int side) const { return entries[side].size() - head[side]; }
};

using KeyMap = std::unordered_map<std::string, KeyState, StringHash>;

// A kept row's expiry; a min-heap on (deadline, seq).
struct Expiry {
  int64_t deadline;
  uint64_t seq;
  KeyMap::value_type* key;  // map nodes stay put when the map grows
};
struct ExpiresLater {
  bool operator()(const Expiry& a, const Expiry& b) const {
    return a.deadline != b.deadline ? a.deadline > b.deadline : a.seq > b.seq;
  }
};

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

}  // namespace

struct IntervalJoinOperator::State {
  State(const std::vector<LogicalType>& l, const std::vector<LogicalType>& r) : arenas{RowArena(l), RowArena(r)} {}
  RowArena arenas[2];
  std::vector<Expiry> heaps[2];
  KeyMap keys;
  uint64_t next_seq = 0;
  std::unique_ptr<ExprEvaluator> residual;
  // Scratch reused across calls.
  std::vector<std::string> encoded;
  std::vector<int64_t> times;
  std::vector<uint8_t> status;   // per input row: 0 dropped, 1 probe only, 2 probe and keep
  std::vector<uint8_t> matched;  // per input row
  std::vector<uint32_t> out_mine, out_theirs, kept;
  std::vector<uint32_t> pads[2];
};

Status IntervalJoinOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("interval-join");
  for (int side = 0; side < 2; ++side) s.arenas[side].Snapshot(w);
  w->PutVarint(s.keys.size());
  for (const auto& [key, ks] : s.keys) {
    w->PutString(key);
    for (int side = 0; side < 2; ++side) {
      w->PutVarint(ks.Size(side));
      for (size_t j = ks.head[side]; j < ks.entries[side].size(); ++j) {
        const Entry& e = ks.entries[side][j];
        w->PutI64(e.time);
        w->PutU64(e.seq);
        w->PutU32(e.row);
        w->PutBool(e.matched);
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    w->PutVarint(s.heaps[side].size());
    for (const Expiry& e : s.heaps[side]) {  // heap order is kept as is
      w->PutI64(e.deadline);
      w->PutU64(e.seq);
      w->PutString(e.key->first);
    }
  }
  w->PutU64(s.next_seq);
  return Status::OK();
}

Status IntervalJoinOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(left_types_, right_types_);
  State& s = *fresh;
  r->ExpectTag("interval-join");
  for (int side = 0; side < 2; ++side) s.arenas[side].Restore(r);
  const size_t nkeys = r->GetCount(3);
  for (size_t i = 0; i < nkeys && r->ok(); ++i) {
    std::string key = r->GetString();
    KeyState& ks = s.keys[key];
    for (int side = 0; side < 2; ++side) {
      const size_t n = r->GetCount(21);
      for (size_t j = 0; j < n && r->ok(); ++j) {
        Entry e;
        e.time = r->GetI64();
        e.seq = r->GetU64();
        e.row = r->GetU32();
        e.matched = r->GetBool();
        if (e.row >= s.arenas[side].rows().size()) r->Fail("kept row outside the arena");
        ks.entries[side].push_back(e);
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    const size_t n = r->GetCount(17);
    for (size_t j = 0; j < n && r->ok(); ++j) {
      Expiry e;
      e.deadline = r->GetI64();
      e.seq = r->GetU64();
      auto it = s.keys.find(r->GetString());
      if (it == s.keys.end()) {
        r->Fail("expiry for an unknown key");
        break;
      }
      e.key = &*it;
      s.heaps[side].push_back(e);
    }
  }
  s.next_seq = r->GetU64();
  RETURN_IF_ERROR(r->status());
  fresh->residual = std::move(state_->residual);  // built by Open from the plan
  state_ = std::move(fresh);
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
size_t IntervalJoinOperator::kept_keys() const { return state_->keys.size(); }

Status IntervalJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (spec_.residual) state_->residual = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{spec_.residual}, ctx->eval);
  return Status::OK();
}

int64_t IntervalJoinOperator::ProcessingTime() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  return clock ? clock->NowMicros() : 0;
}

Status IntervalJoinOperator::Process(int input, Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("IntervalJoin '" + name() +
                                   "' received an update or delete; an interval join needs insert-only inputs, as in Flink");
  }
  const int side = input;
  const int other = 1 - side;
  const bool outer = side == 0 ? spec_.left_outer : spec_.right_outer;
  const std::vector<int>& keys = side == 0 ? spec_.left_keys : spec_.right_keys;
  // The other side's rows this side's row at t can match: [t + lo, t + hi].
  const int64_t lo = side == 0 ? -upper_us_ : lower_us_;
  const int64_t hi = side == 0 ? -lower_us_ : upper_us_;
  // A kept row expires once progress reaches time + keep; it is late once progress reaches time + late.
  const int64_t keep = side == 0 ? -lower_us_ : upper_us_;
  const int64_t late = side == 0 ? -lower_us_ + std::max<int64_t>(upper_us_, 0) : upper_us_ + std::max<int64_t>(-lower_us_, 0);

  // This side's columns from the chunk, the other side's from its arena, in left ++ right order.
  const Chunk& other_rows = s.arenas[other].rows();
  auto emit = [&](const std::vector<uint32_t>& mine, const std::vector<uint32_t>& theirs) -> Status {
    if (mine.empty()) return Status::OK();
    return side == 0 ? EmitJoinedRows(output_types_, chunk, mine, other_rows, theirs)
                     : EmitJoinedRows(output_types_, other_rows, theirs, chunk, mine);
  };

  if (spec_.lower_ms > spec_.upper_ms) {
    // Nothing can match: outer rows leave padded at once, others are dropped.
    if (!outer) return Status::OK();
    std::vector<uint32_t> mine(n), theirs(n, kNullRow);
    for (size_t i = 0; i < n; ++i) mine[i] = static_cast<uint32_t>(i);
    return emit(mine, theirs);
  }

  int64_t progress;
  s.times.resize(n);
  if (spec_.rowtime) {
    progress = current_watermark();
    const Vector& t = chunk.column(static_cast<size_t>(side == 0 ? spec_.left_time : spec_.right_time));
    for (size_t i = 0; i < n; ++i) {
      if (t.IsNull(i)) {
        return Status::InvalidArgument("IntervalJoin '" + name() + "': the event-time attribute of a " +
                                       (side == 0 ? "left" : "right") + " row is NULL");
      }
      s.times[i] = t.data<int64_t>()[i];
    }
  } else {
    const int64_t now = ProcessingTime();
    progress = now - 1;
    std::fill(s.times.begin(), s.times.end(), now);
    RETURN_IF_ERROR(ExpireUpTo(progress));
  }
  EncodeKeys(chunk, keys, &s.encoded);

  // Candidate pairs: probe row, and the other side's kept entry (key, position).
  struct Pair {
    uint32_t row;
    KeyState* key;
    uint32_t pos;
  };
  std::vector<Pair> pairs;
  std::vector<uint8_t>& status = s.status;
  status.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = s.times[i];
    if (spec_.rowtime && SaturatingAdd(t, late) <= progress) {
      ReportLate(chunk, i, t, input);
      continue;
    }
    if (AnyKeyNull(chunk, keys, i)) {
      status[i] = 1;  // never matches, never kept
      continue;
    }
    status[i] = SaturatingAdd(t, keep) > progress ? 2 : 1;
    auto it = s.keys.find(s.encoded[i]);
    if (it == s.keys.end()) continue;
    KeyState& ks = it->second;
    const std::vector<Entry>& es = ks.entries[other];
    const int64_t from = SaturatingAdd(t, lo), to = SaturatingAdd(t, hi);
    auto first = std::lower_bound(es.begin() + static_cast<std::ptrdiff_t>(ks.head[other]), es.end(), from,
                                  [](const Entry& e, int64_t x) { return e.time < x; });
    for (auto e = first; e != es.end() && e->time <= to; ++e) {
      pairs.push_back(Pair{static_cast<uint32_t>(i), &ks, static_cast<uint32_t>(e - es.begin())});
    }
  }

  // The residual condition decides which candidates match.
  std::vector<uint8_t> pass(pairs.size(), 1);
  if (s.residual && !pairs.empty()) {
    std::vector<uint32_t> mine, theirs;
    for (const Pair& p : pairs) {
      mine.push_back(p.row);
      theirs.push_back(p.key->entries[other][p.pos].row);
    }
    Chunk joined(output_types_);
    const size_t nl = left_types_.size();
    const Chunk& l = side == 0 ? chunk : other_rows;
    const Chunk& r = side == 0 ? other_rows : chunk;
    const std::vector<uint32_t>& lsel = side == 0 ? mine : theirs;
    const std::vector<uint32_t>& rsel = side == 0 ? theirs : mine;
    for (size_t c = 0; c < nl; ++c) AppendSelectedOrNull(&joined.column(c), l.column(c), lsel.data(), pairs.size());
    for (size_t c = 0; c < right_types_.size(); ++c) {
      AppendSelectedOrNull(&joined.column(nl + c), r.column(c), rsel.data(), pairs.size());
    }
    joined.kind_vector().assign(pairs.size(), RowKind::kInsert);
    std::vector<uint32_t> sel;
    RETURN_IF_ERROR(s.residual->Filter(joined, &sel));
    std::fill(pass.begin(), pass.end(), 0);
    for (uint32_t k : sel) pass[k] = 1;
  }

  // Output in input order: each row's matches in the other side's (time, arrival) order, or its
  // padding when it matched nothing and will not be kept.
  std::vector<uint32_t>& out_mine = s.out_mine;
  std::vector<uint32_t>& out_theirs = s.out_theirs;
  out_mine.clear();
  out_theirs.clear();
  std::vector<uint8_t>& matched = s.matched;
  matched.assign(n, 0);
  size_t p = 0;
  for (size_t i = 0; i < n; ++i) {
    for (; p < pairs.size() && pairs[p].row == i; ++p) {
      if (!pass[p]) continue;
      Entry& e = pairs[p].key->entries[other][pairs[p].pos];
      e.matched = true;
      matched[i] = 1;
      out_mine.push_back(static_cast<uint32_t>(i));
      out_theirs.push_back(e.row);
    }
    if (status[i] == 1 && outer && !matched[i]) {
      out_mine.push_back(static_cast<uint32_t>(i));
      out_theirs.push_back(kNullRow);
    }
  }
  RETURN_IF_ERROR(emit(out_mine, out_theirs));

  // Keep the rows that rows of the other side may still match.
  std::vector<uint32_t>& kept = s.kept;
  kept.clear();
  for (size_t i = 0; i < n; ++i) {
    if (status[i] == 2) kept.push_back(static_cast<uint32_t>(i));
  }
  if (kept.empty()) return Status::OK();
  const uint32_t base = s.arenas[side].AppendMany(chunk, kept.data(), kept.size());
  for (size_t k = 0; k < kept.size(); ++k) {
    const size_t i = kept[k];
    auto it = s.keys.try_emplace(std::move(s.encoded[i])).first;
    std::vector<Entry>& es = it->second.entries[side];
    const Entry e{s.times[i], s.next_seq++, base + static_cast<uint32_t>(k), matched[i] != 0};
    if (es.empty() || es.back().time <= e.time) {
      es.push_back(e);
    } else {
      auto at = std::upper_bound(es.begin() + static_cast<std::ptrdiff_t>(it->second.head[side]), es.end(), e.time,
                                 [](int64_t x, const Entry& y) { return x < y.time; });
      es.insert(at, e);
    }
    s.heaps[side].push_back(Expiry{SaturatingAdd(e.time, keep), e.seq, &*it});
    std::push_heap(s.heaps[side].begin(), s.heaps[side].end(), ExpiresLater());
  }
  return Status::OK();
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
    KeyState& ks = x.key->second;
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
      if (ks.Size(1 - side) == 0) s.keys.erase(s.keys.find(x.key->first));
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
  Compact();
  return Status::OK();
}

void IntervalJoinOperator::Compact() {
  State& s = *state_;
  constexpr size_t kMinRows = 1 << 14;
  for (int side = 0; side < 2; ++side) {
    RowArena& arena = s.arenas[side];
    if (arena.rows().size() < kMinRows || arena.live() * 2 >= arena.rows().size()) continue;
    RowArena fresh(side == 0 ? left_types_ : right_types_);
    for (auto& [key, ks] : s.keys) {
      std::vector<Entry>& es = ks.entries[side];
      for (size_t i = ks.head[side]; i < es.size(); ++i) es[i].row = fresh.Append(arena.rows(), es[i].row);
    }
    arena = std::move(fresh);
  }
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
