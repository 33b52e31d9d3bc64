// MATCH_RECOGNIZE (binder part): the pattern (binder/match_pattern.cc), the partition and time
// order, and the DEFINE conditions and MEASURES as expressions over "slots": every column reference,
// FIRST/LAST/PREV navigation, aggregate and MATCH_ROWTIME() becomes a column the operator fills from the rows of the (partial) match
// (plan_node.h, MatchSlot). Navigations over an expression (LAST(A.price * A.tax)) read a column a Calc
// below the Match computes per row. The plan is Exchange(hash[partition keys]) -> Match, as Flink's.
//
// Refusals follow Flink's planner (CommonExecMatch, MatchCodeGenerator, StreamExecMatch), in its words.
#include <functional>
#include <set>

#include "binder/binder.h"
#include "binder/binder_util.h"
#include "function/aggregate/aggregate_function.h"

namespace sluice {

using namespace binder_internal;  // NOLINT

namespace {

int FindVariable(const std::vector<std::string>& vars, const std::string& name) {
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// The pattern's variables and subsets as a DEFINE (define) or a MEASURE sees them.
struct MatchNames {
  const std::vector<std::string>& variables;
  const std::vector<std::string>& subsets;
  bool define;
};

// The variable a qualifier names: a pattern variable (its index), in MEASURES a SUBSET (-2 - i), or
// -1 when it names neither.
int FindQualifier(const MatchNames& mc, const std::string& name) {
  const int v = FindVariable(mc.variables, name);
  if (v >= 0 || mc.define) return v;
  const int s = FindVariable(mc.subsets, name);
  return s >= 0 ? -2 - s : -1;
}

// The pattern variables and subsets an expression's column references name (their qualifiers).
void CollectVariables(const ast::Expr& e, const MatchNames& mc, std::set<int>* out) {
  if (e.kind == ast::ExprKind::kIdentifier) {
    const auto& parts = e.As<ast::Identifier>().parts;
    if (parts.size() >= 2) {
      int v = FindQualifier(mc, parts[0]);
      if (v != -1) out->insert(v);
    }
    return;
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectVariables(c, mc, out); });
}

// The name of variable `v` in EXPLAIN and in column qualifiers: the pattern variable, the subset, or
// "*" for every row.
std::string VariableName(const MatchNames& mc, int v) {
  if (v >= 0) return mc.variables[static_cast<size_t>(v)];
  if (v <= -2) return mc.subsets[static_cast<size_t>(-2 - v)];
  return "*";
}

// Flink's code generator's refusal of a call it has no code for (CLASSIFIER, RUNNING).
Status UnsupportedCall(const std::string& call) {
  return Status::NotSupported("Unsupported call: " + call +
                              " \nIf you think this function should be supported, you can create an issue and start a "
                              "discussion for it.");
}

}  // namespace

// Binds one DEFINE condition (define_var >= 0) or MEASURE (-1) of `m` over the input `in` (its scope
// `scope`); expressions that navigations read per row are appended to `derived`.
Result<MatchExpr> Binder::BindMatchExpr(const ast::Expr& e, const MatchBindContext& mc) {
  // A qualifier must name a pattern variable (in MEASURES also a SUBSET) or a ROW column whose field
  // is read; anything else is an unknown table, in Calcite's words.
  const MatchNames names{mc.variables, mc.subsets, mc.define_var >= 0};
  Status qualifiers;
  std::function<void(const ast::Expr&)> check = [&](const ast::Expr& x) {
    if (!qualifiers.ok()) return;
    if (x.kind == ast::ExprKind::kIdentifier) {
      const auto& parts = x.As<ast::Identifier>().parts;
      if (parts.size() < 2 || FindQualifier(names, parts[0]) != -1) return;
      for (const auto& c : mc.input_scope->columns) {
        if (c.name == parts[0]) return;
      }
      qualifiers = Error(x.pos, "Table '" + parts[0] + "' not found");
      return;
    }
    ForEachChild(x, check);
  };
  check(e);
  RETURN_IF_ERROR(qualifiers);
  MatchExpr out;
  std::vector<const ast::Expr*> replaced;
  Status st = CollectMatchSlots(e, mc, &out, &replaced);
  if (st.ok()) {
    auto bound = BindExpr(e, Scope{});
    if (bound.ok()) {
      out.expr = *bound;
    } else {
      st = bound.status();
    }
  }
  for (const ast::Expr* r : replaced) replacements_.erase(r);
  RETURN_IF_ERROR(st);
  return out;
}

// The column that `inner` (the argument of a navigation or aggregate, over variable `var`) reads: an
// input column, or a derived one computed below the Match.
Result<int> Binder::MatchArgumentColumn(const ast::Expr& inner, int var, const MatchBindContext& mc) {
  Scope s;
  const std::string qualifier = var != -1 ? VariableName({mc.variables, mc.subsets, mc.define_var >= 0}, var) : std::string();
  for (const auto& c : mc.input_scope->columns) s.columns.push_back({qualifier, c.name, c.type});
  ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(inner, s));
  if (bound->kind == ExprKind::kColumnRef) return bound->column_index;
  const std::string digest = bound->ToString();
  for (size_t i = 0; i < mc.derived->size(); ++i) {
    if ((*mc.derived)[i]->ToString() == digest) return static_cast<int>(mc.input_scope->columns.size() + i);
  }
  mc.derived->push_back(bound);
  return static_cast<int>(mc.input_scope->columns.size() + mc.derived->size() - 1);
}

