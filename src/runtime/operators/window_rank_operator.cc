#include "runtime/operators/window_rank_operator.h"

#include <algorithm>
#include <limits>

#include "common/check.h"
#include "runtime/job.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/delta.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

// A window's arena is rebuilt once released rows outnumber live ones by this much.
constexpr size_t kCompactSlack = 1024;
// The partition of a row pushed out of its partition's top.
constexpr uint32_t kReleased = std::numeric_limits<uint32_t>::max();

}  // namespace

struct WindowRankOperator::Window {
  explicit Window(const std::vector<LogicalType>& types) : rows(types) {}

  // Checkpointed state.
  RowArena rows;                        // stored rows, kept and (until compaction) released
  KeyIndex partitions;                  // partition key -> partition id, in first-arrival order
  std::vector<uint32_t> row_partition;  // arena row -> partition id, or kReleased

  // Derived: per partition its kept rows, best first (at most rank_end); per row its encoded sort key
  // (bytes [sort_offsets[id], sort_offsets[id + 1]) of sort_keys); the kept rows.
  std::vector<std::vector<uint32_t>> tops;
  std::string sort_keys;
  std::vector<uint64_t> sort_offsets = {0};
  size_t live = 0;

  // The base of the next delta: the rows released since (ids below the rows at the base), the
  // partitions then, whether the window existed then and whether a compaction renumbered its rows since.
  DeltaTracker released;
  size_t partition_base = 0;
  bool in_base = false;
  bool compacted = false;

  std::string_view sort_key(uint32_t id) const {
    return std::string_view(sort_keys.data() + sort_offsets[id], sort_offsets[id + 1] - sort_offsets[id]);
  }
  void AddSortKey(std::string_view key) {
    sort_keys.append(key);
    sort_offsets.push_back(sort_keys.size());
  }
  void Release(uint32_t id) {
    rows.Release(id);
    row_partition[id] = kReleased;
    released.Mark(id);
    --live;
  }
  void ResetDeltaBase() {
    released.Reset(row_partition.size());
    partition_base = partitions.size();
    in_base = true;
    compacted = false;
  }
};

WindowRankOperator::WindowRankOperator(std::string name, std::vector<LogicalType> input_types, WindowRankSpec spec)
    : Operator(std::move(name), 1), input_types_(std::move(input_types)), spec_(std::move(spec)) {
  SLUICE_CHECK_GE(spec_.window_end, 0);
  SLUICE_CHECK_GE(spec_.rank_end, 1);
  output_types_ = input_types_;
  if (spec_.output_rank_number) output_types_.push_back(LogicalType::BigInt().WithNullable(false));
}

WindowRankOperator::~WindowRankOperator() = default;

size_t WindowRankOperator::num_windows() const { return windows_.size(); }

std::vector<uint32_t>::iterator WindowRankOperator::EntryPosition(const Window& w, std::vector<uint32_t>& top,
                                                                  std::string_view key) const {
  // Ties rank in arrival order, or later rows first.
  if (spec_.later_ties_first) {
    return std::lower_bound(top.begin(), top.end(), key,
                            [&w](uint32_t r, std::string_view k) { return w.sort_key(r) < k; });
  }
  return std::upper_bound(top.begin(), top.end(), key, [&w](std::string_view k, uint32_t r) { return k < w.sort_key(r); });
}

void WindowRankOperator::Compact(Window& w) const {
  // The kept rows in id (arrival) order, so ties keep their order when a restore rebuilds the tops.
  std::vector<uint32_t> kept;
  kept.reserve(w.live);
  std::vector<uint32_t> renumber(w.row_partition.size(), kReleased);
  std::vector<uint32_t> row_partition;
  row_partition.reserve(w.live);
  std::string sort_keys;
  std::vector<uint64_t> sort_offsets = {0};
  sort_offsets.reserve(w.live + 1);
  for (uint32_t id = 0; id < w.row_partition.size(); ++id) {
    if (w.row_partition[id] == kReleased) continue;
    renumber[id] = static_cast<uint32_t>(kept.size());
    kept.push_back(id);
    row_partition.push_back(w.row_partition[id]);
    sort_keys.append(w.sort_key(id));
    sort_offsets.push_back(sort_keys.size());
  }
  SLUICE_CHECK_EQ(kept.size(), w.live);
  RowArena fresh(input_types_);
  if (!kept.empty()) fresh.AppendMany(w.rows.rows(), kept.data(), kept.size());
  for (std::vector<uint32_t>& top : w.tops) {
    for (uint32_t& id : top) id = renumber[id];
  }
  w.rows = std::move(fresh);
  w.row_partition = std::move(row_partition);
  w.sort_keys = std::move(sort_keys);
  w.sort_offsets = std::move(sort_offsets);
  w.compacted = true;  // renumbered: the next delta writes the window in full
}

