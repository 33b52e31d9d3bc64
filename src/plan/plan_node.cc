#include "plan/plan_node.h"

#include "catalog/catalog.h"

namespace sluice {

namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

// "expr AS name", or just the text when the expression is a reference to a column of that name.
std::string NamedExpr(const Expr& e, const std::string& out_name, const std::vector<std::string>& in_names) {
  std::string text = e.ToString(&in_names);
  if (text == out_name) return text;
  return text + " AS " + out_name;
}

}  // namespace

std::vector<std::string> ColumnNames(const PlanNode& node) { return node.schema.names(); }

std::string TableSourceScanNode::ExplainAttributes() const {
  Schema phys = table->physical_schema();
  std::string t = "table=[[" + table->path.catalog + ", " + table->path.database + ", " + table->path.name;
  bool projected = projection.size() != phys.size();
  for (size_t i = 0; !projected && i < projection.size(); ++i) projected = projection[i] != static_cast<int>(i);
  if (projected) {
    std::vector<std::string> names;
    for (int p : projection) names.push_back(phys.field(static_cast<size_t>(p)).name);
    t += ", project=[" + JoinNames(names) + "]";
  }
  if (!metadata.empty()) {
    std::vector<std::string> names;
    for (int m : metadata) names.push_back(table->columns[static_cast<size_t>(m)].metadata_key);
    t += ", metadata=[" + JoinNames(names) + "]";
  }
  if (!hint_options.empty()) {
    std::string h;
    for (const auto& [k, v] : hint_options) h += (h.empty() ? "" : ", ") + k + "=" + v;
    t += ", dynamic options: {" + h + "}";
  }
  return t + "]], fields=[" + JoinNames(schema.names()) + "]";
}

std::string ValuesNode::ExplainAttributes() const {
  std::string s = "tuples=[[";
  for (size_t r = 0; r < rows.size(); ++r) {
    s += r ? ", { " : "{ ";
    for (size_t c = 0; c < rows[r].size(); ++c) {
      if (c) s += ", ";
      const Value& v = rows[r][c];
      if (v.is_null()) s += "null";
      else if (v.type().IsCharacterString()) s += "'" + v.ToString() + "'";
      else s += v.ToString();
    }
    s += " }";
  }
  return s + "]]";
}

std::string CalcNode::ExplainAttributes() const {
  std::vector<std::string> in = ColumnNames(*inputs[0]);
  std::vector<std::string> items;
  for (size_t i = 0; i < projections.size(); ++i) items.push_back(NamedExpr(*projections[i], schema.field(i).name, in));
  std::string s = "select=[" + JoinNames(items) + "]";
  if (condition) s += ", where=[" + condition->ToString(&in) + "]";
  return s;
}

std::string WatermarkAssignerNode::ExplainAttributes() const {
  std::vector<std::string> in = ColumnNames(*inputs[0]);
  return "rowtime=[" + in[static_cast<size_t>(rowtime_index)] + "], watermark=[" + watermark->ToString(&in) + "]";
}

std::string CorrelateNode::ExplainAttributes() const {
  std::vector<std::string> in = ColumnNames(*inputs[0]);
  std::string s = "invocation=[UNNEST(" + collection->ToString(&in) + ")";
  if (with_ordinality) s += " WITH ORDINALITY";
  s += "], select=[" + JoinNames(schema.names()) + "], joinType=[" + (left_outer ? "LEFT" : "INNER") + "]";
  return s;
}

std::string UnionNode::ExplainAttributes() const { return "all=[true], union=[" + JoinNames(schema.names()) + "]"; }

std::string SinkNode::ExplainAttributes() const {
  std::string t = table ? table->path.FullName() : "*anonymous_collect$1*";
  return "table=[" + t + "], fields=[" + JoinNames(schema.names()) + "]";
}

}  // namespace sluice