// CollectMatchSlots' steps: the slot a column reference, navigation, MATCH_ROWTIME/MATCH_PROCTIME or
// aggregate of a DEFINE or MEASURE becomes, with its text as Flink prints it.
struct Binder::MatchSlotSteps {
  Binder& b;
  const MatchBindContext& mc;
  MatchNames names;

  MatchSlotSteps(Binder& binder, const MatchBindContext& context)
      : b(binder), mc(context), names{context.variables, context.subsets, context.define_var >= 0} {}

  // The type of slot column c (an input or a derived column), nullable and no time attribute.
  LogicalType ColumnType(int c) const {
    const size_t n = mc.input_scope->columns.size();
    LogicalType t = c < static_cast<int>(n) ? mc.input_scope->columns[static_cast<size_t>(c)].type
                                            : (*mc.derived)[static_cast<size_t>(c) - n]->type;
    return t.WithTimeAttribute(TimeAttribute::kNone).WithNullable(true);
  }
  // A column as MEASURES print it: its name, or $i for a computed one.
  std::string ColumnText(int col) const {
    if (static_cast<size_t>(col) < mc.input_scope->columns.size()) return mc.input_scope->columns[static_cast<size_t>(col)].name;
    return "$" + std::to_string(col);
  }
  std::string VarName(int v) const { return VariableName(names, v); }
  // The one pattern variable `inner` reads (-1: none).
  Result<int> SingleVariable(const ast::Expr& inner, ast::SourcePos pos) const {
    std::set<int> vars;
    CollectVariables(inner, names, &vars);
    if (vars.size() > 1) {
      return b.Error(pos, "Aggregations and navigations in MATCH_RECOGNIZE must reference a single pattern variable");
    }
    return vars.empty() ? -1 : *vars.begin();
  }
  Result<MatchSlot> Column(const ast::Expr& e);
  // FIRST/LAST/PREV/NEXT(arg [, offset]).
  Result<MatchSlot> Navigation(const ast::Expr& e, const std::string& fn);
  // MATCH_ROWTIME([arg]) or MATCH_PROCTIME().
  Result<MatchSlot> Time(const ast::Expr& e, const std::string& fn) const;
  Result<MatchSlot> Aggregate(const ast::Expr& e, const std::string& fn);
};

