#include "runtime/operators/over_aggregate_operator.h"

#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/key_encoder.h"
#include "state/row_arena.h"

namespace sluice {

namespace {

struct StringHash {
  size_t operator()(const std::string& s) const { return static_cast<size_t>(XXH3_64bits(s.data(), s.size())); }
};

struct Pending {
  int64_t time;
  uint64_t seq;
  uint32_t row;
  uint32_t part;
};
struct PendingLater {
  bool operator()(const Pending& a, const Pending& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
};

constexpr int64_t kNever = std::numeric_limits<int64_t>::min();

}  // namespace

struct OverAggregateOperator::State {
  explicit State(const std::vector<LogicalType>& types) : rows(types) {}
  struct Partition {
    AccumulatorGroup acc;
    // (time, row id) of the rows inside a bounded frame, from frame[head] on. A vector with a moving
    // head costs far less per partition than a deque (whose first block alone is 512 bytes).
    std::vector<std::pair<int64_t, uint32_t>> frame;
    size_t head = 0;
    size_t size() const { return frame.size() - head; }
    bool empty() const { return head == frame.size(); }
    const std::pair<int64_t, uint32_t>& front() const { return frame[head]; }
    void pop_front() {
      if (++head == frame.size()) {
        frame.clear();
        head = 0;
      } else if (head >= 16 && head * 2 >= frame.size()) {
        frame.erase(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
    int64_t last_time = kNever;                      // the last time processed
  };
  RowArena rows;
  std::unordered_map<std::string, uint32_t, StringHash> index;
  std::vector<Partition> parts;
  std::vector<Pending> pending;
  uint64_t next_seq = 0;
  size_t held = 0;
  std::vector<std::string> encoded;
  // The output being built: input rows (arena ids) and, per row, the aggregate values.
  std::vector<uint32_t> out_ids;
  std::unique_ptr<Chunk> out_aggs;
};

OverAggregateOperator::OverAggregateOperator(std::string name, std::vector<LogicalType> input_types,
                                             std::vector<int> partition_keys, int order_column, bool rowtime,
                                             bool rows_frame, int64_t preceding, std::vector<AccumulatorCall> calls,
                                             std::vector<LogicalType> output_types)
    : Operator(std::move(name), 1),
      input_types_(std::move(input_types)),
      partition_keys_(std::move(partition_keys)),
      order_column_(order_column),
      rowtime_(rowtime),
      rows_frame_(rows_frame),
      preceding_(preceding),
      layout_(std::move(calls)),
      output_types_(std::move(output_types)),
      state_(std::make_unique<State>(input_types_)) {}

OverAggregateOperator::~OverAggregateOperator() {
  for (auto& p : state_->parts) layout_.Destroy(&p.acc);
}

size_t OverAggregateOperator::state_rows() const { return state_->held; }

Status OverAggregateOperator::Process(int, Chunk& chunk) {
  State& s = *state_;
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("OverAggregate '" + name() + "' received an update; OVER aggregation needs an insert-only input");
  }
  EncodeKeys(chunk, partition_keys_, &s.encoded);
  const uint32_t base = s.rows.AppendMany(chunk, nullptr, n);
  s.held += n;
  std::vector<uint32_t> parts(n);
  for (size_t i = 0; i < n; ++i) {
    auto [it, inserted] = s.index.try_emplace(std::move(s.encoded[i]), static_cast<uint32_t>(s.parts.size()));
    if (inserted) {
      s.parts.emplace_back();
      layout_.Init(&s.parts.back().acc);
    }
    parts[i] = it->second;
  }
  if (!rowtime_) {
    // Processing time: every row of the chunk is processed now, one partition group at a time.
    const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
    const int64_t now = clock ? clock->NowMicros() : 0;
    for (size_t i = 0; i < n; ++i) ProcessAt(parts[i], now, {base + static_cast<uint32_t>(i)});
    return Flush();
  }
  const Vector& time = chunk.column(static_cast<size_t>(order_column_));
  const int64_t watermark = current_watermark();
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = base + static_cast<uint32_t>(i);
    if (time.IsNull(i)) {
      return Status::InvalidArgument("OverAggregate '" + name() + "': the event-time attribute of a row is NULL");
    }
    const int64_t t = time.data<int64_t>()[i];
    const bool late = preceding_ < 0 ? t <= watermark : t <= s.parts[parts[i]].last_time;
    if (late) {
      ReportLate(chunk, i, t);
      s.rows.Release(id);
      --s.held;
      continue;
    }
    s.pending.push_back(Pending{t, s.next_seq++, id, parts[i]});
    std::push_heap(s.pending.begin(), s.pending.end(), PendingLater());
  }
  return Status::OK();
}

Status OverAggregateOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  std::vector<Pending> batch;
  std::vector<uint32_t> order;  // partitions in first-appearance order within the batch
  while (!s.pending.empty() && s.pending.front().time <= watermark) {
    // All rows of the smallest pending time, in arrival order, grouped by partition.
    const int64_t t = s.pending.front().time;
    batch.clear();
    while (!s.pending.empty() && s.pending.front().time == t) {
      batch.push_back(s.pending.front());
      std::pop_heap(s.pending.begin(), s.pending.end(), PendingLater());
      s.pending.pop_back();
    }
    order.clear();
    for (const Pending& p : batch) {
      if (std::find(order.begin(), order.end(), p.part) == order.end()) order.push_back(p.part);
    }
    for (uint32_t part : order) {
      std::vector<uint32_t> rows;
      for (const Pending& p : batch) {
        if (p.part == part) rows.push_back(p.row);
      }
      ProcessAt(part, t, rows);
    }
    if (s.out_ids.size() >= chunk_size) RETURN_IF_ERROR(Flush());
  }
  RETURN_IF_ERROR(Flush());
  return EmitWatermark(watermark);
}

void OverAggregateOperator::ProcessAt(uint32_t part, int64_t time, const std::vector<uint32_t>& rows) {
  State& s = *state_;
  State::Partition& p = s.parts[part];
  if (!s.out_aggs) {
    std::vector<LogicalType> agg_types(output_types_.begin() + static_cast<std::ptrdiff_t>(input_types_.size()),
                                       output_types_.end());
    s.out_aggs = std::make_unique<Chunk>(agg_types);
  }
  const Chunk& stored = s.rows.rows();
  auto emit_row = [&](uint32_t id) {
    const size_t pos = s.out_aggs->size();
    s.out_aggs->Resize(pos + 1);
    layout_.Finalize(p.acc, s.out_aggs.get(), 0, pos);
    s.out_ids.push_back(id);
  };
  auto leave = [&](uint32_t id) {
    s.rows.Release(id);
    --s.held;
  };
  const bool bounded = preceding_ >= 0;
  if (rows_frame_) {
    for (uint32_t id : rows) {
      layout_.Update(&p.acc, stored, id, false);
      if (bounded) {
        p.frame.push_back({time, id});
        while (static_cast<int64_t>(p.size()) > preceding_ + 1) {
          layout_.Update(&p.acc, stored, p.front().second, true);
          leave(p.front().second);
          p.pop_front();
        }
      }
      emit_row(id);
      if (!bounded) leave(id);
    }
  } else {
    for (uint32_t id : rows) {
      layout_.Update(&p.acc, stored, id, false);
      if (bounded) p.frame.push_back({time, id});
    }
    if (bounded) {
      const int64_t lower = time - preceding_ * 1000;
      while (!p.empty() && p.front().first < lower) {
        layout_.Update(&p.acc, stored, p.front().second, true);
        leave(p.front().second);
        p.pop_front();
      }
    }
    for (uint32_t id : rows) emit_row(id);
    if (!bounded) {
      for (uint32_t id : rows) leave(id);
    }
  }
  p.last_time = time;
}

Status OverAggregateOperator::Flush() {
  State& s = *state_;
  if (s.out_ids.empty()) return Status::OK();
  const size_t n = s.out_ids.size();
  const size_t ni = input_types_.size();
  Chunk out(output_types_);
  for (size_t c = 0; c < ni; ++c) out.column(c).AppendFrom(s.rows.rows().column(c), s.out_ids.data(), 0, n);
  for (size_t a = 0; a < s.out_aggs->num_columns(); ++a) out.column(ni + a) = std::move(s.out_aggs->column(a));
  out.kind_vector().assign(n, RowKind::kInsert);
  s.out_ids.clear();
  s.out_aggs.reset();
  RETURN_IF_ERROR(Emit(out));
  // Rebuild the arena once most of its rows left.
  if (s.rows.rows().size() >= (1u << 14) && s.held * 2 < s.rows.rows().size()) {
    RowArena fresh(input_types_);
    for (Pending& p : s.pending) p.row = fresh.Append(s.rows.rows(), p.row);
    for (auto& part : s.parts) {
      for (size_t i = part.head; i < part.frame.size(); ++i) {
        part.frame[i].second = fresh.Append(s.rows.rows(), part.frame[i].second);
      }
    }
    s.rows = std::move(fresh);
  }
  return Status::OK();
}

}  // namespace sluice
