#include "runtime/operators/window_rank_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <unordered_map>

#include "common/check.h"
#include "runtime/job.h"
#include "state/state_serde.h"
#include "runtime/operators/window_table_function_operator.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"
#include "state/sort_key.h"

namespace sluice {

namespace {

// A window's arena is rebuilt once released rows outnumber live ones by this much.
constexpr size_t kCompactSlack = 1024;

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

struct Ranked {
  std::string sort_key;
  uint32_t row;  // id in the window's arena
};

// One partition key's kept rows in one window, best first (at most rank_end of them).
struct Partition {
  std::vector<Ranked> top;
};

}  // namespace

struct WindowRankOperator::Window {
  explicit Window(const std::vector<LogicalType>& types) : rows(types) {}
  RowArena rows;
  std::unordered_map<std::string, uint32_t, StringHash> index;  // partition key -> partitions index
  std::vector<Partition> partitions;                             // in first-arrival order
  size_t live = 0;

  // Copies the kept rows into a fresh arena, dropping released ones.
  void Compact(const std::vector<LogicalType>& types) {
    RowArena fresh(types);
    for (Partition& p : partitions) {
      for (Ranked& r : p.top) r.row = fresh.Append(rows.rows(), r.row);
    }
    rows = std::move(fresh);
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

size_t WindowRankOperator::kept_rows() const {
  size_t n = 0;
  for (const auto& [end, w] : windows_) n += w->live;
  return n;
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
    auto [it, fresh] = w.index.try_emplace(encoded_[i], static_cast<uint32_t>(w.partitions.size()));
    if (fresh) w.partitions.emplace_back();
    std::vector<Ranked>& top = w.partitions[it->second].top;
    sort_key_.clear();
    for (const auto& k : spec_.order) {
      EncodeSortKeyValue(chunk.column(static_cast<size_t>(k.column)), i, k.ascending, k.nulls_first, &sort_key_);
    }
    auto pos = spec_.later_ties_first
                   ? std::lower_bound(top.begin(), top.end(), sort_key_,
                                      [](const Ranked& r, const std::string& key) { return r.sort_key < key; })
                   : std::upper_bound(top.begin(), top.end(), sort_key_,
                                      [](const std::string& key, const Ranked& r) { return key < r.sort_key; });
    if (static_cast<size_t>(pos - top.begin()) >= rank_end) continue;  // can never rank
    top.insert(pos, Ranked{sort_key_, w.rows.Append(chunk, i)});
    ++w.live;
    if (top.size() > rank_end) {
      w.rows.Release(top.back().row);
      top.pop_back();
      --w.live;
    }
    if (w.rows.rows().size() > 2 * w.live + kCompactSlack) w.Compact(input_types_);
  }
  return Status::OK();
}

Status WindowRankOperator::FireWindow(Window& w) {
  std::vector<uint32_t> ids;
  std::vector<int64_t> ranks;
  const size_t first = static_cast<size_t>(spec_.rank_start - 1);
  for (const Partition& p : w.partitions) {
    for (size_t r = first; r < p.top.size(); ++r) {
      ids.push_back(p.top[r].row);
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
  return FireWindowsUpTo(windows_, watermark, spec_.local_time, ctx_, [this](Window& w) { return FireWindow(w); });
}

Status WindowRankOperator::OnWatermark(int64_t watermark) {
  RETURN_IF_ERROR(FireUpTo(watermark));
  return EmitWatermark(watermark);
}

Status WindowRankOperator::OnEndOfInput() {
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  return EmitEndOfInput();
}

Status WindowRankOperator::SnapshotState(StateWriter* w) {
  w->PutTag("window-rank");
  w->PutVarint(windows_.size());
  for (const auto& [end, win] : windows_) {
    w->PutI64(end);
    win->rows.Snapshot(w);
    std::vector<const std::string*> keys(win->partitions.size(), nullptr);
    for (const auto& [key, idx] : win->index) keys[idx] = &key;
    w->PutVarint(win->partitions.size());
    for (size_t i = 0; i < win->partitions.size(); ++i) {
      w->PutString(keys[i] ? *keys[i] : std::string());
      w->PutVarint(win->partitions[i].top.size());
      for (const Ranked& r : win->partitions[i].top) {
        w->PutString(r.sort_key);
        w->PutU32(r.row);
      }
    }
    w->PutVarint(win->live);
  }
  return Status::OK();
}

Status WindowRankOperator::RestoreState(StateReader* r) {
  windows_.clear();
  r->ExpectTag("window-rank");
  const size_t n = r->GetCount(9);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    const int64_t end = r->GetI64();
    auto win = std::make_unique<Window>(input_types_);
    win->rows.Restore(r);
    const size_t np = r->GetCount(2);
    for (size_t p = 0; p < np && r->ok(); ++p) {
      if (!win->index.emplace(r->GetString(), static_cast<uint32_t>(p)).second) r->Fail("duplicate partition");
      Partition& part = win->partitions.emplace_back();
      const size_t nr = r->GetCount(5);
      for (size_t k = 0; k < nr && r->ok(); ++k) {
        Ranked ranked;
        ranked.sort_key = r->GetString();
        ranked.row = r->GetU32();
        if (ranked.row >= win->rows.rows().size()) r->Fail("ranked row outside the arena");
        part.top.push_back(std::move(ranked));
      }
    }
    win->live = r->GetCount(0);
    windows_.emplace(end, std::move(win));
  }
  return r->status();
}

}  // namespace sluice
