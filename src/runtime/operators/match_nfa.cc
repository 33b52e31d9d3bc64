#include "runtime/operators/match_nfa.h"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "common/check.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "state/row_arena.h"
#include "state/state_serde.h"

namespace sluice {

// ------------------------------------------------------------------------------------------------
// MatchPartition

namespace {

void PutRun(const MatchRun& r, StateWriter* w) {
  w->PutVarint(static_cast<uint64_t>(r.stage));
  w->PutI64(r.count);
  w->PutU64(r.start_seq);
  w->PutI64(r.start_time);
  w->PutVarint(r.rows.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    w->PutVarint(r.rows[i]);
    w->PutU8(r.vars[i]);
  }
}

void GetRun(StateReader* r, size_t max_stage, size_t num_vars, size_t arena_rows, MatchRun* run) {
  run->stage = static_cast<int>(r->GetVarint());
  run->count = r->GetI64();
  run->start_seq = r->GetU64();
  run->start_time = r->GetI64();
  const size_t n = r->GetCount(2);
  if (!r->ok()) return;
  if (static_cast<size_t>(run->stage) > max_stage || run->count < 0) {
    r->Fail("a MATCH_RECOGNIZE run is at stage " + std::to_string(run->stage) + " of " + std::to_string(max_stage));
    return;
  }
  run->rows.resize(n);
  run->vars.resize(n);
  for (size_t i = 0; i < n && r->ok(); ++i) {
    run->rows[i] = static_cast<uint32_t>(r->GetVarint());
    run->vars[i] = r->GetU8();
    if (r->ok() && (run->rows[i] >= arena_rows || run->vars[i] >= num_vars)) {
      r->Fail("a MATCH_RECOGNIZE run names row " + std::to_string(run->rows[i]) + " of " + std::to_string(arena_rows) +
              " or variable " + std::to_string(run->vars[i]));
    }
  }
}

}  // namespace

void MatchPartition::Snapshot(StateWriter* w) const {
  w->PutVarint(runs.size());
  for (const auto& r : runs) PutRun(r, w);
  w->PutVarint(completed.size());
  for (const auto& r : completed) PutRun(r, w);
  w->PutVarint(candidates.size());
  for (const auto& r : candidates) PutRun(r, w);
}

void MatchPartition::Restore(StateReader* r, size_t max_stage, size_t num_vars, size_t arena_rows) {
  for (auto* list : {&runs, &completed, &candidates}) {
    list->resize(r->GetCount(8));
    for (auto& run : *list) GetRun(r, max_stage, num_vars, arena_rows, &run);
  }
}

// ------------------------------------------------------------------------------------------------
// MatchEvaluator

namespace {

std::vector<LogicalType> SlotTypes(const MatchExpr& e) {
  std::vector<LogicalType> t;
  for (const auto& s : e.slots) t.push_back(s.type);
  return t;
}

void SetNullAt(Vector* v, size_t row) {
  if (v->size() <= row) v->Resize(row + 1);
  v->SetNull(row, true);
}

}  // namespace

MatchEvaluator::MatchEvaluator(const MatchNode& node, const RowArena* arena, EvalContext* eval)
    : node_(node), arena_(arena), eval_(eval), result_(LogicalType::Boolean()) {
  for (const auto& d : node.define) {
    conds_.push_back(d ? std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{d->expr}, eval) : nullptr);
    cond_chunks_.emplace_back(d ? SlotTypes(*d) : std::vector<LogicalType>{}, 0);
  }
  for (const auto& m : node.measures) measures_.push_back(std::make_unique<ExprEvaluator>(std::vector<ExprPtr>{m.expr}, eval));
}

MatchEvaluator::~MatchEvaluator() = default;

