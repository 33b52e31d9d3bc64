#include "runtime/operators/temporal_join_operator.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "common/check.h"
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

// A version of the right side: `row` in the right arena, in force from `time` on; a retraction
// (-U/-D) means "no row from this time on". Written raw into checkpoints, so it has no padding.
struct Version {
  int64_t time;
  uint32_t row;
  uint32_t retract;  // 0 or 1
};
static_assert(sizeof(Version) == 16 && std::has_unique_object_representations_v<Version>);

// A buffered left row; a min-heap on (time, row): left rows get arena ids in arrival order, and
// compaction keeps that order, so the row id breaks ties as arrival order.
struct Pending {
  int64_t time;
  uint32_t row;  // id in the left arena
  uint32_t key;  // key id, or kNullRow for a NULL join key
};
struct PendingLater {
  bool operator()(const Pending& a, const Pending& b) const { return a.time != b.time ? a.time > b.time : a.row > b.row; }
};

// left_key[row] of a left row that was emitted (or dropped): no longer pending.
constexpr uint32_t kEmitted = kNullRow - 1;

// Arenas are rebuilt once most of their rows were released, from this size on.
constexpr size_t kCompactMinRows = 1 << 14;

bool AnyKeyNull(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

// The first version with time > t.
std::vector<Version>::const_iterator VersionAfter(const std::vector<Version>& vs, int64_t t) {
  return std::upper_bound(vs.begin(), vs.end(), t, [](int64_t x, const Version& v) { return x < v.time; });
}

}  // namespace

// Keyed state: join keys get dense ids from a KeyIndex; per key id the versions (sorted by time).
// Left rows live in the left arena until emitted; left_key[row] is the row's key id while it waits
// (kNullRow: a NULL key) and kEmitted after, so the pending heap is derived state: rebuilt from
// left_key and the arena's time column after a restore, never written.
//
// Incremental checkpoints: a delta holds the arenas' new rows, the new key bytes, left_key's dirty
// and new slots (DeltaTracker over left rows: a row is written once more when emitted), the whole
// version list of every key written since the base (DeltaTracker over keys) and of every new key,
// and the keys awaiting cleanup (few: those touched since the last watermark). A compaction renumbers
// rows, which a delta cannot express: CanSnapshotDelta() is then false until the next full snapshot.
// A full snapshot drops released rows first (renumbering is harmless: it becomes the new base).
struct TemporalJoinOperator::State {
  State(const std::vector<LogicalType>& l, const std::vector<LogicalType>& r) : left(l), right(r) {}
  RowArena left;
  RowArena right;
  KeyIndex keys;
  std::vector<std::vector<Version>> versions;  // per key id, sorted by time
  std::vector<uint32_t> left_key;              // per left row
  std::vector<Pending> pending;                // heap over the rows with left_key != kEmitted
  // Keys whose versions may be cleaned at the next watermark (each once: in_cleanup).
  std::vector<uint32_t> cleanup;
  std::vector<uint8_t> in_cleanup;  // per key id
  size_t stored_versions = 0;
  std::vector<std::string> encoded;
  std::unique_ptr<ExprEvaluator> residual;

  // The base of the next delta (the state at the last snapshot or restore).
  DeltaTracker key_delta;
  DeltaTracker left_delta;
  size_t right_base = 0;
  bool compacted = false;

  uint32_t KeyOf(std::string_view key) {
    bool inserted = false;
    const uint32_t id = keys.Insert(key, &inserted);
    if (inserted) {
      versions.emplace_back();
      in_cleanup.push_back(0);
    }
    return id;
  }
  void AddCleanup(uint32_t key) {
    if (in_cleanup[key]) return;
    in_cleanup[key] = 1;
    cleanup.push_back(key);
  }
  void ResetDeltaBase() {
    key_delta.Reset(versions.size());
    left_delta.Reset(left_key.size());
    right_base = right.size();
    compacted = false;
  }
};

void TemporalJoinOperator::CompactLeft() {
  State& s = *state_;
  std::vector<uint32_t> rows;
  rows.reserve(s.pending.size());
  for (uint32_t row = 0; row < s.left_key.size(); ++row) {
    if (s.left_key[row] != kEmitted) rows.push_back(row);
  }
  RowArena fresh(left_types_);
  std::vector<uint32_t> keys(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) keys[i] = s.left_key[rows[i]];
  if (!rows.empty()) fresh.AppendMany(s.left.rows(), rows.data(), rows.size());
  s.left = std::move(fresh);
  s.left_key = std::move(keys);
  RebuildPending();
  s.compacted = true;
}

