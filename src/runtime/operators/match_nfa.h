// MatchNfa: the pattern matcher of MATCH_RECOGNIZE (runtime/operators/match_operator.h), with the
// semantics of Flink's CEP library (NFA, NFACompiler, AfterMatchSkipStrategy) for the patterns Flink's
// SQL runs: a sequence of distinct variables with quantifiers, strict contiguity.
//
// Patterns Flink's CEP refuses (alternation, quantified groups, a reluctant ?) run on MatchProgram
// (match_program.h) with the SQL standard's semantics; both share the partition state and the
// release by skip strategy below.
//
// A run (Flink's ComputationState) is a partial match at stage `stage` with `count` rows taken there.
// For each row of a partition, in order, every run follows the edges of its state:
//   take     the row joins the current stage (count < max and the stage's condition holds);
//   proceed  (count >= min) on to the next stage's first state, without consuming the row; the
//            edges out of a stage's first state require that the previous stage's condition rejects
//            the row when that stage is greedy (Flink's updateWithGreedyCondition);
// a run that takes nothing dies (strict contiguity), and a fresh run starts at every row. A take from
// which proceeding reaches the end of the pattern completes a match. Completed matches wait until no
// partial match started before them (Flink's processMatchesAccordingToSkipStrategy), then leave in
// start order, each pruning partial and completed matches by the AFTER MATCH SKIP strategy:
//   PAST LAST ROW: those starting at or before the match's last row; TO NEXT ROW: those starting at
//   or before its first row; TO FIRST/LAST v: those starting before the first/last row of v (a
//   runtime error when v has no row, or when that row starts the match, as Flink's
//   throwExceptionOnMiss). WITHIN: a run whose first row is `within` or more before the current time
//   is dropped (at each row, and when time advances).
//
// Rows live in the operator's RowArena and are named by id; each row processed gets a sequence
// number (its place in the partition's order) that skip strategies compare.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "plan/plan_node.h"
#include "types/vector.h"

namespace sluice {

class ExprEvaluator;
class RowArena;
class StateWriter;
class StateReader;
struct EvalContext;

struct MatchRun {
  int stage = 0;
  int64_t count = 0;
  uint64_t start_seq = 0;
  int64_t start_time = 0;
  std::vector<uint32_t> rows;  // arena ids, in order
  std::vector<uint8_t> vars;   // the variable of each row
};

// The matcher's state of one partition.
struct MatchPartition {
  std::vector<MatchRun> runs;        // partial matches, in start order
  std::vector<MatchRun> completed;   // matches waiting for earlier partial matches, in start order
  std::vector<MatchRun> candidates;  // MatchProgram only: the best match so far of an attempt whose
                                     // more preferred threads still run, in start order
  void Snapshot(StateWriter* w) const;
  // `max_stage`: the largest stage (or program counter) a run may be at; `num_vars`: the variables.
  void Restore(StateReader* r, size_t max_stage, size_t num_vars, size_t arena_rows);
};

// Evaluates DEFINE conditions and MEASURES over the rows of runs (one per operator).
class MatchEvaluator {
 public:
  MatchEvaluator(const MatchNode& node, const RowArena* arena, EvalContext* eval);
  ~MatchEvaluator();
  // Whether `row` may be mapped to variable `var` after the rows of `run`.
  Result<bool> Condition(int var, const MatchRun& run, uint32_t row);
  // The measures of `matches` (one output row each) appended to `out` columns from `first_column` on.
  Status Measures(const std::vector<const MatchRun*>& matches, Chunk* out, size_t first_column);
  // The arena the rows live in (replaced when the operator's state is dropped or compacted).
  void set_arena(const RowArena* arena) { arena_ = arena; }
  bool has_condition(int var) const { return conds_[static_cast<size_t>(var)] != nullptr; }

 private:
  // Fills row `out_row` of `chunk` with the slots of `e` over `run` (and `row` as `var` when var >= 0).
  void FillSlots(const MatchExpr& e, const MatchRun& run, int var, uint32_t row, Chunk* chunk, size_t out_row);
  const MatchNode& node_;
  const RowArena* arena_;
  EvalContext* eval_;  // the job's; its clock gives MATCH_PROCTIME()
  std::vector<std::unique_ptr<ExprEvaluator>> conds_;     // per variable, null when TRUE
  std::vector<std::unique_ptr<ExprEvaluator>> measures_;  // per measure
  std::vector<Chunk> cond_chunks_;
  Vector result_;
};

// A partition's matcher: Flink's CEP NFA (MatchNfa) or the SQL standard's (MatchProgram,
// match_program.h). Both keep their state in a MatchPartition, so the operator snapshots either.
class PatternMatcher {
 public:
  virtual ~PatternMatcher() = default;
  // Processes row `row` (sequence number `seq`, time `time`) of partition `p`; matches that may
  // leave are appended to `out` in order.
  virtual Status Process(MatchPartition* p, uint32_t row, uint64_t seq, int64_t time,
                         const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) = 0;
  // Time advanced to `time` (WITHIN): drops timed-out runs; released matches are appended to `out`.
  virtual Status AdvanceTime(MatchPartition* p, int64_t time, const std::vector<uint64_t>& row_seq,
                             std::vector<MatchRun>* out) = 0;
  // The input ended: what the matcher still decides then (nothing for Flink's NFA).
  virtual Status Finish(MatchPartition* p, const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) = 0;
  // The largest stage or program counter a run may be at (checked on restore).
  virtual size_t max_stage() const = 0;
};

// Emits completed matches no earlier partial match (or pending candidate) holds back, in start order,
// each pruning partial matches, candidates and completed matches by the AFTER MATCH SKIP strategy.
Status ReleaseMatches(const MatchNode& node, MatchPartition* p, const std::vector<uint64_t>& row_seq,
                      std::vector<MatchRun>* out);

class MatchNfa final : public PatternMatcher {
 public:
  MatchNfa(const MatchNode& node, MatchEvaluator* eval) : node_(node), eval_(eval) {}
  Status Process(MatchPartition* p, uint32_t row, uint64_t seq, int64_t time, const std::vector<uint64_t>& row_seq,
                 std::vector<MatchRun>* out) override;
  Status AdvanceTime(MatchPartition* p, int64_t time, const std::vector<uint64_t>& row_seq,
                     std::vector<MatchRun>* out) override;
  Status Finish(MatchPartition*, const std::vector<uint64_t>&, std::vector<MatchRun>*) override { return Status::OK(); }
  size_t max_stage() const override { return node_.stages.size(); }

 private:
  // The edges of `run` at (stage, count) for `row`: new runs into `next`, completed matches into `done`.
  Status Visit(const MatchRun& run, int stage, int64_t count, uint32_t row, std::vector<MatchRun>* next,
               std::vector<MatchRun>* done);
  // Whether the edges out of (stage, count) are blocked for `row` by the greedy previous stage.
  Result<bool> Gated(const MatchRun& run, int stage, int64_t count, uint32_t row);
  // Whether proceeding from (stage, count) after `run` took `row` reaches the end of the pattern.
  Result<bool> FinalAfterProceed(const MatchRun& run, int stage, int64_t count, uint32_t row);
  bool TimedOut(const MatchRun& r, int64_t time) const {
    return node_.within_ms >= 0 && time - r.start_time >= node_.within_ms * 1000;
  }

  const MatchNode& node_;
  MatchEvaluator* eval_;
};

}  // namespace sluice
