#include "runtime/operators/match_operator.h"

#include <algorithm>
#include <map>

#include "common/check.h"
#include "common/config.h"
#include "runtime/job.h"
#include "runtime/operators/match_nfa.h"
#include "runtime/operators/match_program.h"
#include "state/key_encoder.h"
#include "state/key_index.h"
#include "state/row_arena.h"
#include "state/sort_key.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "types/value_format.h"

namespace sluice {

namespace {

// Compact the arena once it holds at least this many rows and most of them are no longer held.
constexpr size_t kMinRowsToCompact = 4096;

}  // namespace

struct MatchOperator::State {
  explicit State(const std::vector<LogicalType>& types) : arena(types) {}
  struct Waiting {
    int64_t rowtime;
    uint32_t id;
  };
  RowArena arena;
  std::vector<uint64_t> row_seq;   // per arena row: its sequence number once processed (0: not yet)
  std::vector<uint32_t> row_part;  // per arena row: its partition
  std::vector<uint8_t> in_wait;    // per arena row: 1 while it waits for the watermark
  // Encoded (rowtime, further ORDER BY keys) -> waiting rows, equal keys in arrival order.
  std::multimap<std::string, Waiting> waiting;
  KeyIndex partition_keys;
  std::vector<MatchPartition> partitions;
  uint64_t next_seq = 1;
  size_t compacted_size = 0;  // the arena's size after the last compaction

  // Not state: matches released and waiting to be emitted, with their partition.
  std::vector<MatchRun> released;
  std::vector<uint32_t> released_part;
  std::vector<std::string> encoded;
  std::string key;
};

MatchOperator::MatchOperator(std::string name, std::shared_ptr<const MatchNode> node,
                             std::vector<LogicalType> input_types)
    : Operator(std::move(name), 1),
      node_(std::move(node)),
      input_types_(std::move(input_types)),
      output_types_(node_->schema.types()),
      state_(std::make_unique<State>(input_types_)) {}

MatchOperator::~MatchOperator() = default;

void MatchOperator::DropState() { state_ = std::make_unique<State>(input_types_); }

Status MatchOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  eval_ = std::make_unique<MatchEvaluator>(*node_, &state_->arena, ctx->eval);
  if (node_->program.empty()) {
    matcher_ = std::make_unique<MatchNfa>(*node_, eval_.get());
  } else {
    const int64_t max_threads =
        ctx->config ? ctx->config->GetInt("sluice.exec.match-recognize.max-threads") : int64_t{100000};
    matcher_ = std::make_unique<MatchProgram>(*node_, eval_.get(), max_threads,
                                              [this](uint32_t row) { return PartitionText(row); });
  }
  for (const SortKey& k : node_->order) {
    if (!IsSortKeyEncodable(input_types_[static_cast<size_t>(k.column)])) {
      return Status::NotSupported("Match: cannot ORDER BY a column of type " +
                                  input_types_[static_cast<size_t>(k.column)].ToString());
    }
  }
  return Status::OK();
}

size_t MatchOperator::StateBytes() const {
  const State& s = *state_;
  size_t runs = 0;
  for (const auto& p : s.partitions) {
    for (const auto& r : p.runs) runs += sizeof(MatchRun) + r.rows.capacity() * 5;
    for (const auto& r : p.completed) runs += sizeof(MatchRun) + r.rows.capacity() * 5;
    for (const auto& r : p.candidates) runs += sizeof(MatchRun) + r.rows.capacity() * 5;
  }
  return s.arena.MemoryUsage() + VectorBytes(s.row_seq) + VectorBytes(s.row_part) + VectorBytes(s.in_wait) +
         NodeBytes(s.waiting.size(), sizeof(decltype(s.waiting)::value_type)) + s.partition_keys.MemoryUsage() +
         VectorBytes(s.partitions) + runs;
}

Status MatchOperator::Process(int, Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(n);
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("Match was planned for an insert-only input but received an update or delete");
  }
  State& s = *state_;
  s.encoded.clear();
  EncodeKeys(chunk, node_->partition_keys, &s.encoded);
  const size_t time_col = static_cast<size_t>(node_->order[0].column);
  const Vector& times = chunk.column(time_col);
  for (size_t i = 0; i < n; ++i) {
    const bool null_time = times.IsNull(i);
    const int64_t t = null_time ? 0 : times.data<int64_t>()[i];
    if (node_->rowtime && (null_time || t <= current_watermark())) {
      ReportLate(chunk, i, null_time ? std::nullopt : std::optional<int64_t>(t));
      continue;
    }
    bool inserted = false;
    const uint32_t part = s.partition_keys.Insert(s.encoded.empty() ? std::string_view() : s.encoded[i], &inserted);
    if (inserted) s.partitions.emplace_back();
    const uint32_t id = s.arena.Append(chunk, i);
    s.row_seq.push_back(0);
    s.row_part.push_back(part);
    s.in_wait.push_back(node_->rowtime ? 1 : 0);
    if (!node_->rowtime) {
      RETURN_IF_ERROR(ProcessRow(part, id, t));
      continue;
    }
    s.key.clear();
    for (const SortKey& k : node_->order) {
      EncodeSortKeyValue(chunk.column(static_cast<size_t>(k.column)), i, k.ascending, k.nulls_first, &s.key);
    }
    s.waiting.emplace(s.key, State::Waiting{t, id});
  }
  RETURN_IF_ERROR(EmitMatches());
  MaybeCompact();
  return Status::OK();
}

