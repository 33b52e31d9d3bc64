#include "runtime/operators/lookup_join_operator.h"

#include "common/check.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "state/state_bytes.h"
#include "state/state_serde.h"
#include "state/key_encoder.h"

namespace sluice {

namespace {

bool IsIndexedIntegral(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return true;
    default: return false;
  }
}

// Row `row` of an integral vector, widened.
int64_t IntegralAt(const Vector& v, size_t row) {
  switch (v.type().id()) {
    case TypeId::kTinyInt: return v.data<int8_t>()[row];
    case TypeId::kSmallInt: return v.data<int16_t>()[row];
    case TypeId::kInteger: return v.data<int32_t>()[row];
    default: return v.data<int64_t>()[row];
  }
}

bool AnyNull(const Chunk& chunk, const std::vector<int>& columns, size_t row) {
  for (int c : columns) {
    if (chunk.column(static_cast<size_t>(c)).IsNull(row)) return true;
  }
  return false;
}

}  // namespace

LookupJoinOperator::LookupJoinOperator(std::string name, std::vector<LogicalType> left_types,
                                       std::vector<LogicalType> right_types, std::vector<ExprPtr> left_keys,
                                       std::vector<int> right_keys, bool left_outer, ExprPtr residual)
    : Operator(std::move(name), 1),
      left_types_(std::move(left_types)),
      right_types_(std::move(right_types)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      left_outer_(left_outer),
      residual_(std::move(residual)),
      table_(right_types_) {
  SLUICE_CHECK_EQ(left_keys_.size(), right_keys_.size());
  SLUICE_CHECK(!right_keys_.empty());
  for (const auto& k : left_keys_) {
    if (k->kind != ExprKind::kColumnRef) keys_are_columns_ = false;
    left_key_columns_.push_back(k->column_index);
  }
  if (!keys_are_columns_) {
    left_key_columns_.clear();
    for (size_t i = 0; i < left_keys_.size(); ++i) left_key_columns_.push_back(static_cast<int>(i));
  }
  integral_key_ = right_keys_.size() == 1 && IsIndexedIntegral(right_types_[static_cast<size_t>(right_keys_[0])]) &&
                  left_keys_[0]->type.id() == right_types_[static_cast<size_t>(right_keys_[0])].id();
}

LookupJoinOperator::~LookupJoinOperator() = default;

Status LookupJoinOperator::Open(JobContext* ctx) {
  RETURN_IF_ERROR(Operator::Open(ctx));
  if (!keys_are_columns_) key_eval_ = std::make_unique<ExprEvaluator>(left_keys_, ctx->eval);
  if (residual_) residual_eval_ = std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{residual_}, ctx->eval);
  return Status::OK();
}

Status LookupJoinOperator::LoadTable(const Chunk& chunk) {
  const size_t n = chunk.size();
  if (n == 0) return Status::OK();
  if (!chunk.AllInserts()) {
    return Status::InvalidArgument("LookupJoin '" + name() + "': the lookup table sent a change other than +I");
  }
  const uint32_t base = table_.AppendMany(chunk, nullptr, n);
  IndexRows(chunk, right_keys_, base);
  return Status::OK();
}

void LookupJoinOperator::IndexRows(const Chunk& rows, const std::vector<int>& key_columns, uint32_t first_id) {
  const size_t n = rows.size();
  if (integral_key_) {
    const Vector& key = rows.column(static_cast<size_t>(key_columns[0]));
    for (size_t i = 0; i < n; ++i) {
      if (key.IsNull(i)) continue;  // a NULL key never matches
      integral_index_[IntegralAt(key, i)].push_back(first_id + static_cast<uint32_t>(i));
    }
    return;
  }
  EncodeKeys(rows, key_columns, &encoded_);
  for (size_t i = 0; i < n; ++i) {
    if (AnyNull(rows, key_columns, i)) continue;
    index_[encoded_[i]].push_back(first_id + static_cast<uint32_t>(i));
  }
}

void LookupJoinOperator::IndexTableFrom(size_t first) {
  const Chunk& rows = table_.rows();
  if (first == 0) {
    IndexRows(rows, right_keys_, 0);
    return;
  }
  if (first >= rows.size()) return;
  // Only the key columns of the new rows, copied into a chunk of their own.
  const size_t count = rows.size() - first;
  Chunk keys;
  std::vector<int> key_columns;
  for (size_t k = 0; k < right_keys_.size(); ++k) {
    const Vector& column = rows.column(static_cast<size_t>(right_keys_[k]));
    Vector v(column.type());
    v.AppendFrom(column, nullptr, first, count);
    keys.AddColumn(std::move(v));
    key_columns.push_back(static_cast<int>(k));
  }
  keys.SetSizeFromColumns();
  IndexRows(keys, key_columns, static_cast<uint32_t>(first));
}

