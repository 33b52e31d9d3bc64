#include "runtime/operators/source_operator.h"

#include <algorithm>
#include <unordered_map>

#include "common/check.h"
#include "common/clock.h"
#include "runtime/job.h"
#include "state/state_serde.h"

namespace sluice {

Status SourceOperatorBase::Process(int, Chunk&) {
  return Status::Internal("source operator '" + name() + "' has no inputs");
}

SourceOperator::SourceOperator(std::string table_name, std::vector<std::unique_ptr<SourceSplit>> splits,
                               Schema scan_schema, std::vector<ExprPtr> computed, int rowtime_index,
                               ExprPtr watermark, size_t chunk_size)
    : SourceOperatorBase(std::move(table_name), 0),
      active_(splits.size()),
      scan_schema_(std::move(scan_schema)),
      computed_(std::move(computed)),
      rowtime_index_(rowtime_index),
      watermark_(std::move(watermark)),
      chunk_size_(chunk_size) {
  for (auto& s : splits) AddSplit(std::move(s));
  active_ = splits_.size();
}

void SourceOperator::AddSplit(std::unique_ptr<SourceSplit> split) {
  splits_.emplace_back();
  splits_.back().split = std::move(split);
  splits_.back().last_rows_micros = NowMicros();
}

void SourceOperator::SetSplitDiscovery(std::shared_ptr<TableSource> source) {
  const int64_t interval = source->SplitDiscoveryIntervalMicros();
  if (interval <= 0) return;
  discovery_ = std::move(source);
  discovery_interval_micros_ = interval;
}

Status SourceOperator::DiscoverSplits() {
  if (discovery_ == nullptr) return Status::OK();
  const int64_t now = NowMicros();
  if (now - last_discovery_micros_ < discovery_interval_micros_) return Status::OK();
  last_discovery_micros_ = now;
  ASSIGN_OR_RETURN(auto found, discovery_->DiscoverSplits());
  for (auto& s : found) {
    RETURN_IF_ERROR(s->StartAsDiscovered().WithContext("Source '" + name() + "'"));
    AddSplit(std::move(s));
    ++active_;
  }
  return Status::OK();
}

Status SourceOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (!computed_.empty()) computed_eval_ = std::make_unique<ExprEvaluator>(computed_, ctx->eval);
  if (watermark_) watermark_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{watermark_}, ctx->eval);
  for (auto& s : splits_) s.last_rows_micros = NowMicros();
  last_discovery_micros_ = NowMicros();
  return Status::OK();
}

int64_t SourceOperator::NowMicros() const {
  const Clock* clock = ctx_ && ctx_->eval ? ctx_->eval->clock : nullptr;
  return clock ? clock->NowMicros() : 0;
}

bool SourceOperator::SplitIdle(const SplitState& s) const {
  if (idle_timeout_micros_ <= 0 || !watermark_eval_ || s.finished || s.pos < s.pending_rows) return false;
  if (s.split->PendingDelayMicros() >= idle_timeout_micros_) return true;
  return s.last_read_empty && NowMicros() - s.last_rows_micros >= idle_timeout_micros_;
}

Status SourceOperator::UpdateIdleness() {
  if (idle_timeout_micros_ <= 0 || !watermark_eval_ || active_ == 0) return Status::OK();
  bool any_active = false;
  for (auto& s : splits_) {
    if (s.finished) continue;
    s.idle = SplitIdle(s);
    any_active = any_active || !s.idle;
  }
  if (!any_active) return EmitIdle(true);
  RETURN_IF_ERROR(EmitIdle(false));
  // Without its idle splits the source's watermark may move on.
  const int64_t w = CombinedWatermark();
  if (w > emitted_watermark_) {
    emitted_watermark_ = w;
    return EmitWatermark(w);
  }
  return Status::OK();
}

size_t SourceOperator::PickSplit() const {
  size_t best = splits_.size();
  // Splits that just came back empty go after the others (see SplitState::starved), idle splits last.
  for (int pass = 0; pass < 3 && best == splits_.size(); ++pass) {
    for (size_t i = 0; i < splits_.size(); ++i) {
      if (splits_[i].finished || (pass < 2 && splits_[i].idle) || (pass == 0 && splits_[i].starved)) continue;
      if (best == splits_.size() || splits_[i].watermark < splits_[best].watermark) best = i;
    }
  }
  return best;
}

int64_t SourceOperator::NextWatermark() const {
  // An idle source holds back no other source: it goes when nothing else can.
  const bool all_idle = std::all_of(splits_.begin(), splits_.end(), [](const SplitState& s) { return s.finished || s.idle; });
  if (all_idle && active_ > 0) return kMaxWatermark;
  size_t i = PickSplit();
  return i == splits_.size() ? kMaxWatermark : splits_[i].watermark;
}

