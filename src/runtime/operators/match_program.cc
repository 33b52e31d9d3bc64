#include "runtime/operators/match_program.h"

#include <algorithm>
#include <set>
#include <utility>

#include "common/check.h"

namespace sluice {

namespace {

using Op = MatchInstr::Op;

void SortByStart(std::vector<MatchRun>* runs) {
  std::stable_sort(runs->begin(), runs->end(),
                   [](const MatchRun& a, const MatchRun& b) { return a.start_seq < b.start_seq; });
}

// The end of the attempt that starts at threads[begin] (threads are grouped by attempt).
size_t AttemptEnd(const std::vector<MatchRun>& threads, size_t begin) {
  size_t end = begin;
  while (end < threads.size() && threads[end].start_seq == threads[begin].start_seq) ++end;
  return end;
}

}  // namespace

MatchProgram::MatchProgram(const MatchNode& node, MatchEvaluator* eval)
    : node_(node),
      eval_(eval),
      read_(node.variables.size(), 0),
      visited_(node.program.size(), 0),
      seen_(node.program.size(), 0) {
  for (size_t v = 0; v < node.define.size(); ++v) {
    if (!node.define[v]) continue;
    for (const MatchSlot& s : node.define[v]->slots) {
      const bool this_row = s.kind == MatchSlot::Kind::kMatchProctime ||
                            (s.kind == MatchSlot::Kind::kNav && !s.first && s.offset == 0 &&
                             (s.variable == static_cast<int>(v) || s.variable == -1));
      if (this_row) continue;
      history_free_ = false;
      // FIRST/LAST over every row (*) read the same rows in every thread of an attempt; what may
      // differ is which rows a named variable got.
      if (s.variable >= 0) read_[static_cast<size_t>(s.variable)] = 1;
    }
  }
  // Loops: a kSplit that a later kJump jumps back to. When a loop's body can take no row, a closure
  // can go round it (through an enclosing loop too) and needs the guarded closure.
  loop_head_.assign(node.program.size(), 0);
  for (size_t j = 0; j < node.program.size(); ++j) {
    const MatchInstr& in = node.program[j];
    if (in.op != Op::kJump || static_cast<size_t>(in.a) >= j) continue;
    loop_head_[static_cast<size_t>(in.a)] = 1;
    std::vector<uint8_t> seen(node.program.size(), 0);
    std::vector<int> stack{in.a + 1};
    while (!stack.empty() && !empty_loops_) {
      const int at = stack.back();
      stack.pop_back();
      if (seen[static_cast<size_t>(at)]) continue;
      seen[static_cast<size_t>(at)] = 1;
      if (static_cast<size_t>(at) == j) empty_loops_ = true;
      const MatchInstr& x = node.program[static_cast<size_t>(at)];
      if (x.op == Op::kJump) stack.push_back(x.a);
      if (x.op == Op::kSplit) stack.insert(stack.end(), {x.a, x.b});
    }
  }
}

void MatchProgram::Closure(int pc, std::vector<int>* out) {
  out->clear();
  if (++closure_ == 0) {
    std::fill(visited_.begin(), visited_.end(), 0);
    closure_ = 1;
  }
  if (empty_loops_) return GuardedClosure(pc, out);
  // Depth first, the preferred edge first: the order of the instructions reached is the preferment.
  std::vector<int>& stack = stack_;
  stack.assign(1, pc);
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    if (visited_[static_cast<size_t>(at)] == closure_) continue;
    visited_[static_cast<size_t>(at)] = closure_;
    const MatchInstr& in = node_.program[static_cast<size_t>(at)];
    switch (in.op) {
      case Op::kLabel: out->push_back(at); break;
      case Op::kDone: out->push_back(at); return;
      case Op::kJump: stack.push_back(in.a); break;
      case Op::kSplit:
        stack.push_back(in.b);
        stack.push_back(in.a);
        break;
    }
  }
}

void MatchProgram::GuardedClosure(int pc, std::vector<int>* out) {
  // A path is an instruction with the loops whose current iteration began in this closure (took no
  // row yet): jumping back to one of them would repeat an empty iteration and ends the path. Paths at
  // the same instruction with the same loops behave alike, so the first (preferred) one is kept; a
  // kLabel is reached once (a row is taken there, after which no iteration is empty).
  struct Path {
    int pc;
    std::vector<int> loops;  // sorted
  };
  std::set<std::pair<int, std::vector<int>>> seen;
  std::vector<Path> stack{{pc, {}}};
  while (!stack.empty()) {
    Path at = std::move(stack.back());
    stack.pop_back();
    if (!seen.emplace(at.pc, at.loops).second) continue;
    const MatchInstr& in = node_.program[static_cast<size_t>(at.pc)];
    switch (in.op) {
      case Op::kLabel:
        if (visited_[static_cast<size_t>(at.pc)] != closure_) out->push_back(at.pc);
        visited_[static_cast<size_t>(at.pc)] = closure_;
        break;
      case Op::kDone: out->push_back(at.pc); return;
      case Op::kJump:
        if (in.a < at.pc && std::binary_search(at.loops.begin(), at.loops.end(), in.a)) break;
        stack.push_back(Path{in.a, std::move(at.loops)});
        break;
      case Op::kSplit: {
        auto next = [&](int target) {
          Path p{target, at.loops};
          if (loop_head_[static_cast<size_t>(at.pc)]) {
            auto it = std::lower_bound(p.loops.begin(), p.loops.end(), at.pc);
            const bool in_set = it != p.loops.end() && *it == at.pc;
            if (target == at.pc + 1 && !in_set) p.loops.insert(it, at.pc);   // a new iteration begins
            if (target != at.pc + 1 && in_set) p.loops.erase(it);            // the loop is left
          }
          return p;
        };
        stack.push_back(next(in.b));
        stack.push_back(next(in.a));
        break;
      }
    }
  }
}

