#include "plan/plan_node.h"

#include "plan/traits.h"

#include "catalog/catalog.h"
#include "function/aggregate/aggregate_function.h"

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
  if (filter_push_down) {
    // Flink's FilterPushDownSpec digest: one accepted filter as is, several as and(...).
    std::vector<std::string> names = phys.names();
    std::vector<std::string> texts;
    for (const auto& f : filters) texts.push_back(f->ToString(&names));
    t += ", filter=[" + (texts.size() > 1 ? "and(" + JoinNames(texts) + ")" : JoinNames(texts)) + "]";
  }
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
  std::string s = "table=[" + t + "], fields=[" + JoinNames(schema.names()) + "]";
  if (upsert_materialize) s += ", upsertMaterialize=[true]";
  if (conflict_strategy != InsertConflictStrategy::kNone) {
    s += std::string(", conflictStrategy=[") + InsertConflictStrategyName(conflict_strategy) + "]";
  }
  if (upsert_materialize) s += ", upsertMaterializeReason=[" + upsert_materialize_reason + "]";
  return s;
}

namespace {
std::string KeyNames(const PlanNode& input, const std::vector<int>& keys) {
  std::vector<std::string> names;
  for (int k : keys) names.push_back(input.schema.field(static_cast<size_t>(k)).name);
  return JoinNames(names);
}
}  // namespace

std::string AggregateCall::explain_name() const { return function ? function->explain_name : name; }

std::string ExchangeNode::ExplainAttributes() const {
  if (keys.empty()) return "distribution=[single]";
  return "distribution=[hash[" + KeyNames(*inputs[0], keys) + "]]";
}

std::string ExplainAggregateCall(const PlanNode& in, const AggregateCall& a) {
  std::string call = a.explain_name() + "(";
  if (a.distinct) call += "DISTINCT ";
  if (a.args.empty() && a.name == "COUNT") call += "*";
  for (size_t i = 0; i < a.args.size(); ++i) call += (i ? ", " : "") + in.schema.field(static_cast<size_t>(a.args[i])).name;
  for (const auto& c : a.constant_args) call += ", " + c.ToString();
  call += ")";
  if (a.filter >= 0) call += " FILTER " + in.schema.field(static_cast<size_t>(a.filter)).name;
  return call + " AS " + a.output_name;
}

std::string GroupAggregateNode::ExplainAttributes() const {
  const std::string partial_final_type = partial_final == PartialFinal::kPartial ? "partialFinalType=[PARTIAL], "
                                         : partial_final == PartialFinal::kFinal ? "partialFinalType=[FINAL], "
                                                                                 : "";
  if (phase == Phase::kGlobal) {
    // Over the local phase's partial results: keys first, then one partial column per call.
    const size_t nk = group_keys.size();
    std::vector<std::string> items(partial_names.begin(), partial_names.begin() + static_cast<std::ptrdiff_t>(nk));
    std::string s;
    if (nk > 0) s = "groupBy=[" + JoinNames(items) + "], ";
    for (size_t a = 0; a < aggs.size(); ++a) {
      items.push_back(aggs[a].explain_name() + "(" + partial_names[nk + a] + ") AS " + aggs[a].output_name);
    }
    return s + partial_final_type + "select=[" + JoinNames(items) + "]";
  }
  // The local phase reads the original input (below its Exchange, so inputs[0] is that input here).
  const PlanNode& in = *inputs[0];
  std::vector<std::string> items;
  for (int k : group_keys) items.push_back(in.schema.field(static_cast<size_t>(k)).name);
  for (size_t a = 0; a < aggs.size(); ++a) {
    std::string call = ExplainAggregateCall(in, aggs[a]);
    if (phase == Phase::kLocal) call = call.substr(0, call.rfind(" AS ")) + " AS " + partial_names[group_keys.size() + a];
    items.push_back(call);
  }
  std::string s;
  if (!group_keys.empty()) s = "groupBy=[" + KeyNames(in, group_keys) + "], ";
  return s + partial_final_type + "select=[" + JoinNames(items) + "]";
}

std::string ChangelogNormalizeNode::ExplainAttributes() const {
  std::string s = "key=[" + KeyNames(*inputs[0], keys) + "]";
  if (condition) {
    std::vector<std::string> in = ColumnNames(*inputs[0]);
    s += ", condition=[" + condition->ToString(&in) + "]";
  }
  return s;
}

