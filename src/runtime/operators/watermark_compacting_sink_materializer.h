// WatermarkCompactingSinkMaterializerOperator: the materializer of `INSERT ... ON CONFLICT DO ERROR`
// and `ON CONFLICT DO NOTHING` (Flink 2.3's WatermarkCompactingSinkMaterializer, FLIP-558), for a sink
// whose PRIMARY KEY is not a unique key of the query.
//
// Changes are buffered per primary-key value until the watermark advances; the watermark is the
// barrier after which a -U and the +U it pairs with (which may travel different paths) have both
// arrived. While buffered, a change cancels an earlier buffered change of the opposite direction with
// the same content (+I/+U against -U/-D). When the watermark advances (and at end of input, whose
// watermark is +inf) every key with buffered changes is compacted, in the order its first buffered
// change arrived: starting from the row the sink holds for the key, additions replace the row with
// the same upsert key of the query (or are added, when the query has no upsert key) and retractions
// remove the first row with the same upsert key (or the same content). Then:
// - no row left: -D of the held row (if any);
// - one row: +I when none was held, +U when it differs from the held row, else nothing;
// - several rows (rows of different upsert keys map to one primary key): DO ERROR fails the job with
//   Flink's "Primary key constraint violation: ... Conflicting key: [pk=value]. ..."; DO NOTHING
//   writes the first of them when the key held no row, and otherwise keeps the held row.
// The output is an upsert stream (+I, +U, -D) by primary key; state per key is the held row and the
// changes buffered since the last watermark.
//
// State: a KeyIndex of primary-key values with dense ids; per id the held row and the buffered
// changes (arena ids and kinds), the keys with buffered changes in arrival order, and a RowArena
// that all rows live in (rebuilt once released rows outnumber the live ones, and before every
// snapshot). Checkpoints are full snapshots; after a restore the buffered changes wait for the next
// watermark, as Flink consolidates them to its first watermark after a restore.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/operator.h"
#include "types/insert_conflict.h"
#include "types/logical_type.h"

namespace sluice {

class WatermarkCompactingSinkMaterializerOperator final : public Operator {
 public:
  // `primary_key`: the sink's key columns, named `primary_key_names` in the conflict error;
  // `upsert_key`: the input's upsert key (empty when it has none); `strategy`: kError or kNothing.
  WatermarkCompactingSinkMaterializerOperator(std::string name, std::vector<LogicalType> types,
                                              std::vector<int> primary_key, std::vector<std::string> primary_key_names,
                                              std::vector<int> upsert_key, InsertConflictStrategy strategy);
  ~WatermarkCompactingSinkMaterializerOperator() override;
  Status Process(int input, Chunk& chunk) override;

  // Held rows plus buffered changes, over all keys.
  size_t state_rows() const;
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  // Compacts every key with buffered changes and emits the result.
  Status Compact();
  // Compacts one key (its id); appends the output to the state's output buffers.
  Status CompactKey(uint32_t key);
  // Whether stored rows a and b match as a retraction matches: by upsert key, else by content.
  bool SameRow(uint32_t a, uint32_t b) const;
  Status ConflictError(uint32_t row) const;
  Status Flush();

  std::vector<LogicalType> types_;
  std::vector<int> primary_key_;
  std::vector<std::string> primary_key_names_;
  std::vector<int> upsert_key_;
  InsertConflictStrategy strategy_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
