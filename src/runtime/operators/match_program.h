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
// an attempt at the same instruction whose DEFINEs still to come read the same earlier rows accept the
// same rows from then on (as Trino's ThreadEquivalence): the less preferred one is dropped (the
// standard's preferment would never choose it). What the DEFINEs of the variables reachable from an
// instruction read of earlier rows (its probes): for FIRST/LAST(v, k) the rows at offsets 0..k, for an
// aggregate of v the rows mapped to v, for one over all rows the attempt's first row. When no DEFINE
// reads another row than the one it classifies, an attempt holds at most one thread per instruction.
// With AFTER MATCH SKIP PAST LAST ROW and no WITHIN, a thread of a later attempt is also dropped when
// a thread of an earlier attempt is at the same instruction with the same probes and that attempt is
// firm (no earlier pending match can skip it): if the earlier thread matches, the earlier attempt's
// match ends at this row or later and skips the later attempt; if not, neither would the later
// thread. So a pattern whose DEFINEs read only the current row holds at most one thread per
// instruction per partition while a firm attempt runs. What dedup cannot merge (DEFINEs reading rows
// an ambiguous pattern maps differently, e.g. an aggregate of A in (A | B)*) is bounded by
// 'sluice.exec.match-recognize.max-threads': past it the job fails naming the partition.
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
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "runtime/operators/match_nfa.h"

namespace sluice {

class MatchProgram final : public PatternMatcher {
 public:
  // `max_threads`: 'sluice.exec.match-recognize.max-threads'; `describe_partition` names the partition of
  // an arena row in the error past it.
  MatchProgram(const MatchNode& node, MatchEvaluator* eval, int64_t max_threads,
               std::function<std::string(uint32_t)> describe_partition);
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
  // the surviving threads are appended to `next`; a match replaces `*candidate`. `firm`: the attempt's
  // threads may stand for those of later attempts (cross-attempt dedup, see above).
  Status Step(std::vector<MatchRun>& threads, size_t begin, size_t end, uint32_t row, bool firm,
              std::vector<MatchRun>* next, MatchRun* candidate, bool* matched);
  // Whether a thread at `pc` after `t`'s rows is new (else an equivalent one was kept): records it.
  bool Admit(const MatchRun& t, int pc, bool firm);
  // The rows the probes of `pc` read of `t`'s rows, appended to key_.
  void AppendProbes(const MatchRun& t, int pc);
  // An attempt with no thread left is decided: its candidate moves to the completed matches.
  void Decide(MatchPartition* p, uint64_t start_seq);
  bool TimedOut(const MatchRun& r, int64_t time) const {
    return node_.within_ms >= 0 && time - r.start_time >= node_.within_ms * 1000;
  }

  // What a DEFINE reads of the rows before the one it classifies.
  struct Probe {
    int variable = -1;  // -1: every row
    bool aggregate = false;
    bool first = false;  // navigation: FIRST (else LAST)
    int64_t count = 0;   // navigation: offsets 0..count-1
    bool operator==(const Probe& o) const {
      return variable == o.variable && aggregate == o.aggregate && first == o.first && count == o.count;
    }
  };
  void BuildProbes();
  Status TooManyThreads(size_t threads, uint32_t row) const;

  const MatchNode& node_;
  MatchEvaluator* eval_;
  int64_t max_threads_;
  std::function<std::string(uint32_t)> describe_partition_;
  bool history_free_ = true;              // no probes: threads are told apart by their instruction only
  std::vector<std::vector<Probe>> probes_;  // per instruction: the probes of the variables reachable from it
  bool cross_attempt_ = false;            // SKIP PAST LAST ROW without WITHIN: dedup across attempts
  std::vector<uint8_t> loop_head_;  // per instruction: a loop's kSplit (its body starts right after)
  bool empty_loops_ = false;        // some loop's body can take no row
  std::vector<uint32_t> visited_;  // per instruction: the closure that last visited it
  uint32_t closure_ = 0;
  // history_free_: per instruction, the attempt (step_) and the row (row_step_, firm attempts only)
  // that last put a thread there; else the keys (instruction and probes) of both.
  std::vector<uint32_t> seen_;
  std::vector<uint32_t> seen_row_;
  uint32_t step_ = 0;
  uint32_t row_step_ = 0;
  std::unordered_set<std::string> keys_;      // this attempt's
  std::unordered_set<std::string> row_keys_;  // the firm attempts' at this row
  std::string key_;
  std::vector<int> pcs_;
  std::vector<int> stack_;  // Closure's
};

}  // namespace sluice