Status LookupJoinOperator::TableLoaded() {
  loaded_ = true;
  std::vector<Queued> queued = std::move(queued_);
  queued_.clear();
  for (Queued& q : queued) {
    switch (q.kind) {
      case Queued::Kind::kChunk: RETURN_IF_ERROR(Probe(q.chunk)); break;
      case Queued::Kind::kWatermark: RETURN_IF_ERROR(EmitWatermark(q.watermark)); break;
      case Queued::Kind::kEnd: RETURN_IF_ERROR(EmitEndOfInput()); break;
    }
  }
  return Status::OK();
}

size_t LookupJoinOperator::StateBytes() const {
  size_t bytes = table_.MemoryUsage() + table_.size() * sizeof(uint32_t) +
                 NodeBytes(integral_index_.size(), sizeof(std::pair<const int64_t, std::vector<uint32_t>>)) +
                 NodeBytes(index_.size(), sizeof(std::pair<const std::string, std::vector<uint32_t>>));
  for (const auto& q : queued_) bytes += q.chunk.MemoryUsage();
  return bytes;
}

Status LookupJoinOperator::Process(int, Chunk& chunk) {
  if (chunk.size() == 0) return Status::OK();
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  if (!loaded_) {
    queued_.push_back(Queued{Queued::Kind::kChunk, std::move(chunk), 0});
    return Status::OK();
  }
  return Probe(chunk);
}

Status LookupJoinOperator::OnWatermark(int64_t watermark) {
  if (!loaded_) {
    queued_.push_back(Queued{Queued::Kind::kWatermark, Chunk(), watermark});
    return Status::OK();
  }
  return EmitWatermark(watermark);
}

Status LookupJoinOperator::OnEndOfInput() {
  if (!loaded_) {
    queued_.push_back(Queued{Queued::Kind::kEnd, Chunk(), 0});
    return Status::OK();
  }
  return EmitEndOfInput();
}

Status LookupJoinOperator::Probe(const Chunk& chunk) {
  const size_t n = chunk.size();
  const Chunk* keys = &chunk;
  Chunk evaluated;
  if (!keys_are_columns_) {
    std::vector<Vector> values;
    RETURN_IF_ERROR(key_eval_->Evaluate(chunk, &values));
    for (Vector& v : values) evaluated.AddColumn(std::move(v));
    evaluated.SetSizeFromColumns();
    keys = &evaluated;
  }
  std::vector<uint32_t> left_rows;
  std::vector<uint32_t> right_rows;
  left_rows.reserve(n);
  right_rows.reserve(n);
  auto add = [&](size_t i, const std::vector<uint32_t>* matches) {
    if (matches != nullptr) {
      for (uint32_t r : *matches) {
        left_rows.push_back(static_cast<uint32_t>(i));
        right_rows.push_back(r);
      }
      return;
    }
    if (left_outer_) {
      left_rows.push_back(static_cast<uint32_t>(i));
      right_rows.push_back(kNullRow);
    }
  };
  if (integral_key_) {
    const Vector& key = keys->column(static_cast<size_t>(left_key_columns_[0]));
    for (size_t i = 0; i < n; ++i) {
      const std::vector<uint32_t>* matches = nullptr;
      if (!key.IsNull(i)) {
        auto it = integral_index_.find(IntegralAt(key, i));
        if (it != integral_index_.end()) matches = &it->second;
      }
      add(i, matches);
    }
  } else {
    EncodeKeys(*keys, left_key_columns_, &encoded_);
    for (size_t i = 0; i < n; ++i) {
      const std::vector<uint32_t>* matches = nullptr;
      if (!AnyNull(*keys, left_key_columns_, i)) {
        auto it = index_.find(encoded_[i]);
        if (it != index_.end()) matches = &it->second;
      }
      add(i, matches);
    }
  }
  if (left_rows.empty()) return Status::OK();
  return EmitPairs(chunk, &left_rows, &right_rows);
}

Status LookupJoinOperator::EmitPairs(const Chunk& chunk, std::vector<uint32_t>* left_rows,
                                     std::vector<uint32_t>* right_rows) {
  std::vector<LogicalType> types = left_types_;
  types.insert(types.end(), right_types_.begin(), right_types_.end());
  const size_t nl = left_types_.size();
  auto build = [&](const std::vector<uint32_t>& l, const std::vector<uint32_t>& r) {
    Chunk out(types);
    const size_t m = l.size();
    for (size_t c = 0; c < nl; ++c) out.column(c).AppendFrom(chunk.column(c), l.data(), 0, m);
    for (size_t c = 0; c < right_types_.size(); ++c) {
      AppendSelectedOrNull(&out.column(nl + c), table_.rows().column(c), r.data(), m);
    }
    // Each joined row keeps its probe row's kind (a retraction looks up the same, unchanging rows).
    out.kind_vector().resize(m);
    for (size_t i = 0; i < m; ++i) out.kind_vector()[i] = chunk.kind(l[i]);
    return out;
  };
  Chunk out = build(*left_rows, *right_rows);
  if (!residual_eval_) return Emit(out);
  std::vector<uint32_t> pass;
  RETURN_IF_ERROR(residual_eval_->Filter(out, &pass));
  if (pass.size() == out.size()) return Emit(out);
  // The residual is part of the join condition: pairs that fail it are no match; a LEFT join pads a
  // probe row none of whose pairs counts (its padding row, if any, always counts).
  std::vector<uint8_t> ok(out.size(), 0);
  for (uint32_t p : pass) ok[p] = 1;
  std::vector<uint32_t> kept_left;
  std::vector<uint32_t> kept_right;
  const size_t m = left_rows->size();
  for (size_t b = 0; b < m;) {
    size_t e = b;
    bool any = false;
    while (e < m && (*left_rows)[e] == (*left_rows)[b]) {
      if ((*right_rows)[e] == kNullRow || ok[e]) {
        kept_left.push_back((*left_rows)[e]);
        kept_right.push_back((*right_rows)[e]);
        any = true;
      }
      ++e;
    }
    if (!any && left_outer_) {
      kept_left.push_back((*left_rows)[b]);
      kept_right.push_back(kNullRow);
    }
    b = e;
  }
  if (kept_left.empty()) return Status::OK();
  Chunk filtered = build(kept_left, kept_right);
  return Emit(filtered);
}

