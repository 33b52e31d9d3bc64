// MatchProgram: the matcher of MATCH_RECOGNIZE patterns Flink's CEP refuses (alternation, quantified
// groups, a reluctant ?), with the SQL standard's row pattern semantics (SQL:2016 4.x "row pattern
// recognition", as Oracle and Trino implement it). The binder compiles the pattern to instructions
// (plan_node.h, MatchInstr; binder/match_pattern.cc); this runs them as a Pike VM whose threads are
// kept in the order of the standard's preferment (alternation prefers the left branch, a greedy
// quantifier one more iteration, a reluctant one fewer).
//
// An attempt is the search for the preferred match starting at one row. Its threads all consumed the
// same rows (the attempt's rows so far) and differ in the variables they mapped them to; each waits at
// a kLabel instruction for the next row. For each row, in preference order, a thread whose variable's
// DEFINE accepts the row takes it and follows the kJump / kSplit edges after it (its closure, in
// preference order) to the kLabel instructions where it waits next, or to kDone: a match. The
// empty-match guard of the standard: an iteration of a loop that took no row is not repeated (a path of
// the closure that would jump back to a loop whose iteration began in this closure ends there). A
// closure reaches an instruction once, unless a loop's body can take no row: then once per set of such
// loops begun (a path round an enclosing loop may reach an instruction again, preferred differently). A match becomes the attempt's candidate and ends every thread
// less preferred than it; more preferred threads go on and replace the candidate when they match.
// When no thread is left the attempt is decided: its candidate (if any) is its match. Two threads of
// an attempt at the same instruction that map the rows of the variables DEFINEs read (FIRST/LAST of a
// variable, aggregates) alike accept the same rows from then on, so the less preferred one is dropped
// (the standard's preferment would never choose it). When no DEFINE reads another row than the one it
// classifies, an attempt holds at most one thread per instruction; otherwise the threads can grow
// with the ways of mapping the rows to those variables (exponentially for an ambiguous alternation
// whose branches' variables a DEFINE reads, as in Trino's matcher).
//
// The standard tries attempts one after another, the next one where the AFTER MATCH SKIP clause says
// (or at the next row when an attempt finds no match). Rows arrive one by one, so an attempt starts at
// every row and runs while earlier ones are undecided; decided matches leave in start order through
// ReleaseMatches (match_nfa.h), which drops the attempts the skip clause passes over. WITHIN ends the
// threads of an attempt whose first row is `within` or more before the current time; its candidate
// stands. At the end of the input every attempt is decided.
//
// Threading: the job's task thread.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/operators/match_nfa.h"

namespace sluice {

class MatchProgram final : public PatternMatcher {
 public:
  MatchProgram(const MatchNode& node, MatchEvaluator* eval);
  Status Process(MatchPartition* p, uint32_t row, uint64_t seq, int64_t time, const std::vector<uint64_t>& row_seq,
                 std::vector<MatchRun>* out) override;
  Status AdvanceTime(MatchPartition* p, int64_t time, const std::vector<uint64_t>& row_seq,
                     std::vector<MatchRun>* out) override;
  Status Finish(MatchPartition* p, const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) override;
  size_t max_stage() const override { return node_.program.size(); }

 private:
  // The kLabel / kDone instructions the closure from `pc` reaches, in preference order (kDone at most
  // once, and nothing after it: less preferred paths end there).
  void Closure(int pc, std::vector<int>* out);
  // Closure for programs with a loop whose body can take no row (empty_loops_).
  void GuardedClosure(int pc, std::vector<int>* out);
  // Feeds `row` to the threads of one attempt ([begin, end) of `threads`, in preference order):
  // the surviving threads are appended to `next`; a match replaces `*candidate`.
  Status Step(std::vector<MatchRun>& threads, size_t begin, size_t end, uint32_t row, std::vector<MatchRun>* next,
              MatchRun* candidate, bool* matched);
  // An attempt with no thread left is decided: its candidate moves to the completed matches.
  void Decide(MatchPartition* p, uint64_t start_seq);
  bool TimedOut(const MatchRun& r, int64_t time) const {
    return node_.within_ms >= 0 && time - r.start_time >= node_.within_ms * 1000;
  }

  const MatchNode& node_;
  MatchEvaluator* eval_;
  bool history_free_ = true;      // no DEFINE reads another row than the one it classifies
  std::vector<uint8_t> read_;     // per variable: a DEFINE reads its rows (FIRST/LAST/aggregates)
  std::vector<uint8_t> loop_head_;  // per instruction: a loop's kSplit (its body starts right after)
  bool empty_loops_ = false;        // some loop's body can take no row
  std::vector<uint32_t> visited_;  // per instruction: the closure that last visited it
  uint32_t closure_ = 0;
  std::vector<uint32_t> seen_;    // per instruction: the step that last put a thread there (history_free_)
  uint32_t step_ = 0;
  std::vector<int> pcs_;
  std::vector<int> stack_;  // Closure's
};

}  // namespace sluice
