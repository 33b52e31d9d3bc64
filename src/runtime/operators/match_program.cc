#include "runtime/operators/match_program.h"

#include <algorithm>
#include <set>
#include <string>
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

MatchProgram::MatchProgram(const MatchNode& node, MatchEvaluator* eval, int64_t max_threads,
                           std::function<std::string(uint32_t)> describe_partition)
    : node_(node),
      eval_(eval),
      max_threads_(max_threads),
      describe_partition_(std::move(describe_partition)),
      cross_attempt_(node.skip == MatchNode::Skip::kPastLastRow && node.within_ms < 0),
      visited_(node.program.size(), 0),
      seen_(node.program.size(), 0),
      seen_row_(node.program.size(), 0) {
  BuildProbes();
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

void MatchProgram::BuildProbes() {
  // Per variable, what its DEFINE reads of earlier rows.
  std::vector<std::vector<Probe>> reads(node_.variables.size());
  for (size_t v = 0; v < node_.define.size(); ++v) {
    if (!node_.define[v]) continue;
    for (const MatchSlot& s : node_.define[v]->slots) {
      Probe probe;
      probe.variable = s.variable;
      switch (s.kind) {
        case MatchSlot::Kind::kMatchProctime:
        case MatchSlot::Kind::kMatchRowtime:  // the row classified
          continue;
        case MatchSlot::Kind::kNav:
          // LAST(v) or LAST(*) in v's DEFINE is the row classified.
          if (!s.first && s.offset == 0 && (s.variable == static_cast<int>(v) || s.variable == -1)) continue;
          probe.first = s.first;
          probe.count = s.offset + 1;
          break;
        case MatchSlot::Kind::kAggregate: probe.aggregate = true; break;
      }
      if (std::find(reads[v].begin(), reads[v].end(), probe) == reads[v].end()) reads[v].push_back(probe);
    }
  }
  // Per instruction: the probes of the variables whose kLabel it reaches (its own too).
  probes_.assign(node_.program.size(), {});
  for (size_t pc = 0; pc < node_.program.size(); ++pc) {
    std::vector<uint8_t> seen(node_.program.size(), 0);
    std::vector<uint8_t> vars(node_.variables.size(), 0);
    std::vector<int> stack{static_cast<int>(pc)};
    while (!stack.empty()) {
      const int at = stack.back();
      stack.pop_back();
      if (seen[static_cast<size_t>(at)]) continue;
      seen[static_cast<size_t>(at)] = 1;
      const MatchInstr& x = node_.program[static_cast<size_t>(at)];
      if (x.op == Op::kLabel) {
        vars[static_cast<size_t>(x.a)] = 1;
        stack.push_back(at + 1);
      }
      if (x.op == Op::kJump) stack.push_back(x.a);
      if (x.op == Op::kSplit) stack.insert(stack.end(), {x.a, x.b});
    }
    for (size_t v = 0; v < vars.size(); ++v) {
      if (!vars[v]) continue;
      for (const Probe& probe : reads[v]) {
        auto& list = probes_[pc];
        if (std::find(list.begin(), list.end(), probe) == list.end()) list.push_back(probe);
      }
    }
    if (!probes_[pc].empty()) history_free_ = false;
  }
}

void MatchProgram::AppendProbes(const MatchRun& t, int pc) {
  auto put = [&](uint64_t x) { key_.append(reinterpret_cast<const char*>(&x), sizeof(x)); };
  constexpr uint64_t kNone = UINT64_MAX;
  const size_t n = t.rows.size();
  for (const Probe& probe : probes_[static_cast<size_t>(pc)]) {
    if (probe.aggregate) {
      if (probe.variable < 0) {
        put(t.start_seq);  // every row of the attempt so far: from its first row to this one
        continue;
      }
      size_t count = 0;
      for (size_t i = 0; i < n; ++i) {
        if (t.vars[i] == probe.variable) {
          put(t.rows[i]);
          ++count;
        }
      }
      put(kNone - count);  // ends the list
      continue;
    }
    int64_t found = 0;
    for (size_t k = 0; k < n && found < probe.count; ++k) {
      const size_t i = probe.first ? k : n - 1 - k;
      if (probe.variable >= 0 && t.vars[i] != probe.variable) continue;
      put(t.rows[i]);
      ++found;
    }
    for (; found < probe.count; ++found) put(kNone);
  }
}

bool MatchProgram::Admit(const MatchRun& t, int pc, bool firm) {
  const size_t at = static_cast<size_t>(pc);
  if (history_free_) {
    if (seen_[at] == step_ || (cross_attempt_ && seen_row_[at] == row_step_)) return false;
    seen_[at] = step_;
    if (cross_attempt_ && firm) seen_row_[at] = row_step_;
    return true;
  }
  key_.assign(reinterpret_cast<const char*>(&pc), sizeof(pc));
  AppendProbes(t, pc);
  if (cross_attempt_ && row_keys_.count(key_)) return false;
  if (!keys_.insert(key_).second) return false;
  if (cross_attempt_ && firm) row_keys_.insert(key_);
  return true;
}

Status MatchProgram::TooManyThreads(size_t threads, uint32_t row) const {
  return Status::RuntimeError(
      "MATCH_RECOGNIZE with pattern=[" + node_.pattern_text + "] (as EXPLAIN prints it): " +
      std::to_string(threads) + " threads (ways of matching the rows so far still followed) in the partition " +
      describe_partition_(row) + ", more than 'sluice.exec.match-recognize.max-threads' (" + std::to_string(max_threads_) +
      "). The pattern is ambiguous for these rows and its DEFINE conditions read earlier rows that the ways "
      "map differently, so they cannot be merged; raise the option or make the pattern less ambiguous");
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

Status MatchProgram::Step(std::vector<MatchRun>& threads, size_t begin, size_t end, uint32_t row, bool firm,
                          std::vector<MatchRun>* next, MatchRun* candidate, bool* matched) {
  if (++step_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    step_ = 1;
  }
  keys_.clear();
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
      if (!Admit(t, pc, firm)) continue;
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
  if (++row_step_ == 0) {
    std::fill(seen_row_.begin(), seen_row_.end(), 0);
    row_step_ = 1;
  }
  row_keys_.clear();
  // An attempt is firm when no pending match of an earlier attempt can skip it: `reach`, the last row
  // of those, is before its first row (matches of earlier attempts still running end at this row or
  // later, and skip a later attempt whenever they skip this one).
  auto last_seq = [&](const MatchRun& m) { return row_seq[m.rows.back()]; };
  const size_t old_completed = p->completed.size();  // in start order
  size_t oc = 0;
  uint64_t reach = 0;
  size_t c = 0;
  for (size_t begin = 0; begin < threads.size();) {
    const size_t end = AttemptEnd(threads, begin);
    const uint64_t start = threads[begin].start_seq;
    for (; oc < old_completed && p->completed[oc].start_seq < start; ++oc) reach = std::max(reach, last_seq(p->completed[oc]));
    // Both lists are in start order: the attempt's candidate is the next one.
    MatchRun candidate;
    bool has = false;
    if (c < candidates.size() && candidates[c].start_seq == start) {
      candidate = std::move(candidates[c++]);
      has = true;
    }
    const size_t before = next.size();
    if (!TimedOut(threads[begin], time)) {
      RETURN_IF_ERROR(Step(threads, begin, end, row, reach < start, &next, &candidate, &has));
    }
    if (has) {
      reach = std::max(reach, last_seq(candidate));
      (next.size() > before ? p->candidates : p->completed).push_back(std::move(candidate));
    }
    begin = end;
  }
  SLUICE_CHECK_EQ(c, candidates.size());  // a candidate's attempt has threads until it is decided
  threads = std::move(next);
  if (static_cast<int64_t>(threads.size()) > max_threads_) return TooManyThreads(threads.size(), row);
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
