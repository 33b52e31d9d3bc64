// EXPLAIN text of the Expand and ReplicateRows (Correlate) nodes (plan_node.h), in Flink's format:
// Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}]) and
// Correlate(invocation=[$REPLICATE_ROWS$1($0, $1)], correlate=[table($REPLICATE_ROWS$1(n,a))], select=[n,a,a0],
//           joinType=[INNER]).
#include "plan/plan_node.h"

namespace sluice {

std::string ExpandNode::ExplainAttributes() const {
  const std::vector<std::string> in = ColumnNames(*inputs[0]);
  std::string s = "projects=[";
  for (size_t p = 0; p < keep.size(); ++p) {
    if (p) s += ", ";
    s += "{";
    for (size_t c = 0; c < in.size(); ++c) s += keep[p][c] ? in[c] + ", " : "null AS " + in[c] + ", ";
    s += std::to_string(expand_ids[p]) + " AS $e}";
  }
  return s + "]";
}

std::string ReplicateRowsNode::ExplainAttributes() const {
  const std::vector<std::string> in = ColumnNames(*inputs[0]);
  std::string refs, names;
  for (size_t c = 0; c < in.size(); ++c) {
    refs += (c ? ", $" : "$") + std::to_string(c);
    names += (c ? "," : "") + in[c];
  }
  std::string select;
  for (size_t c = 0; c < schema.size(); ++c) select += (c ? "," : "") + schema.field(c).name;
  return "invocation=[$REPLICATE_ROWS$1(" + refs + ")], correlate=[table($REPLICATE_ROWS$1(" + names + "))], select=[" +
         select + "], joinType=[INNER]";
}

}  // namespace sluice