void LookupJoinOperator::PutQueue(StateWriter* w) const {
  w->PutVarint(queued_.size());
  for (const Queued& q : queued_) {
    w->PutU8(static_cast<uint8_t>(q.kind));
    w->PutI64(q.watermark);
    if (q.kind == Queued::Kind::kChunk) w->PutChunk(q.chunk);
  }
}

void LookupJoinOperator::GetQueue(StateReader* r) {
  queued_.clear();
  const size_t n = r->GetCount(9);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    if (!queued_.empty() && queued_.back().kind == Queued::Kind::kEnd) {
      r->Fail("probe messages queued after the probe side's end of input");
      break;
    }
    Queued q;
    const uint8_t kind = r->GetU8();
    if (r->ok() && kind > static_cast<uint8_t>(Queued::Kind::kEnd)) r->Fail("bad queued message");
    if (!r->ok()) break;
    q.kind = static_cast<Queued::Kind>(kind);
    q.watermark = r->GetI64();
    if (q.kind == Queued::Kind::kChunk) r->GetChunk(left_types_, &q.chunk);
    queued_.push_back(std::move(q));
  }
  // The queue is replayed and emptied when the table ends.
  if (r->ok() && loaded_ && !queued_.empty()) r->Fail("probe messages queued after the lookup table was loaded");
}

Status LookupJoinOperator::SnapshotState(StateWriter* w) {
  w->PutTag("lookup-join");
  table_.Snapshot(w);
  w->PutBool(loaded_);
  PutQueue(w);
  table_base_ = table_.size();
  return Status::OK();
}

void LookupJoinOperator::DropState() {
  table_ = RowArena(right_types_);
  integral_index_ = {};
  index_ = {};
  loaded_ = false;
  queued_ = {};
  table_base_ = 0;
}

Status LookupJoinOperator::RestoreState(StateReader* r) {
  DropState();
  r->ExpectTag("lookup-join");
  table_.Restore(r);
  if (r->ok() && table_.live() != table_.size()) r->Fail("released rows in a lookup table");
  loaded_ = r->GetBool();
  GetQueue(r);
  RETURN_IF_ERROR(r->status());
  IndexTableFrom(0);
  table_base_ = table_.size();
  return Status::OK();
}

bool LookupJoinOperator::CanSnapshotDelta() const { return has_snapshot_base(); }

Status LookupJoinOperator::SnapshotDelta(StateWriter* w) {
  SLUICE_CHECK(CanSnapshotDelta());
  w->PutTag("lookup-join delta");
  table_.SnapshotTail(table_base_, w);
  w->PutBool(loaded_);
  PutQueue(w);
  table_base_ = table_.size();
  return Status::OK();
}

Status LookupJoinOperator::RestoreDelta(StateReader* r) {
  r->ExpectTag("lookup-join delta");
  if (r->ok() && table_base_ != table_.size()) {
    r->Fail("a lookup join state delta applied to a table that grew since its last snapshot or restore");
  }
  RETURN_IF_ERROR(r->status());
  const size_t base = table_.size();
  const bool was_loaded = loaded_;
  table_.RestoreAppend(r);
  if (r->ok() && table_.live() != table_.size()) r->Fail("released rows in a lookup table");
  if (r->ok() && was_loaded && table_.size() != base) r->Fail("lookup table rows after the table was loaded");
  loaded_ = r->GetBool();
  if (r->ok() && was_loaded && !loaded_) r->Fail("a lookup join state delta unloads its table");
  GetQueue(r);
  // Partly applied: Operator::ApplyDelta drops the state (DropState).
  RETURN_IF_ERROR(r->status());
  IndexTableFrom(base);
  table_base_ = table_.size();
  return Status::OK();
}

Status LookupTableLoader::Process(int, Chunk& chunk) {
  metrics_.rows_in += static_cast<int64_t>(chunk.size());
  return join_->LoadTable(chunk);
}

Status LookupTableLoader::OnWatermark(int64_t) { return Status::OK(); }

Status LookupTableLoader::OnEndOfInput() { return join_->TableLoaded(); }

}  // namespace sluice