size_t WindowRankOperator::kept_rows() const {
  size_t n = 0;
  for (const auto& [end, w] : windows_) n += w->live;
  return n;
}

size_t WindowRankOperator::StateBytes() const {
  size_t bytes = VectorBytes(fired_since_base_);
  for (const auto& [end, w] : windows_) {
    bytes += w->rows.MemoryUsage() + w->partitions.MemoryUsage() + VectorBytes(w->row_partition) + VectorBytes(w->tops) +
             w->live * sizeof(uint32_t) + w->sort_keys.capacity() + VectorBytes(w->sort_offsets) +
             w->released.MemoryUsage();
  }
  return bytes;
}

Status WindowRankOperator::Process(int input, Chunk& chunk) {
  (void)input;
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument(name() + " received an update or delete; window Top-N and window deduplication need an "
                                            "insert-only input, as in Flink");
  }
  const Vector& ends = chunk.column(static_cast<size_t>(spec_.window_end));
  EncodeKeys(chunk, spec_.partition_keys, &encoded_);
  const size_t rank_end = static_cast<size_t>(spec_.rank_end);
  WindowCursor<Window> cursor(windows_, current_watermark(), spec_.local_time, ctx_);
  for (size_t i = 0; i < n; ++i) {
    if (ends.IsNull(i)) return Status::Internal(name() + ": a row without window_end");
    const int64_t end = ends.data<int64_t>()[i];
    if (cursor.Late(end)) {
      ReportLate(chunk, i, RowEventTime(chunk, spec_.event_time_column, i));
      continue;
    }
    Window& w = cursor.Get(end, [&] { return std::make_unique<Window>(input_types_); });
    bool fresh = false;
    const uint32_t partition = w.partitions.Insert(encoded_[i], &fresh);
    if (fresh) w.tops.emplace_back();
    std::vector<uint32_t>& top = w.tops[partition];
    sort_key_.clear();
    for (const auto& k : spec_.order) {
      EncodeSortKeyValue(chunk.column(static_cast<size_t>(k.column)), i, k.ascending, k.nulls_first, &sort_key_);
    }
    auto pos = EntryPosition(w, top, sort_key_);
    if (static_cast<size_t>(pos - top.begin()) >= rank_end) continue;  // can never rank
    top.insert(pos, w.rows.Append(chunk, i));
    w.row_partition.push_back(partition);
    w.AddSortKey(sort_key_);
    ++w.live;
    if (top.size() > rank_end) {
      w.Release(top.back());
      top.pop_back();
    }
    if (w.rows.size() > 2 * w.live + kCompactSlack) Compact(w);
  }
  return Status::OK();
}

Status WindowRankOperator::FireWindow(Window& w) {
  std::vector<uint32_t> ids;
  std::vector<int64_t> ranks;
  const size_t first = static_cast<size_t>(spec_.rank_start - 1);
  for (const std::vector<uint32_t>& top : w.tops) {
    for (size_t r = first; r < top.size(); ++r) {
      ids.push_back(top[r]);
      ranks.push_back(static_cast<int64_t>(r + 1));
    }
  }
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  const size_t nin = input_types_.size();
  for (size_t begin = 0; begin < ids.size(); begin += chunk_size) {
    const size_t m = std::min(chunk_size, ids.size() - begin);
    Chunk out(output_types_);
    w.rows.GatherColumns(ids.data() + begin, m, 0, &out);
    if (spec_.output_rank_number) {
      Vector& rank = out.column(nin);
      rank.Resize(m);
      std::copy(ranks.begin() + static_cast<std::ptrdiff_t>(begin),
                ranks.begin() + static_cast<std::ptrdiff_t>(begin + m), rank.data<int64_t>());
    }
    out.kind_vector().assign(m, RowKind::kInsert);
    RETURN_IF_ERROR(Emit(out));
  }
  return Status::OK();
}

Status WindowRankOperator::FireUpTo(int64_t watermark) {
  return FireWindowsUpTo(windows_, watermark, spec_.local_time, ctx_, [this](int64_t end, Window& w) {
    if (w.in_base) fired_since_base_.push_back(end);
    return FireWindow(w);
  });
}

