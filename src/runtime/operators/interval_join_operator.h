// IntervalJoinOperator: Flink's interval join (RowTimeIntervalJoin / ProcTimeIntervalJoin over
// TimeIntervalJoin): an equi-join of two insert-only inputs where a left row at time l and a right row
// at time r match when l - r lies in [lower, upper] (Flink's leftLowerBound/leftUpperBound) and the
// residual condition holds. INNER, LEFT, RIGHT and FULL; output insert-only.
//
// Time is the rowtime column of each side (event time, progress = the combined watermark W: rows at or
// before W no longer arrive) or the injected clock at arrival (processing time, progress = now - 1 µs:
// later rows arrive at now or later). Per side, the rows of each join key are kept sorted by (time,
// arrival). An arriving row joins, in that order, the other side's kept rows of its key within its
// interval; it is kept while rows of the other side that can match it may still arrive: a left row
// until progress reaches l - lower, a right row until r + upper. When progress passes that deadline the
// row expires (its state is freed) and, on an outer side, a row that never matched is emitted padded
// with NULLs — once, never retracted. Rows expire in (deadline, arrival) order over both sides, so
// padded rows leave in one order however coarsely the watermark advances. An arriving row whose
// deadline already passed is not kept; an outer row of that kind that matched nothing is padded at once
// (as Flink). Which rows match never depends on when watermarks arrive: a kept row that already expired
// by the true watermark can only be reached by a row behind that watermark, and sources deliver the
// watermark before such a row (DESIGN.md §6).
//
// Late rows: an event-time row every possible match of which has expired or can no longer arrive
// (l - lower + max(upper, 0) <= W for a left row, r + upper + max(-lower, 0) <= W for a right one) is
// dropped and reported (Operator::ReportLate). Unlike Flink, which pads such a row of an outer join if
// its matches were already cleaned up, Sluice drops it on every join type.
//
// A NULL join key never matches: an outer row with one is padded at once, an inner one dropped. When
// lower > upper nothing can match: outer rows are padded at once, nothing is kept (Flink's negative
// window join). The event-time output watermark is held back by max(-lower, upper) (Flink's
// KeyedCoProcessOperatorWithWatermarkDelay), so joined rows are not late downstream; padded rows can
// be, when the watermark jumps past their deadline. End of input expires every kept row.
//
// State is keyed through the shared keyed-state pieces (state/key_index.h, state/delta.h): a KeyIndex
// gives each join key a dense id with its kept rows, and checkpoints can be incremental
// (SnapshotDelta: the new rows, the new keys, and the whole state of each key written since the last
// snapshot). Compacting an arena or the keys renumbers them: the next checkpoint is then a full one.
//
// Threading: the job's task thread.
#pragma once

#include <memory>
#include <vector>

#include "function/expression.h"
#include "runtime/operator.h"

namespace sluice {

struct IntervalJoinSpec {
  bool left_outer = false;
  bool right_outer = false;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  bool rowtime = true;
  int left_time = -1;   // rowtime column of the left input (event time only)
  int right_time = -1;  // rowtime column of the right input (event time only)
  int64_t lower_ms = 0;
  int64_t upper_ms = 0;
  ExprPtr residual;  // over left ++ right; null when none
};

class IntervalJoinOperator final : public Operator {
 public:
  IntervalJoinOperator(std::string name, std::vector<LogicalType> left_types, std::vector<LogicalType> right_types,
                       IntervalJoinSpec spec);
  ~IntervalJoinOperator() override;

  Status Open(JobContext* ctx) override;
  Status Process(int input, Chunk& chunk) override;

  // Rows kept in state on `side` (0 left, 1 right), and join keys with kept rows.
  size_t kept_rows(int side) const;
  size_t kept_keys() const;
  // Both sides' stored rows, their per-key entries and expiry heaps, the keys.
  size_t StateBytes() const override;
  Checkpointing checkpointing() const override { return Checkpointing::kSupported; }
  bool CanSnapshotDelta() const override;

 protected:
  Status OnWatermark(int64_t watermark) override;
  Status OnEndOfInput() override;
  Status SnapshotState(StateWriter* w) override;
  Status RestoreState(StateReader* r) override;
  Status SnapshotDelta(StateWriter* w) override;
  Status RestoreDelta(StateReader* r) override;
  void DropState() override;

 private:
  struct State;
  struct Side;
  // Process's steps for a chunk of one input: the rows' times (and progress), their candidate matches
  // among the other side's kept rows, the residual condition over them, the joined (or padded) rows
  // out, and the rows kept for later matches.
  Side SideOf(int input) const;
  Status ReadTimes(const Side& d, const Chunk& chunk, int64_t* progress);
  void FindCandidates(const Side& d, const Chunk& chunk, int64_t progress);
  Status FilterCandidates(const Side& d, const Chunk& chunk);
  Status EmitMatches(const Side& d, const Chunk& chunk);
  void KeepRows(const Side& d, const Chunk& chunk);
  Status EmitPairs(const Side& d, const Chunk& chunk, const std::vector<uint32_t>& mine,
                   const std::vector<uint32_t>& theirs);
  // Expires every kept row whose deadline is at or before `progress`, emitting outer rows' padding.
  Status ExpireUpTo(int64_t progress);
  int64_t ProcessingTime() const;
  // Rebuild an arena with its kept rows only / the keys with kept rows only, renumbering them.
  void CompactArena(int side);
  void CompactKeys();
  // The expiry heaps from the kept rows (after a restore).
  void RebuildHeaps();
  // After a restore: refuses state that points outside its tables, rebuilds the derived state.
  void ValidateAndDerive(StateReader* r);

  std::vector<LogicalType> left_types_;
  std::vector<LogicalType> right_types_;
  std::vector<LogicalType> output_types_;
  IntervalJoinSpec spec_;
  int64_t lower_us_;
  int64_t upper_us_;
  std::unique_ptr<State> state_;
};

}  // namespace sluice