void TemporalJoinOperator::CompactRight() {
  State& s = *state_;
  RowArena fresh(right_types_);
  for (auto& vs : s.versions) {
    for (Version& v : vs) v.row = fresh.Append(s.right.rows(), v.row);
  }
  s.right = std::move(fresh);
  s.compacted = true;
}

void TemporalJoinOperator::RebuildPending() {
  State& s = *state_;
  s.pending.clear();
  const int64_t* time = s.left.rows().column(static_cast<size_t>(left_time_)).data<int64_t>();
  for (uint32_t row = 0; row < s.left_key.size(); ++row) {
    if (s.left_key[row] != kEmitted) s.pending.push_back(Pending{time[row], row, s.left_key[row]});
  }
  std::make_heap(s.pending.begin(), s.pending.end(), PendingLater());
}

// Checks what a restore read and rebuilds the derived state (pending heap, cleanup flags, counts).
void TemporalJoinOperator::ValidateAndDerive(StateReader* r) {
  State& s = *state_;
  if (!r->ok()) return;
  const size_t nkeys = s.keys.size();
  if (s.versions.size() != nkeys) return r->Fail("temporal join versions do not match their keys");
  if (s.left_key.size() != s.left.size()) return r->Fail("temporal join left rows do not match their arena");
  for (uint32_t k : s.left_key) {
    if (k != kEmitted && k != kNullRow && k >= nkeys) return r->Fail("temporal join left row with a key out of range");
  }
  s.stored_versions = 0;
  for (const auto& vs : s.versions) {
    for (size_t j = 0; j < vs.size(); ++j) {
      if (vs[j].row >= s.right.size() || vs[j].retract > 1 || (j > 0 && vs[j - 1].time >= vs[j].time)) {
        return r->Fail("temporal join version out of range");
      }
    }
    s.stored_versions += vs.size();
  }
  s.in_cleanup.assign(nkeys, 0);
  for (uint32_t k : s.cleanup) {
    if (k >= nkeys || s.in_cleanup[k]) return r->Fail("temporal join cleanup key out of range");
    s.in_cleanup[k] = 1;
  }
  if (s.left.rows().num_columns() != left_types_.size()) return r->Fail("temporal join left arena malformed");
  RebuildPending();
}

namespace {

void PutVersions(StateWriter* w, const std::vector<Version>& vs) {
  w->PutVarint(vs.size());
  if (!vs.empty()) w->PutRaw(vs.data(), vs.size() * sizeof(Version));
}

void GetVersions(StateReader* r, std::vector<Version>* vs) {
  const size_t n = r->GetCount(sizeof(Version));
  if (!r->ok()) return;
  vs->resize(n);
  if (n > 0) r->GetRaw(vs->data(), n * sizeof(Version));
}

}  // namespace

Status TemporalJoinOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  // Only live rows go into the checkpoint.
  if (s.left.live() < s.left.size()) CompactLeft();
  if (s.right.live() < s.right.size()) CompactRight();
  w->PutTag("temporal-join");
  s.left.Snapshot(w);
  PutColumn(w, s.left_key);
  s.right.Snapshot(w);
  s.keys.Snapshot(w);
  for (const auto& vs : s.versions) PutVersions(w, vs);
  PutColumn(w, s.cleanup);
  s.ResetDeltaBase();
  return Status::OK();
}

void TemporalJoinOperator::DropState() {
  auto fresh = std::make_unique<State>(left_types_, right_types_);
  fresh->residual = std::move(state_->residual);  // built by Open from the plan
  state_ = std::move(fresh);
}

Status TemporalJoinOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("temporal-join");
  s.left.Restore(r);
  GetColumn(r, &s.left_key);
  s.right.Restore(r);
  s.keys.Restore(r);
  s.versions.resize(r->ok() ? s.keys.size() : 0);
  for (auto& vs : s.versions) {
    if (!r->ok()) break;
    GetVersions(r, &vs);
  }
  GetColumn(r, &s.cleanup);
  ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
  return Status::OK();
}

bool TemporalJoinOperator::CanSnapshotDelta() const { return !state_->compacted; }

Status TemporalJoinOperator::SnapshotDelta(StateWriter* w) {
  State& s = *state_;
  SLUICE_CHECK(!s.compacted);
  w->PutTag("temporal-join delta");
  s.left.SnapshotTail(s.left_delta.base(), w);
  PutColumnDelta(w, s.left_key, s.left_delta);
  s.right.SnapshotTail(s.right_base, w);
  const size_t key_base = s.key_delta.base();
  s.keys.SnapshotSince(key_base, w);
  // The version lists of keys written since the base, then those of the new keys.
  PutValuesDelta(w, s.versions, s.key_delta, PutVersions);
  PutColumn(w, s.cleanup);
  s.ResetDeltaBase();
  return Status::OK();
}

