// EXPLAIN: prints plans as Flink does.
//
// ExplainPlan prints the three sections of Flink's EXPLAIN ("== Abstract Syntax Tree ==",
// "== Optimized Physical Plan ==", "== Optimized Execution Plan ==") for one or more sink trees (a
// statement set has several). Each tree is printed root first with Flink's "+- " / ":- " branches.
// With the CHANGELOG_MODE detail, the physical plan's nodes end in ", changelogMode=[I,UB,UA]".
// A node shared by several parents is printed once with its reuse id and referenced afterwards as
// Reused(reference_id=[n]), as Flink's sub-plan reuse prints it.
//
// Threading: pure function of immutable plans.
#pragma once

#include <string>
#include <vector>

#include "plan/plan_node.h"

namespace sluice {

struct ExplainOptions {
  bool changelog_mode = false;
  // The late-rows table ('sluice.exec.late-rows.table'): operators that drop late rows say they go
  // there (lateRows=[to late_rows]) instead of lateRows=[dropped and counted].
  std::string late_rows_table;
};

// `logical` are the binder's trees (the AST section), `physical` the optimized ones.
std::string ExplainPlan(const std::vector<PlanNodePtr>& logical, const std::vector<PlanNodePtr>& physical,
                        const ExplainOptions& options);

// One tree in Flink's format, without a section header.
std::string ExplainTree(const std::vector<PlanNodePtr>& roots, bool with_changelog_mode,
                        const std::string& late_rows_table = "");

}  // namespace sluice