int64_t SourceOperator::CombinedWatermark() const {
  // Over the splits that are neither finished nor idle; while every unfinished split is idle the
  // source has no watermark to give (it is idle itself).
  int64_t w = kMaxWatermark;
  bool any_idle = false;
  for (const auto& s : splits_) {
    if (s.finished) continue;
    if (s.idle) {
      any_idle = true;
      continue;
    }
    w = std::min(w, s.watermark);
  }
  return w == kMaxWatermark && any_idle ? kMinWatermark : w;
}

int64_t SourceOperator::records_skipped() const {
  int64_t n = 0;
  for (const auto& s : splits_) n += s.split->records_skipped();
  return n;
}

Status SourceOperator::EmitRange(Chunk& chunk, size_t begin, size_t end) {
  if (begin == 0 && end == chunk.size()) return Emit(chunk);
  if (begin == end) return Status::OK();
  Chunk part;
  for (const auto& c : chunk.columns()) part.AddColumn(Vector(c.type()));
  part.AppendFrom(chunk, nullptr, begin, end - begin);
  return Emit(part);
}

Status SourceOperator::Fill(size_t i) {
  SplitState& st = splits_[i];
  Chunk raw(scan_schema_);
  ASSIGN_OR_RETURN(bool more, st.split->Read(chunk_size_, &raw));
  st.pos = 0;
  st.read += static_cast<int64_t>(raw.size());
  if (!more && raw.size() == 0) {
    st.finished = true;
    st.pending = Chunk();
    st.pending_rows = 0;
    --active_;
    return Status::OK();
  }
  st.last_read_empty = raw.size() == 0;
  if (raw.size() == 0) {
    st.starved = true;
  } else {
    st.last_rows_micros = NowMicros();
    // Progress elsewhere: splits that were empty get another chance.
    for (auto& s : splits_) s.starved = false;
  }
  if (computed_eval_) {
    // Computed columns are evaluated first; plain references then move the read columns over
    // without copying them (a column referenced twice is copied for its second use).
    Chunk chunk;
    chunk.columns().resize(computed_.size());
    for (size_t c = 0; c < computed_.size(); ++c) {
      if (computed_[c]->kind == ExprKind::kColumnRef) continue;
      RETURN_IF_ERROR(computed_eval_->EvaluateOne(c, raw, &chunk.column(c))
                          .WithContext("Source '" + name() + "' (" + st.split->id() + ")"));
    }
    std::vector<bool> moved(raw.num_columns(), false);
    for (size_t c = 0; c < computed_.size(); ++c) {
      if (computed_[c]->kind != ExprKind::kColumnRef) continue;
      size_t from = static_cast<size_t>(computed_[c]->column_index);
      if (!moved[from]) {
        chunk.column(c) = std::move(raw.column(from));
        moved[from] = true;
      } else {
        // Copy from the column's first destination (the source slot was moved away).
        for (size_t d = 0; d < c; ++d) {
          if (computed_[d]->kind == ExprKind::kColumnRef && static_cast<size_t>(computed_[d]->column_index) == from) {
            chunk.column(c) = chunk.column(d);
            break;
          }
        }
      }
    }
    chunk.kind_vector() = std::move(raw.kind_vector());
    st.pending = std::move(chunk);
  } else {
    st.pending = std::move(raw);
  }
  st.pending_rows = st.pending.size();
  if (watermark_eval_) RETURN_IF_ERROR(watermark_eval_->EvaluateOne(0, st.pending, &st.pending_wm));
  return Status::OK();
}

bool SourceOperator::CrossesIntervalEnd(int64_t from, int64_t to) const {
  const int64_t interval = ctx_ != nullptr ? ctx_->watermark_interval_ms : 0;
  if (interval <= 0 || to <= from) return false;
  // Interval ends are n * interval - 1 ms, n >= 1 (Flink's RowTimeMiniBatchAssginerOperator starts at 0).
  auto ends_reached = [interval](int64_t micros) {
    if (micros < 0) return int64_t{0};
    return (micros / 1000 + 1) / interval;
  };
  return ends_reached(to) > ends_reached(from);
}

