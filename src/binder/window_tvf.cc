// Binding of the window table-valued functions in FROM: TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t
// [PARTITION BY k], DESCRIPTOR(time_col), durations...)), positional or with Flink's named arguments
// (DATA, TIMECOL, SIZE, SLIDE, STEP, GAP, OFFSET), and of the legacy GROUP BY TUMBLE/HOP/SESSION(ts,
// ...) with TUMBLE_START and friends. Both give a WindowTableFunctionNode over the input; the
// optimizer folds it into a WindowAggregate when a GROUP BY on the window bounds reads it
// (plan/window_rules.h). Errors use Flink's wording where Flink has one.
#include <algorithm>
#include <array>
#include <cctype>

#include "binder/binder.h"
#include "plan/window_rules.h"

namespace sluice {

namespace {

std::string UpperName(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The window TVF `fname` names: its kind and its parameters in order (Flink's named arguments). False
// for any other table function.
bool WindowTvfSignature(const std::string& fname, WindowKind* kind, std::vector<std::string>* params) {
  if (fname == "TUMBLE") {
    *kind = WindowKind::kTumble;
    *params = {"DATA", "TIMECOL", "SIZE", "OFFSET"};
  } else if (fname == "HOP") {
    *kind = WindowKind::kHop;
    *params = {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"};
  } else if (fname == "CUMULATE") {
    *kind = WindowKind::kCumulate;
    *params = {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"};
  } else if (fname == "SESSION") {
    *kind = WindowKind::kSession;
    *params = {"DATA", "TIMECOL", "GAP"};
  } else {
    return false;
  }
  return true;
}

// A WindowTableFunction over `input` on the time attribute column `time_column` (of `time_type`) with
// the window columns appended under `names` (start, end, time): the bounds TIMESTAMP(3), the time a
// time attribute of the column's kind (TIMESTAMP_LTZ(3) for a TIMESTAMP_LTZ column). One construction for the window TVFs and the legacy group windows.
std::shared_ptr<WindowTableFunctionNode> NewWindowTableFunction(const PlanNodePtr& input, const WindowSpec& spec,
                                                                int time_column, const LogicalType& time_type,
                                                                const Configuration* config,
                                                                const std::array<std::string, 3>& names) {
  auto node = std::make_shared<WindowTableFunctionNode>();
  node->inputs = {input};
  node->window = spec;
  node->time_column = time_column;
  node->proctime = time_type.time_attribute() == TimeAttribute::kProctime;
  node->local_time = time_type.id() == TypeId::kTimestampLtz;
  node->emit = ReadWindowEmitConfig(config);
  node->schema = input->schema;
  LogicalType bound = LogicalType::Timestamp(3).WithNullable(false);
  LogicalType wtime = (node->local_time ? LogicalType::TimestampLtz(3) : LogicalType::Timestamp(3))
                          .WithNullable(false)
                          .WithTimeAttribute(time_type.time_attribute());
  node->schema.Add(names[0], bound);
  node->schema.Add(names[1], bound);
  node->schema.Add(names[2], wtime);
  return node;
}

}  // namespace

// A window TVF call's arguments, each in its parameter's slot (null: not given).
struct Binder::WindowTvfArgs {
  std::string fname;  // upper case
  WindowSpec spec;    // the kind, then the durations (BindWindowDurations)
  std::vector<std::string> params;
  std::vector<const ast::Expr*> slot;
  ast::SourcePos pos;
};

Result<Binder::WindowTvfArgs> Binder::WindowTvfArguments(const ast::TableFunctionRef& ref) const {
  const auto& call = ref.call->As<ast::Call>();
  WindowTvfArgs a;
  a.fname = UpperName(call.name.back());
  a.pos = call.pos;
  if (!WindowTvfSignature(a.fname, &a.spec.kind, &a.params)) {
    return NotSupported(ref.pos, "Table function '" + call.name.back() +
                                     "' (Sluice runs the window table functions TUMBLE, HOP, CUMULATE and SESSION)");
  }
  if (ref.lateral) return NotSupported(ref.pos, "LATERAL TABLE(" + a.fname + "(...))");
  const bool session = a.spec.kind == WindowKind::kSession;
  const size_t required = session ? a.params.size() : a.params.size() - 1;  // OFFSET is optional
  auto arity_error = [&]() {
    return Error(call.pos, "Invalid number of arguments to function '" + a.fname + "'. Was expecting " +
                               (session ? std::to_string(required)
                                        : std::to_string(required) + " or " + std::to_string(a.params.size())) +
                               " arguments");
  };
  // Arguments into parameter slots, by position or by name.
  a.slot.assign(a.params.size(), nullptr);
  bool named_seen = false;
  for (size_t i = 0; i < call.args.size(); ++i) {
    std::string name = call.arg_names.empty() ? "" : UpperName(call.arg_names[i]);
    if (name.empty()) {
      if (named_seen) return Error(call.args[i]->pos, "A positional argument of " + a.fname + " follows a named one");
      if (i >= a.params.size()) return arity_error();
      a.slot[i] = call.args[i].get();
      continue;
    }
    named_seen = true;
    auto p = std::find(a.params.begin(), a.params.end(), name);
    if (p == a.params.end()) {
      std::string names;
      for (const auto& n : a.params) names += (names.empty() ? "" : ", ") + n;
      return Error(call.args[i]->pos, "Unknown parameter '" + call.arg_names[i] + "' of " + a.fname + " (it takes " + names + ")");
    }
    size_t idx = static_cast<size_t>(p - a.params.begin());
    if (a.slot[idx]) return Error(call.args[i]->pos, "Parameter '" + a.params[idx] + "' of " + a.fname + " is given twice");
    a.slot[idx] = call.args[i].get();
  }
  for (size_t i = 0; i < required; ++i) {
    if (!a.slot[i]) return arity_error();
  }
  // DATA => TABLE t
  const ast::Expr& data = *a.slot[0];
  if (data.kind != ast::ExprKind::kTableArg) {
    return Error(data.pos, "The first argument of " + a.fname + " must be a table, written TABLE t");
  }
  if (!data.As<ast::TableArg>().partition_by.empty() && !session) {
    return Error(data.pos, "PARTITION BY is only allowed in the SESSION window table function, not in " + a.fname);
  }
  return a;
}

Result<int> Binder::WindowTimeColumn(const WindowTvfArgs& a, const Schema& input) const {
  // TIMECOL => DESCRIPTOR(col)
  const ast::Expr& timecol = *a.slot[1];
  if (timecol.kind != ast::ExprKind::kDescriptor || timecol.As<ast::Descriptor>().columns.size() != 1) {
    return Error(timecol.pos, "The second argument of " + a.fname + " must name the time attribute, written DESCRIPTOR(col)");
  }
  const std::string& col = timecol.As<ast::Descriptor>().columns[0];
  auto idx = input.IndexOf(col);
  if (!idx) {
    std::string names;
    for (const auto& n : input.names()) names += (names.empty() ? "" : ", ") + n;
    return Error(timecol.pos, "Can't find the time attribute field '" + col + "' in the input schema (" + names + ").");
  }
  const LogicalType& time_type = input.field(*idx).type;
  if (time_type.time_attribute() == TimeAttribute::kNone) {
    return Error(timecol.pos, "The window function requires the timecol is a time attribute type, but is " +
                                  time_type.ToString() + ".");
  }
  return static_cast<int>(*idx);
}

Status Binder::BindWindowDurations(WindowTvfArgs* a) {
  WindowSpec& spec = a->spec;
  const bool session = spec.kind == WindowKind::kSession;
  // Durations: day-time interval literals, positive except the offset.
  auto duration = [&](size_t i, bool allow_non_positive) -> Result<int64_t> {
    const ast::Expr& arg = *a->slot[i];
    Result<ExprPtr> b = BindExpr(arg, Scope{});
    if (!b.ok() || (*b)->kind != ExprKind::kLiteral || (*b)->type.id() != TypeId::kIntervalDayTime || (*b)->literal.is_null()) {
      return Error(arg.pos, "The " + a->params[i] + " argument of " + a->fname +
                                " must be a day-time interval literal, e.g. INTERVAL '10' MINUTE");
    }
    int64_t ms = (*b)->literal.int_value();
    if (!allow_non_positive && ms <= 0) {
      return Error(arg.pos, "The " + a->params[i] + " argument of " + a->fname + " must be a positive interval");
    }
    return ms;
  };
  if (spec.kind == WindowKind::kTumble || session) {
    ASSIGN_OR_RETURN(spec.size_ms, duration(2, false));
  } else {
    ASSIGN_OR_RETURN(spec.step_ms, duration(2, false));
    ASSIGN_OR_RETURN(spec.size_ms, duration(3, false));
  }
  if (!session && a->slot.back()) {
    ASSIGN_OR_RETURN(spec.offset_ms, duration(a->params.size() - 1, true));
  }
  if (spec.kind == WindowKind::kCumulate && spec.size_ms % spec.step_ms != 0) {
    return Error(a->pos, "CUMULATE table function requires maxSize must be an integral multiple of step, but got maxSize " +
                             std::to_string(spec.size_ms) + " ms and step " + std::to_string(spec.step_ms) + " ms");
  }
  return Status::OK();
}

Result<Binder::Relation> Binder::BindWindowTvf(const ast::TableFunctionRef& ref) {
  ASSIGN_OR_RETURN(WindowTvfArgs args, WindowTvfArguments(ref));
  const auto& table_arg = args.slot[0]->As<ast::TableArg>();
  ast::TableName table_ref;
  table_ref.pos = args.slot[0]->pos;
  table_ref.name = table_arg.table;
  ASSIGN_OR_RETURN(Relation input, BindTable(table_ref));
  const Schema& in_schema = input.node->schema;
  ASSIGN_OR_RETURN(int time_column, WindowTimeColumn(args, in_schema));
  RETURN_IF_ERROR(BindWindowDurations(&args));
  for (const char* reserved : {"window_start", "window_end", "window_time"}) {
    if (in_schema.IndexOf(reserved)) {
      return Error(ref.pos, std::string("The input of ") + args.fname + " already has a column named '" + reserved +
                                "', which the window table function adds; rename it first");
    }
  }
  auto node = NewWindowTableFunction(input.node, args.spec, time_column, in_schema.field(static_cast<size_t>(time_column)).type,
                                     config_, {"window_start", "window_end", "window_time"});
  for (const auto& p : table_arg.partition_by) {
    ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*p, input.scope));
    if (k->kind != ExprKind::kColumnRef) return Error(p->pos, "PARTITION BY of SESSION takes columns of the table");
    node->partition_keys.push_back(k->column_index);
  }
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
  const std::string time_name = time->type.time_attribute() == TimeAttribute::kProctime ? "w$proctime" : "w$rowtime";
  auto node = NewWindowTableFunction(input->node, spec, time->column_index, time->type, config_,
                                     {"w$start", "w$end", time_name});
  node->group_window = true;
  const size_t n = node->schema.size();
  const LogicalType& bound = node->schema.field(n - 3).type;
  const LogicalType& wtime = node->schema.field(n - 1).type;
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
