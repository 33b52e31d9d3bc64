#include "plan/traits.h"

#include <algorithm>
#include <map>
#include <set>

#include "catalog/catalog.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

namespace {

// What a node can emit, before deciding whether updates carry their before-image: I, U (update),
// D (delete), as Flink's ModifyKindSet.
struct Kinds {
  bool insert = false, update = false, del = false;
  // Update-before rows flow whether or not a consumer asks (a source that emits them), until a
  // DropUpdateBefore or a stateful operator.
  bool ub_forced = false;
  Kinds Union(Kinds o) const {
    return {insert || o.insert, update || o.update, del || o.del, ub_forced || o.ub_forced};
  }
  bool InsertOnly() const { return !update && !del; }
  Kinds NoForcedUb() const { return {insert, update, del, false}; }
};

// Flink's words for the changes an operator refuses: "update changes", "delete changes" or both.
std::string ChangeKindsText(bool update, bool del) {
  return update && del ? "update and delete changes" : (update ? "update changes" : "delete changes");
}

Kinds FromMode(ChangelogMode m) {
  return {m.Contains(RowKind::kInsert), m.Contains(RowKind::kUpdateAfter) || m.Contains(RowKind::kUpdateBefore),
          m.Contains(RowKind::kDelete), m.Contains(RowKind::kUpdateBefore)};
}

std::string JoinStrings(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

const PlanNode* Producer(const PlanNode* node, ChangelogMode kinds);

class Inference {
 public:
  void Run(const std::vector<PlanNodePtr>& roots) {
    for (const auto& r : roots) Order(r.get());
    for (PlanNode* n : order_) kinds_[n] = Provide(n);
    // Top-down: which nodes must emit update-before. Parents come later in order_.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) Require(*it);
    for (PlanNode* n : order_) {
      Kinds k = kinds_[n];
      ChangelogMode m;
      if (k.insert) m = m.With(RowKind::kInsert);
      if (k.update) {
        if (needs_ub_[n] || k.ub_forced) m = m.With(RowKind::kUpdateBefore);
        m = m.With(RowKind::kUpdateAfter);
      }
      if (k.del) m = m.With(RowKind::kDelete);
      // A source emits what its connector says, whatever its consumers ask.
      if (n->kind == PlanKind::kTableSourceScan) m = n->As<TableSourceScanNode>().source_mode;
      // A sink emits nothing (Flink prints NONE); its input's mode is what it consumes.
      if (n->kind == PlanKind::kSink) m = ChangelogMode();
      n->changelog_mode = m;
      Annotate(n);
    }
    // A DropUpdateBefore whose consumers need the before-images has nothing to drop: splice it out.
    for (PlanNode* n : order_) {
      for (auto& in : n->inputs) {
        while (in->kind == PlanKind::kDropUpdateBefore && needs_ub_[in.get()]) in = in->inputs[0];
      }
    }
  }

 private:
  void Order(PlanNode* n) {
    if (!seen_.insert(n).second) return;
    for (const auto& in : n->inputs) Order(in.get());
    order_.push_back(n);
  }

  Kinds In(const PlanNode* n, size_t i = 0) { return kinds_[n->inputs[i].get()]; }

  Kinds Provide(PlanNode* n) {
    switch (n->kind) {
      case PlanKind::kTableSourceScan: return FromMode(n->As<TableSourceScanNode>().source_mode);
      case PlanKind::kValues: return {true, false, false};
      case PlanKind::kCalc:
      case PlanKind::kWatermarkAssigner:
      case PlanKind::kCorrelate:
      case PlanKind::kExchange:
      case PlanKind::kSink:
      case PlanKind::kExpand:
      case PlanKind::kReplicateRows:
      case PlanKind::kMiniBatchAssigner: return In(n);
      case PlanKind::kDropUpdateBefore: return In(n).NoForcedUb();
      case PlanKind::kChangelogNormalize: return {true, true, true};
      // Each probe row (or retraction) joined once against the version in force at its time, with its
      // own kind: the probe side's kinds, as Flink 2.2's TemporalRowTimeJoinOperator.
      case PlanKind::kTemporalJoin: return In(n, 0).NoForcedUb();
      // Each probe row (or retraction) joined once against a table that does not change: the probe
      // side's kinds, as Flink's LookupJoin.
      case PlanKind::kLookupJoin: return In(n);
      // Joined rows once, and padded rows once they expire: never retracted.
      case PlanKind::kIntervalJoin: return {true, false, false};
      // A non-time OVER updates (and deletes) rows it emitted when another arrives before them.
      case PlanKind::kOverAggregate: return IsNonTimeOver(*n) ? Kinds{true, true, true} : Kinds{true, false, false};
      // One row per match, never retracted.
      case PlanKind::kMatch: return {true, false, false};
      // Each window's result once, when the window closes.
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate:
      case PlanKind::kWindowJoin: return {true, false, false};
      case PlanKind::kUnion: {
        Kinds k;
        for (size_t i = 0; i < n->inputs.size(); ++i) k = k.Union(In(n, i));
        return k;
      }
      case PlanKind::kGroupAggregate:
        // An aggregate updates its rows; it deletes a group only when retractions empty it.
        return In(n).InsertOnly() ? Kinds{true, true, false} : Kinds{true, true, true};
      case PlanKind::kDeduplicate: {
        const auto& d = n->As<DeduplicateNode>();
        if (!d.keep_last && !d.mini_batch) return {true, false, false};
        return {true, true, true};
      }
      case PlanKind::kRank: return {true, true, true};
      // Batch operators: final rows, once, at the end of input.
      case PlanKind::kHashAggregate:
      case PlanKind::kHashJoin:
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank: return {true, false, false};
      case PlanKind::kSort:
        // As Flink's FlinkChangelogModeInferenceProgram: SortLimit emits any change; Limit inserts only
        // over insert-only input; TemporalSort and a bounded (batch) Sort emit inserts only.
        switch (n->As<SortNode>().variant) {
          case SortNode::Variant::kSortLimit: return {true, true, true};
          case SortNode::Variant::kLimit: return In(n).InsertOnly() ? Kinds{true, false, false} : Kinds{true, true, true};
          case SortNode::Variant::kTemporalSort:
          case SortNode::Variant::kBatchSort: return {true, false, false};
        }
        return {true, false, false};
      case PlanKind::kWindowTableFunction: return In(n);
      // Each window is emitted once, when it closes; with early firing, windows update before they close,
      // with late firing, late rows update fired windows.
      case PlanKind::kWindowAggregate:
        return n->As<WindowAggregateNode>().Updates() ? Kinds{true, true, false} : Kinds{true, false, false};
      case PlanKind::kJoin: {
        const auto& j = n->As<JoinNode>();
        // Inner and semi joins forward their inputs' kinds; outer and anti joins produce any kind.
        if (j.join_type == JoinType::kInner || j.join_type == JoinType::kSemi) return In(n, 0).Union(In(n, 1)).NoForcedUb();
        return {true, true, true};
      }
    }
    return {true, false, false};
  }

  bool JoinInputsUpsertOnJoinKeys(const PlanNode& n) {
    const auto& j = n.As<JoinNode>();
    for (size_t i = 0; i < 2; ++i) {
      if (!In(&n, i).update) continue;
      const std::vector<int> key = UpsertKeyIndexes(*n.inputs[i]);
      if (key.empty()) return false;
      for (int c : i == 0 ? j.left_keys : j.right_keys) {
        if (std::find(key.begin(), key.end(), c) == key.end()) return false;
      }
    }
    return true;
  }

  // Marks the inputs of `n` that must send update-before rows.
  void Require(PlanNode* n) {
    switch (n->kind) {
      case PlanKind::kSink: {
        auto& s = n->As<SinkNode>();
        Status st = DecideUpsertMaterialize(&s, In(n));
        if (!st.ok() && status_.ok()) status_ = std::move(st);
        if (s.upsert_materialize || s.accepted_mode.Contains(RowKind::kUpdateBefore)) {
          needs_ub_[n->inputs[0].get()] = true;
        }
        return;
      }
      case PlanKind::kTemporalJoin:
        // The probe side's changes pass through with their kinds; the versions are read by key.
        if (needs_ub_[n]) needs_ub_[n->inputs[0].get()] = true;
        return;
      case PlanKind::kChangelogNormalize:
      case PlanKind::kIntervalJoin:   // insert-only inputs (checked in Annotate)
      case PlanKind::kMatch:          // insert-only input (checked in Annotate)
      case PlanKind::kWindowRank:     // insert-only inputs (checked in Annotate)
      case PlanKind::kWindowDeduplicate:
      case PlanKind::kWindowJoin:
        // Read upserts (or versions) by key: a before-image adds nothing.
        return;
      case PlanKind::kDropUpdateBefore:
        // Removed after inference when a consumer needs the before-images; the source emits them anyway.
        return;
      case PlanKind::kCalc:
      case PlanKind::kWatermarkAssigner:
      case PlanKind::kCorrelate:
      case PlanKind::kExchange:
      case PlanKind::kUnion:
      case PlanKind::kMiniBatchAssigner:
      case PlanKind::kWindowTableFunction:
      case PlanKind::kExpand:
      case PlanKind::kReplicateRows:
        // Stateless: pass the parents' requirement through.
        if (needs_ub_[n]) {
          for (const auto& in : n->inputs) needs_ub_[in.get()] = true;
        }
        return;
      case PlanKind::kLookupJoin:
        // Stateless on its probe side; its table is insert-only (checked in Annotate).
        if (needs_ub_[n]) needs_ub_[n->inputs[0].get()] = true;
        return;
      case PlanKind::kOverAggregate:
        // A time-ordered one reads insert-only input (checked in Annotate); a non-time one removes the
        // before-image's row.
        if (IsNonTimeOver(*n)) needs_ub_[n->inputs[0].get()] = true;
        return;
      case PlanKind::kJoin:
        // As Flink's FlinkChangelogModeInferenceProgram: when no consumer takes update-before rows and
        // every updating input has an upsert key holding its join keys (a +U then replaces its key's
        // row: StreamPhysicalJoin.inputUniqueKeyContainsJoinKey), no input sends them.
        if (!needs_ub_[n] && JoinInputsUpsertOnJoinKeys(*n)) return;
        for (const auto& in : n->inputs) needs_ub_[in.get()] = true;
        return;
      case PlanKind::kGroupAggregate:
      case PlanKind::kRank:
      case PlanKind::kDeduplicate:
      case PlanKind::kSort:
        // Stateful operators retract what they emitted earlier, so they need the before-image.
        for (const auto& in : n->inputs) needs_ub_[in.get()] = true;
        return;
      case PlanKind::kWindowAggregate:
        // Over an updating input it retracts the before-images (Flink's beforeAfterOrNone).
        if (!In(n).InsertOnly()) needs_ub_[n->inputs[0].get()] = true;
        return;
      case PlanKind::kTableSourceScan:
      case PlanKind::kValues:
      case PlanKind::kHashAggregate:    // insert-only input (plan/batch_physical.h)
      case PlanKind::kHashJoin:         // insert-only inputs (plan/batch_physical.h)
      case PlanKind::kSortMergeJoin:
      case PlanKind::kBatchRank:        // insert-only input (plan/batch_physical.h)
        return;
    }
  }

  // Flink's analyzeUpsertMaterializeStrategy (2.3, with FLIP-558's ON CONFLICT clause): a sink with a
  // PRIMARY KEY fed by an updating query needs a materializer unless some unique key of the query lies
  // within the primary key ('table.exec.sink.upsert-materialize' AUTO; FORCE always, NONE never). An
  // insert-only query needs none, except under ON CONFLICT DO ERROR / DO NOTHING, whose materializer
  // also resolves rows of one key from different query rows. The clause is refused on a sink that is not
  // an upsert sink, DO ERROR / DO NOTHING on sources without watermarks, and with
  // 'table.exec.sink.require-on-conflict' a key mismatch without a clause.
  static Status DecideUpsertMaterialize(SinkNode* s, Kinds in) {
    s->upsert_materialize = false;
    s->upsert_materialize_reason.clear();
    s->materialize_upsert_key.clear();
    const InsertConflictStrategy clause = s->conflict_strategy;
    const bool sink_is_retract = s->accepted_mode.Contains(RowKind::kUpdateBefore);
    const bool sink_is_append =
        !s->accepted_mode.Contains(RowKind::kUpdateAfter) && !s->accepted_mode.Contains(RowKind::kDelete);
    const std::string name = s->table ? s->table->path.FullName() : std::string("collect");
    if (clause != InsertConflictStrategy::kNone && (sink_is_append || sink_is_retract)) {
      return Status::PlanError("ON CONFLICT clause is only allowed for upsert sinks. The sink '" + name +
                               "' is not an upsert sink because " +
                               (sink_is_append ? "it only accepts INSERT (append-only) changes."
                                               : "it requires UPDATE_BEFORE (retract mode)."));
    }
    if (CompactsOnWatermarks(clause)) {
      std::vector<std::string> without;
      std::set<const PlanNode*> seen;
      SourcesWithoutWatermarks(s->inputs[0].get(), &seen, &without);
      if (!without.empty()) {
        return Status::PlanError(std::string("ON CONFLICT DO ") + InsertConflictStrategyName(clause) +
                                 " requires all source tables to define watermarks, but the following source(s) do "
                                 "not: " +
                                 JoinStrings(without) + ". Please add a WATERMARK declaration to these tables.");
      }
    }
    // Without a clause (or with DO DEDUPLICATE) an insert-only query writes each row as it comes.
    const bool compacting = CompactsOnWatermarks(clause);
    if (s->primary_key.empty() || s->upsert_materialize_mode == SinkNode::UpsertMaterialize::kNone) return Status::OK();
    if (in.InsertOnly() && !compacting && !s->require_on_conflict) return Status::OK();
    std::vector<std::string> pk;
    for (int c : s->primary_key) pk.push_back(s->schema.field(static_cast<size_t>(c)).name);
    const PlanNode* input = s->inputs[0].get();
    if (s->upsert_materialize_mode == SinkNode::UpsertMaterialize::kForce) {
      if (in.InsertOnly() && clause == InsertConflictStrategy::kNone) return Status::OK();
      s->upsert_materialize = true;
      s->upsert_materialize_reason = "'table.exec.sink.upsert-materialize' is FORCE";
      if (compacting) s->materialize_upsert_key = UpsertKeyIndexes(*input);
      return Status::OK();
    }
    // Input column i is written to sink column i.
    const bool differs = !UniqueOnColumns(*input, s->primary_key);
    std::vector<std::string> key;
    for (int c : UpsertKeyIndexes(*input)) key.push_back(s->schema.field(static_cast<size_t>(c)).name);
    if (differs && clause == InsertConflictStrategy::kNone && s->require_on_conflict && !sink_is_append &&
        !sink_is_retract) {
      return Status::PlanError(
          "The query has an upsert key that differs from the primary key of the sink table '" + name +
          "'. Primary key: [" + JoinStrings(pk) + "], upsert key: [" + JoinStrings(key) +
          "]. This can lead to non-deterministic results when multiple records with different upsert keys map to "
          "the same primary key. Please specify an ON CONFLICT clause to define how conflicts should be handled: "
          "ON CONFLICT DO DEDUPLICATE (update to the latest record, state intensive, since we need to keep the "
          "entire history), or ON CONFLICT DO ERROR (fail on conflict), or ON CONFLICT DO NOTHING (keep first "
          "record).");
    }
    if (!differs || (in.InsertOnly() && !compacting)) return Status::OK();
    s->upsert_materialize = true;
    if (compacting) s->materialize_upsert_key = UpsertKeyIndexes(*input);
    if (key.empty()) {
      s->upsert_materialize_reason = "the query has no unique key, so several of its rows may write one PRIMARY KEY (" +
                                     JoinStrings(pk) + ") value";
    } else {
      s->upsert_materialize_reason = "the query's unique key (" + JoinStrings(key) + ") is not within the PRIMARY KEY (" +
                                     JoinStrings(pk) + "); group by exactly the primary key to need none";
    }
    return Status::OK();
  }

  // The tables scanned below `n` that declare no watermark (Flink's collectSourcesWithoutWatermarks).
  static void SourcesWithoutWatermarks(const PlanNode* n, std::set<const PlanNode*>* seen,
                                       std::vector<std::string>* out) {
    if (!seen->insert(n).second) return;
    if (n->kind == PlanKind::kTableSourceScan) {
      const auto& scan = n->As<TableSourceScanNode>();
      if (scan.table && scan.table->watermark_expr == nullptr) out->push_back(scan.table->path.FullName());
      return;
    }
    for (const auto& in : n->inputs) SourcesWithoutWatermarks(in.get(), seen, out);
  }

  // Switches `aggs` to their retracting variants (Flink's SUM_RETRACT, MIN_RETRACT, ...). `keep_names`:
  // EXPLAIN keeps the plain names (Flink's GroupWindowAggregate prints COUNT(*), SUM(v)).
  static Status UseRetractingAggregates(std::vector<AggregateCall>* aggs, bool keep_names,
                                        const std::vector<bool>& keep_plain = {}) {
    for (size_t i = 0; i < aggs->size(); ++i) {
      if (i < keep_plain.size() && keep_plain[i]) continue;
      AggregateCall& a = (*aggs)[i];
      std::vector<const Value*> constants;
      for (const auto& c : a.arg_constants) constants.push_back(c ? &*c : nullptr);
      ASSIGN_OR_RETURN(auto fn, ResolveAggregate(a.name, a.arg_types, constants, true));
      if (keep_names && a.function && fn->explain_name != a.function->explain_name) {
        auto renamed = std::make_shared<AggregateFunction>(*fn);
        renamed->explain_name = a.function->explain_name;
        fn = std::move(renamed);
      }
      a.function = std::move(fn);
    }
    return Status::OK();
  }

  // The calls of a split's final phase that stay plain over its updating input, as Flink's
  // FlinkRelMdModifiedMonotonicity finds them: a MAX (MIN) over the partial phase's MAX (MIN) of an
  // insert-only input only ever sees that result grow (shrink), so it ignores the retractions and
  // keeps one value instead of every value's count (the layout skips the retract of a function that
  // has none).
  std::vector<bool> MonotonicFinalCalls(const GroupAggregateNode& g) {
    std::vector<bool> plain(g.aggs.size(), false);
    if (g.partial_final != GroupAggregateNode::PartialFinal::kFinal) return plain;
    const PlanNode* partial = g.inputs[0]->kind == PlanKind::kExchange ? g.inputs[0]->inputs[0].get() : nullptr;
    if (partial == nullptr || partial->kind != PlanKind::kGroupAggregate) return plain;
    const auto& p = partial->As<GroupAggregateNode>();
    if (p.partial_final != GroupAggregateNode::PartialFinal::kPartial || !kinds_[p.inputs[0].get()].InsertOnly()) {
      return plain;
    }
    for (size_t i = 0; i < g.aggs.size(); ++i) {
      const AggregateCall& a = g.aggs[i];
      if ((a.name != "MIN" && a.name != "MAX") || a.args.size() != 1) continue;
      const int c = a.args[0] - static_cast<int>(p.group_keys.size());
      plain[i] = c >= 0 && static_cast<size_t>(c) < p.aggs.size() && p.aggs[static_cast<size_t>(c)].name == a.name;
    }
    return plain;
  }

  // Hands each operator what the inference decided for it (whether it emits update-before rows,
  // whether its input retracts) and refuses an input an operator cannot consume.
  void Annotate(PlanNode* n) {
    const bool ub = needs_ub_[n];
    switch (n->kind) {
      case PlanKind::kGroupAggregate: return AnnotateGroupAggregate(&n->As<GroupAggregateNode>(), ub);
      case PlanKind::kDeduplicate: n->As<DeduplicateNode>().emit_update_before = ub; return;
      case PlanKind::kWindowTableFunction:
        // As Flink's StreamPhysicalWindowTableFunction, every window TVF reads an updating input and its
        // rows keep their kinds: TUMBLE/HOP/CUMULATE forward each change in the windows of its own row
        // time, SESSION holds it in the session it opens or merges until that session fires.
        return;
      case PlanKind::kWindowAggregate: return AnnotateWindowAggregate(&n->As<WindowAggregateNode>(), ub);
      case PlanKind::kChangelogNormalize: n->As<ChangelogNormalizeNode>().emit_update_before = ub; return;
      case PlanKind::kLookupJoin: return CheckLookupJoinTable(*n);
      case PlanKind::kOverAggregate:
        if (!IsNonTimeOver(*n) && !kinds_[n->inputs[0].get()].InsertOnly()) {
          const PlanNode* p = Producer(n, ChangelogMode::All());
          status_ = Status::PlanError("OverAggregate doesn't support consuming update and delete changes which is produced by node " +
                                      p->ExplainName() + "(" + p->ExplainAttributes() + ")");
        }
        return;
      case PlanKind::kWindowRank:
      case PlanKind::kWindowDeduplicate:
      case PlanKind::kWindowJoin:
      case PlanKind::kMatch:
        // Flink's FlinkChangelogModeInferenceProgram: window operators and Match consume inserts only.
        return CheckInsertOnlyInputs(*n, "");
      case PlanKind::kIntervalJoin:
        // Flink's FlinkChangelogModeInferenceProgram: an interval join consumes inserts only.
        return CheckInsertOnlyInputs(*n, "\nSluice: an interval join needs insert-only inputs; over an updating input, "
                                         "drop the time bounds for a regular join.");
      case PlanKind::kTemporalJoin: return CheckVersionedTableKey(*n);
      case PlanKind::kRank: {
        auto& r = n->As<RankNode>();
        r.emit_update_before = ub;
        r.input_has_retractions = !kinds_[n->inputs[0].get()].InsertOnly();
        return;
      }
      case PlanKind::kSort: return AnnotateSort(&n->As<SortNode>(), ub);
      default: return;
    }
  }

  // A group aggregate over an updating input runs the retracting variants of its calls.
  void AnnotateGroupAggregate(GroupAggregateNode* g, bool ub) {
    g->emit_update_before = ub;
    g->input_has_retractions = !kinds_[g->inputs[0].get()].InsertOnly();
    if (g->input_has_retractions) {
      Status st = UseRetractingAggregates(&g->aggs, false, MonotonicFinalCalls(*g));
      if (!st.ok()) status_ = st;
    }
  }

  // Since Flink 1.19 (FLINK-20281) a window aggregation reads an updating input: the retracting variants
  // of its calls, and a row count per window and key (a window whose count is 0 is not emitted, as
  // Flink's WindowIsEmptySupplier). Its output stays insert-only. Refuses what it cannot run over one.
  void AnnotateWindowAggregate(WindowAggregateNode* w, bool ub) {
    w->emit_update_before = ub;
    w->input_has_retractions = !kinds_[w->inputs[0].get()].InsertOnly();
    if (!w->input_has_retractions) return;
    // Flink's legacy group window runs early and late firing over it: a key's window result is
    // updated by retractions too, and deleted (-D) when they empty it (AggregateWindowOperator).
    if (w->Updates() && !w->group_window) {
      // Flink refuses early and late firing for every window TVF aggregation; Sluice runs them over
      // insert-only input (docs/flink_differences.md, "Emit strategies on window TVF aggregations").
      status_ = Status::PlanError(
          "Currently, window table function based aggregate doesn't support early-fire and late-fire configuration "
          "'table.exec.emit.early-fire.enabled' and 'table.exec.emit.late-fire.enabled'.\nSluice: early and late "
          "firing work over an insert-only input; over an updating one, leave them off.");
      return;
    }
    if (Status st = UseRetractingAggregates(&w->aggs, w->group_window); !st.ok()) {
      status_ = st;
      return;
    }
    CheckMergeableCalls(*w);
  }

  // HOP and CUMULATE windows merge their slices' accumulators, SESSION windows their sessions': Flink
  // refuses a retracting call without merge there.
  void CheckMergeableCalls(const WindowAggregateNode& w) {
    if (w.window.kind == WindowKind::kTumble) return;
    for (const auto& a : w.aggs) {
      if (a.distinct || a.function->merge) continue;
      std::string cls = a.name == "FIRST_VALUE" ? "FirstValueWithRetractAggFunction"
                                                : (a.name == "LAST_VALUE" ? "LastValueWithRetractAggFunction" : a.name);
      const std::string full = "org.apache.flink.table.runtime.functions.aggregate." + cls;
      status_ = Status::PlanError("Could not find an implementation method 'merge' in class '" + full +
                                  "' for function '" + a.name + "' that matches the following signature:\nvoid merge(" +
                                  full + "." + cls.substr(0, cls.size() - std::string("AggFunction").size()) +
                                  "Accumulator, java.lang.Iterable)\nSluice: HOP, CUMULATE and SESSION windows merge "
                                  "accumulators; use TUMBLE, or an insert-only input.");
      return;
    }
  }

  // Sluice's lookup join reads any probe side (each change looked up with its kind kept) against an
  // insert-only bounded table: refuses a table that changes.
  void CheckLookupJoinTable(const PlanNode& n) {
    for (size_t i = 1; i < n.inputs.size(); ++i) {
      Kinds k = kinds_[n.inputs[i].get()];
      if (k.InsertOnly()) continue;
      const PlanNode* p = Producer(&n, n.inputs[i]->changelog_mode);
      status_ = Status::NotSupported("A processing-time temporal join (LookupJoin) consuming " +
                                     ChangeKindsText(k.update, k.del) + " of its table '" +
                                     n.As<LookupJoinNode>().table_name + "', which are produced by node " +
                                     p->ExplainName() + "(" + p->ExplainAttributes() + "), is not supported by Sluice yet");
      return;
    }
  }

  // Refuses the first updating input of an operator that consumes inserts only, naming the node that
  // produces the changes; `advice` follows Flink's message.
  void CheckInsertOnlyInputs(const PlanNode& n, const std::string& advice) {
    for (const auto& in : n.inputs) {
      Kinds k = kinds_[in.get()];
      if (k.InsertOnly()) continue;
      const PlanNode* p = Producer(&n, in->changelog_mode);
      status_ = Status::PlanError("StreamPhysical" + n.ExplainName() + " doesn't support consuming " +
                                  ChangeKindsText(k.update, k.del) + " which is produced by node " + p->ExplainName() +
                                  "(" + p->ExplainAttributes() + ")" + advice);
      return;
    }
  }

  // Flink 2.2 joins an updating probe side too (each change with its own kind), but the versioned side
  // must be unique on the join keys.
  void CheckVersionedTableKey(const PlanNode& n) {
    const auto& t = n.As<TemporalJoinNode>();
    if (UniqueOnColumns(*n.inputs[1], t.right_keys)) return;
    status_ = Status::PlanError("Temporal Table Join requires primary key in versioned table, but no primary key "
                                "can be found. ('" + t.right_name +
                                "' must be a table with a PRIMARY KEY, or a view that keeps the last row per key "
                                "by event time: ROW_NUMBER() OVER (PARTITION BY key ORDER BY rowtime DESC) = 1, "
                                "and the join must cover that key)");
  }

  // A temporal sort consumes inserts only; the other sorts retract what they emitted.
  void AnnotateSort(SortNode* s, bool ub) {
    s->emit_update_before = ub;
    s->input_has_retractions = !kinds_[s->inputs[0].get()].InsertOnly();
    if (s->variant != SortNode::Variant::kTemporalSort || !s->input_has_retractions) return;
    const PlanNode* p = ChangingNodeBelowStateless(s->inputs[0].get());
    Kinds k = kinds_[p];
    status_ = Status::PlanError("TemporalSort doesn't support consuming " + ChangeKindsText(k.update, k.del) +
                                " which is produced by node " + p->ExplainName() + "(" + p->ExplainAttributes() + ")");
  }

  // The node Flink's message names as the producer of `p`'s changes: down through the stateless nodes,
  // to the first whose updating input is not one of them.
  const PlanNode* ChangingNodeBelowStateless(const PlanNode* p) {
    for (bool down = true; down;) {
      down = false;
      if (!p->inputs.empty() && (p->kind == PlanKind::kCalc || p->kind == PlanKind::kExchange ||
                                 p->kind == PlanKind::kWatermarkAssigner || p->kind == PlanKind::kCorrelate ||
                                 p->kind == PlanKind::kUnion || p->kind == PlanKind::kDropUpdateBefore)) {
        for (const auto& in : p->inputs) {
          if (!kinds_[in.get()].InsertOnly()) {
            p = in.get();
            down = true;
            break;
          }
        }
      }
    }
    return p;
  }

  std::set<PlanNode*> seen_;
  std::vector<PlanNode*> order_;
  std::map<const PlanNode*, Kinds> kinds_;
  std::map<PlanNode*, bool> needs_ub_;

 public:
  Status status_;
};

// The deepest node on the path down from `node` that first emits a change of a kind in `kinds`.
const PlanNode* Producer(const PlanNode* node, ChangelogMode kinds) {
  for (const auto& in : node->inputs) {
    ChangelogMode m = in->changelog_mode;
    bool has = false;
    for (RowKind k : {RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) has |= kinds.Contains(k) && m.Contains(k);
    if (has) return Producer(in.get(), kinds);
  }
  return node;
}


}  // namespace

bool StateGrowsWithKeys(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kGroupAggregate:
      // A local phase keeps only the current batch's partial results.
      return node.As<GroupAggregateNode>().phase != GroupAggregateNode::Phase::kLocal;
    case PlanKind::kDeduplicate:
    case PlanKind::kRank:
    case PlanKind::kChangelogNormalize:
    case PlanKind::kTemporalJoin:
    case PlanKind::kJoin: return true;
    case PlanKind::kOverAggregate: {
      // A bounded RANGE frame frees a partition with its last row in the frame.
      const auto& o = node.As<OverAggregateNode>();
      if (o.batch) return false;  // a partition at a time, freed when the next one starts
      return o.rows_frame || o.preceding < 0;
    }
    case PlanKind::kSink: return node.As<SinkNode>().upsert_materialize;
    default: return false;
  }
}

bool IsNonTimeOver(const PlanNode& node) {
  if (node.kind != PlanKind::kOverAggregate) return false;
  const auto& o = node.As<OverAggregateNode>();
  return !o.batch && !o.rowtime &&
         node.inputs[0]->schema.field(static_cast<size_t>(o.order_column)).type.time_attribute() == TimeAttribute::kNone;
}

Status InferChangelogModes(const std::vector<PlanNodePtr>& roots) {
  Inference inf;
  inf.Run(roots);
  return inf.status_;
}

Status ValidateSinks(const std::vector<PlanNodePtr>& roots) {
  for (const auto& r : roots) {
    if (r->kind != PlanKind::kSink) continue;
    const auto& sink = r->As<SinkNode>();
    ChangelogMode in = sink.inputs[0]->changelog_mode;
    bool updates = (in.Contains(RowKind::kUpdateAfter) || in.Contains(RowKind::kUpdateBefore)) &&
                   !sink.accepted_mode.Contains(RowKind::kUpdateAfter);
    bool deletes = in.Contains(RowKind::kDelete) && !sink.accepted_mode.Contains(RowKind::kDelete);
    if (!updates && !deletes) continue;
    const std::string what = ChangeKindsText(updates, deletes);
    const PlanNode* producer = Producer(&sink, in);
    std::string name = sink.table ? sink.table->path.FullName() : "collect";
    std::string msg = "Table sink '" + name + "' doesn't support consuming " + what + " which is produced by node " +
                      producer->ExplainName() + "(" + producer->ExplainAttributes() + ")";
    std::vector<std::string> key = UpsertKeyNames(*sink.inputs[0]);
    msg += "\nSluice: the query emits [" + in.ToString() + "] but '" + (sink.table ? sink.table->connector() : std::string("?")) +
           "' only stores [" + sink.accepted_mode.ToString() + "]. ";
    // A filesystem or kafka table in a plain record format ('json', 'csv') takes a changelog once it is
    // written in 'debezium-json': name the format option the table uses.
    std::string format_key;
    const std::string connector = sink.table ? sink.table->connector() : std::string();
    if (connector == "filesystem" || connector == "kafka") {
      std::map<std::string, std::string> opts = sink.table->options;
      for (const auto& [k, v] : sink.hint_options) opts[k] = v;
      for (const char* k : {"format", "value.format"}) {
        auto it = opts.find(k);
        if (it == opts.end()) continue;
        if (it->second == "json" || it->second == "csv") format_key = k;
      }
    }
    std::string changelog_format =
        format_key.empty() ? std::string()
                           : "Write it with '" + format_key + "' = 'debezium-json' instead, which stores every change as a Debezium event";
    const std::string key_clause = "with PRIMARY KEY (" + JoinStrings(key) + ") NOT ENFORCED (the query's unique key)";
    if (!key.empty() && !changelog_format.empty()) {
      msg += changelog_format + ", or to a sink that upserts by key, " + key_clause + ", e.g. 'upsert-kafka'.";
    } else if (!key.empty()) {
      msg += "Write it to a sink that upserts by key instead, " + key_clause + ", e.g. 'upsert-kafka', or to 'print'.";
    } else if (!changelog_format.empty()) {
      msg += changelog_format + ", or to 'print', or make the query append-only.";
    } else {
      msg += "Write it to a sink that accepts a changelog instead, e.g. 'print', or make the query append-only.";
    }
    return Status::PlanError(msg);
  }
  return Status::OK();
}

}  // namespace sluice