Status SourceOperator::Step(int64_t bound, bool yield_on_tie) {
  // Once every unfinished split came back empty, poll them all again.
  if (std::all_of(splits_.begin(), splits_.end(), [](const SplitState& s) { return s.finished || s.starved; })) {
    for (auto& s : splits_) s.starved = false;
  }
  size_t i = PickSplit();
  if (i == splits_.size()) {
    // No split yet (discovery finds them later): wait for the next discovery, bounded by the source,
    // instead of spinning through the job's loop.
    if (discovery_ == nullptr) return Status::OK();
    const int64_t until_discovery = last_discovery_micros_ + discovery_interval_micros_ - NowMicros();
    return discovery_->WaitForSplits(std::max<int64_t>(0, until_discovery)).WithContext("Source '" + name() + "'");
  }
  SplitState& st = splits_[i];
  if (st.pos >= st.pending_rows) {
    RETURN_IF_ERROR(Fill(i));
    if (!st.finished) return Status::OK();
    if (active_ == 0) return EmitEndOfInput();
    // A finished split no longer holds the watermark back.
    int64_t w = CombinedWatermark();
    if (watermark_eval_ && w > emitted_watermark_) {
      emitted_watermark_ = w;
      return EmitWatermark(w);
    }
    return Status::OK();
  }
  Chunk& chunk = st.pending;
  const size_t n = st.pending_rows;
  SLUICE_CHECK_EQ(chunk.size(), n);  // not handed over yet: every row from pos on is still to emit
  if (!watermark_eval_) {
    // No event time: splits are read one after the other, whole chunks at a time.
    size_t begin = st.pos;
    st.pos = n;
    if (begin == 0) return Emit(chunk);
    return EmitRange(chunk, begin, n);
  }
  // The split to hand over to once this one's watermark passes it.
  int64_t others = kMaxWatermark;
  size_t other_index = splits_.size();
  for (size_t k = 0; k < splits_.size(); ++k) {
    if (k == i || splits_[k].finished || splits_[k].idle) continue;
    if (splits_[k].watermark < others) {
      others = splits_[k].watermark;
      other_index = k;
    }
  }
  // Another source with a lower watermark (or an equal one that comes first) takes over as well.
  bool external_first = false;
  if (bound < others || (bound == others && yield_on_tie)) {
    external_first = yield_on_tie;
    others = bound;
    other_index = splits_.size();
  }
  const Vector& rt = chunk.column(static_cast<size_t>(rowtime_index_));
  const int64_t* ts = rt.data<int64_t>();
  const Vector& wm = st.pending_wm;
  const int64_t* wv = wm.data<int64_t>();
  int64_t pending = std::min(others, st.watermark);
  size_t start = st.pos;
  size_t j = st.pos;
  while (j < n) {
    // Before a row the watermark already passes (or, for CURRENT_WATERMARK, before any row once it
    // advanced), the watermark goes first.
    const bool per_row = ctx_ != nullptr && ctx_->per_row_watermarks;
    if ((per_row || (!rt.IsNull(j) && ts[j] <= pending) || CrossesIntervalEnd(emitted_watermark_, pending)) &&
        pending > emitted_watermark_) {
      RETURN_IF_ERROR(EmitRange(chunk, start, j));
      emitted_watermark_ = pending;
      RETURN_IF_ERROR(EmitWatermark(pending));
      RETURN_IF_ERROR(WatermarkEmittedInStep());
      start = j;
    }
    if (!wm.IsNull(j) && wv[j] > st.watermark) {
      st.watermark = wv[j];
      pending = std::min(others, st.watermark);
    }
    ++j;
    if (st.watermark > others ||
        (st.watermark == others && (other_index == splits_.size() ? external_first : other_index < i))) {
      break;
    }
  }
  st.pos = j;
  RETURN_IF_ERROR(EmitRange(chunk, start, j));
  if (pending > emitted_watermark_) {
    emitted_watermark_ = pending;
    RETURN_IF_ERROR(EmitWatermark(pending));
  }
  return Status::OK();
}

Status SourceOperator::FollowWatermark(int64_t bound) {
  if (!watermark_eval_ || active_ == 0) return Status::OK();
  // The rows behind the source's own watermark are emitted already, so none becomes late; its next
  // Step's watermark, min(the others', its own), is at least this one.
  const int64_t w = std::min(CombinedWatermark(), bound);
  if (w <= emitted_watermark_) return Status::OK();
  emitted_watermark_ = w;
  return EmitWatermark(w);
}

Status SourceOperator::PrepareSnapshotPreBarrier(int64_t id) {
  positions_checkpoint_ = id;
  positions_.clear();
  for (const auto& s : splits_) positions_.push_back(s.split->CheckpointPosition(std::min(s.pos, s.pending_rows)));
  return Status::OK();
}

Status SourceOperator::NotifyCheckpointComplete(int64_t id) {
  if (positions_checkpoint_ == 0 || positions_checkpoint_ > id) return Status::OK();
  positions_checkpoint_ = 0;
  for (size_t i = 0; i < splits_.size() && i < positions_.size(); ++i) {
    RETURN_IF_ERROR(splits_[i].split->NotifyCheckpointComplete(id, positions_[i]));
  }
  return Status::OK();
}