Result<MatchSlot> Binder::MatchSlotSteps::Column(const ast::Expr& e) {
  const auto& parts = e.As<ast::Identifier>().parts;
  int var = parts.size() >= 2 ? FindQualifier(names, parts[0]) : -1;
  ASSIGN_OR_RETURN(int col, b.MatchArgumentColumn(e, var, mc));
  MatchSlot s;
  s.variable = var;
  s.column = col;
  s.type = ColumnType(col);
  // As Flink prints them: in a DEFINE, PREV(A.$2, 0) for the row being classified and LAST(B.$2, 0)
  // for another variable's last row; in MEASURES the column as written.
  if (mc.define_var >= 0) {
    s.text = (var == mc.define_var || var < 0 ? "PREV(" : "LAST(") + VarName(var) + ".$" + std::to_string(col) + ", 0)";
  } else {
    s.text = (var != -1 ? VarName(var) + "." : std::string()) + ColumnText(col);
  }
  return s;
}

Result<MatchSlot> Binder::MatchSlotSteps::Navigation(const ast::Expr& e, const std::string& fn) {
  const auto& call = e.As<ast::Call>();
  if (call.args.empty() || call.args.size() > 2) return b.Error(e.pos, fn + " takes one or two arguments");
  int64_t offset = 0;
  if (call.args.size() == 2) {
    ASSIGN_OR_RETURN(ExprPtr n, b.BindExpr(*call.args[1], Scope{}));
    if (n->kind != ExprKind::kLiteral || n->literal.is_null() || !n->type.IsIntegral() || n->literal.int_value() < 0) {
      return b.Error(call.args[1]->pos, "The offset of " + fn + " must be a non-negative integer literal");
    }
    offset = n->literal.int_value();
  }
  if ((fn == "PREV" || fn == "NEXT") && offset != 0) {
    return Status::NotSupported("Flink does not support physical offsets within partition.");
  }
  ASSIGN_OR_RETURN(int var, SingleVariable(*call.args[0], e.pos));
  ASSIGN_OR_RETURN(int col, b.MatchArgumentColumn(*call.args[0], var, mc));
  MatchSlot s;
  s.variable = var;
  s.first = fn == "FIRST";
  s.offset = offset;
  s.column = col;
  s.type = ColumnType(col);
  const std::string ref = mc.define_var >= 0 ? VarName(var) + ".$" + std::to_string(col) : VarName(var) + "." + ColumnText(col);
  s.text = (fn == "NEXT" ? std::string("PREV") : fn) + "(" + ref + ", " + std::to_string(offset) + ")";
  return s;
}

Result<MatchSlot> Binder::MatchSlotSteps::Time(const ast::Expr& e, const std::string& fn) const {
  const auto& call = e.As<ast::Call>();
  MatchSlot s;
  if (fn == "MATCH_ROWTIME") {
    if (mc.define_var >= 0) return b.Error(e.pos, "MATCH_ROWTIME() is only allowed in MEASURES");
    if (mc.rowtime_column < 0 && !call.args.empty()) {
      return b.Error(e.pos, "MATCH_ROWTIME with an argument needs a MATCH_RECOGNIZE ordered by an event-time attribute");
    }
    // Ordered by processing time, as Flink: the time its last row was processed (the CEP event's
    // timestamp), as a TIMESTAMP(3) of that instant's UTC wall clock.
    s.kind = MatchSlot::Kind::kMatchRowtime;
    s.column = mc.rowtime_column >= 0 ? mc.rowtime_column : mc.time_column;
    const LogicalType& t = mc.input_scope->columns[static_cast<size_t>(s.column)].type;
    s.type = call.args.empty() ? LogicalType::Timestamp(3).WithNullable(false).WithTimeAttribute(TimeAttribute::kRowtime)
                               : t.WithNullable(false);
    s.text = call.args.empty() ? "MATCH_ROWTIME()"
                               : "MATCH_ROWTIME(*." + mc.input_scope->columns[static_cast<size_t>(s.column)].name + ")";
    return s;
  }
  if (!call.args.empty()) {
    return b.Error(e.pos, "Invalid number of arguments to function 'MATCH_PROCTIME'. Was expecting 0 arguments");
  }
  // A processing-time attribute of the result (Flink's MATCH_PROCTIME: the time the match is
  // emitted); in a DEFINE, materialized (the time the row is classified).
  s.kind = MatchSlot::Kind::kMatchProctime;
  s.type = LogicalType::TimestampLtz(3).WithNullable(false);
  if (mc.define_var < 0) s.type = s.type.WithTimeAttribute(TimeAttribute::kProctime);
  s.text = mc.define_var >= 0 ? "PROCTIME_MATERIALIZE(MATCH_PROCTIME())" : "MATCH_PROCTIME()";
  return s;
}

