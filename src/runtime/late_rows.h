// Late rows: the side output for rows that event-time operators drop behind the watermark (DESIGN.md
// §6, "never silently").
//
// Every operator that drops a late row calls Operator::ReportLate, which counts the row per operator
// (the job summary lists the counts). When the session option 'sluice.exec.late-rows.table' names a
// table, the job also gets a LateRowRecorder writing to that table's SinkWriter: one row per dropped
// row with the columns
//   operator   STRING        the dropping operator as EXPLAIN names it ("WindowAggregate"), with
//                            "#n" appended when the job has several of that name (n counts them
//                            in EXPLAIN's order, top to bottom)
//   watermark  TIMESTAMP(3)  the operator's watermark when it dropped the row (NULL: none yet)
//   row        STRING        the dropped row as a JSON object named by the operator's input columns
//                            ({"user_id":1,"ts":"2026-08-15 05:00:00.000"}, the json format's text)
//   event_time TIMESTAMP(3)  optional: the row's time attribute (NULL when unknown or NULL)
// in any order, and no other columns (ValidateLateRowsTable checks this at planning time). Rows are
// written as inserts, operator by operator (in the order operators were registered, EXPLAIN's order,
// then any other in order of first report), each operator's rows in the order it dropped them: they
// are buffered and written when the job ends, or whenever kMaxBufferedRows are buffered. So the
// table's content does not depend on the chunk size, except that with more late rows than that the
// operators' batches may interleave differently. A write error is kept and returned by Finish, so
// reporting never fails in an operator's loop.
//
// Under checkpointing (runtime/checkpoint.h) the table is exactly-once like a sink: at each
// checkpoint the recorder writes what it buffered and pre-commits it (so each checkpoint ends a
// batch of every operator's rows), the committables and the count go into the checkpoint, and they
// are committed when it completes, recovered and committed on restore.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "runtime/pending_commits.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

class SinkWriter;

enum class LateRowsColumn { kOperator, kWatermark, kRow, kEventTime };

// The role of each column of the late-rows table `table_name` (its physical schema `schema`), or
// an error naming the table and the expected columns.
Result<std::vector<LateRowsColumn>> ValidateLateRowsTable(const std::string& table_name, const Schema& schema);

class LateRowRecorder {
 public:
  static constexpr int64_t kMaxBufferedRows = 65536;

  LateRowRecorder(std::string table_name, std::vector<LateRowsColumn> columns, std::shared_ptr<SinkWriter> writer,
                  size_t chunk_size);

  // Declares an operator label, fixing its place in the write order.
  void RegisterOperator(const std::string& op);

  // Appends one late row: `row_json` is the dropped row's JSON text.
  void Record(const std::string& op, int64_t watermark, std::string row_json, std::optional<int64_t> event_time);
  // Writes what is buffered and closes the writer; returns the first write error, if any.
  Status Finish();

  // Checkpointing (two-phase commit through the writer, connectors/connector.h).
  void EnableTwoPhaseCommit();
  // At checkpoint `id`: writes the buffered rows and pre-commits them; returns the recorder's state
  // (the committables and rows_recorded) for the checkpoint.
  Result<std::string> Snapshot(int64_t checkpoint_id);
  // Checkpoint `id` is durable: commits the committables of the snapshots taken for it or before.
  Status NotifyCheckpointComplete(int64_t id);
  // Restores the state Snapshot returned (`what` names it in errors): commits its committables and
  // discards what was written after it.
  Status Restore(std::string_view state, const std::string& what);
  // A checkpointing job that restored nothing: discards what a crashed attempt left.
  Status StartAfresh();

  const std::string& table_name() const { return table_name_; }
  int64_t rows_recorded() const { return rows_recorded_; }

 private:
  // The buffer of operator `op`, registering it if new.
  std::vector<Chunk>& BufferOf(const std::string& op);
  void Flush();

  std::string table_name_;
  std::vector<LateRowsColumn> columns_;
  std::vector<LogicalType> types_;
  std::shared_ptr<SinkWriter> writer_;
  size_t chunk_size_;
  // Per operator, in write order: its buffered rows in chunks of at most chunk_size_.
  std::vector<std::pair<std::string, std::vector<Chunk>>> buffers_;
  int64_t buffered_ = 0;
  int64_t rows_recorded_ = 0;
  Status error_;
  bool two_phase_ = false;
  PendingCommits pending_;
};

}  // namespace sluice
