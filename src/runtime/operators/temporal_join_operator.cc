#include "runtime/operators/temporal_join_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/check.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/state_serde.h"

namespace sluice {

namespace {

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

struct Version {
  int64_t time;
  uint32_t row;  // id in the right arena
  bool retract;
};

// A buffered left row; a min-heap on (time, seq).
struct Pending {
  int64_t time;
  uint64_t seq;
  uint32_t row;  // id in the left arena
  uint32_t key;  // key index, or kNullRow for a NULL join key
};
struct PendingLater {
  bool operator()(const Pending& a, const Pending& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
};

bool AnyKeyNull(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

}  // namespace

struct TemporalJoinOperator::State {
  State(const std::vector<LogicalType>& l, const std::vector<LogicalType>& r) : left(l), right(r) {}
  RowArena left;
  RowArena right;
  std::unordered_map<std::string, uint32_t, StringHash> key_index;
  std::vector<std::vector<Version>> versions;  // per key, sorted by time
  std::vector<Pending> pending;
  std::unordered_set<uint32_t> dirty;  // keys whose versions may be cleaned at the next watermark
  uint64_t next_seq = 0;
  size_t stored_versions = 0;
  std::vector<std::string> encoded;
  std::unique_ptr<ExprEvaluator> residual;

  uint32_t KeyIndex(std::string& key) {
    auto [it, inserted] = key_index.try_emplace(std::move(key), static_cast<uint32_t>(versions.size()));
    if (inserted) versions.emplace_back();
    return it->second;
  }
};

Status TemporalJoinOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("temporal-join");
  s.left.Snapshot(w);
  s.right.Snapshot(w);
  w->PutVarint(s.versions.size());
  std::vector<const std::string*> keys(s.versions.size(), nullptr);
  for (const auto& [key, idx] : s.key_index) keys[idx] = &key;
  for (size_t k = 0; k < s.versions.size(); ++k) {
    w->PutString(keys[k] ? *keys[k] : std::string());
    w->PutVarint(s.versions[k].size());
    for (const Version& v : s.versions[k]) {
      w->PutI64(v.time);
      w->PutU32(v.row);
      w->PutBool(v.retract);
    }
  }
  w->PutVarint(s.pending.size());
  for (const Pending& p : s.pending) {  // heap order kept as is
    w->PutI64(p.time);
    w->PutU64(p.seq);
    w->PutU32(p.row);
    w->PutU32(p.key);
  }
  std::vector<uint32_t> dirty(s.dirty.begin(), s.dirty.end());
  std::sort(dirty.begin(), dirty.end());
  w->PutVarint(dirty.size());
  for (uint32_t k : dirty) w->PutU32(k);
  w->PutU64(s.next_seq);
  w->PutVarint(s.stored_versions);
  return Status::OK();
}

Status TemporalJoinOperator::RestoreState(StateReader* r) {
  auto fresh = std::make_unique<State>(left_types_, right_types_);
  State& s = *fresh;
  r->ExpectTag("temporal-join");
  s.left.Restore(r);
  s.right.Restore(r);
  const size_t nkeys = r->GetCount(2);
  for (size_t k = 0; k < nkeys && r->ok(); ++k) {
    if (!s.key_index.emplace(r->GetString(), static_cast<uint32_t>(k)).second) r->Fail("duplicate key");
    std::vector<Version>& vs = s.versions.emplace_back();
    const size_t n = r->GetCount(13);
    for (size_t j = 0; j < n && r->ok(); ++j) {
      Version v;
      v.time = r->GetI64();
      v.row = r->GetU32();
      v.retract = r->GetBool();
      if (v.row >= s.right.rows().size()) r->Fail("version outside the arena");
      vs.push_back(v);
    }
  }
  const size_t np = r->GetCount(24);
  for (size_t j = 0; j < np && r->ok(); ++j) {
    Pending p;
    p.time = r->GetI64();
    p.seq = r->GetU64();
    p.row = r->GetU32();
    p.key = r->GetU32();
    if (p.row >= s.left.rows().size() || (p.key != kNullRow && p.key >= nkeys)) r->Fail("pending row out of range");
    s.pending.push_back(p);
  }
  const size_t nd = r->GetCount(4);
  for (size_t j = 0; j < nd && r->ok(); ++j) {
    uint32_t k = r->GetU32();
    if (k >= nkeys) r->Fail("dirty key out of range");
    s.dirty.insert(k);
  }
  s.next_seq = r->GetU64();
  s.stored_versions = r->GetCount(0);
  RETURN_IF_ERROR(r->status());
  fresh->residual = std::move(state_->residual);  // built by Open from the plan
  state_ = std::move(fresh);
  return Status::OK();
}

TemporalJoinOperator::TemporalJoinOperator(std::string name, std::vector<LogicalType> left_types,
                                           std::vector<LogicalType> right_types, std::vector<int> left_keys,
                                           std::vector<int> right_keys, int left_time, int right_time, bool left_outer,
                                           ExprPtr residual)
    : Operator(std::move(name), 2),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      left_time_(left_time),
      right_time_(right_time),
      left_outer_(left_outer),
      residual_(std::move(residual)),
      state_(std::make_unique<State>(left_types_, right_types_)) {
  SLUICE_CHECK_EQ(left_keys_.size(), right_keys_.size());
}

TemporalJoinOperator::~TemporalJoinOperator() = default;

size_t TemporalJoinOperator::buffered_left_rows() const { return state_->pending.size(); }
size_t TemporalJoinOperator::stored_versions() const { return state_->stored_versions; }

Status TemporalJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (residual_) state_->residual = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  return Status::OK();
}

Status TemporalJoinOperator::Process(int input, Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  return input == 0 ? ProcessLeft(chunk) : ProcessRight(chunk);
}

Status TemporalJoinOperator::ProcessLeft(const Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("TemporalJoin '" + name() +
                                   "' received an update on its left side; a temporal join needs an insert-only probe side");
  }
  const Vector& time = chunk.column(static_cast<size_t>(left_time_));
  EncodeKeys(chunk, left_keys_, &s.encoded);
  const uint32_t base = s.left.AppendMany(chunk, nullptr, n);
  for (size_t i = 0; i < n; ++i) {
    if (time.IsNull(i)) {
      return Status::InvalidArgument("TemporalJoin '" + name() + "': the event-time attribute of a left row is NULL");
    }
    uint32_t key = AnyKeyNull(chunk, left_keys_, i) ? kNullRow : s.KeyIndex(s.encoded[i]);
    s.pending.push_back(Pending{time.data<int64_t>()[i], s.next_seq++, base + static_cast<uint32_t>(i), key});
    std::push_heap(s.pending.begin(), s.pending.end(), PendingLater());
  }
  return Status::OK();
}

