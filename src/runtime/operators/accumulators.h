// Accumulators: the states of a list of aggregate calls for one group (a GROUP BY key, an OVER
// partition), with Flink's FILTER and DISTINCT handling: a row whose FILTER column is not TRUE is
// skipped by that call; a DISTINCT call counts each distinct argument tuple and passes a value to its
// function only when the tuple first appears (accumulate) or last disappears (retract).
//
// DISTINCT calls over the same argument columns share one set of counts (Flink's distinct views shared
// by calls that differ only in FILTER, as in `COUNT(DISTINCT bidder) FILTER (WHERE price < 10)` next to
// `COUNT(DISTINCT bidder)`): one hash index of the argument tuples, each tuple's row holding one count
// per call of the set, so a tuple is encoded and looked up once per row and stored once per group.
//
// Over an insert-only input (no retraction ever reaches the calls) a set keeps no counts: per tuple a
// bit mask of the calls that have seen it (Flink's distinct view of an aggregate that consumes no
// retraction keeps a bitmap of its FILTERs), and a tuple of one 8-byte value (a BIGINT, a DOUBLE, a
// TIMESTAMP: 9 key-encoded bytes) is kept in a compact open-addressing table of 5-byte slots while its
// values fit in 32 bits (ids), else 9-byte ones (value and mask; q16's sets took 48 bytes a slot with
// counts).
//
// A group's state is one flat block of block_bytes() bytes that the operator owns (GroupAggregate keeps
// the blocks of all its groups in one array indexed by key id): the calls' function states (call a at
// offset(a), state_bytes() in all), then one owning pointer per set of DISTINCT calls to its counts
// (null until the first tuple), then the group's row count. A block is trivially
// relocatable (it may be moved with memcpy); a block that was never initialized or was destroyed is
// all zeros. plain() layouts own no heap memory: their blocks are just their bytes (and are
// checkpointed as such).
//
// AccumulatorLayout is immutable and shared by all groups of an operator.
//
// Threading: a layout may be shared; a block belongs to the operator's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

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

class AccumulatorLayout {
 public:
  // `insert_only`: no Update will retract (the input is insert-only); DISTINCT sets then keep bit masks.
  // `share_states`: calls that keep equal plain states (AggregateFunction::state_tag, the same
  // arguments and FILTER, not DISTINCT: SUM and AVG of one column) share one state in the block, and a
  // COUNT(*) without FILTER is the block's row count (q17: 104 -> 80 bytes a group). Their offsets
  // then coincide, so only an operator that goes through Init/Update/Finalize/Serialize (not one that
  // updates the states at offset(a) itself) may ask for it.
  explicit AccumulatorLayout(std::vector<AccumulatorCall> calls, bool insert_only = false, bool share_states = false);
  const std::vector<AccumulatorCall>& calls() const { return calls_; }

  // Bytes of one group's block (a multiple of block_align()) and the alignment its address needs.
  size_t block_bytes() const { return block_bytes_; }
  size_t block_align() const { return block_align_; }
  // True when no call keeps heap memory (no DISTINCT, no serialize callback): a block is plain bytes.
  bool plain() const { return plain_; }

  // Initializes `block` (block_bytes() bytes at block_align()) as an empty group.
  void Init(uint8_t* block) const;
  // Frees what the block owns and zeroes it. A zeroed block may be destroyed again.
  void Destroy(uint8_t* block) const;
  // Accumulates (or retracts) row `row` of `chunk` into every call.
  void Update(uint8_t* block, const Chunk& chunk, size_t row, bool retract) const;
  // True when a call can fail at runtime (AggregateFunction::check); then the operator calls Check
  // after updating a block.
  bool has_checks() const { return has_checks_; }
  [[nodiscard]] Status Check(const uint8_t* block) const;
  // True when some call is DISTINCT (its counts live outside the block).
  bool has_distinct() const { return !distinct_sets_.empty(); }
  // Cache hints before Update(block, chunk, row) on many rows: first PrefetchCounts for each row's
  // block (its DISTINCT counts' objects), then PrefetchTuples (each set's index slot for the row's
  // tuple), so the misses of a batch's rows overlap. No effect on the state.
  void PrefetchCounts(const uint8_t* block) const;
  void PrefetchTuples(const uint8_t* block, const Chunk& chunk, size_t row) const;
  // Writes call i's current result into out[first_column + i] at `row` (the row must exist).
  void Finalize(const uint8_t* block, Chunk* out, size_t first_column, size_t row) const;
  // Rows accumulated minus rows retracted.
  int64_t count(const uint8_t* block) const;
  // Heap the block owns beyond block_bytes(): its calls' heap_bytes and its DISTINCT counts (index
  // slots and count rows; keys longer than the small-string buffer are not walked). 0 for plain layouts
  // and zeroed blocks.
  size_t HeapBytes(const uint8_t* block) const;
  // For operators that pool the states of many groups and keep DISTINCT counts themselves (OVER): a
  // group's function states take state_bytes() bytes, call a's at offset(a) (aligned to its function's
  // state_align).
  size_t state_bytes() const { return state_bytes_; }
  size_t offset(size_t a) const { return offsets_[a]; }
  // Checkpoints: writes a group's states (each function's, its DISTINCT counts, the row count), and
  // reads them back into a block Init() prepared.
  void Serialize(const uint8_t* block, StateWriter* w) const;
  void Deserialize(uint8_t* block, StateReader* r) const;

  // The counts of one set of DISTINCT calls in one group (accumulators.cc).
  struct DistinctCounts;

 private:
  // The DISTINCT calls over one list of argument columns.
  struct DistinctSet {
    size_t offset = 0;          // of its DistinctCounts pointer in a block
    std::vector<size_t> calls;  // call indexes; a call's count is at its position here in a tuple's row
    bool masks = false;         // bit masks, not counts (insert-only input, at most kMaxMaskCalls calls)
  };
  static constexpr size_t kNotDistinct = static_cast<size_t>(-1);
  static constexpr size_t kMaxMaskCalls = 63;
  DistinctCounts* distinct(const uint8_t* block, size_t set) const;
  DistinctCounts** distinct_slot(uint8_t* block, size_t set) const;
  // The counts of `tuple` in DISTINCT set `set`, made when absent unless `retract` (then null); for a
  // set of masks, the bytes of its mask (call m of the set: bit m % 8 of byte m / 8), made when absent.
  void* FindDistinct(uint8_t* block, size_t set, const std::string& tuple, bool retract) const;
  void SerializeDistinct(const uint8_t* block, size_t a, StateWriter* w) const;
  void DeserializeDistinct(uint8_t* block, size_t a, StateReader* r) const;

  std::vector<AccumulatorCall> calls_;
  bool insert_only_ = false;
  std::vector<size_t> offsets_;
  std::vector<uint8_t> shared_;          // per call: 1 when its state is another call's or the row count
  std::vector<DistinctSet> distinct_sets_;
  std::vector<size_t> distinct_set_;     // per call: its DistinctSet, or kNotDistinct
  std::vector<size_t> distinct_member_;  // per DISTINCT call: its position in its set
  size_t state_bytes_ = 0;
  size_t count_offset_ = 0;
  size_t block_bytes_ = 0;
  size_t block_align_ = 8;
  bool plain_ = true;
  bool has_checks_ = false;
};

}  // namespace sluice