void MatchEvaluator::FillSlots(const MatchExpr& e, const MatchRun& run, int var, uint32_t row, Chunk* chunk,
                               size_t out_row) {
  const Chunk& rows = arena_->rows();
  const size_t n = run.rows.size() + (var >= 0 ? 1 : 0);
  auto id_at = [&](size_t i) { return i < run.rows.size() ? run.rows[i] : row; };
  auto var_at = [&](size_t i) { return i < run.rows.size() ? static_cast<int>(run.vars[i]) : var; };
  for (size_t si = 0; si < e.slots.size(); ++si) {
    const MatchSlot& s = e.slots[si];
    Vector& out = chunk->column(si);
    if (out.size() > out_row) out.Resize(out_row);
    switch (s.kind) {
      case MatchSlot::Kind::kNav: {
        int64_t skip = s.offset;
        bool found = false;
        for (size_t k = 0; k < n && !found; ++k) {
          const size_t i = s.first ? k : n - 1 - k;
          if (s.variable != -1 && var_at(i) != s.variable) continue;
          if (skip-- > 0) continue;
          out.AppendFrom(rows.column(static_cast<size_t>(s.column)), nullptr, id_at(i), 1);
          found = true;
        }
        if (!found) SetNullAt(&out, out_row);
        break;
      }
      case MatchSlot::Kind::kMatchRowtime: {
        // The rowtime of the match's last row.
        out.AppendFrom(rows.column(static_cast<size_t>(s.column)), nullptr, id_at(n - 1), 1);
        break;
      }
      case MatchSlot::Kind::kMatchProctime: {
        // The current processing time, in milliseconds as PROCTIME().
        const int64_t now = eval_ != nullptr && eval_->clock != nullptr ? eval_->clock->NowMicros() : 0;
        out.Resize(out_row + 1);
        out.SetNull(out_row, false);
        out.data<int64_t>()[out_row] = FloorDiv(now, kMicrosPerMilli) * kMicrosPerMilli;
        break;
      }
      case MatchSlot::Kind::kAggregate: {
        const AggregateFunction& f = *s.function;
        std::vector<std::max_align_t> buf((f.state_size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1);
        uint8_t* state = reinterpret_cast<uint8_t*>(buf.data());
        f.init(state);
        const Vector* arg = s.column >= 0 ? &rows.column(static_cast<size_t>(s.column)) : nullptr;
        const Vector* const* args = arg ? &arg : nullptr;
        for (size_t i = 0; i < n; ++i) {
          if (s.variable != -1 && var_at(i) != s.variable) continue;
          f.update(state, args, id_at(i), false);
        }
        out.Resize(out_row + 1);
        f.finalize(state, &out, out_row);
        f.destroy(state);
        break;
      }
    }
  }
  chunk->SetSizeFromColumns();
}

Result<bool> MatchEvaluator::Condition(int var, const MatchRun& run, uint32_t row) {
  const size_t v = static_cast<size_t>(var);
  if (!conds_[v]) return true;
  Chunk& c = cond_chunks_[v];
  c.Resize(0);
  FillSlots(*node_.define[v], run, var, row, &c, 0);
  if (c.num_columns() == 0) c.Resize(1);  // a condition that reads no row (TRUE, a constant)
  RETURN_IF_ERROR(conds_[v]->EvaluateOne(0, c, &result_));
  return !result_.IsNull(0) && result_.data<uint8_t>()[0] != 0;
}

Status MatchEvaluator::Measures(const std::vector<const MatchRun*>& matches, Chunk* out, size_t first_column) {
  for (size_t m = 0; m < node_.measures.size(); ++m) {
    Chunk slots(SlotTypes(node_.measures[m]), 0);
    for (size_t i = 0; i < matches.size(); ++i) FillSlots(node_.measures[m], *matches[i], -1, 0, &slots, i);
    if (node_.measures[m].slots.empty()) slots.Resize(matches.size());
    Vector v;
    RETURN_IF_ERROR(measures_[m]->EvaluateOne(0, slots, &v));
    out->column(first_column + m) = std::move(v);
  }
  return Status::OK();
}

// ------------------------------------------------------------------------------------------------
// MatchNfa

Result<bool> MatchNfa::Gated(const MatchRun& run, int stage, int64_t count, uint32_t row) {
  if (count != 0 || stage == 0 || !node_.stages[static_cast<size_t>(stage - 1)].greedy) return false;
  return eval_->Condition(stage - 1, run, row);
}

Result<bool> MatchNfa::FinalAfterProceed(const MatchRun& run, int stage, int64_t count, uint32_t row) {
  const int n = static_cast<int>(node_.stages.size());
  while (true) {
    if (stage == n) return true;
    const MatchStage& st = node_.stages[static_cast<size_t>(stage)];
    if (count < st.min) return false;
    ASSIGN_OR_RETURN(bool gated, Gated(run, stage, count, row));
    if (gated) return false;
    ++stage;
    count = 0;
  }
}

Status MatchNfa::Visit(const MatchRun& run, int stage, int64_t count, uint32_t row, std::vector<MatchRun>* next,
                       std::vector<MatchRun>* done) {
  const int n = static_cast<int>(node_.stages.size());
  if (stage == n) return Status::OK();
  ASSIGN_OR_RETURN(bool gated, Gated(run, stage, count, row));
  if (gated) return Status::OK();
  const MatchStage& st = node_.stages[static_cast<size_t>(stage)];
  if (st.max < 0 || count < st.max) {
    ASSIGN_OR_RETURN(bool take, eval_->Condition(stage, run, row));
    if (take) {
      MatchRun t = run;
      t.rows.push_back(row);
      t.vars.push_back(static_cast<uint8_t>(stage));
      t.stage = stage;
      t.count = count + 1;
      // Taking the last row a stage allows moves on to the next stage's first state, as Flink's
      // states do; the run then sits there.
      if (st.max >= 0 && t.count == st.max) {
        t.stage = stage + 1;
        t.count = 0;
      }
      bool final = t.stage == n;
      if (!final) {
        // The proceed edges from the new state are evaluated on this row too, in the context of the
        // run before the take (as Flink's findFinalStateAfterProceed).
        ASSIGN_OR_RETURN(final, FinalAfterProceed(run, t.stage, t.count, row));
      }
      if (final) done->push_back(t);
      if (t.stage < n) next->push_back(std::move(t));
    }
  }
  if (count >= st.min) return Visit(run, stage + 1, 0, row, next, done);
  return Status::OK();
}

Status MatchNfa::Process(MatchPartition* p, uint32_t row, uint64_t seq, int64_t time,
                         const std::vector<uint64_t>& row_seq, std::vector<MatchRun>* out) {
  std::vector<MatchRun> next;
  std::vector<MatchRun> done;
  for (const MatchRun& run : p->runs) {
    if (TimedOut(run, time)) continue;
    RETURN_IF_ERROR(Visit(run, run.stage, run.count, row, &next, &done));
  }
  MatchRun fresh;
  fresh.start_seq = seq;
  fresh.start_time = time;
  RETURN_IF_ERROR(Visit(fresh, 0, 0, row, &next, &done));
  // Runs and matches in start order (stable: a run's branches keep their order).
  auto by_start = [](const MatchRun& a, const MatchRun& b) { return a.start_seq < b.start_seq; };
  std::stable_sort(next.begin(), next.end(), by_start);
  p->runs = std::move(next);
  for (auto& d : done) p->completed.push_back(std::move(d));
  std::stable_sort(p->completed.begin(), p->completed.end(), by_start);
  return ReleaseMatches(node_, p, row_seq, out);
}

Status MatchNfa::AdvanceTime(MatchPartition* p, int64_t time, const std::vector<uint64_t>& row_seq,
                             std::vector<MatchRun>* out) {
  if (node_.within_ms < 0) return Status::OK();
  const size_t before = p->runs.size();
  std::erase_if(p->runs, [&](const MatchRun& r) { return TimedOut(r, time); });
  if (p->runs.size() == before || p->completed.empty()) return Status::OK();
  return ReleaseMatches(node_, p, row_seq, out);
}

namespace {

// The sequence number that decides which runs a released match prunes (see ReleaseMatches).
Result<uint64_t> PruningSeq(const MatchNode& node, const MatchRun& m, const std::vector<uint64_t>& row_seq) {
  switch (node.skip) {
    case MatchNode::Skip::kPastLastRow: return row_seq[m.rows.back()];
    case MatchNode::Skip::kToNextRow: return m.start_seq;
    case MatchNode::Skip::kToFirst:
    case MatchNode::Skip::kToLast: {
      const bool first = node.skip == MatchNode::Skip::kToFirst;
      const size_t var = static_cast<size_t>(node.skip_variable);
      std::optional<uint64_t> found;
      for (size_t i = 0; i < m.rows.size(); ++i) {
        if (m.vars[i] != var) continue;
        if (!found || !first) found = row_seq[m.rows[i]];
        if (first) break;
      }
      if (!found) {
        return Status::RuntimeError("Could not skip to " + node.variables[var] + ". No such element in the found match");
      }
      if (*found == m.start_seq) return Status::RuntimeError("Could not skip to first element of a match.");
      return *found;
    }
  }
  return m.start_seq;
}

}  // namespace

Status ReleaseMatches(const MatchNode& node, MatchPartition* p, const std::vector<uint64_t>& row_seq,
                      std::vector<MatchRun>* out) {
  // A candidate's attempt still has runs, so the runs alone say what holds a completed match back.
  while (!p->completed.empty() && (p->runs.empty() || p->completed.front().start_seq <= p->runs.front().start_seq)) {
    MatchRun m = std::move(p->completed.front());
    p->completed.erase(p->completed.begin());
    ASSIGN_OR_RETURN(uint64_t prune, PruningSeq(node, m, row_seq));
    const bool inclusive = node.skip == MatchNode::Skip::kPastLastRow || node.skip == MatchNode::Skip::kToNextRow;
    auto pruned = [&](const MatchRun& r) { return inclusive ? r.start_seq <= prune : r.start_seq < prune; };
    std::erase_if(p->runs, pruned);
    std::erase_if(p->completed, pruned);
    std::erase_if(p->candidates, pruned);
    out->push_back(std::move(m));
  }
  return Status::OK();
}

}  // namespace sluice
