// EXPLAIN text of the Match node (MATCH_RECOGNIZE, plan_node.h) in Flink's format:
// Match(partitionBy=[symbol], orderBy=[ts ASC], measures=[FINAL(A.price) AS price],
//       rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW],
//       pattern=[(_UTF-16LE'A', PATTERN_QUANTIFIER(_UTF-16LE'B', 1, -1, false))], define=[{A=...}]).
// The pattern is printed as Calcite's RexNode (concatenation nests to the left); conditions and
// measures print their navigations as written (PREV(A.$2, 0) for a column of the current row), in
// Sluice's expression syntax.
#include "plan/plan_node.h"

namespace sluice {

std::string MatchExpr::Explain() const {
  std::vector<std::string> names;
  names.reserve(slots.size());
  for (const auto& s : slots) names.push_back(s.text);
  return expr->ToString(&names);
}

namespace {

std::string StageText(const std::string& name, const MatchStage& s) {
  const std::string var = "_UTF-16LE'" + name + "'";
  if (s.min == 1 && s.max == 1 && !s.reluctant) return var;
  return "PATTERN_QUANTIFIER(" + var + ", " + std::to_string(s.min) + ", " + std::to_string(s.max) + ", " +
         (s.reluctant ? "true" : "false") + ")";
}

}  // namespace

std::string MatchNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::string s;
  if (!partition_keys.empty()) {
    s += "partitionBy=[";
    for (size_t i = 0; i < partition_keys.size(); ++i) {
      s += (i ? ", " : "") + in.schema.field(static_cast<size_t>(partition_keys[i])).name;
    }
    s += "], ";
  }
  s += "orderBy=[";
  for (size_t i = 0; i < order.size(); ++i) {
    s += (i ? ", " : "") + in.schema.field(static_cast<size_t>(order[i].column)).name +
         (order[i].ascending ? " ASC" : " DESC");
  }
  s += "], measures=[";
  const size_t nk = partition_keys.size();
  for (size_t i = 0; i < measures.size(); ++i) {
    s += (i ? ", " : "") + std::string("FINAL(") + measures[i].Explain() + ") AS " + schema.field(nk + i).name;
  }
  s += "], rowsPerMatch=[ONE ROW PER MATCH], after=[";
  switch (skip) {
    case Skip::kPastLastRow: s += "SKIP PAST LAST ROW"; break;
    case Skip::kToNextRow: s += "SKIP TO NEXT ROW"; break;
    case Skip::kToFirst: s += "SKIP TO FIRST _UTF-16LE'" + variables[static_cast<size_t>(skip_variable)] + "'"; break;
    case Skip::kToLast: s += "SKIP TO LAST _UTF-16LE'" + variables[static_cast<size_t>(skip_variable)] + "'"; break;
  }
  std::string pattern = pattern_text;
  if (program.empty()) {
    pattern = StageText(variables[0], stages[0]);
    for (size_t i = 1; i < stages.size(); ++i) pattern = "(" + pattern + ", " + StageText(variables[i], stages[i]) + ")";
  }
  s += "], pattern=[" + pattern + "]";
  if (!subsets.empty()) {
    s += ", subset=[";
    for (size_t i = 0; i < subsets.size(); ++i) {
      s += (i ? ", " : "") + subsets[i].first + " = (";
      for (size_t j = 0; j < subsets[i].second.size(); ++j) s += (j ? ", " : "") + subsets[i].second[j];
      s += ")";
    }
    s += "]";
  }
  // Flink's physical Match does not print WITHIN (its logical plan does, as interval=[...]).
  s += ", define=[{";
  bool first = true;
  for (size_t v = 0; v < define.size(); ++v) {
    if (!define[v]) continue;
    s += (first ? "" : ", ") + variables[v] + "=" + define[v]->Explain();
    first = false;
  }
  return s + "}]";
}

}  // namespace sluice
