// Binding of the window table-valued functions in FROM: TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t
// [PARTITION BY k], DESCRIPTOR(time_col), durations...)), positional or with Flink's named arguments
// (DATA, TIMECOL, SIZE, SLIDE, STEP, GAP, OFFSET), and of the legacy GROUP BY TUMBLE/HOP/SESSION(ts,
// ...) with TUMBLE_START and friends. Both give a WindowTableFunctionNode over the input; the
// optimizer folds it into a WindowAggregate when a GROUP BY on the window bounds reads it
// (plan/window_rules.h). Errors use Flink's wording where Flink has one.
#include <algorithm>
#include <cctype>

#include "binder/binder.h"
#include "plan/window_rules.h"

namespace sluice {

namespace {

std::string UpperName(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Result<Binder::Relation> Binder::BindWindowTvf(const ast::TableFunctionRef& ref) {
  const auto& call = ref.call->As<ast::Call>();
  const std::string fname = UpperName(call.name.back());
  WindowSpec spec;
  std::vector<std::string> params;
  if (fname == "TUMBLE") {
    spec.kind = WindowKind::kTumble;
    params = {"DATA", "TIMECOL", "SIZE", "OFFSET"};
  } else if (fname == "HOP") {
    spec.kind = WindowKind::kHop;
    params = {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"};
  } else if (fname == "CUMULATE") {
    spec.kind = WindowKind::kCumulate;
    params = {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"};
  } else if (fname == "SESSION") {
    spec.kind = WindowKind::kSession;
    params = {"DATA", "TIMECOL", "GAP"};
  } else {
    return NotSupported(ref.pos, "Table function '" + call.name.back() +
                                     "' (Sluice runs the window table functions TUMBLE, HOP, CUMULATE and SESSION)");
  }
  if (ref.lateral) return NotSupported(ref.pos, "LATERAL TABLE(" + fname + "(...))");
  const bool session = spec.kind == WindowKind::kSession;
  const size_t required = session ? params.size() : params.size() - 1;  // OFFSET is optional
  auto arity_error = [&]() {
    return Error(call.pos, "Invalid number of arguments to function '" + fname + "'. Was expecting " +
                               (session ? std::to_string(required)
                                        : std::to_string(required) + " or " + std::to_string(params.size())) +
                               " arguments");
  };
  // Arguments into parameter slots, by position or by name.
  std::vector<const ast::Expr*> slot(params.size(), nullptr);
  bool named_seen = false;
  for (size_t i = 0; i < call.args.size(); ++i) {
    std::string name = call.arg_names.empty() ? "" : UpperName(call.arg_names[i]);
    if (name.empty()) {
      if (named_seen) return Error(call.args[i]->pos, "A positional argument of " + fname + " follows a named one");
      if (i >= params.size()) return arity_error();
      slot[i] = call.args[i].get();
      continue;
    }
    named_seen = true;
    auto p = std::find(params.begin(), params.end(), name);
    if (p == params.end()) {
      std::string names;
      for (const auto& n : params) names += (names.empty() ? "" : ", ") + n;
      return Error(call.args[i]->pos, "Unknown parameter '" + call.arg_names[i] + "' of " + fname + " (it takes " + names + ")");
    }
    size_t idx = static_cast<size_t>(p - params.begin());
    if (slot[idx]) return Error(call.args[i]->pos, "Parameter '" + params[idx] + "' of " + fname + " is given twice");
    slot[idx] = call.args[i].get();
  }
  for (size_t i = 0; i < required; ++i) {
    if (!slot[i]) return arity_error();
  }
  // DATA => TABLE t
  const ast::Expr& data = *slot[0];
  if (data.kind != ast::ExprKind::kTableArg) {
    return Error(data.pos, "The first argument of " + fname + " must be a table, written TABLE t");
  }
  const auto& table_arg = data.As<ast::TableArg>();
  if (!table_arg.partition_by.empty() && !session) {
    return Error(data.pos, "PARTITION BY is only allowed in the SESSION window table function, not in " + fname);
  }
  ast::TableName table_ref;
  table_ref.pos = data.pos;
  table_ref.name = table_arg.table;
  ASSIGN_OR_RETURN(Relation input, BindTable(table_ref));
  // TIMECOL => DESCRIPTOR(col)
  const ast::Expr& timecol = *slot[1];
  if (timecol.kind != ast::ExprKind::kDescriptor || timecol.As<ast::Descriptor>().columns.size() != 1) {
    return Error(timecol.pos, "The second argument of " + fname + " must name the time attribute, written DESCRIPTOR(col)");
  }
  const std::string& col = timecol.As<ast::Descriptor>().columns[0];
  const Schema& in_schema = input.node->schema;
  auto idx = in_schema.IndexOf(col);
  if (!idx) {
    return Error(timecol.pos, "Can't find the time attribute field '" + col + "' in the input schema " +
                                  [&] {
                                    std::string s;
                                    for (const auto& n : in_schema.names()) s += (s.empty() ? "" : ", ") + n;
                                    return "(" + s + ")";
                                  }() + ".");
  }
  const LogicalType& time_type = in_schema.field(*idx).type;
  if (time_type.time_attribute() == TimeAttribute::kNone) {
    return Error(timecol.pos, "The window function requires the timecol is a time attribute type, but is " +
                                  time_type.ToString() + ".");
  }
  // Durations: day-time interval literals, positive except the offset.
  auto duration = [&](size_t i, bool allow_non_positive) -> Result<int64_t> {
    const ast::Expr& a = *slot[i];
    Result<ExprPtr> b = BindExpr(a, Scope{});
    if (!b.ok() || (*b)->kind != ExprKind::kLiteral || (*b)->type.id() != TypeId::kIntervalDayTime || (*b)->literal.is_null()) {
      return Error(a.pos, "The " + params[i] + " argument of " + fname +
                              " must be a day-time interval literal, e.g. INTERVAL '10' MINUTE");
    }
    int64_t ms = (*b)->literal.int_value();
    if (!allow_non_positive && ms <= 0) {
      return Error(a.pos, "The " + params[i] + " argument of " + fname + " must be a positive interval");
    }
    return ms;
  };
  if (spec.kind == WindowKind::kTumble || session) {
    ASSIGN_OR_RETURN(spec.size_ms, duration(2, false));
  } else {
    ASSIGN_OR_RETURN(spec.step_ms, duration(2, false));
    ASSIGN_OR_RETURN(spec.size_ms, duration(3, false));
  }
  if (!session && slot.back()) {
    ASSIGN_OR_RETURN(spec.offset_ms, duration(params.size() - 1, true));
  }
  if (spec.kind == WindowKind::kCumulate && spec.size_ms % spec.step_ms != 0) {
    return Error(call.pos, "CUMULATE table function requires maxSize must be an integral multiple of step, but got maxSize " +
                               std::to_string(spec.size_ms) + " ms and step " + std::to_string(spec.step_ms) + " ms");
  }
  for (const char* reserved : {"window_start", "window_end", "window_time"}) {
    if (in_schema.IndexOf(reserved)) {
      return Error(ref.pos, std::string("The input of ") + fname + " already has a column named '" + reserved +
                                "', which the window table function adds; rename it first");
    }
  }
  auto node = std::make_shared<WindowTableFunctionNode>();
  node->inputs = {input.node};
  node->window = spec;
  node->time_column = static_cast<int>(*idx);
  node->proctime = time_type.time_attribute() == TimeAttribute::kProctime;
  node->local_time = time_type.id() == TypeId::kTimestampLtz;
  node->emit = ReadWindowEmitConfig(config_);
  for (const auto& p : table_arg.partition_by) {
    ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*p, input.scope));
    if (k->kind != ExprKind::kColumnRef) return Error(p->pos, "PARTITION BY of SESSION takes columns of the table");
    node->partition_keys.push_back(k->column_index);
  }
  node->schema = in_schema;
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  LogicalType wtime = (node->local_time ? LogicalType::TimestampLtz(3) : LogicalType::Timestamp(3))
                          .WithNullable(false)
                          .WithTimeAttribute(time_type.time_attribute());
  node->schema.Add("window_start", bound);
  node->schema.Add("window_end", bound);
  node->schema.Add("window_time", wtime);
  Relation out;
  out.node = node;
  std::string qualifier = ref.alias.empty() ? table_arg.table.back() : ref.alias;
  for (const auto& f : node->schema.fields()) out.scope.columns.push_back({qualifier, f.name, f.type});
  if (!ref.column_aliases.empty()) {
    return NotSupported(ref.pos, "Column aliases on a window table function");
  }
  return out;
}

namespace {

// Which window column (0 start, 1 end, 2 time) of which window TVF column `col` of `node` reads
// through plain references; -1 when none.
int WindowColumnOf(const PlanNode* node, int col, const PlanNode** tvf) {
  while (true) {
    if (node->kind == PlanKind::kWindowTableFunction) {
      const int nw = static_cast<int>(node->inputs[0]->schema.size());
      *tvf = node;
      return col >= nw ? col - nw : -1;
    }
    if (node->kind != PlanKind::kCalc) return -1;
    const Expr& p = *node->As<CalcNode>().projections[static_cast<size_t>(col)];
    if (p.kind != ExprKind::kColumnRef) return -1;
    col = p.column_index;
    node = node->inputs[0].get();
  }
}

}  // namespace

void Binder::KeepWindowTimeAttribute(const PlanNodePtr& input, CalcNode* pre) {
  int key_of[3] = {-1, -1, -1};
  const PlanNode* tvf_of[3] = {nullptr, nullptr, nullptr};
  for (size_t i = 0; i < pre->projections.size(); ++i) {
    const Expr& p = *pre->projections[i];
    if (p.kind != ExprKind::kColumnRef) continue;
    const PlanNode* tvf = nullptr;
    int w = WindowColumnOf(input.get(), p.column_index, &tvf);
    if (w < 0) continue;
    key_of[w] = static_cast<int>(i);
    tvf_of[w] = tvf;
  }
  if (key_of[0] < 0 || key_of[1] < 0 || key_of[2] < 0 || tvf_of[0] != tvf_of[1] || tvf_of[1] != tvf_of[2]) return;
  Schema schema;
  for (size_t i = 0; i < pre->schema.size(); ++i) {
    const Field& f = pre->schema.field(i);
    schema.Add(f.name, static_cast<int>(i) == key_of[2] ? pre->projections[i]->type : f.type);
  }
  pre->schema = schema;
}

Result<const ast::Call*> Binder::PrepareGroupWindow(const ast::Select& select, Relation* input) {
  const ast::Call* call = nullptr;
  std::string fname;
  for (const auto& g : select.group_by) {
    if (g.kind != ast::GroupingElement::Kind::kExpr || g.expr->kind != ast::ExprKind::kCall) continue;
    const auto& c = g.expr->As<ast::Call>();
    std::string n = UpperName(c.name.back());
    if (n != "TUMBLE" && n != "HOP" && n != "SESSION") continue;
    if (call) return Error(c.pos, "A GROUP BY may hold only one group window function");
    call = &c;
    fname = n;
  }
  if (!call) return call;
  const size_t want = fname == "HOP" ? 3 : 2;
  if (call->args.size() != want) {
    return Error(call->pos, "Invalid number of arguments to function '" + fname + "'. Was expecting " +
                                std::to_string(want) + " arguments");
  }
  ASSIGN_OR_RETURN(ExprPtr time, BindExpr(*call->args[0], input->scope));
  if (time->kind != ExprKind::kColumnRef || time->type.time_attribute() == TimeAttribute::kNone) {
    return Error(call->args[0]->pos, "Window can only be defined on a time attribute column, but is type of " +
                                         time->type.ToString());
  }
  WindowSpec spec;
  spec.kind = fname == "TUMBLE" ? WindowKind::kTumble : fname == "HOP" ? WindowKind::kHop : WindowKind::kSession;
  std::vector<int64_t> durations;
  for (size_t i = 1; i < want; ++i) {
    Result<ExprPtr> b = BindExpr(*call->args[i], Scope{});
    if (!b.ok() || (*b)->kind != ExprKind::kLiteral || (*b)->type.id() != TypeId::kIntervalDayTime ||
        (*b)->literal.is_null() || (*b)->literal.int_value() <= 0) {
      return Error(call->args[i]->pos, "The window size of " + fname + " must be a positive day-time interval literal");
    }
    durations.push_back((*b)->literal.int_value());
  }
  if (spec.kind != WindowKind::kHop) {
    spec.size_ms = durations[0];  // TUMBLE size, SESSION gap
  } else {
    spec.step_ms = durations[0];  // HOP(ts, slide, size)
    spec.size_ms = durations[1];
  }
  const LogicalType& time_type = time->type;
  auto node = std::make_shared<WindowTableFunctionNode>();
  node->inputs = {input->node};
  node->window = spec;
  node->time_column = time->column_index;
  node->proctime = time_type.time_attribute() == TimeAttribute::kProctime;
  node->local_time = time_type.id() == TypeId::kTimestampLtz;
  node->group_window = true;
  node->emit = ReadWindowEmitConfig(config_);
  node->schema = input->node->schema;
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  LogicalType wtime = (node->local_time ? LogicalType::TimestampLtz(3) : LogicalType::Timestamp(3))
                          .WithNullable(false)
                          .WithTimeAttribute(time_type.time_attribute());
  const std::string time_name = node->proctime ? "w$proctime" : "w$rowtime";
  node->schema.Add("w$start", bound);
  node->schema.Add("w$end", bound);
  node->schema.Add(time_name, wtime);
  input->node = node;
  // A qualifier no query can name keeps the window columns out of reach of plain identifiers.
  input->scope.columns.push_back({"$window", "w$start", bound});
  input->scope.columns.push_back({"$window", "w$end", bound});
  input->scope.columns.push_back({"$window", time_name, wtime});
  return call;
}

Result<ExprPtr> Binder::ResolveGroupWindowProperty(const ast::Expr& expr, const AggContext& ctx) {
  if (expr.kind != ast::ExprKind::kCall) return ExprPtr();
  const auto& c = expr.As<ast::Call>();
  const std::string n = UpperName(c.name.back());
  size_t us = n.rfind('_');
  if (us == std::string::npos) return ExprPtr();
  const std::string family = n.substr(0, us), prop = n.substr(us + 1);
  if (family != "TUMBLE" && family != "HOP" && family != "SESSION") return ExprPtr();
  int p = prop == "START" ? 0 : prop == "END" ? 1 : (prop == "ROWTIME" || prop == "PROCTIME") ? 2 : -1;
  if (p < 0) return ExprPtr();
  if (family != ctx.group_window) {
    return Error(c.pos, n + " does not match the GROUP BY window " + ctx.group_window + "(...)");
  }
  const size_t col = static_cast<size_t>(ctx.group_window_key + p);
  const std::string& key_name = ctx.input.columns[ctx.input.columns.size() - 3 + static_cast<size_t>(p)].name;
  if (p == 2 && (prop == "ROWTIME") != (key_name == "w$rowtime")) {
    return Error(c.pos, n + " needs a window on " + (prop == "ROWTIME" ? "an event-time" : "a processing-time") +
                            " attribute");
  }
  return MakeColumnRef(static_cast<int>(col), ctx.output_types[col]);
}

}  // namespace sluice