Result<MatchSlot> Binder::MatchSlotSteps::Aggregate(const ast::Expr& e, const std::string& fn) {
  const auto& call = e.As<ast::Call>();
  if (call.distinct) return b.Error(e.pos, "DISTINCT aggregations are not supported in MATCH_RECOGNIZE");
  if (call.filter) return b.Error(e.pos, "FILTER is not supported for aggregations in MATCH_RECOGNIZE");
  if (call.args.size() > 1) return b.NotSupported(e.pos, "An aggregation of several arguments in MATCH_RECOGNIZE");
  MatchSlot s;
  s.kind = MatchSlot::Kind::kAggregate;
  std::vector<LogicalType> arg_types;
  std::string arg_text;
  if (!call.args.empty()) {
    ASSIGN_OR_RETURN(s.variable, SingleVariable(*call.args[0], e.pos));
    ASSIGN_OR_RETURN(s.column, b.MatchArgumentColumn(*call.args[0], s.variable, mc));
    const size_t n = mc.input_scope->columns.size();
    arg_types.push_back(s.column < static_cast<int>(n) ? mc.input_scope->columns[static_cast<size_t>(s.column)].type
                                                       : (*mc.derived)[static_cast<size_t>(s.column) - n]->type);
    arg_types.back() = arg_types.back().WithTimeAttribute(TimeAttribute::kNone);
    arg_text = VarName(s.variable) + "." + (mc.define_var >= 0 ? "$" + std::to_string(s.column) : ColumnText(s.column));
  }
  std::vector<const Value*> consts(arg_types.size(), nullptr);
  auto f = ResolveAggregate(fn, arg_types, consts, /*needs_retract=*/false);
  if (!f.ok()) return b.Error(e.pos, f.status().message());
  s.function = *f;
  s.type = s.function->result_type;
  s.text = fn + "(" + arg_text + ")";
  return s;
}

Status Binder::CollectMatchSlots(const ast::Expr& e, const MatchBindContext& mc, MatchExpr* out,
                                 std::vector<const ast::Expr*>* replaced) {
  MatchSlotSteps steps(*this, mc);
  auto add = [&](Result<MatchSlot> slot) -> Status {
    RETURN_IF_ERROR(slot.status());
    out->slots.push_back(std::move(*slot));
    replacements_[&e] = MakeColumnRef(static_cast<int>(out->slots.size() - 1), out->slots.back().type);
    replaced->push_back(&e);
    return Status::OK();
  };
  if (e.kind == ast::ExprKind::kIdentifier) return add(steps.Column(e));
  if (e.kind == ast::ExprKind::kCall) {
    const auto& call = e.As<ast::Call>();
    const std::string fn = Upper(call.name.back());
    if (fn == "FIRST" || fn == "LAST" || fn == "PREV" || fn == "NEXT") return add(steps.Navigation(e, fn));
    if (fn == "MATCH_ROWTIME" || fn == "MATCH_PROCTIME") return add(steps.Time(e, fn));
    if (fn == "CLASSIFIER" && call.args.empty()) return UnsupportedCall("CLASSIFIER()");
    if (fn == "MATCH_NUMBER" && call.args.empty()) {
      return Error(e.pos, "No match found for function signature MATCH_NUMBER().\nSupported signatures are:\n'MATCH_NUMBER()'");
    }
    if (IsAggregateCall(e)) return add(steps.Aggregate(e, fn));
  }
  if (e.kind == ast::ExprKind::kCall && e.As<ast::Call>().over) {
    return Error(e.pos, "OVER windows are not allowed in MATCH_RECOGNIZE");
  }
  Status st;
  ForEachChild(e, [&](const ast::Expr& c) {
    if (st.ok()) st = CollectMatchSlots(c, mc, out, replaced);
  });
  return st;
}