Status MatchProgram::Step(std::vector<MatchRun>& threads, size_t begin, size_t end, uint32_t row,
                          std::vector<MatchRun>* next, MatchRun* candidate, bool* matched) {
  if (++step_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    step_ = 1;
  }
  std::set<std::pair<int, std::vector<uint8_t>>> mappings;  // the threads kept so far (!history_free_)
  for (size_t k = begin; k < end; ++k) {
    MatchRun& t = threads[k];
    const int var = node_.program[static_cast<size_t>(t.stage)].a;
    ASSIGN_OR_RETURN(bool take, eval_->Condition(var, t, row));
    if (!take) continue;
    t.rows.push_back(row);
    t.vars.push_back(static_cast<uint8_t>(var));
    Closure(t.stage + 1, &pcs_);
    for (size_t q = 0; q < pcs_.size(); ++q) {
      const int pc = pcs_[q];
      if (node_.program[static_cast<size_t>(pc)].op == Op::kDone) {
        // A match: it ends every less preferred thread of the attempt (the rest of this closure
        // and the threads after this one).
        *candidate = std::move(t);
        candidate->stage = pc;
        *matched = true;
        return Status::OK();
      }
      if (history_free_) {
        if (seen_[static_cast<size_t>(pc)] == step_) continue;
        seen_[static_cast<size_t>(pc)] = step_;
      } else {
        // The mapping as the DEFINEs see it: the rows of the variables they read.
        std::vector<uint8_t> key(t.vars);
        for (uint8_t& v : key) v = read_[v] ? v : UINT8_MAX;
        if (!mappings.emplace(pc, std::move(key)).second) continue;
      }
      // The closure's last instruction is a kLabel here (kDone would have ended it), so the thread
      // itself may move there.
      next->push_back(q + 1 == pcs_.size() ? std::move(t) : t);
      next->back().stage = pc;
    }
  }
  return Status::OK();
}

void MatchProgram::Decide(MatchPartition* p, uint64_t start_seq) {
  for (size_t i = 0; i < p->candidates.size(); ++i) {
    if (p->candidates[i].start_seq != start_seq) continue;
    p->completed.push_back(std::move(p->candidates[i]));
    p->candidates.erase(p->candidates.begin() + static_cast<std::ptrdiff_t>(i));
    SortByStart(&p->completed);
    return;
  }
}

Status MatchProgram::Process(MatchPartition* p, uint32_t row, uint64_t seq, int64_t time,
                             const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) {
  std::vector<MatchRun>& threads = p->runs;
  // A new attempt at this row: its threads wait where the closure from the start leads (never at
  // kDone: the binder refuses patterns that match empty).
  Closure(0, &pcs_);
  for (int pc : pcs_) {
    SLUICE_CHECK_EQ(static_cast<int>(node_.program[static_cast<size_t>(pc)].op), static_cast<int>(Op::kLabel));
    MatchRun t;
    t.stage = pc;
    t.start_seq = seq;
    t.start_time = time;
    threads.push_back(std::move(t));
  }
  std::vector<MatchRun> next;
  std::vector<MatchRun> candidates = std::move(p->candidates);
  p->candidates.clear();
  size_t c = 0;
  for (size_t begin = 0; begin < threads.size();) {
    const size_t end = AttemptEnd(threads, begin);
    const uint64_t start = threads[begin].start_seq;
    // Both lists are in start order: the attempt's candidate is the next one.
    MatchRun candidate;
    bool has = false;
    if (c < candidates.size() && candidates[c].start_seq == start) {
      candidate = std::move(candidates[c++]);
      has = true;
    }
    const size_t before = next.size();
    if (!TimedOut(threads[begin], time)) RETURN_IF_ERROR(Step(threads, begin, end, row, &next, &candidate, &has));
    if (has) (next.size() > before ? p->candidates : p->completed).push_back(std::move(candidate));
    begin = end;
  }
  SLUICE_CHECK_EQ(c, candidates.size());  // a candidate's attempt has threads until it is decided
  threads = std::move(next);
  SortByStart(&p->completed);
  return ReleaseMatches(node_, p, row_seq, out);
}

Status MatchProgram::AdvanceTime(MatchPartition* p, int64_t time, const std::vector<uint64_t>& row_seq,
                                 std::vector<MatchRun>* out) {
  if (node_.within_ms < 0) return Status::OK();
  std::vector<MatchRun>& threads = p->runs;
  size_t kept = 0;
  for (size_t begin = 0; begin < threads.size();) {
    const size_t end = AttemptEnd(threads, begin);
    if (TimedOut(threads[begin], time)) {
      Decide(p, threads[begin].start_seq);
    } else {
      for (size_t k = begin; k < end; ++k, ++kept) {
        if (kept != k) threads[kept] = std::move(threads[k]);
      }
    }
    begin = end;
  }
  threads.resize(kept);
  return ReleaseMatches(node_, p, row_seq, out);
}

Status MatchProgram::Finish(MatchPartition* p, const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) {
  // No row follows: every attempt is decided with the match it has.
  p->runs.clear();
  for (auto& c : p->candidates) p->completed.push_back(std::move(c));
  p->candidates.clear();
  SortByStart(&p->completed);
  return ReleaseMatches(node_, p, row_seq, out);
}

}  // namespace sluice
