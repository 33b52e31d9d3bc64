// LookupJoinOperator: Flink's processing-time temporal join (LookupJoin) against a bounded table that
// is held in memory in full, as Flink's filesystem/Hive lookup source with a full cache.
//
// The table arrives through a LookupTableLoader (below): its own source pipeline, which the job declares
// before the probe side so the job's scheduler reads the table to its end first. Until the table has
// ended, probe chunks, watermarks and the probe's end of input are queued in arrival order; then they
// are replayed, so every probe row sees the whole table whatever the scheduling.
//
// Probing: each probe row's key expressions (evaluated over the whole chunk) are looked up in a hash
// index of the table's key columns. A row joins every table row with an equal key, in table order
// (a table may repeat a key); a NULL key matches nothing. The residual condition, when there is one,
// decides which of those pairs count. A LEFT join emits a probe row without a counting pair once,
// padded with NULLs. Output = probe columns, then the table's columns, each joined row with its probe
// row's kind (an updating probe side's -U/-D rows find the same table rows again, as the table never
// changes once loaded); watermarks pass through after the rows before them.
//
// Checkpoints: the table rows, whether the table has ended, and the queued probe messages (none once
// the table has ended). Incremental (SnapshotDelta): the table rows appended since the last snapshot
// or restore (RowArena::SnapshotTail), the loaded flag and the queue as it is now; once the table has
// loaded a delta is a few bytes. A restore rebuilds the hash index from the restored rows.
//
// Threading: the job's task thread (both operators).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"
#include "state/row_arena.h"

namespace sluice {

class ExprEvaluator;

class LookupJoinOperator final : public Operator {
 public:
  // `left_keys`: expressions over the probe row, each of its right key column's type.
  LookupJoinOperator(std::string name, std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
                     std::vector<ExprPtr> left_keys, std::vector<int> right_keys, bool left_outer, ExprPtr residual);
  ~LookupJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Called by the loader: table rows, then the end of the table.
  Status LoadTable(const Chunk& chunk);
  Status TableLoaded();

  size_t table_rows() const { return table_.rows().size(); }

  // The loaded table, its index (an estimate per entry) and the queued rows.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  bool CanSnapshotDelta() const override;

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;

 private:
  // A probe-side message that arrived before the table was loaded.
  struct Queued {
    enum class Kind : uint8_t { kChunk, kWatermark, kEnd } kind;
    Chunk chunk;
    int64_t watermark = 0;
  };
  Status Probe(const Chunk& chunk);
  // Adds rows of `rows` to the hash index, row i under table row id first_id + i; `key_columns` are
  // its key columns, in the order of right_keys_.
  void IndexRows(const Chunk& rows, const std::vector<int>& key_columns, uint32_t first_id);
  // Indexes the table rows with ids >= `first` (after a restore appended them to table_).
  void IndexTableFrom(size_t first);
  // The queued probe messages, written whole; GetQueue replaces queued_ and checks it against loaded_.
  void PutQueue(StateWriter* w) const;
  void GetQueue(StateReader* r);
  // Emits probe rows left_rows[i] of `chunk` joined with table rows right_rows[i] (kNullRow: padding),
  // after the residual; the pairs of one probe row are consecutive.
  Status EmitPairs(const Chunk& chunk, std::vector<uint32_t>* left_rows, std::vector<uint32_t>* right_rows);

  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  std::vector<ExprPtr> left_keys_;
  std::vector<int> right_keys_;
  bool left_outer_;
  ExprPtr residual_;
  bool keys_are_columns_ = true;  // every left key is a plain column reference
  std::vector<int> left_key_columns_;
  // A single integral key is looked up by value; other keys by their encoding (state/key_encoder.h).
  bool integral_key_ = false;
  RowArena table_;
  std::unordered_map<int64_t, std::vector<uint32_t>> integral_index_;
  std::unordered_map<std::string, std::vector<uint32_t>> index_;
  bool loaded_ = false;
  std::vector<Queued> queued_;
  // The table's size at the last snapshot or restore: the first row of the next delta.
  size_t table_base_ = 0;
  std::unique_ptr<ExprEvaluator> key_eval_;
  std::unique_ptr<ExprEvaluator> residual_eval_;
  std::vector<std::string> encoded_;
};

// Feeds the lookup table's rows to its LookupJoinOperator and tells it when the table has ended. Its
// watermarks are dropped: the table is not versioned, so only the probe side's time counts.
class LookupTableLoader final : public Operator {
 public:
  Checkpointing checkpointing() const override { return Checkpointing::kStateless; }
  LookupTableLoader(std::string name, LookupJoinOperator* join) : Operator(std::move(name), 1), join_(join) {}
  Status Process(int input, Chunk& chunk) override;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;

 private:
  LookupJoinOperator* join_;
};

}  // namespace sluice