Status SourceOperator::SnapshotState(StateWriter* w) {
  w->PutTag("source.v2");
  w->PutVarint(splits_.size());
  for (const auto& s : splits_) {
    w->PutString(s.split->id());
    w->PutBool(s.finished);
    const size_t emitted_of_last_read = std::min(s.pos, s.pending_rows);
    w->PutI64(s.read - static_cast<int64_t>(s.pending_rows - emitted_of_last_read));
    // The pending rows are exactly those of the split's last Read: its position after the rows
    // emitted from them is the position of the last emitted row (empty: restore skips by count).
    w->PutString(s.finished ? std::string() : s.split->CheckpointPosition(emitted_of_last_read));
    w->PutI64(s.watermark);
  }
  w->PutI64(emitted_watermark_);
  return Status::OK();
}

Status SourceOperator::RestoreState(StateReader* r) {
  r->ExpectTag("source.v2");
  size_t n = r->GetCount(10);
  RETURN_IF_ERROR(r->status());
  // The checkpoint's splits are found by id: splits that appeared since (discovered while running,
  // or a partition added while the job was down) have no state and start as discovered ones.
  // Splits with the same id (allowed) are matched in order.
  std::unordered_map<std::string, std::vector<size_t>> by_id;
  for (size_t i = splits_.size(); i-- > 0;) by_id[splits_[i].split->id()].push_back(i);
  std::vector<bool> restored(splits_.size(), false);
  for (size_t k = 0; k < n; ++k) {
    std::string id = r->GetString();
    RETURN_IF_ERROR(r->status());
    auto it = by_id.find(id);
    if (it == by_id.end() || it->second.empty()) {
      return Status::InvalidArgument("Cannot restore source '" + name() + "': the checkpoint has split '" + id +
                                     "', which the table no longer has (files or partitions removed since the "
                                     "checkpoint)");
    }
    const size_t i = it->second.back();
    it->second.pop_back();
    restored[i] = true;
    RETURN_IF_ERROR(RestoreSplit(splits_[i], r, id));
  }
  for (size_t i = 0; i < splits_.size(); ++i) {
    if (!restored[i]) {
      RETURN_IF_ERROR(splits_[i].split->StartAsDiscovered().WithContext("Cannot restore source '" + name() + "'"));
    }
  }
  emitted_watermark_ = r->GetI64();
  return r->status();
}

Status SourceOperator::RestoreSplit(SplitState& st, StateReader* r, const std::string& id) {
  const bool finished = r->GetBool();
  const int64_t offset = r->GetI64();
  const std::string position = r->GetString();
  const int64_t watermark = r->GetI64();
  RETURN_IF_ERROR(r->status());
  if (offset < 0) {
    return Status::InvalidArgument("Cannot restore source '" + name() + "': split '" + id +
                                   "' has a negative offset " + std::to_string(offset) +
                                   " in the checkpoint (damaged state)");
  }
  st.watermark = watermark;
  st.pending = Chunk();
  st.pending_rows = 0;
  st.pos = 0;
  st.read = 0;
  if (finished) {
    if (!st.finished) {
      st.finished = true;
      --active_;
    }
    return Status::OK();
  }
  if (!position.empty()) {
    // The split seeks to the position of the last emitted row (a Kafka partition's offset).
    RETURN_IF_ERROR(st.split->SeekToPosition(position).WithContext("Cannot restore source '" + name() + "'"));
    st.read = offset;
    return Status::OK();
  }
  // Skip the rows emitted before the checkpoint.
  while (st.read < offset) {
    Chunk raw(scan_schema_);
    const size_t want = static_cast<size_t>(std::min<int64_t>(offset - st.read, 4096));
    ASSIGN_OR_RETURN(bool more, st.split->Read(want, &raw));
    st.read += static_cast<int64_t>(raw.size());
    if (raw.size() == 0) {
      return Status::InvalidArgument("Cannot restore source '" + name() + "': split '" + id + "' has " +
                                     std::to_string(st.read) + " rows, the checkpoint had read " +
                                     std::to_string(offset) + (more ? " (no more rows available now)" : ""));
    }
  }
  SLUICE_CHECK_EQ(st.read, offset);
  return Status::OK();
}

Status ValuesOperator::SnapshotState(StateWriter* w) {
  w->PutBool(done_);
  return Status::OK();
}

Status ValuesOperator::RestoreState(StateReader* r) {
  done_ = r->GetBool();
  return r->status();
}

ValuesOperator::ValuesOperator(std::string name, Schema schema, std::vector<std::vector<Value>> rows)
    : SourceOperatorBase(std::move(name), 0), schema_(std::move(schema)), rows_(std::move(rows)) {}

Status ValuesOperator::Step(int64_t, bool) {
  if (done_) return Status::OK();
  done_ = true;
  Chunk chunk(schema_);
  for (const auto& r : rows_) chunk.AppendValues(r, RowKind::kInsert);
  RETURN_IF_ERROR(Emit(chunk));
  return EmitEndOfInput();
}

}  // namespace sluice
