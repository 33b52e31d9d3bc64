// SinkUpsertMaterializerOperator: rebuilds the right upsert for a sink whose PRIMARY KEY is not a
// unique key of the query (Flink's SinkUpsertMaterializer): several live query rows may map to one
// primary-key value, and the sink must always hold the latest of them.
//
// Per primary-key value it keeps the live rows in arrival order. Its input is a retract stream
// (the planner asks for -U rows), so every +I/+U adds a row and every -U/-D removes the first equal
// row; the list is exactly the live rows, so state is bounded by the result's size. (Flink's keeps
// each key's history when it sees no -U: FLIP-558.) Output, upsert by primary key:
// - +I/+U: the row becomes the latest: +I when the key had no row, else +U (never a -U before it,
//   even into a sink that stores before-images, as Flink 2.2.1's materializer);
// - -U/-D of the latest row: +U of the new latest, or -D when none is left; of an older row: nothing;
//   of a row never seen (or expired): nothing, counted in metrics().retractions_without_state.
//
// State is keyed through the shared keyed-state pieces (state/key_index.h, state/delta.h): a KeyIndex
// gives each upsert key a dense id with its row list, and checkpoints can be incremental
// (SnapshotDelta: the new keys, the row lists written since the last snapshot, the new rows).
// Compacting the arena or the keys renumbers them: the next checkpoint is then a full snapshot.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "runtime/operator.h"
#include "types/logical_type.h"

namespace sluice {

class SinkUpsertMaterializerOperator final : public Operator {
 public:
  SinkUpsertMaterializerOperator(std::string name, std::vector<LogicalType> types, std::vector<int> primary_key);
  ~SinkUpsertMaterializerOperator() override;
  Status Process(int input, Chunk& chunk) override;

  // Rows held in state (live rows over all keys).
  size_t state_rows() const;
  // Keys, the live rows per key and the stored rows.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  bool CanSnapshotDelta() const override;

 protected:
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  Status Flush();

  std::vector<LogicalType> types_;
  std::vector<int> primary_key_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
