// MiniBatchBundle: the buffered input of an operator that runs in mini-batches (Flink's
// 'table.exec.mini-batch.*'), shared by every such operator so a bundle fills and closes one way:
// the group aggregate (GroupAggregateOperator, its local phase), Deduplicate and ChangelogNormalize
// (DeduplicateOperator) and the regular join (JoinOperator, two inputs).
//
// A bundle holds the rows of each input in arrival order and counts them over all inputs together,
// as Flink's CountBundleTrigger (one input) and CountCoBundleTrigger (two inputs) count elements: Add
// calls the owner's close callback exactly when the count reaches the size, so what a bundle holds
// never depends on how the input was chunked. The owner also closes it at every watermark (the
// MiniBatchAssigner upstream cuts the input with them), before a checkpoint's barrier (Flink's
// prepareSnapshotPreBarrier) and at the end of input; closing takes the rows out (Take / TakeAll) and
// applies them as the operator's bundle function does.
//
// Checkpoints: a bundle is part of its operator's state (a snapshot taken without a barrier,
// 'sluice.exec.checkpoint-roundtrip', must not change what is emitted): Snapshot writes each input's
// rows as a chunk, Restore reads them back and refuses a bundle as large as its size (it would have
// closed). An operator without mini-batch (size 0) writes empty bundles.
//
// GroupRowsByKey is the one grouping of a bundle's rows by key that the bundle functions share: keys in
// order of first appearance (Flink's bundle is a HashMap, whose order follows hash codes; Sluice does
// not copy that order, docs/flink_differences.md "Mini-batch bundles").
//
// Threading: the owning operator's task thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "types/vector.h"

namespace sluice {

class StateWriter;
class StateReader;

class MiniBatchBundle {
 public:
  // `input_types`: the row types of each input; `size`: 'table.exec.mini-batch.size' (0: no mini-batch).
  MiniBatchBundle(std::vector<std::vector<LogicalType>> input_types, int64_t size);

  bool enabled() const { return size_ > 0; }
  int64_t size() const { return size_; }
  bool empty() const { return count_ == 0; }
  // Rows buffered over all inputs.
  int64_t count() const { return count_; }

  // Appends the rows of `chunk` (from `input`); calls `close` each time the bundle reaches its size
  // (close must take the rows out).
  Status Add(int input, const Chunk& chunk, const std::function<Status()>& close);
  // Takes the rows of the only input (one-input bundles) / of every input, leaving the bundle empty.
  Chunk Take();
  std::vector<Chunk> TakeAll();
  void Clear();
  size_t MemoryUsage() const;

  void Snapshot(StateWriter* w) const;
  void Restore(StateReader* r);

 private:
  std::vector<std::vector<LogicalType>> types_;
  std::vector<Chunk> rows_;
  int64_t size_;
  int64_t count_ = 0;
};

// The rows of `rows` per key (indexes in arrival order), keys in order of first appearance;
// `encoded` receives each row's encoded key (state/key_encoder.h).
void GroupRowsByKey(const Chunk& rows, const std::vector<int>& keys, std::vector<std::string>* encoded,
                    std::vector<std::vector<uint32_t>>* per_key);

}  // namespace sluice
