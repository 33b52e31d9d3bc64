#include "runtime/operators/window_join_operator.h"

#include <algorithm>

#include "common/check.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"

namespace sluice {

namespace {

// Candidate pairs evaluated by the residual condition at once.
constexpr size_t kResidualBatch = 4096;
// Candidate pairs a window's firing joins at once (whole groups; a group with more pairs goes alone).
constexpr size_t kFireBatch = 64 * 1024;

bool AnyKeyNull(const Chunk& chunk, const std::vector<int>& keys, size_t row) {
  for (int k : keys) {
    if (chunk.column(static_cast<size_t>(k)).IsNull(row)) return true;
  }
  return false;
}

}  // namespace

struct WindowJoinOperator::Window {
  Window(const std::vector<LogicalType>& left, const std::vector<LogicalType>& right) : arenas{RowArena(left), RowArena(right)} {}
  RowArena arenas[2];
  KeyIndex keys;                          // join key -> key id (rows with a NULL key are not indexed)
  std::vector<uint32_t> group_of_key;     // key id -> group (increasing)
  std::vector<uint32_t> group_of_row[2];  // arena row -> group, per side
  uint32_t groups = 0;                    // groups so far, numbered by their first row

  // The base of the next delta: sizes at the last snapshot or restore (nothing is ever rewritten, so
  // the trackers never hold dirty ids), and whether the window existed then.
  DeltaTracker key_base;
  DeltaTracker row_base[2];
  bool in_base = false;

  void ResetDeltaBase() {
    key_base.Reset(group_of_key.size());
    for (int side = 0; side < 2; ++side) row_base[side].Reset(group_of_row[side].size());
    in_base = true;
  }

  // Checks the group columns after a restore (full, or a delta onto a base with `base_groups` groups):
  // every group has a row, so there are at most as many groups as rows.
  void Check(StateReader* r, size_t base_groups) const {
    if (!r->ok()) return;
    if (groups < base_groups) return r->Fail("a window join delta drops join groups");
    if (group_of_key.size() != keys.size()) return r->Fail("window join groups do not match the join keys");
    if (groups > group_of_row[0].size() + group_of_row[1].size()) return r->Fail("window join groups without rows");
    for (size_t k = 0; k < group_of_key.size(); ++k) {
      if (group_of_key[k] >= groups || (k > 0 && group_of_key[k] <= group_of_key[k - 1])) {
        return r->Fail("window join key group out of range");
      }
    }
    for (int side = 0; side < 2; ++side) {
      if (group_of_row[side].size() != arenas[side].size()) return r->Fail("window join groups do not match the rows");
      for (uint32_t g : group_of_row[side]) {
        if (g >= groups) return r->Fail("window join row group out of range");
      }
    }
  }
};

// A window's rows grouped for firing: group g's rows of side s are rows[s][offsets[s][g] ..
// offsets[s][g + 1]), in arrival (id) order.
struct WindowJoinOperator::Groups {
  explicit Groups(const Window& w) {
    for (int side = 0; side < 2; ++side) {
      std::vector<uint32_t>& off = offsets[side];
      off.assign(size_t{w.groups} + 1, 0);
      const std::vector<uint32_t>& of_row = w.group_of_row[side];
      for (uint32_t g : of_row) ++off[g + 1];
      for (size_t g = 0; g < w.groups; ++g) off[g + 1] += off[g];
      rows[side].resize(of_row.size());
      std::vector<uint32_t> next(off.begin(), off.end() - 1);
      for (uint32_t id = 0; id < of_row.size(); ++id) rows[side][next[of_row[id]]++] = id;
    }
  }
  size_t count(int side, size_t g) const { return offsets[side][g + 1] - offsets[side][g]; }
  const uint32_t* begin(int side, size_t g) const { return rows[side].data() + offsets[side][g]; }
  const uint32_t* end(int side, size_t g) const { return rows[side].data() + offsets[side][g + 1]; }