namespace {

// The plan over `input`: [Calc computing the navigation arguments `derived`] -> Exchange -> `node`.
void PlanMatch(PlanNodePtr input, const std::vector<ExprPtr>& derived, const std::shared_ptr<MatchNode>& node) {
  PlanNodePtr below = std::move(input);
  if (!derived.empty()) {
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {below};
    calc->projections = IdentityProjections(below->schema);
    calc->schema = below->schema;
    for (size_t i = 0; i < derived.size(); ++i) {
      calc->projections.push_back(derived[i]);
      calc->schema.Add("$f" + std::to_string(below->schema.size() + i), derived[i]->type);
    }
    below = calc;
  }
  auto exchange = std::make_shared<ExchangeNode>();
  exchange->inputs = {below};
  exchange->schema = below->schema;
  exchange->keys = node->partition_keys;
  node->inputs = {exchange};
}

}  // namespace

Status Binder::BindMatchOrder(const ast::MatchRecognize& m, const Scope& scope, MatchNode* node) {
  for (const auto& p : m.partition_by) {
    if (p->kind != ast::ExprKind::kIdentifier) {
      // Flink's validator casts each PARTITION BY item to an identifier and fails on anything else.
      return Error(p->pos, "class org.apache.calcite.sql.SqlBasicCall cannot be cast to class "
                           "org.apache.calcite.sql.SqlIdentifier (MATCH_RECOGNIZE's PARTITION BY takes column names "
                           "only; compute the expression in a subquery)");
    }
    ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*p, scope));
    if (k->kind != ExprKind::kColumnRef) return NotSupported(p->pos, "PARTITION BY an expression in MATCH_RECOGNIZE");
    node->partition_keys.push_back(k->column_index);
  }
  if (m.order_by.empty()) return Status::NotSupported("You must specify either rowtime or proctime for order by.");
  for (size_t i = 0; i < m.order_by.size(); ++i) {
    const auto& o = m.order_by[i];
    ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*o.expr, scope));
    if (k->kind != ExprKind::kColumnRef) return NotSupported(o.pos, "ORDER BY an expression in MATCH_RECOGNIZE");
    SortKey key{k->column_index, !o.descending, o.nulls == ast::OrderItem::Nulls::kDefault ? !o.descending
                                                                                        : o.nulls == ast::OrderItem::Nulls::kFirst};
    if (i == 0) {
      const TimeAttribute attr = k->type.time_attribute();
      if (attr == TimeAttribute::kNone) {
        return Status::NotSupported("You must specify either rowtime or proctime for order by as the first one.");
      }
      if (o.descending) return Status::NotSupported("Primary sort order of a streaming table must be ascending on time.");
      node->rowtime = attr == TimeAttribute::kRowtime;
    }
    node->order.push_back(key);
  }
  return Status::OK();
}