Status WindowRankOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FireUpTo(watermark));
  return EmitWatermark(watermark);
}

Status WindowRankOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  return EmitEndOfInput();
}

void WindowRankOperator::GetWindow(StateReader* r, Window* win) const {
  win->rows.Restore(r);
  win->partitions.Restore(r);
  GetColumn(r, &win->row_partition);
  Derive(r, win);
}

void WindowRankOperator::Derive(StateReader* r, Window* win) const {
  if (!r->ok()) return;
  Window& w = *win;
  const size_t n = w.row_partition.size();
  if (n != w.rows.size()) return r->Fail("window Top-N row partitions do not match the rows");
  // Sort keys of the rows restored since the last derivation (all of them after a full restore).
  const Chunk& stored = w.rows.rows();
  std::string key;
  for (size_t id = w.sort_offsets.size() - 1; id < n; ++id) {
    key.clear();
    for (const auto& k : spec_.order) {
      EncodeSortKeyValue(stored.column(static_cast<size_t>(k.column)), id, k.ascending, k.nulls_first, &key);
    }
    w.AddSortKey(key);
  }
  // The tops, by inserting the kept rows in arrival order as Process did.
  const size_t npartitions = w.partitions.size();
  w.tops.assign(npartitions, {});
  w.live = 0;
  const size_t rank_end = static_cast<size_t>(spec_.rank_end);
  for (uint32_t id = 0; id < n; ++id) {
    const uint32_t p = w.row_partition[id];
    if (p == kReleased) continue;
    if (p >= npartitions) return r->Fail("a window Top-N row in a partition that does not exist");
    std::vector<uint32_t>& top = w.tops[p];
    top.insert(EntryPosition(w, top, w.sort_key(id)), id);
    if (top.size() > rank_end) return r->Fail("a window Top-N partition keeps more rows than its rank end");
    ++w.live;
  }
  if (w.rows.live() != w.live) {
    r->Fail("window Top-N row counts disagree: " + std::to_string(w.live) + " kept rows, " +
            std::to_string(w.rows.live()) + " live in the arena");
  }
}

void WindowRankOperator::ResetDeltaBase() {
  for (auto& [end, win] : windows_) win->ResetDeltaBase();
  fired_since_base_.clear();
}

Status WindowRankOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-rank");
  PutWindows(w, windows_, [w](const Window& win) {
    win.rows.Snapshot(w);
    win.partitions.Snapshot(w);
    PutColumn(w, win.row_partition);
  });
  ResetDeltaBase();
  return Status::OK();
}

void WindowRankOperator::DropState() {
  windows_.clear();
  fired_since_base_.clear();
}

Status WindowRankOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("window-rank");
  GetWindows(
      r, windows_, [this] { return std::make_unique<Window>(input_types_); },
      [this, r](Window& win) { GetWindow(r, &win); });
  RETURN_IF_ERROR(r->status());  // Operator::Restore drops a partly restored state (DropState)
  ResetDeltaBase();
  return Status::OK();
}

Status WindowRankOperator::SnapshotDelta(StateWriter* w) {
  w->PutTag("window-rank delta");
  PutWindowsDelta(
      w, windows_, fired_since_base_, [](const Window& win) { return win.in_base && !win.compacted; },
      [w](const Window& win) {
        win.rows.SnapshotTail(win.released.base(), w);
        win.partitions.SnapshotSince(win.partition_base, w);
        PutColumnDelta(w, win.row_partition, win.released);
      },
      [w](const Window& win) {
        win.rows.Snapshot(w);
        win.partitions.Snapshot(w);
        PutColumn(w, win.row_partition);
      });
  ResetDeltaBase();
  return Status::OK();
}

Status WindowRankOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("window-rank delta");
  ApplyWindowsDelta(
      r, windows_, [this] { return std::make_unique<Window>(input_types_); },
      [this, r](Window& win) {
        win.rows.RestoreAppend(r);
        win.partitions.RestoreAppend(r);
        ApplyColumnDelta(r, &win.row_partition);
        Derive(r, &win);
      },
      [this, r](Window& win) { GetWindow(r, &win); });
  RETURN_IF_ERROR(r->status());  // partly applied: Operator::ApplyDelta drops the state (DropState)
  ResetDeltaBase();
  return Status::OK();
}

}  // namespace sluice