  std::vector<uint32_t> offsets[2];
  std::vector<uint32_t> rows[2];
};

struct WindowJoinOperator::State {
  std::unique_ptr<ExprEvaluator> residual;
  std::vector<std::string> encoded;
};

WindowJoinOperator::WindowJoinOperator(std::string name, std::vector<LogicalType> left_types,
                                       std::vector<LogicalType> right_types, WindowJoinSpec spec)
    : Operator(std::move(name), 2),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      spec_(std::move(spec)),
      state_(std::make_unique<State>()) {
  SLUICE_CHECK_EQ(spec_.left_keys.size(), spec_.right_keys.size());
  SLUICE_CHECK_GE(spec_.left_window_end, 0);
  SLUICE_CHECK_GE(spec_.right_window_end, 0);
  SLUICE_CHECK(!(spec_.semi && spec_.anti));
  SLUICE_CHECK(!((spec_.semi || spec_.anti) && (spec_.left_outer || spec_.right_outer || spec_.right_driven)));
  joined_types_ = left_types_;
  joined_types_.insert(joined_types_.end(), right_types_.begin(), right_types_.end());
  output_types_ = spec_.semi || spec_.anti ? left_types_ : joined_types_;
}

WindowJoinOperator::~WindowJoinOperator() = default;

Status WindowJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (spec_.residual) state_->residual = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{spec_.residual}, ctx->eval);
  return Status::OK();
}

size_t WindowJoinOperator::StateBytes() const {
  size_t bytes = VectorBytes(fired_since_base_);
  for (const auto& [end, w] : windows_) {
    bytes += w->keys.MemoryUsage() + VectorBytes(w->group_of_key) + w->key_base.MemoryUsage();
    for (int side = 0; side < 2; ++side) {
      bytes += w->arenas[side].MemoryUsage() + VectorBytes(w->group_of_row[side]) + w->row_base[side].MemoryUsage();
    }
  }
  return bytes;
}

Status WindowJoinOperator::Process(int input, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument(name() + " received an update or delete; a window join needs insert-only inputs, as in Flink");
  }
  const int side = input;
  const std::vector<int>& keys = side == 0 ? spec_.left_keys : spec_.right_keys;
  const Vector& ends = chunk.column(static_cast<size_t>(side == 0 ? spec_.left_window_end : spec_.right_window_end));
  const int event_time_column = side == 0 ? spec_.left_event_time : spec_.right_event_time;
  std::vector<std::string>& encoded = state_->encoded;
  EncodeKeys(chunk, keys, &encoded);
  WindowCursor<Window> cursor(windows_, current_watermark(), spec_.local_time, ctx_);
  for (size_t i = 0; i < n; ++i) {
    if (ends.IsNull(i)) return Status::Internal(name() + ": a row without window_end");
    const int64_t end = ends.data<int64_t>()[i];
    if (cursor.Late(end)) {
      ReportLate(chunk, i, RowEventTime(chunk, event_time_column, i), input);
      continue;
    }
    Window& w = cursor.Get(end, [&] { return std::make_unique<Window>(left_types_, right_types_); });
    w.arenas[side].Append(chunk, i);
    uint32_t group;
    if (AnyKeyNull(chunk, keys, i)) {
      group = w.groups++;  // matches nothing: a group of its own
    } else {
      bool inserted = false;
      const uint32_t key = w.keys.Insert(encoded[i], &inserted);
      if (inserted) w.group_of_key.push_back(w.groups++);
      group = w.group_of_key[key];
    }
    w.group_of_row[side].push_back(group);
  }
  return Status::OK();
}

Status WindowJoinOperator::FireWindow(Window& w) {
  const Groups groups(w);
  // Whole groups at a time, about kFireBatch candidate pairs per batch, so a window with many keys
  // never holds all its pairs (and outputs) at once.
  size_t first = 0;
  while (first < w.groups) {
    size_t last = first, pairs = 0;
    while (last < w.groups && (last == first || pairs < kFireBatch)) {
      // SEMI / ANTI hold no pairs (SemiAntiGroups streams them), only their left rows.
      pairs += spec_.semi || spec_.anti ? groups.count(0, last) : groups.count(0, last) * groups.count(1, last);
      ++last;
    }
    RETURN_IF_ERROR(JoinGroups(w, groups, first, last));
    first = last;
  }
  return Status::OK();
}