std::string MatchOperator::PartitionText(uint32_t row) const {
  // The PARTITION BY columns (the output's first columns) with the values of `row`.
  std::string text = "(";
  for (size_t k = 0; k < node_->partition_keys.size(); ++k) {
    if (k > 0) text += ", ";
    text += node_->schema.field(k).name + "=";
    const Vector& column = state_->arena.rows().column(static_cast<size_t>(node_->partition_keys[k]));
    if (column.IsNull(row)) {
      text += "NULL";
    } else {
      AppendVectorText(column, row, &text);
    }
  }
  return text + ")";
}

Status MatchOperator::ProcessRow(uint32_t part, uint32_t id, int64_t time) {
  State& s = *state_;
  eval_->set_arena(&s.arena);
  MatchPartition& p = s.partitions[part];
  s.row_seq[id] = s.next_seq++;
  RETURN_IF_ERROR(matcher_->AdvanceTime(&p, time, s.row_seq, &s.released));
  RETURN_IF_ERROR(matcher_->Process(&p, id, s.row_seq[id], time, s.row_seq, &s.released));
  s.released_part.resize(s.released.size(), part);
  return Status::OK();
}

Status MatchOperator::OnWatermark(int64_t watermark) {
  State& s = *state_;
  // The due rows in (rowtime, further keys, arrival) order, whatever partition they belong to: the
  // output then does not depend on how often watermarks arrive.
  auto it = s.waiting.begin();
  while (it != s.waiting.end() && it->second.rowtime <= watermark) {
    const State::Waiting w = it->second;
    s.in_wait[w.id] = 0;
    it = s.waiting.erase(it);
    RETURN_IF_ERROR(ProcessRow(s.row_part[w.id], w.id, w.rowtime));
  }
  RETURN_IF_ERROR(EmitMatches());
  if (node_->within_ms >= 0) {
    // Time advanced for every partition: runs past WITHIN end and may release held matches.
    eval_->set_arena(&s.arena);
    for (uint32_t part = 0; part < s.partitions.size(); ++part) {
      MatchPartition& p = s.partitions[part];
      if (p.runs.empty()) continue;
      RETURN_IF_ERROR(matcher_->AdvanceTime(&p, watermark, s.row_seq, &s.released));
      s.released_part.resize(s.released.size(), part);
    }
    RETURN_IF_ERROR(EmitMatches());
  }
  MaybeCompact();
  return EmitWatermark(watermark);
}

Status MatchOperator::OnEndOfInput() {
  // Rows still waiting (a processing-time input, or an event-time one whose watermark never reached
  // them) stay unmatched, as in Flink; the matcher decides what it still holds.
  State& s = *state_;
  eval_->set_arena(&s.arena);
  for (uint32_t part = 0; part < s.partitions.size(); ++part) {
    RETURN_IF_ERROR(matcher_->Finish(&s.partitions[part], s.row_seq, &s.released));
    s.released_part.resize(s.released.size(), part);
  }
  RETURN_IF_ERROR(EmitMatches());
  return Operator::OnEndOfInput();
}

Status MatchOperator::EmitMatches() {
  State& s = *state_;
  if (s.released.empty()) return Status::OK();
  const size_t chunk_size = ctx_ && ctx_->chunk_size > 0 ? ctx_->chunk_size : Chunk::kDefaultCapacity;
  eval_->set_arena(&s.arena);
  for (size_t begin = 0; begin < s.released.size(); begin += chunk_size) {
    const size_t end = std::min(s.released.size(), begin + chunk_size);
    std::vector<const MatchRun*> batch;
    std::vector<uint32_t> first_rows;
    for (size_t i = begin; i < end; ++i) {
      batch.push_back(&s.released[i]);
      first_rows.push_back(s.released[i].rows.front());
    }
    Chunk out(output_types_, 0);
    const size_t nk = node_->partition_keys.size();
    for (size_t k = 0; k < nk; ++k) {
      out.column(k).AppendFrom(s.arena.rows().column(static_cast<size_t>(node_->partition_keys[k])), first_rows.data(), 0,
                               first_rows.size());
    }
    RETURN_IF_ERROR(eval_->Measures(batch, &out, nk));
    out.SetSizeFromColumns();
    metrics_.rows_out += static_cast<int64_t>(out.size());
    RETURN_IF_ERROR(Emit(out));
  }
  s.released.clear();
  s.released_part.clear();
  return Status::OK();
}

