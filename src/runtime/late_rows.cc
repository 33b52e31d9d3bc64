#include "runtime/late_rows.h"

#include "connectors/connector.h"
#include "runtime/operator.h"
#include "state/state_serde.h"
#include "types/value.h"

namespace sluice {

namespace {

constexpr char kExpectedColumns[] =
    "operator STRING, watermark TIMESTAMP(3), row STRING and optionally event_time TIMESTAMP(3), in any order";

// The type as declared, without nullability or time attribute ("STRING", "TIMESTAMP(3)").
std::string PlainTypeName(const LogicalType& type) {
  return type.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone).ToString();
}

}  // namespace

Result<std::vector<LateRowsColumn>> ValidateLateRowsTable(const std::string& table_name, const Schema& schema) {
  struct Expected {
    const char* name;
    const char* type;
    LateRowsColumn role;
    bool required;
  };
  static const Expected kColumns[] = {
      {"operator", "STRING", LateRowsColumn::kOperator, true},
      {"watermark", "TIMESTAMP(3)", LateRowsColumn::kWatermark, true},
      {"row", "STRING", LateRowsColumn::kRow, true},
      {"event_time", "TIMESTAMP(3)", LateRowsColumn::kEventTime, false},
  };
  auto error = [&](const std::string& what) {
    return Status::PlanError("The late-rows table '" + table_name + "' (option 'sluice.exec.late-rows.table') " + what +
                             ". It must have the columns " + kExpectedColumns + ", but has " + schema.ToString() + ".");
  };
  std::vector<LateRowsColumn> roles;
  std::vector<bool> seen(std::size(kColumns), false);
  for (const Field& f : schema.fields()) {
    size_t e = 0;
    while (e < std::size(kColumns) && f.name != kColumns[e].name) ++e;
    if (e == std::size(kColumns)) return error("has an unexpected column '" + f.name + "'");
    if (PlainTypeName(f.type) != kColumns[e].type) {
      return error("declares column '" + f.name + "' as " + PlainTypeName(f.type) + " instead of " + kColumns[e].type);
    }
    seen[e] = true;
    roles.push_back(kColumns[e].role);
  }
  for (size_t e = 0; e < std::size(kColumns); ++e) {
    if (kColumns[e].required && !seen[e]) return error("lacks the column '" + std::string(kColumns[e].name) + "'");
  }
  return roles;
}

LateRowRecorder::LateRowRecorder(std::string table_name, std::vector<LateRowsColumn> columns,
                                 std::shared_ptr<SinkWriter> writer, size_t chunk_size)
    : table_name_(std::move(table_name)), columns_(std::move(columns)), writer_(std::move(writer)),
      chunk_size_(std::max<size_t>(1, chunk_size)) {
  for (LateRowsColumn c : columns_) {
    types_.push_back(c == LateRowsColumn::kOperator || c == LateRowsColumn::kRow ? LogicalType::String()
                                                                                 : LogicalType::Timestamp(3));
  }
}

void LateRowRecorder::RegisterOperator(const std::string& op) { BufferOf(op); }

std::vector<Chunk>& LateRowRecorder::BufferOf(const std::string& op) {
  for (auto& [label, chunks] : buffers_) {
    if (label == op) return chunks;
  }
  buffers_.emplace_back(op, std::vector<Chunk>{});
  return buffers_.back().second;
}

void LateRowRecorder::Record(const std::string& op, int64_t watermark, std::string row_json,
                             std::optional<int64_t> event_time) {
  ++rows_recorded_;
  if (!error_.ok()) return;
  const LogicalType ts = LogicalType::Timestamp(3);
  std::vector<Value> values;
  values.reserve(columns_.size());
  for (LateRowsColumn c : columns_) {
    switch (c) {
      case LateRowsColumn::kOperator: values.push_back(Value::String(op)); break;
      case LateRowsColumn::kWatermark:
        values.push_back(watermark == kMinWatermark ? Value::Null(ts) : Value::Int(ts, watermark));
        break;
      case LateRowsColumn::kRow: values.push_back(Value::String(row_json)); break;
      case LateRowsColumn::kEventTime:
        values.push_back(event_time ? Value::Int(ts, *event_time) : Value::Null(ts));
        break;
    }
  }
  std::vector<Chunk>& chunks = BufferOf(op);
  if (chunks.empty() || chunks.back().size() >= chunk_size_) chunks.emplace_back(types_);
  chunks.back().AppendValues(values, RowKind::kInsert);
  if (++buffered_ >= kMaxBufferedRows) Flush();
}

void LateRowRecorder::Flush() {
  for (auto& [label, chunks] : buffers_) {
    for (const Chunk& c : chunks) {
      if (!error_.ok()) break;
      error_ = writer_->Write(c).WithContext("Writing late rows to table '" + table_name_ + "'");
    }
    chunks.clear();
  }
  buffered_ = 0;
}

Status LateRowRecorder::Finish() {
  Flush();
  RETURN_IF_ERROR(error_);
  return writer_->Finish().WithContext("Writing late rows to table '" + table_name_ + "'");
}

Result<std::string> LateRowRecorder::Snapshot(int64_t checkpoint_id) {
  Flush();
  RETURN_IF_ERROR(error_);
  RETURN_IF_ERROR(pending_.PreCommit(writer_.get(), checkpoint_id));
  StateWriter w;
  w.PutTag("late-rows");
  pending_.Put(&w);
  w.PutI64(rows_recorded_);
  return std::string(w.data());
}

Status LateRowRecorder::NotifyCheckpointComplete(int64_t id) {
  return pending_.CommitUpTo(writer_.get(), id).WithContext("Committing late rows to table '" + table_name_ + "'");
}

Status LateRowRecorder::Restore(std::string_view state, const std::string& what) {
  StateReader r(state, what);
  r.ExpectTag("late-rows");
  std::vector<std::string> committables = PendingCommits::Get(&r);
  const int64_t rows = r.GetI64();
  RETURN_IF_ERROR(r.status());
  rows_recorded_ = rows;
  return PendingCommits::Recover(writer_.get(), committables).WithContext("Restoring late rows of table '" + table_name_ + "'");
}

void LateRowRecorder::EnableTwoPhaseCommit() { two_phase_ = writer_->EnableTwoPhaseCommit(); }

Status LateRowRecorder::StartAfresh() { return two_phase_ ? writer_->RecoverAndCommit(std::string()) : Status::OK(); }

}  // namespace sluice
