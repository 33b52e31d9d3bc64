#include "runtime/operators/window_join_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <unordered_map>

#include "common/check.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"

namespace sluice {

namespace {

// Candidate pairs evaluated by the residual condition at once.
constexpr size_t kResidualBatch = 4096;
// Candidate pairs a window's firing joins at once (whole keys; a key with more pairs goes alone).
constexpr size_t kFireBatch = 64 * 1024;

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

// One join key's rows of each side in one window: ids in the side's arena, in arrival order.
struct KeyRows {
  std::vector<uint32_t> rows[2];
};

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
  std::unordered_map<std::string, uint32_t, StringHash> index;  // join key -> keys index
  std::vector<KeyRows> keys;                                     // in first-arrival order
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
  output_types_ = left_types_;
  output_types_.insert(output_types_.end(), right_types_.begin(), right_types_.end());
}

WindowJoinOperator::~WindowJoinOperator() = default;

Status WindowJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (spec_.residual) state_->residual = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{spec_.residual}, ctx->eval);
  return Status::OK();
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
    const uint32_t id = w.arenas[side].Append(chunk, i);
    if (AnyKeyNull(chunk, keys, i)) {
      // Matches nothing: a group of its own.
      w.keys.emplace_back();
      w.keys.back().rows[side].push_back(id);
      continue;
    }
    auto [it, fresh] = w.index.try_emplace(encoded[i], static_cast<uint32_t>(w.keys.size()));
    if (fresh) w.keys.emplace_back();
    w.keys[it->second].rows[side].push_back(id);
  }
  return Status::OK();
}

Status WindowJoinOperator::FireWindow(Window& w) {
  // Whole keys at a time, about kFireBatch candidate pairs per batch, so a window with many keys never
  // holds all its pairs (and outputs) at once.
  size_t first = 0;
  while (first < w.keys.size()) {
    size_t last = first, pairs = 0;
    while (last < w.keys.size() && (last == first || pairs < kFireBatch)) {
      pairs += w.keys[last].rows[0].size() * w.keys[last].rows[1].size();
      ++last;
    }
    RETURN_IF_ERROR(JoinKeys(w, first, last));
    first = last;
  }
  return Status::OK();
}

Status WindowJoinOperator::JoinKeys(const Window& w, size_t first_key, size_t end_key) {
  const int lead = spec_.right_driven ? 1 : 0;
  const int other = 1 - lead;
  const bool lead_outer = lead == 0 ? spec_.left_outer : spec_.right_outer;
  const bool other_outer = lead == 0 ? spec_.right_outer : spec_.left_outer;
  const Chunk& left = w.arenas[0].rows();
  const Chunk& right = w.arenas[1].rows();

  // Candidate pairs in loop order (lead row, then other row), as left and right ids.
  std::vector<uint32_t> cand[2];
  for (size_t k = first_key; k < end_key; ++k) {
    for (uint32_t a : w.keys[k].rows[lead]) {
      for (uint32_t b : w.keys[k].rows[other]) {
        cand[lead].push_back(a);
        cand[other].push_back(b);
      }
    }
  }
  const size_t total = cand[0].size();
  std::vector<uint8_t> pass(total, 1);
  if (state_->residual && total > 0) {
    std::fill(pass.begin(), pass.end(), 0);
    const size_t nl = left_types_.size();
    std::vector<uint32_t> sel;
    for (size_t begin = 0; begin < total; begin += kResidualBatch) {
      const size_t m = std::min(kResidualBatch, total - begin);
      Chunk joined(output_types_);
      for (size_t c = 0; c < nl; ++c) AppendSelectedOrNull(&joined.column(c), left.column(c), cand[0].data() + begin, m);
      for (size_t c = 0; c < right_types_.size(); ++c) {
        AppendSelectedOrNull(&joined.column(nl + c), right.column(c), cand[1].data() + begin, m);
      }
      joined.kind_vector().assign(m, RowKind::kInsert);
      sel.clear();
      RETURN_IF_ERROR(state_->residual->Filter(joined, &sel));
      for (uint32_t k : sel) pass[begin + k] = 1;
    }
  }

  // The output in Flink's loop order, with outer rows padded.
  std::vector<uint32_t> out[2];
  std::vector<uint8_t> other_matched;
  size_t p = 0;
  for (size_t k = first_key; k < end_key; ++k) {
    const std::vector<uint32_t>& others = w.keys[k].rows[other];
    other_matched.assign(others.size(), 0);
    for (uint32_t a : w.keys[k].rows[lead]) {
      bool matched = false;
      for (size_t j = 0; j < others.size(); ++j, ++p) {
        if (!pass[p]) continue;
        matched = true;
        other_matched[j] = 1;
        out[lead].push_back(a);
        out[other].push_back(others[j]);
      }
      if (!matched && lead_outer) {
        out[lead].push_back(a);
        out[other].push_back(kNullRow);
      }
    }
    if (other_outer) {
      for (size_t j = 0; j < others.size(); ++j) {
        if (other_matched[j]) continue;
        out[lead].push_back(kNullRow);
        out[other].push_back(others[j]);
      }
    }
  }
  SLUICE_CHECK_EQ(p, total);
  return EmitJoinedRows(output_types_, left, out[0], right, out[1]);
}

Status WindowJoinOperator::FireUpTo(int64_t watermark) {
  return FireWindowsUpTo(windows_, watermark, spec_.local_time, ctx_, [this](Window& w) { return FireWindow(w); });
}

Status WindowJoinOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FireUpTo(watermark));
  return EmitWatermark(watermark);
}

Status WindowJoinOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  return EmitEndOfInput();
}

Status WindowJoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-join");
  w->PutVarint(windows_.size());
  for (const auto& [end, win] : windows_) {
    w->PutI64(end);
    win->arenas[0].Snapshot(w);
    win->arenas[1].Snapshot(w);
    std::vector<const std::string*> keys(win->keys.size(), nullptr);
    for (const auto& [key, idx] : win->index) keys[idx] = &key;
    w->PutVarint(win->keys.size());
    for (size_t i = 0; i < win->keys.size(); ++i) {
      // A row with a NULL join key is a group of its own, outside the index.
      w->PutBool(keys[i] != nullptr);
      if (keys[i] != nullptr) w->PutString(*keys[i]);
      for (int side = 0; side < 2; ++side) {
        w->PutVarint(win->keys[i].rows[side].size());
        for (uint32_t id : win->keys[i].rows[side]) w->PutU32(id);
      }
    }
  }
  return Status::OK();
}

Status WindowJoinOperator::RestoreState(StateReader* r) {
  windows_.clear();
  r->ExpectTag("window-join");
  const size_t n = r->GetCount(9);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    auto win = std::make_unique<Window>(left_types_, right_types_);
    win->arenas[0].Restore(r);
    win->arenas[1].Restore(r);
    const size_t nk = r->GetCount(3);
    for (size_t k = 0; k < nk && r->ok(); ++k) {
      if (r->GetBool() && !win->index.emplace(r->GetString(), static_cast<uint32_t>(k)).second) {
        r->Fail("duplicate join key");
      }
      KeyRows& kr = win->keys.emplace_back();
      for (int side = 0; side < 2; ++side) {
        kr.rows[side].resize(r->GetCount(4));
        for (uint32_t& id : kr.rows[side]) {
          id = r->GetU32();
          if (id >= win->arenas[side].rows().size()) r->Fail("joined row outside the arena");
        }
      }
    }
    windows_.emplace(end, std::move(win));
  }
  return r->status();
}

}  // namespace sluice
