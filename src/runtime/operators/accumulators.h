// Accumulators: the states of a list of aggregate calls for one group (a GROUP BY key, an OVER
// partition), with Flink's FILTER and DISTINCT handling: a row whose FILTER column is not TRUE is
// skipped by that call; a DISTINCT call counts each distinct argument tuple and passes a value to its
// function only when the tuple first appears (accumulate) or last disappears (retract).
//
// AccumulatorLayout is immutable and shared by all groups of an operator; AccumulatorGroup is one
// group's state (owned by the operator, destroyed through the layout).
//
// Threading: a layout may be shared; a group belongs to the operator's task thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sluice {

struct AggregateFunction;
class Chunk;
class Vector;
class StateWriter;
class StateReader;

struct AccumulatorCall {
  std::shared_ptr<const AggregateFunction> function;
  std::vector<int> args;  // input columns
  bool distinct = false;
  int filter = -1;        // input BOOLEAN column, -1 when none
};

struct AccumulatorGroup {
  std::unique_ptr<uint8_t[]> states;
  // Per call: how often each distinct argument tuple is currently accumulated (DISTINCT calls only).
  std::vector<std::map<std::string, int64_t>> distinct;
  int64_t count = 0;  // rows accumulated minus rows retracted
};

class AccumulatorLayout {
 public:
  explicit AccumulatorLayout(std::vector<AccumulatorCall> calls);
  const std::vector<AccumulatorCall>& calls() const { return calls_; }

  void Init(AccumulatorGroup* g) const;
  void Destroy(AccumulatorGroup* g) const;
  // Accumulates (or retracts) row `row` of `chunk` into every call.
  void Update(AccumulatorGroup* g, const Chunk& chunk, size_t row, bool retract) const;
  // Writes call i's current result into out[first_column + i] at `row` (the row must exist).
  void Finalize(const AccumulatorGroup& g, Chunk* out, size_t first_column, size_t row) const;
  // For operators that pool the states of many groups and keep DISTINCT counts themselves (OVER): a
  // group's states take state_bytes() bytes, call a's at offset(a) (aligned to its function's state_align).
  size_t state_bytes() const { return state_bytes_; }
  size_t offset(size_t a) const { return offsets_[a]; }
  // Checkpoints: writes a group's states (each function's, its DISTINCT counts, the row count), and
  // reads them back into a group Init() prepared.
  void Serialize(const AccumulatorGroup& g, StateWriter* w) const;
  void Deserialize(AccumulatorGroup* g, StateReader* r) const;

 private:
  std::vector<AccumulatorCall> calls_;
  std::vector<size_t> offsets_;
  size_t state_bytes_ = 0;
};

}  // namespace sluice