Status WindowJoinOperator::JoinGroups(const Window& w, const Groups& groups, size_t first, size_t end) {
  if (spec_.semi || spec_.anti) return SemiAntiGroups(w, groups, first, end);
  const int lead = spec_.right_driven ? 1 : 0;
  const int other = 1 - lead;
  const bool lead_outer = lead == 0 ? spec_.left_outer : spec_.right_outer;
  const bool other_outer = lead == 0 ? spec_.right_outer : spec_.left_outer;
  const Chunk& left = w.arenas[0].rows();
  const Chunk& right = w.arenas[1].rows();

  // Candidate pairs in loop order (lead row, then other row), as left and right ids.
  std::vector<uint32_t> cand[2];
  for (size_t g = first; g < end; ++g) {
    for (const uint32_t* a = groups.begin(lead, g); a != groups.end(lead, g); ++a) {
      for (const uint32_t* b = groups.begin(other, g); b != groups.end(other, g); ++b) {
        cand[lead].push_back(*a);
        cand[other].push_back(*b);
      }
    }
  }
  const size_t total = cand[0].size();
  std::vector<uint8_t> pass(total, 1);
  if (state_->residual && total > 0) {
    std::fill(pass.begin(), pass.end(), 0);
    std::vector<uint32_t> sel;
    for (size_t begin = 0; begin < total; begin += kResidualBatch) {
      const size_t m = std::min(kResidualBatch, total - begin);
      RETURN_IF_ERROR(PassingPairs(left, right, cand[0].data() + begin, cand[1].data() + begin, m, &sel));
      for (uint32_t k : sel) pass[begin + k] = 1;
    }
  }

  // The output in Flink's loop order, with outer rows padded.
  std::vector<uint32_t> out[2];
  std::vector<uint8_t> other_matched;
  size_t p = 0;
  for (size_t g = first; g < end; ++g) {
    const uint32_t* others = groups.begin(other, g);
    const size_t nothers = groups.count(other, g);
    other_matched.assign(nothers, 0);
    for (const uint32_t* a = groups.begin(lead, g); a != groups.end(lead, g); ++a) {
      bool matched = false;
      for (size_t j = 0; j < nothers; ++j, ++p) {
        if (!pass[p]) continue;
        matched = true;
        other_matched[j] = 1;
        out[lead].push_back(*a);
        out[other].push_back(others[j]);
      }
      if (!matched && lead_outer) {
        out[lead].push_back(*a);
        out[other].push_back(kNullRow);
      }
    }
    if (other_outer) {
      for (size_t j = 0; j < nothers; ++j) {
        if (other_matched[j]) continue;
        out[lead].push_back(kNullRow);
        out[other].push_back(others[j]);
      }
    }
  }
  SLUICE_CHECK_EQ(p, total);
  return EmitJoinedRows(output_types_, left, out[0], right, out[1]);
}

Status WindowJoinOperator::PassingPairs(const Chunk& left, const Chunk& right, const uint32_t* left_ids,
                                        const uint32_t* right_ids, size_t m, std::vector<uint32_t>* sel) {
  const size_t nl = left_types_.size();
  Chunk joined(joined_types_);
  for (size_t c = 0; c < nl; ++c) AppendSelectedOrNull(&joined.column(c), left.column(c), left_ids, m);
  for (size_t c = 0; c < right_types_.size(); ++c) AppendSelectedOrNull(&joined.column(nl + c), right.column(c), right_ids, m);
  joined.kind_vector().assign(m, RowKind::kInsert);
  sel->clear();
  return state_->residual->Filter(joined, sel);
}

Status WindowJoinOperator::SemiAntiGroups(const Window& w, const Groups& groups, size_t first, size_t end) {
  const Chunk& left = w.arenas[0].rows();
  const Chunk& right = w.arenas[1].rows();
  // matched[k]: whether the k-th left row of groups [first, end) has a right row passing the residual.
  std::vector<uint8_t> matched;
  for (size_t g = first; g < end; ++g) matched.resize(matched.size() + groups.count(0, g), groups.count(1, g) > 0 ? 1 : 0);
  if (state_->residual) {
    // The candidate pairs in Flink's loop order, kResidualBatch at a time; a left row's remaining
    // pairs are skipped once one passed (Flink's loop breaks there), so memory stays bounded.
    std::fill(matched.begin(), matched.end(), 0);
    std::vector<uint32_t> cand[2];
    std::vector<size_t> owner;  // the candidate's left row, as an index into `matched`
    std::vector<uint32_t> sel;
    auto evaluate = [&]() -> Status {
      if (owner.empty()) return Status::OK();
      RETURN_IF_ERROR(PassingPairs(left, right, cand[0].data(), cand[1].data(), owner.size(), &sel));
      for (uint32_t k : sel) matched[owner[k]] = 1;
      cand[0].clear();
      cand[1].clear();
      owner.clear();
      return Status::OK();
    };
    size_t k = 0;
    for (size_t g = first; g < end; ++g) {
      for (const uint32_t* a = groups.begin(0, g); a != groups.end(0, g); ++a, ++k) {
        for (const uint32_t* b = groups.begin(1, g); b != groups.end(1, g) && !matched[k]; ++b) {
          cand[0].push_back(*a);
          cand[1].push_back(*b);
          owner.push_back(k);
          if (owner.size() == kResidualBatch) RETURN_IF_ERROR(evaluate());
        }
      }
    }
    RETURN_IF_ERROR(evaluate());
  }
  std::vector<uint32_t> out;
  size_t k = 0;
  for (size_t g = first; g < end; ++g) {
    for (const uint32_t* a = groups.begin(0, g); a != groups.end(0, g); ++a, ++k) {
      if ((matched[k] != 0) == spec_.semi) out.push_back(*a);
    }
  }
  // The left columns only: an empty right side, gathered at the same ids (no columns to gather).
  const Chunk no_columns{std::vector<LogicalType>{}};
  return EmitJoinedRows(output_types_, left, out, no_columns, out);
}