Status TemporalJoinOperator::RestoreDelta(StateReader* r) {
  State& s = *state_;
  r->ExpectTag("temporal-join delta");
  s.left.RestoreAppend(r);
  ApplyColumnDelta(r, &s.left_key);
  s.right.RestoreAppend(r);
  s.keys.RestoreAppend(r);
  ApplyValuesDelta(r, s.keys.size(), 5, &s.versions, GetVersions);
  GetColumn(r, &s.cleanup);
  ValidateAndDerive(r);
  RETURN_IF_ERROR(r->status());
  s.ResetDeltaBase();
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

size_t TemporalJoinOperator::StateBytes() const {
  const State& s = *state_;
  return s.left.MemoryUsage() + s.right.MemoryUsage() + s.keys.MemoryUsage() + VectorBytes(s.versions) +
         s.stored_versions * sizeof(Version) + VectorBytes(s.left_key) + VectorBytes(s.pending) + VectorBytes(s.cleanup) +
         VectorBytes(s.in_cleanup) + s.key_delta.MemoryUsage() + s.left_delta.MemoryUsage();
}

Status TemporalJoinOperator::Process(int input, Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  return input == 0 ? ProcessLeft(chunk) : ProcessRight(chunk);
}

Status TemporalJoinOperator::ProcessLeft(const Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  const Vector& time = chunk.column(static_cast<size_t>(left_time_));
  for (size_t i = 0; i < n; ++i) {
    if (time.IsNull(i)) {
      return Status::InvalidArgument("TemporalJoin '" + name() + "': the event-time attribute of a left row is NULL");
    }
  }
  EncodeKeys(chunk, left_keys_, &s.encoded);
  const uint32_t base = s.left.AppendMany(chunk, nullptr, n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t key = AnyKeyNull(chunk, left_keys_, i) ? kNullRow : s.KeyOf(s.encoded[i]);
    s.left_key.push_back(key);
    s.pending.push_back(Pending{time.data<int64_t>()[i], base + static_cast<uint32_t>(i), key});
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
    const uint32_t key = s.KeyOf(s.encoded[i]);
    std::vector<Version>& vs = s.versions[key];
    const Version v{time.data<int64_t>()[i], id, IsAccumulate(chunk.kind(i)) ? 0u : 1u};
    auto it = vs.begin() + (VersionAfter(vs, v.time) - vs.cbegin());
    if (it != vs.begin() && std::prev(it)->time == v.time) {
      // The same version time again: the later row wins.
      s.right.Release(std::prev(it)->row);
      *std::prev(it) = v;
    } else {
      vs.insert(it, v);
      ++s.stored_versions;
    }
    s.key_delta.Mark(key);
    s.AddCleanup(key);
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
    s.left_key[p.row] = kEmitted;
    s.left_delta.Mark(p.row);
    uint32_t match = kNullRow;
    if (p.key != kNullRow) {
      const std::vector<Version>& vs = s.versions[p.key];
      auto it = VersionAfter(vs, p.time);
      if (it != vs.begin() && !std::prev(it)->retract) match = std::prev(it)->row;
      s.AddCleanup(p.key);
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
  for (uint32_t key : s.cleanup) {
    s.in_cleanup[key] = 0;
    std::vector<Version>& vs = s.versions[key];
    auto it = VersionAfter(vs, watermark);
    if (it == vs.begin() || std::prev(it) == vs.begin()) continue;
    const auto keep = std::prev(it) - vs.cbegin();
    for (auto v = vs.begin(); v != vs.begin() + keep; ++v) s.right.Release(v->row);
    s.stored_versions -= static_cast<size_t>(keep);
    vs.erase(vs.begin(), vs.begin() + keep);
    s.key_delta.Mark(key);
  }
  s.cleanup.clear();
  if (s.left.size() >= kCompactMinRows && s.left.live() * 2 < s.left.size()) CompactLeft();
  if (s.right.size() >= kCompactMinRows && s.right.live() * 2 < s.right.size()) CompactRight();
  return EmitWatermark(watermark);
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
    // Each joined row has its left row's kind (Flink's collectJoinedRow).
    out->kind_vector().resize(n);
    for (size_t r = 0; r < n; ++r) out->kind_vector()[r] = s.left.rows().kind(left_ids[r]);
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
      filtered.kind_vector().resize(m);
      for (size_t r = 0; r < m; ++r) filtered.kind_vector()[r] = s.left.rows().kind(kept_left[r]);
      if (m == 0) return Status::OK();
      return Emit(filtered);
    }
  }
  for (uint32_t id : left_ids) s.left.Release(id);
  return Emit(out);
}

}  // namespace sluice