Status TemporalJoinOperator::ProcessRight(const Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  const Vector& time = chunk.column(static_cast<size_t>(right_time_));
  EncodeKeys(chunk, right_keys_, &s.encoded);
  const uint32_t base = s.right.AppendMany(chunk, nullptr, n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = base + static_cast<uint32_t>(i);
    if (time.IsNull(i) || AnyKeyNull(chunk, right_keys_, i)) {
      s.right.Release(id);
      continue;
    }
    const uint32_t key = s.KeyIndex(s.encoded[i]);
    std::vector<Version>& vs = s.versions[key];
    const Version v{time.data<int64_t>()[i], id, !IsAccumulate(chunk.kind(i))};
    auto it = std::upper_bound(vs.begin(), vs.end(), v.time, [](int64_t t, const Version& x) { return t < x.time; });
    if (it != vs.begin() && std::prev(it)->time == v.time) {
      // The same version time again: the later row wins.
      s.right.Release(std::prev(it)->row);
      *std::prev(it) = v;
    } else {
      vs.insert(it, v);
      ++s.stored_versions;
    }
    s.dirty.insert(key);
  }
  return Status::OK();
}

Status TemporalJoinOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  std::vector<uint32_t> left_ids;
  std::vector<uint32_t> right_ids;
  while (!s.pending.empty() && s.pending.front().time <= watermark) {
    const Pending p = s.pending.front();
    std::pop_heap(s.pending.begin(), s.pending.end(), PendingLater());
    s.pending.pop_back();
    uint32_t match = kNullRow;
    if (p.key != kNullRow) {
      const std::vector<Version>& vs = s.versions[p.key];
      auto it = std::upper_bound(vs.begin(), vs.end(), p.time, [](int64_t t, const Version& x) { return t < x.time; });
      if (it != vs.begin() && !std::prev(it)->retract) match = std::prev(it)->row;
      s.dirty.insert(p.key);
    }
    if (match == kNullRow && !left_outer_) {
      s.left.Release(p.row);
      continue;
    }
    left_ids.push_back(p.row);
    right_ids.push_back(match);
    if (left_ids.size() >= chunk_size) {
      RETURN_IF_ERROR(EmitJoined(left_ids, &right_ids));
      left_ids.clear();
      right_ids.clear();
    }
  }
  if (!left_ids.empty()) RETURN_IF_ERROR(EmitJoined(left_ids, &right_ids));
  // Versions older than the newest one at or before the watermark can no longer be read.
  for (uint32_t key : s.dirty) {
    std::vector<Version>& vs = s.versions[key];
    auto it = std::upper_bound(vs.begin(), vs.end(), watermark, [](int64_t t, const Version& x) { return t < x.time; });
    if (it == vs.begin()) continue;
    auto keep = std::prev(it);
    for (auto v = vs.begin(); v != keep; ++v) s.right.Release(v->row);
    s.stored_versions -= static_cast<size_t>(keep - vs.begin());
    vs.erase(vs.begin(), keep);
  }
  s.dirty.clear();
  Compact();
  return EmitWatermark(watermark);
}