Status WindowJoinOperator::FireUpTo(int64_t watermark) {
  return FireWindowsUpTo(windows_, watermark, spec_.local_time, ctx_, [this](int64_t end, Window& w) {
    if (w.in_base) fired_since_base_.push_back(end);
    return FireWindow(w);
  });
}

Status WindowJoinOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FireUpTo(watermark));
  return EmitWatermark(watermark);
}

Status WindowJoinOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  return EmitEndOfInput();
}

namespace {

void PutWindow(StateWriter* w, const RowArena (&arenas)[2], const KeyIndex& keys, const std::vector<uint32_t>& group_of_key,
               const std::vector<uint32_t> (&group_of_row)[2], uint32_t groups) {
  arenas[0].Snapshot(w);
  arenas[1].Snapshot(w);
  keys.Snapshot(w);
  PutColumn(w, group_of_key);
  PutColumn(w, group_of_row[0]);
  PutColumn(w, group_of_row[1]);
  w->PutU32(groups);
}

}  // namespace

void WindowJoinOperator::GetWindow(StateReader* r, Window* win) const {
  win->arenas[0].Restore(r);
  win->arenas[1].Restore(r);
  win->keys.Restore(r);
  GetColumn(r, &win->group_of_key);
  GetColumn(r, &win->group_of_row[0]);
  GetColumn(r, &win->group_of_row[1]);
  win->groups = r->GetU32();
  win->Check(r, 0);
}

void WindowJoinOperator::ResetDeltaBase() {
  for (auto& [end, win] : windows_) win->ResetDeltaBase();
  fired_since_base_.clear();
}

Status WindowJoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-join");
  PutWindows(w, windows_, [w](const Window& win) {
    PutWindow(w, win.arenas, win.keys, win.group_of_key, win.group_of_row, win.groups);
  });
  ResetDeltaBase();
  return Status::OK();
}

void WindowJoinOperator::DropState() {
  windows_.clear();
  fired_since_base_.clear();
}

Status WindowJoinOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("window-join");
  GetWindows(
      r, windows_, [this] { return std::make_unique<Window>(left_types_, right_types_); },
      [this, r](Window& win) { GetWindow(r, &win); });
  RETURN_IF_ERROR(r->status());  // Operator::Restore drops a partly restored state (DropState)
  ResetDeltaBase();
  return Status::OK();
}

Status WindowJoinOperator::SnapshotDelta(StateWriter* w) {
  w->PutTag("window-join delta");
  PutWindowsDelta(
      w, windows_, fired_since_base_, [](const Window& win) { return win.in_base; },
      [w](const Window& win) {
        for (int side = 0; side < 2; ++side) win.arenas[side].SnapshotTail(win.row_base[side].base(), w);
        win.keys.SnapshotSince(win.key_base.base(), w);
        PutColumnDelta(w, win.group_of_key, win.key_base);
        for (int side = 0; side < 2; ++side) PutColumnDelta(w, win.group_of_row[side], win.row_base[side]);
        w->PutU32(win.groups);
      },
      [w](const Window& win) { PutWindow(w, win.arenas, win.keys, win.group_of_key, win.group_of_row, win.groups); });
  ResetDeltaBase();
  return Status::OK();
}

Status WindowJoinOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("window-join delta");
  ApplyWindowsDelta(
      r, windows_, [this] { return std::make_unique<Window>(left_types_, right_types_); },
      [r](Window& win) {
        const size_t base_groups = win.groups;
        for (int side = 0; side < 2; ++side) win.arenas[side].RestoreAppend(r);
        win.keys.RestoreAppend(r);
        ApplyColumnDelta(r, &win.group_of_key);
        for (int side = 0; side < 2; ++side) ApplyColumnDelta(r, &win.group_of_row[side]);
        win.groups = r->GetU32();
        win.Check(r, base_groups);
      },
      [this, r](Window& win) { GetWindow(r, &win); });
  RETURN_IF_ERROR(r->status());  // partly applied: Operator::ApplyDelta drops the state (DropState)
  ResetDeltaBase();
  return Status::OK();
}

}  // namespace sluice