Status Binder::BindMatchConditions(const ast::MatchRecognize& m, MatchBindContext& mc, MatchNode* node, Schema* schema) {
  // SUBSET: each member must be a pattern variable (Calcite's validator).
  for (const auto& sub : m.subsets) {
    for (size_t i = 0; i < sub.variables.size(); ++i) {
      if (FindVariable(node->variables, sub.variables[i]) < 0) {
        return Error(sub.variable_pos[i], "Unknown pattern '" + sub.variables[i] + "'");
      }
    }
    mc.subsets.push_back(sub.name);
    node->subsets.emplace_back(sub.name, sub.variables);
  }
  node->define.resize(node->variables.size());
  for (const auto& d : m.define) {
    const int v = FindVariable(node->variables, d.variable);
    if (v < 0) return Error(d.pos, "Unknown pattern variable '" + d.variable + "' in DEFINE");
    if (node->define[static_cast<size_t>(v)]) return Error(d.pos, "Pattern variable '" + d.variable + "' is defined twice");
    mc.define_var = v;
    ASSIGN_OR_RETURN(MatchExpr cond, BindMatchExpr(*d.condition, mc));
    if (cond.expr->type.id() != TypeId::kBoolean) {
      return Error(d.pos, "The condition of pattern variable '" + d.variable + "' must be a BOOLEAN expression");
    }
    node->define[static_cast<size_t>(v)] = std::move(cond);
  }
  mc.define_var = -1;
  for (int k : node->partition_keys) {
    const auto& c = mc.input_scope->columns[static_cast<size_t>(k)];
    schema->Add(c.name, c.type);
  }
  for (const auto& ms : m.measures) {
    ASSIGN_OR_RETURN(MatchExpr e, BindMatchExpr(*ms.expr, mc));
    if (ms.running) return UnsupportedCall("RUNNING(" + e.expr->type.ToString() + ")");
    schema->Add(ms.alias, e.expr->type);
    node->measures.push_back(std::move(e));
  }
  return Status::OK();
}

Result<Binder::Relation> Binder::BindMatchRecognize(const ast::MatchRecognize& m) {
  ASSIGN_OR_RETURN(Relation input, BindTableRef(*m.input));
  if (m.all_rows) return Status::NotSupported("All rows per match mode is not supported yet.");
  auto node = std::make_shared<MatchNode>();
  RETURN_IF_ERROR(BindMatchPattern(m, node.get()));
  RETURN_IF_ERROR(BindMatchOrder(m, input.scope, node.get()));
  // AFTER MATCH SKIP.
  node->skip = static_cast<MatchNode::Skip>(m.skip);
  if (m.skip == ast::MatchRecognize::Skip::kToFirst || m.skip == ast::MatchRecognize::Skip::kToLast) {
    node->skip_variable = FindVariable(node->variables, m.skip_variable);
    if (node->skip_variable < 0) {
      return Error(m.skip_pos, "Unknown pattern variable '" + m.skip_variable + "' in AFTER MATCH SKIP");
    }
  }
  if (m.within) {
    ASSIGN_OR_RETURN(ExprPtr w, BindExpr(*m.within, Scope{}));
    if (w->kind != ExprKind::kLiteral || w->type.id() != TypeId::kIntervalDayTime || w->literal.is_null()) {
      return Status::NotSupported(
          "Only constant intervals with millisecond resolution are supported as time constraints of patterns.");
    }
    node->within_ms = w->literal.int_value();
  }
  // DEFINE and MEASURES.
  std::vector<ExprPtr> derived;
  MatchBindContext mc;
  mc.input_scope = &input.scope;
  mc.variables = node->variables;
  mc.derived = &derived;
  mc.rowtime_column = node->rowtime ? node->order[0].column : -1;
  mc.time_column = node->order[0].column;
  Schema schema;
  RETURN_IF_ERROR(BindMatchConditions(m, mc, node.get(), &schema));
  PlanMatch(input.node, derived, node);
  node->schema = schema;
  Relation out;
  out.node = node;
  for (const auto& f : schema.fields()) out.scope.columns.push_back({m.alias, f.name, f.type});
  return out;
}

}  // namespace sluice