std::string DeduplicateNode::ExplainAttributes() const {
  return std::string("keep=[") + (keep_last ? "LastRow" : "FirstRow") + "], key=[" + KeyNames(*inputs[0], keys) +
         "], order=[" + (rowtime ? "ROWTIME" : "PROCTIME") + "]";
}

std::string RankNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::string strategy = input_has_retractions ? "RetractStrategy" : "AppendFastStrategy";
  std::vector<std::string> order_items;
  for (const auto& k : order) {
    order_items.push_back(in.schema.field(static_cast<size_t>(k.column)).name + (k.ascending ? " ASC" : " DESC"));
  }
  return "strategy=[" + strategy + "], rankType=[" + rank_function + "], rankRange=[rankStart=" + std::to_string(rank_start) +
         ", rankEnd=" + std::to_string(rank_end) + "], partitionBy=[" + KeyNames(in, partition_keys) + "], orderBy=[" +
         JoinNames(order_items) + "], select=[" + JoinNames(schema.names()) + "]";
}

std::string BatchRankNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::vector<std::string> order_items;
  for (const auto& k : order) {
    order_items.push_back(in.schema.field(static_cast<size_t>(k.column)).name + (k.ascending ? " ASC" : " DESC"));
  }
  return "rankType=[" + rank_function + "], rankRange=[rankStart=" + std::to_string(rank_start) + ", rankEnd=" +
         std::to_string(rank_end) + "], partitionBy=[" + KeyNames(in, partition_keys) + "], orderBy=[" +
         JoinNames(order_items) + "], global=[true], select=[" + JoinNames(schema.names()) + "]";
}