void TemporalJoinOperator::Compact() {
  State& s = *state_;
  constexpr size_t kMinRows = 1 << 14;
  if (s.left.rows().size() >= kMinRows && s.left.live() * 2 < s.left.rows().size()) {
    RowArena fresh(left_types_);
    for (Pending& p : s.pending) p.row = fresh.Append(s.left.rows(), p.row);
    s.left = std::move(fresh);
  }
  if (s.right.rows().size() >= kMinRows && s.right.live() * 2 < s.right.rows().size()) {
    RowArena fresh(right_types_);
    for (auto& vs : s.versions) {
      for (Version& v : vs) v.row = fresh.Append(s.right.rows(), v.row);
    }
    s.right = std::move(fresh);
  }
}

Status TemporalJoinOperator::EmitJoined(const std::vector<uint32_t>& left_ids, std::vector<uint32_t>* right_ids) {
  State& s = *state_;
  const size_t n = left_ids.size();
  const size_t nl = left_types_.size();
  std::vector<LogicalType> types = left_types_;
  types.insert(types.end(), right_types_.begin(), right_types_.end());
  auto build = [&](Chunk* out) {
    for (size_t c = 0; c < nl; ++c) out->column(c).AppendFrom(s.left.rows().column(c), left_ids.data(), 0, n);
    for (size_t c = 0; c < right_types_.size(); ++c) {
      AppendSelectedOrNull(&out->column(nl + c), s.right.rows().column(c), right_ids->data(), n);
    }
    out->kind_vector().assign(n, RowKind::kInsert);
  };
  Chunk out(types);
  build(&out);
  if (s.residual) {
    // The residual is part of the join condition: a version that fails it is no match.
    std::vector<uint32_t> pass;
    RETURN_IF_ERROR(s.residual->Filter(out, &pass));
    if (pass.size() != n) {
      std::vector<uint8_t> ok(n, 0);
      for (uint32_t r : pass) ok[r] = 1;
      std::vector<uint32_t> kept_left;
      std::vector<uint32_t> kept_right;
      for (size_t r = 0; r < n; ++r) {
        if (ok[r]) {
          kept_left.push_back(left_ids[r]);
          kept_right.push_back((*right_ids)[r]);
        } else if (left_outer_) {
          kept_left.push_back(left_ids[r]);
          kept_right.push_back(kNullRow);
        }
      }
      for (uint32_t id : left_ids) s.left.Release(id);
      *right_ids = std::move(kept_right);
      Chunk filtered(types);
      const size_t m = kept_left.size();
      for (size_t c = 0; c < nl; ++c) filtered.column(c).AppendFrom(s.left.rows().column(c), kept_left.data(), 0, m);
      for (size_t c = 0; c < right_types_.size(); ++c) {
        AppendSelectedOrNull(&filtered.column(nl + c), s.right.rows().column(c), right_ids->data(), m);
      }
      filtered.kind_vector().assign(m, RowKind::kInsert);
      if (m == 0) return Status::OK();
      return Emit(filtered);
    }
  }
  for (uint32_t id : left_ids) s.left.Release(id);
  return Emit(out);
}

}  // namespace sluice