void MatchOperator::MaybeCompact() {
  State& s = *state_;
  const size_t size = s.arena.size();
  if (size < kMinRowsToCompact || size < 2 * s.compacted_size) return;
  std::vector<uint32_t> remap(size, UINT32_MAX);
  std::vector<uint32_t> live;
  auto mark = [&](uint32_t id) {
    if (remap[id] == UINT32_MAX) {
      remap[id] = 0;
      live.push_back(id);
    }
  };
  for (const auto& [k, w] : s.waiting) mark(w.id);
  for (const auto& p : s.partitions) {
    for (const auto& r : p.runs) for (uint32_t id : r.rows) mark(id);
    for (const auto& r : p.completed) for (uint32_t id : r.rows) mark(id);
    for (const auto& r : p.candidates) for (uint32_t id : r.rows) mark(id);
  }
  if (live.size() * 2 > size) {
    s.compacted_size = size;
    return;
  }
  std::sort(live.begin(), live.end());
  RowArena fresh(input_types_);
  if (!live.empty()) fresh.AppendMany(s.arena.rows(), live.data(), live.size());
  std::vector<uint64_t> seq(live.size());
  std::vector<uint32_t> part(live.size());
  std::vector<uint8_t> wait(live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    remap[live[i]] = static_cast<uint32_t>(i);
    seq[i] = s.row_seq[live[i]];
    part[i] = s.row_part[live[i]];
    wait[i] = s.in_wait[live[i]];
  }
  for (auto& [k, w] : s.waiting) w.id = remap[w.id];
  for (auto& p : s.partitions) {
    for (auto& r : p.runs) for (uint32_t& id : r.rows) id = remap[id];
    for (auto& r : p.completed) for (uint32_t& id : r.rows) id = remap[id];
    for (auto& r : p.candidates) for (uint32_t& id : r.rows) id = remap[id];
  }
  s.arena = std::move(fresh);
  s.row_seq = std::move(seq);
  s.row_part = std::move(part);
  s.in_wait = std::move(wait);
  s.compacted_size = s.arena.size();
}

Status MatchOperator::SnapshotState(StateWriter* w) {
  State& s = *state_;
  w->PutTag("match");
  s.arena.Snapshot(w);
  for (size_t i = 0; i < s.arena.size(); ++i) {
    w->PutU64(s.row_seq[i]);
    w->PutVarint(s.row_part[i]);
    w->PutU8(s.in_wait[i]);
  }
  s.partition_keys.Snapshot(w);
  for (const auto& p : s.partitions) p.Snapshot(w);
  w->PutU64(s.next_seq);
  return Status::OK();
}

Status MatchOperator::RestoreState(StateReader* r) {
  DropState();
  State& s = *state_;
  r->ExpectTag("match");
  s.arena.Restore(r);
  RETURN_IF_ERROR(r->status());
  const size_t n = s.arena.size();
  s.row_seq.resize(n);
  s.row_part.resize(n);
  s.in_wait.resize(n);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    s.row_seq[i] = r->GetU64();
    s.row_part[i] = static_cast<uint32_t>(r->GetVarint());
    s.in_wait[i] = r->GetU8();
  }
  s.partition_keys.Restore(r);
  RETURN_IF_ERROR(r->status());
  s.partitions.resize(s.partition_keys.size());
  for (auto& p : s.partitions) p.Restore(r, matcher_->max_stage(), node_->variables.size(), n);
  s.next_seq = r->GetU64();
  RETURN_IF_ERROR(r->status());
  const Chunk& rows = s.arena.rows();
  for (uint32_t id = 0; id < n; ++id) {
    if (s.row_part[id] >= s.partitions.size() || s.in_wait[id] > 1) {
      r->Fail("MATCH_RECOGNIZE row " + std::to_string(id) + " names partition " + std::to_string(s.row_part[id]) +
              " of " + std::to_string(s.partitions.size()) + " or has a bad waiting flag");
      return r->status();
    }
    if (!s.in_wait[id]) continue;
    s.key.clear();
    for (const SortKey& k : node_->order) {
      EncodeSortKeyValue(rows.column(static_cast<size_t>(k.column)), id, k.ascending, k.nulls_first, &s.key);
    }
    const Vector& t = rows.column(static_cast<size_t>(node_->order[0].column));
    if (t.IsNull(id)) {
      r->Fail("a waiting MATCH_RECOGNIZE row has no rowtime");
      return r->status();
    }
    s.waiting.emplace(s.key, State::Waiting{t.data<int64_t>()[id], id});
  }
  s.compacted_size = n;
  return Status::OK();
}

}  // namespace sluice
