// Column pruning (Flink's projection push-down: Calcite's ProjectMerge/ProjectRemove and Flink's
// pushing of projections into sources, below joins and below Rank/Deduplicate, CalcRankTransposeRule).
//
// Walks the plan top-down (a DAG: a node shared by several parents keeps the union of what they
// read) and keeps at every node only the columns read above it:
//   - a TableSourceScan reads only those physical and metadata columns (project=[...] in EXPLAIN);
//   - Calcs keep only the projections read; WatermarkAssigner, Correlate, Union, Exchange, window
//     table functions pass the requirement down plus what they read themselves (a Correlate over an
//     updating input asks for every input column: Flink projects nothing below its Correlate, and a
//     ChangelogNormalize there compares whole rows);
//   - stateful operators store only what they need: joins (all kinds) keep their keys, condition,
//     time attributes and what is read above; OverAggregate, WindowRank, WindowDeduplicate, Rank and
//     Deduplicate keep their keys, order and time columns and what is read above (a Rank over an
//     updating input also keeps that input's unique key, as Flink's CalcRankTransposeRule does, so the
//     Rank keeps its update strategy);
//   - aggregates, sinks, sorts and the rest read every input column (the binder's projection below
//     an aggregate already keeps only what it reads).
// Where a node cannot drop columns itself (an aggregate's output), a Calc above it keeps the required
// ones; the optimizer merges Calcs afterwards.
//
// Threading: a pure function; it builds new nodes and never modifies the given ones.
#pragma once

#include <vector>

#include "plan/plan_node.h"

namespace sluice {

// Prunes the trees of one statement (all of the roots' output columns are needed).
void PruneColumns(std::vector<PlanNodePtr>* roots);

}  // namespace sluice