namespace {
std::string OrderByText(const PlanNode& input, const std::vector<SortKey>& order);

std::string FrameBoundText(const OverFrameBound& b) {
  auto num = [](long double x) {
    std::string t = std::to_string(static_cast<double>(x));
    if (x == static_cast<long double>(static_cast<int64_t>(x))) t = std::to_string(static_cast<int64_t>(x));
    return t;
  };
  switch (b.kind) {
    case OverFrameBound::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case OverFrameBound::Kind::kPreceding: return num(b.offset) + " PRECEDING";
    case OverFrameBound::Kind::kCurrentRow: return "CURRENT ROW";
    case OverFrameBound::Kind::kFollowing: return num(b.offset) + " FOLLOWING";
    case OverFrameBound::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

// Flink's BatchPhysicalOverAggregate: "partitionBy=[k], orderBy=[id ASC], window#0=[COUNT(*) AS w0$o0
// ROWS BETWEEN 1 PRECEDING AND CURRENT ROW], select=[...]", one window# per distinct frame.
std::string BatchOverAttributes(const OverAggregateNode& o) {
  const PlanNode& in = *o.inputs[0];
  std::string s;
  if (!o.partition_keys.empty()) s += "partitionBy=[" + KeyNames(in, o.partition_keys) + "], ";
  if (!o.order.empty()) s += "orderBy=[" + OrderByText(in, o.order) + "], ";
  std::vector<std::string> frames;  // distinct frame texts, in order of first use
  std::vector<std::vector<std::string>> calls;
  for (size_t i = 0; i < o.aggs.size(); ++i) {
    const OverFrame& f = o.frames[i];
    const std::string text = std::string(f.rows ? "ROWS" : "RANGE") + " BETWEEN " + FrameBoundText(f.start) + " AND " +
                             FrameBoundText(f.end);
    size_t w = 0;
    while (w < frames.size() && frames[w] != text) ++w;
    if (w == frames.size()) {
      frames.push_back(text);
      calls.emplace_back();
    }
    // Flink's batch plans name the plain functions (the retracting variants slide the frames here).
    std::string call = ExplainAggregateCall(in, o.aggs[i]);
    if (size_t r = call.find("_RETRACT("); r != std::string::npos) call.erase(r, 8);
    calls[w].push_back(call);
  }
  for (size_t w = 0; w < frames.size(); ++w) {
    s += "window#" + std::to_string(w) + "=[" + JoinNames(calls[w]) + " " + frames[w] + "], ";
  }
  return s + "select=[" + JoinNames(o.schema.names()) + "]";
}
}  // namespace

std::string OverAggregateNode::ExplainAttributes() const {
  if (batch) return BatchOverAttributes(*this);
  const PlanNode& in = *inputs[0];
  std::string s;
  if (!partition_keys.empty()) s += "partitionBy=[" + KeyNames(in, partition_keys) + "], ";
  s += "orderBy=[" + in.schema.field(static_cast<size_t>(order_column)).name + " ASC], window=[ ";
  // Flink prints a time-ordered RANGE frame as "RANG", a non-time one (plan/traits.h) as "RANGE".
  s += rows_frame ? "ROWS" : (IsNonTimeOver(*this) ? "RANGE" : "RANG");
  s += " BETWEEN " + (preceding < 0 ? std::string("UNBOUNDED") : std::to_string(preceding)) + " PRECEDING AND CURRENT ROW], ";
  std::vector<std::string> items = in.schema.names();
  for (const auto& a : aggs) items.push_back(ExplainAggregateCall(in, a));
  return s + "select=[" + JoinNames(items) + "]";
}

std::string TemporalJoinNode::ExplainAttributes() const {
  std::vector<std::string> names = inputs[0]->schema.names();
  for (const auto& n : inputs[1]->schema.names()) names.push_back(n);
  std::vector<std::string> lk, rk;
  for (int k : left_keys) lk.push_back(names[static_cast<size_t>(k)]);
  for (int k : right_keys) rk.push_back(names[inputs[0]->schema.size() + static_cast<size_t>(k)]);
  const std::string right_time_name = names[inputs[0]->schema.size() + static_cast<size_t>(right_time)];
  std::string where = "__TEMPORAL_JOIN_CONDITION(" + names[static_cast<size_t>(left_time)] + ", " + right_time_name +
                      ", __TEMPORAL_JOIN_LEFT_KEY(" + JoinNames(lk) + "), __TEMPORAL_JOIN_RIGHT_KEY(" + JoinNames(rk) + "))";
  if (condition) where = "AND(" + condition->ToString(&names) + ", " + where + ")";
  return std::string("joinType=[") + (left_outer ? "LeftOuterJoin" : "InnerJoin") + "], where=[" + where +
         "], select=[" + JoinNames(schema.names()) + "]";
}

std::string JoinNode::JoinAttributes() const {
  static const char* kTypes[] = {"InnerJoin",    "LeftOuterJoin", "RightOuterJoin",
                                 "FullOuterJoin", "LeftSemiJoin",  "LeftAntiJoin"};
  std::vector<std::string> names = inputs[0]->schema.names();
  for (const auto& n : inputs[1]->schema.names()) names.push_back(n);
  return std::string("joinType=[") + kTypes[static_cast<int>(join_type)] + "], where=[" +
         (condition ? condition->ToString(&names) : std::string("true")) + "], select=[" + JoinNames(schema.names()) + "]";
}

std::string JoinNode::ExplainAttributes() const {
  return JoinAttributes() + ", leftInputSpec=[" + JoinInputSpecName(*this, 0) + "], rightInputSpec=[" +
         JoinInputSpecName(*this, 1) + "]" +
         (mini_batch ? ", miniBatch=[true]" : "");
}

namespace {
// Flink's RelExplainUtil.collationToString: "price DESC, ts ASC".
std::string OrderByText(const PlanNode& input, const std::vector<SortKey>& order) {
  std::vector<std::string> items;
  for (const auto& k : order) {
    items.push_back(input.schema.field(static_cast<size_t>(k.column)).name + (k.ascending ? " ASC" : " DESC"));
  }
  return JoinNames(items);
}
}  // namespace

std::string SortNode::ExplainName() const {
  switch (variant) {
    case Variant::kTemporalSort: return "TemporalSort";
    case Variant::kSortLimit: return "SortLimit";
    case Variant::kLimit: return "Limit";
    case Variant::kBatchSort: break;
  }
  if (order.empty()) return "Limit";
  return fetch >= 0 || offset > 0 ? "SortLimit" : "Sort";
}

std::string SortNode::ExplainAttributes() const {
  const PlanNode& in = *inputs[0];
  std::string limit = "offset=[" + std::to_string(offset) + "], fetch=[" + (fetch < 0 ? std::string("unlimited") : std::to_string(fetch)) + "]";
  switch (variant) {
    case Variant::kTemporalSort: return "orderBy=[" + OrderByText(in, order) + "]";
    case Variant::kSortLimit:
      return "orderBy=[" + OrderByText(in, order) + "], " + limit + ", strategy=[" +
             (input_has_retractions ? "RetractStrategy" : "AppendFastStrategy") + "]";
    case Variant::kLimit: return limit;
    case Variant::kBatchSort: break;
  }
  if (order.empty()) return limit + ", global=[true]";
  if (fetch < 0 && offset == 0) return "orderBy=[" + OrderByText(in, order) + "]";
  return "orderBy=[" + OrderByText(in, order) + "], " + limit + ", global=[true]";
}

}  // namespace sluice
