#include "binder/binder.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <set>

#include "common/config.h"
#include "common/time_util.h"
#include "function/aggregate/aggregate_function.h"
#include "function/cast.h"
#include "function/evaluator.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"
#include "plan/interval_join_rule.h"
#include "types/value_format.h"
#include "sql/unparser.h"

namespace sluice {

std::string ExprColumnName(size_t index) { return "EXPR$" + std::to_string(index); }

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string JoinName(const ast::Name& n) {
  std::string s;
  for (const auto& p : n) s += (s.empty() ? "" : ".") + p;
  return s;
}

ExprPtr MakeSpecial(ExprKind kind, LogicalType type, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = std::move(type);
  e->args = std::move(args);
  return e;
}

bool AnyNullable(const std::vector<ExprPtr>& args) {
  for (const auto& a : args) {
    if (a->type.nullable()) return true;
  }
  return false;
}

// Identity projections over a node's output.
std::vector<ExprPtr> IdentityProjections(const Schema& schema) {
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < schema.size(); ++i) out.push_back(MakeColumnRef(static_cast<int>(i), schema.field(i).type));
  return out;
}

// A name for a select item written without an alias: the column or field name it reads, else EXPR$i.
std::string ImplicitName(const ast::Expr& e, size_t index) {
  if (e.kind == ast::ExprKind::kIdentifier) return e.As<ast::Identifier>().parts.back();
  if (e.kind == ast::ExprKind::kFieldAccess) return e.As<ast::FieldAccess>().field;
  return ExprColumnName(index);
}

// Makes output names unique as Flink does (a, a0, a1, ...).
void Uniquify(std::vector<std::string>* names) {
  std::set<std::string> used;
  for (auto& n : *names) {
    if (used.insert(n).second) continue;
    for (int i = 0;; ++i) {
      std::string cand = n + std::to_string(i);
      if (used.insert(cand).second) {
        n = cand;
        break;
      }
    }
  }
}

// Calls `fn` on every direct sub-expression of `e` (not into subqueries).
template <typename Fn>
void ForEachChild(const ast::Expr& e, Fn&& fn) {
  using K = ast::ExprKind;
  auto one = [&](const ast::ExprPtr& p) {
    if (p) fn(*p);
  };
  switch (e.kind) {
    case K::kUnary: one(e.As<ast::Unary>().operand); break;
    case K::kBinary: one(e.As<ast::Binary>().left); one(e.As<ast::Binary>().right); break;
    case K::kIs: one(e.As<ast::IsExpr>().operand); break;
    case K::kIsDistinctFrom: one(e.As<ast::IsDistinctFrom>().left); one(e.As<ast::IsDistinctFrom>().right); break;
    case K::kBetween: one(e.As<ast::Between>().operand); one(e.As<ast::Between>().low); one(e.As<ast::Between>().high); break;
    case K::kIn: one(e.As<ast::In>().operand); for (const auto& x : e.As<ast::In>().list) one(x); break;
    case K::kLike: one(e.As<ast::Like>().operand); one(e.As<ast::Like>().pattern); one(e.As<ast::Like>().escape); break;
    case K::kCall: for (const auto& x : e.As<ast::Call>().args) one(x); one(e.As<ast::Call>().filter); break;
    case K::kCast: one(e.As<ast::Cast>().operand); break;
    case K::kCase:
      one(e.As<ast::Case>().operand);
      for (const auto& [w, t] : e.As<ast::Case>().when_then) { one(w); one(t); }
      one(e.As<ast::Case>().else_expr);
      break;
    case K::kExtract: one(e.As<ast::Extract>().operand); break;
    case K::kFloorCeil: one(e.As<ast::FloorCeil>().operand); break;
    case K::kTrim: one(e.As<ast::Trim>().chars); one(e.As<ast::Trim>().operand); break;
    case K::kArrayCtor: for (const auto& x : e.As<ast::ArrayCtor>().elements) one(x); break;
    case K::kMapCtor: for (const auto& x : e.As<ast::MapCtor>().elements) one(x); break;
    case K::kRowCtor: for (const auto& x : e.As<ast::RowCtor>().fields) one(x); break;
    case K::kSubscript: one(e.As<ast::Subscript>().base); one(e.As<ast::Subscript>().index); break;
    case K::kFieldAccess: one(e.As<ast::FieldAccess>().base); break;
    default: break;
  }
}

bool IsAggregateCall(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kCall) return false;
  const auto& c = e.As<ast::Call>();
  return !c.over && c.over_window.empty() && IsAggregateFunction(c.name.back());
}

void CollectAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out) {
  if (IsAggregateCall(e)) {
    out->push_back(&e.As<ast::Call>());
    return;
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectAggregates(c, out); });
}

bool IsRowNumberOver(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kCall) return false;
  const auto& c = e.As<ast::Call>();
  std::string n = c.name.back();
  for (char& ch : n) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return c.over != nullptr && (n == "ROW_NUMBER" || n == "RANK" || n == "DENSE_RANK");
}

}  // namespace

void CollectOverAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out) {
  if (e.kind == ast::ExprKind::kCall) {
    const auto& c = e.As<ast::Call>();
    if ((c.over != nullptr || !c.over_window.empty()) && !IsRowNumberOver(e)) {
      out->push_back(&c);
      return;
    }
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectOverAggregates(c, out); });
}

namespace {

// Literal rows need a plain constant; this evaluates constant expressions for VALUES.
bool IsPlainLiteral(const Expr& e) { return e.kind == ExprKind::kLiteral; }

}  // namespace

Binder::Binder(const Catalog* catalog, const Configuration* config, EvalContext* eval_context,
               const std::map<std::string, std::string>* function_aliases)
    : catalog_(catalog), function_aliases_(function_aliases), config_(config), eval_context_(eval_context) {}

Status Binder::Error(ast::SourcePos pos, const std::string& message) const {
  if (pos.line > 0) {
    return Status::BindError("SQL validation failed. At line " + std::to_string(pos.line) + ", column " +
                             std::to_string(pos.column) + ": " + message);
  }
  return Status::BindError("SQL validation failed. " + message);
}

Status Binder::NotSupported(ast::SourcePos pos, const std::string& what) const {
  std::string where = pos.line > 0 ? " (line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ")" : "";
  return Status::NotSupported(what + " is not supported by Sluice yet" + where);
}

// ---------------------------------------------------------------------------------------------
// Expressions

Result<ExprPtr> Binder::CastTo(ExprPtr e, const LogicalType& type, ast::SourcePos pos) {
  if (e->type.EqualsIgnoringNullability(type) && e->type.time_attribute() == TimeAttribute::kNone) return e;
  if (e->type.EqualsIgnoringNullability(type)) {
    // Same type but a time attribute: keep the reference (time attributes survive plain references).
    return e;
  }
  if (!CanCast(e->type, type, /*implicit=*/true) && !CanCast(e->type, type, false)) {
    return Error(pos, "Cannot cast " + e->type.ToString() + " to " + type.ToString());
  }
  if (e->kind == ExprKind::kLiteral && e->literal.is_null()) {
    return MakeLiteral(Value::Null(type.WithNullable(true)));
  }
  return MakeCast(e, type.WithNullable(e->type.nullable()), false);
}

Result<ExprPtr> Binder::MakeFunctionCall(const std::string& name, std::vector<ExprPtr> args, ast::SourcePos pos) {
  std::vector<LogicalType> types;
  std::vector<const Value*> constants;
  for (const auto& a : args) {
    types.push_back(a->type);
    constants.push_back(a->kind == ExprKind::kLiteral ? &a->literal : nullptr);
  }
  auto resolved = ResolveScalar(name, types, constants);
  if (!resolved.ok()) return Error(pos, resolved.status().message());
  std::shared_ptr<const ScalarFunction> fn = resolved->function;
  for (size_t i = 0; i < args.size() && i < fn->arg_types.size(); ++i) {
    if (!args[i]->type.EqualsIgnoringNullability(fn->arg_types[i])) {
      if (args[i]->kind == ExprKind::kLiteral && args[i]->literal.is_null()) {
        args[i] = MakeLiteral(Value::Null(fn->arg_types[i].WithNullable(true)));
      } else {
        args[i] = MakeCast(args[i], fn->arg_types[i].WithNullable(args[i]->type.nullable()), false);
      }
    }
  }
  return MakeCall(fn, std::move(args));
}

Result<ExprPtr> Binder::CastAllToCommon(std::vector<ExprPtr>* args, ast::SourcePos pos) {
  std::vector<LogicalType> types;
  for (const auto& a : *args) types.push_back(a->type);
  auto common = CommonType(types);
  if (!common.ok()) return Error(pos, common.status().message());
  for (auto& a : *args) {
    ASSIGN_OR_RETURN(a, CastTo(a, *common, pos));
  }
  return MakeLiteral(Value::Null(*common));  // carries the common type back to the caller
}

Result<ExprPtr> Binder::BindLiteral(const ast::Literal& lit) {
  switch (lit.literal_kind) {
    case ast::LiteralKind::kNull: return MakeLiteral(Value::Null(LogicalType::Null()));
    case ast::LiteralKind::kBoolean: return MakeLiteral(Value::Boolean(lit.bool_value).WithType(LogicalType::Boolean().WithNullable(false)));
    case ast::LiteralKind::kUnknown: return MakeLiteral(Value::Null(LogicalType::Boolean()));
    case ast::LiteralKind::kExactNumeric: {
      const std::string& t = lit.text;
      size_t dot = t.find('.');
      std::string digits;
      for (char c : t) {
        if (c != '.') digits.push_back(c);
      }
      size_t first = digits.find_first_not_of('0');
      std::string sig = first == std::string::npos ? "0" : digits.substr(first);
      if (dot == std::string::npos) {
        if (sig.size() <= 18) {
          int64_t v = std::stoll(sig);
          if (v <= 2147483647LL) return MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), v));
          return MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), v));
        }
        if (sig.size() == 19) {
          unsigned long long u = std::stoull(sig);
          if (u <= 9223372036854775807ULL) {
            return MakeLiteral(Value::Int(LogicalType::BigInt().WithNullable(false), static_cast<int64_t>(u)));
          }
        }
      }
      int scale = dot == std::string::npos ? 0 : static_cast<int>(t.size() - dot - 1);
      int precision = std::max<int>(static_cast<int>(sig.size()), scale);
      if (precision == 0) precision = 1;
      if (precision > LogicalType::kMaxDecimalPrecision) return Error(lit.pos, "Numeric literal '" + t + "' out of range");
      __int128 unscaled = 0;
      for (char c : digits) unscaled = unscaled * 10 + (c - '0');
      return MakeLiteral(Value::Decimal(precision, scale, unscaled).WithType(LogicalType::Decimal(precision, scale).WithNullable(false)));
    }
    case ast::LiteralKind::kApproxNumeric: {
      const double d = std::strtod(lit.text.c_str(), nullptr);
      if (std::isinf(d)) return Error(lit.pos, "Numeric literal '" + lit.text + "' out of range");
      return MakeLiteral(Value::Double(d).WithType(LogicalType::Double().WithNullable(false)));
    }
    case ast::LiteralKind::kString: {
      // Flink types a string literal as CHAR(n) NOT NULL (n >= 1; '' is CHAR(0) there, we use VARCHAR(0)).
      int32_t n = static_cast<int32_t>(lit.text.size());
      LogicalType t = n == 0 ? LogicalType::VarChar(0) : LogicalType::Char(n);
      return MakeLiteral(Value::Typed(t.WithNullable(false), lit.text));
    }
    case ast::LiteralKind::kBinary: {
      std::string bytes;
      for (size_t i = 0; i + 1 < lit.text.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(lit.text.substr(i, 2), nullptr, 16)));
      }
      LogicalType t = LogicalType::Binary(static_cast<int32_t>(bytes.size()));
      return MakeLiteral(Value::Typed(t.WithNullable(false), bytes));
    }
    case ast::LiteralKind::kDate: {
      auto d = ParseDate(lit.text);
      if (!d) return Error(lit.pos, "Illegal DATE literal '" + lit.text + "': not in format 'yyyy-MM-dd' (years 0000 to 9999)");
      return MakeLiteral(Value::Int(LogicalType::Date().WithNullable(false), *d));
    }
    case ast::LiteralKind::kTime: {
      auto t = ParseTime(lit.text);
      if (!t) return Error(lit.pos, "Illegal TIME literal '" + lit.text + "': not in format 'HH:mm:ss'");
      return MakeLiteral(Value::Int(LogicalType::Time(0).WithNullable(false), *t));
    }
    case ast::LiteralKind::kTimestamp:
    case ast::LiteralKind::kTimestampLtz: {
      auto ts = ParseTimestamp(lit.text, false);
      if (!ts) return Error(lit.pos, "Illegal TIMESTAMP literal '" + lit.text + "': not in format 'yyyy-MM-dd HH:mm:ss' (years 0000 to 9999)");
      size_t dot = lit.text.find('.');
      int precision = dot == std::string::npos ? 0 : static_cast<int>(lit.text.size() - dot - 1);
      precision = std::min(precision, 9);
      if (lit.literal_kind == ast::LiteralKind::kTimestamp) {
        return MakeLiteral(Value::Int(LogicalType::Timestamp(precision).WithNullable(false), *ts));
      }
      int64_t utc = eval_context_ ? eval_context_->LocalToUtc(*ts) : *ts;
      return MakeLiteral(Value::Int(LogicalType::TimestampLtz(precision).WithNullable(false), utc));
    }
  }
  return Error(lit.pos, "unknown literal");
}

Result<ExprPtr> Binder::BindInterval(const ast::IntervalLiteral& lit) {
  using U = ast::TimeUnit;
  std::string text = lit.text;
  bool negative = lit.negative;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    if (text[0] == '-') negative = !negative;
    text = text.substr(1);
  }
  auto bad = [&]() { return Error(lit.pos, "Illegal interval literal '" + lit.text + "'"); };
  auto too_large = [&]() { return Error(lit.pos, "Interval literal '" + lit.text + "' out of range"); };
  // Adds the decimal digits `digits` times `mult` to *total; false when they are not digits or the
  // sum does not fit in 64 bits (*overflow says which).
  bool overflow = false;
  auto add = [&](std::string_view digits, int64_t mult, int64_t* total) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || digits[0] == '-' || end != digits.data() + digits.size()) return false;
    overflow = ec == std::errc::result_out_of_range || __builtin_mul_overflow(n, mult, &n) ||
               __builtin_add_overflow(*total, n, total);
    return ec == std::errc() && !overflow;
  };
  U start = lit.start_unit;
  U end = lit.end_unit.value_or(start);
  if (start == U::kYear || start == U::kMonth) {
    int64_t months = 0;
    if (start == U::kYear && end == U::kMonth) {
      size_t dash = text.find('-');
      if (dash == std::string::npos) return bad();
      if (!add(std::string_view(text).substr(0, dash), 12, &months) ||
          !add(std::string_view(text).substr(dash + 1), 1, &months)) {
        return overflow ? too_large() : bad();
      }
    } else {
      if (!add(text, start == U::kYear ? 12 : 1, &months)) return overflow ? too_large() : bad();
    }
    if (negative) months = -months;
    return MakeLiteral(Value::Int(LogicalType::IntervalYearMonth().WithNullable(false), months));
  }
  // Day-time: parse "d hh:mm:ss.fff" shapes by the units given.
  static const int64_t kMs[] = {0, 0, 0, 0, 86400000, 3600000, 60000, 1000};
  auto unit_ms = [&](U u) -> int64_t {
    switch (u) {
      case U::kDay: return kMs[4];
      case U::kHour: return kMs[5];
      case U::kMinute: return kMs[6];
      case U::kSecond: return kMs[7];
      default: return -1;
    }
  };
  if (unit_ms(start) < 0 || unit_ms(end) < 0) return bad();
  std::vector<U> units;
  for (U u : {U::kDay, U::kHour, U::kMinute, U::kSecond}) {
    if (unit_ms(u) <= unit_ms(start) && unit_ms(u) >= unit_ms(end)) units.push_back(u);
  }
  // Split text into numeric fields by ' ' and ':'; the last may carry a fraction.
  std::vector<std::string> fields;
  std::string cur;
  for (char c : text) {
    if (c == ' ' || c == ':') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  fields.push_back(cur);
  if (fields.size() != units.size()) return bad();
  int64_t ms = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (f.empty()) return bad();
    size_t dot = f.find('.');
    if (dot != std::string::npos && units[i] != U::kSecond) return bad();
    std::string whole = f.substr(0, dot);
    if (!add(whole.empty() ? "0" : whole, unit_ms(units[i]), &ms)) return overflow ? too_large() : bad();
    if (dot != std::string::npos) {
      std::string frac = f.substr(dot + 1, 3);
      while (frac.size() < 3) frac.push_back('0');
      if (!add(frac, 1, &ms)) return overflow ? too_large() : bad();
    }
  }
  if (negative) ms = -ms;
  return MakeLiteral(Value::Int(LogicalType::IntervalDayTime().WithNullable(false), ms));
}

Result<ExprPtr> Binder::BindIdentifier(const ast::Identifier& id, const Scope& scope) {
  const auto& parts = id.parts;
  // Try qualifier.column first (when there are 2+ parts), then an unqualified column.
  int found = -1;
  size_t consumed = 0;
  if (parts.size() >= 2) {
    for (size_t i = 0; i < scope.columns.size(); ++i) {
      if (scope.columns[i].qualifier == parts[0] && scope.columns[i].name == parts[1]) {
        found = static_cast<int>(i);
        consumed = 2;
        break;
      }
    }
  }
  if (found < 0) {
    int matches = 0;
    for (size_t i = 0; i < scope.columns.size(); ++i) {
      if (scope.columns[i].name == parts[0]) {
        if (matches == 0) found = static_cast<int>(i);
        ++matches;
      }
    }
    if (matches > 1) return Error(id.pos, "Column '" + parts[0] + "' is ambiguous");
    consumed = 1;
  }
  if (found < 0) {
    std::vector<std::string> names;
    for (const auto& c : scope.columns) names.push_back(c.name);
    std::string msg;
    if (parts.size() >= 2) {
      bool qualifier_known = false;
      for (const auto& c : scope.columns) qualifier_known |= c.qualifier == parts[0];
      if (qualifier_known) {
        msg = "Column '" + parts[1] + "' not found in table '" + parts[0] + "'";
        if (auto d = DidYouMean(parts[1], names)) msg += ". Did you mean '" + *d + "'?";
        return Error(id.pos, msg);
      }
    }
    msg = "Column '" + parts[0] + "' not found in any table";
    if (auto d = DidYouMean(parts[0], names)) msg += ". Did you mean '" + *d + "'?";
    return Error(id.pos, msg);
  }
  ExprPtr e = MakeColumnRef(found, scope.columns[static_cast<size_t>(found)].type);
  for (size_t i = consumed; i < parts.size(); ++i) {
    const LogicalType& t = e->type;
    if (t.id() != TypeId::kRow) {
      return Error(id.pos, "'" + parts[i - 1] + "' is of type " + t.ToString() + " and has no field '" + parts[i] + "'");
    }
    int idx = -1;
    for (size_t f = 0; f < t.num_children(); ++f) {
      if (t.field_name(f) == parts[i]) idx = static_cast<int>(f);
    }
    if (idx < 0) {
      std::string msg = "Unknown field '" + parts[i] + "' in " + t.ToString();
      if (auto d = DidYouMean(parts[i], t.field_names())) msg += ". Did you mean '" + *d + "'?";
      return Error(id.pos, msg);
    }
    ASSIGN_OR_RETURN(e, MakeFunctionCall("$FIELD", {e, MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), idx))}, id.pos));
  }
  return e;
}

Result<ExprPtr> Binder::BindCase(const ast::Case& c, const Scope& scope) {
  std::vector<ExprPtr> conds, results;
  ExprPtr operand;
  if (c.operand) {
    ASSIGN_OR_RETURN(operand, BindExpr(*c.operand, scope));
  }
  for (const auto& [w, t] : c.when_then) {
    ASSIGN_OR_RETURN(ExprPtr wb, BindExpr(*w, scope));
    if (operand) {
      ASSIGN_OR_RETURN(wb, MakeFunctionCall("=", {operand, wb}, w->pos));
    } else if (wb->type.id() != TypeId::kBoolean && wb->type.id() != TypeId::kNull) {
      return Error(w->pos, "WHEN condition must be BOOLEAN, but is " + wb->type.ToString());
    }
    conds.push_back(wb);
    ASSIGN_OR_RETURN(ExprPtr tb, BindExpr(*t, scope));
    results.push_back(tb);
  }
  bool has_else = c.else_expr != nullptr;
  if (has_else) {
    ASSIGN_OR_RETURN(ExprPtr eb, BindExpr(*c.else_expr, scope));
    results.push_back(eb);
  }
  ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&results, c.pos));
  LogicalType type = common->type.WithNullable(!has_else || AnyNullable(results));
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < conds.size(); ++i) {
    args.push_back(conds[i]);
    args.push_back(results[i]);
  }
  if (has_else) args.push_back(results.back());
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCase;
  e->type = type;
  e->args = std::move(args);
  e->has_else = has_else;
  return ExprPtr(e);
}

Result<ExprPtr> Binder::BindCall(const ast::Call& call, const Scope& scope) {
  std::string name = Upper(call.name.back());
  if (function_aliases_) {
    auto alias = function_aliases_->find(name);
    if (alias != function_aliases_->end()) name = alias->second;
  }
  if (call.over && name == "ROW_NUMBER") {
    return Error(call.pos, "ROW_NUMBER() OVER (...) must be a SELECT item of a subquery whose outer query filters it (Top-N: WHERE rn <= N)");
  }
  if (call.over || !call.over_window.empty()) {
    return Error(call.pos, "OVER aggregation (" + name + " ... OVER) is allowed only in the SELECT list of a query without GROUP BY");
  }
  if (IsAggregateFunction(name) || call.star || call.distinct || call.filter) {
    return Error(call.pos, "Aggregate function " + name + " is not allowed here (only in a SELECT list or HAVING of a query)");
  }
  std::vector<ExprPtr> args;
  for (const auto& a : call.args) {
    if (a->kind == ast::ExprKind::kTimeUnit) {
      args.push_back(MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(a->As<ast::TimeUnitExpr>().unit))));
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, scope));
    args.push_back(b);
  }
  if (name == "COALESCE") {
    if (args.empty()) return Error(call.pos, "COALESCE needs at least one argument");
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, call.pos));
    bool nullable = true;
    for (const auto& a : args) nullable &= a->type.nullable();
    return MakeSpecial(ExprKind::kCoalesce, common->type.WithNullable(nullable), std::move(args));
  }
  if (name == "IF") {
    if (args.size() != 3) return Error(call.pos, "IF takes 3 arguments: IF(condition, then, else)");
    std::vector<ExprPtr> results = {args[1], args[2]};
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&results, call.pos));
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kCase;
    e->type = common->type.WithNullable(AnyNullable(results));
    e->args = {args[0], results[0], results[1]};
    e->has_else = true;
    return ExprPtr(e);
  }
  if (name == "NULLIF") {
    if (args.size() != 2) return Error(call.pos, "NULLIF takes 2 arguments");
    ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {args[0], args[1]}, call.pos));
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kCase;
    e->type = args[0]->type.WithNullable(true);
    e->args = {eq, MakeLiteral(Value::Null(args[0]->type.WithNullable(true))), args[0]};
    e->has_else = true;
    return ExprPtr(e);
  }
  return MakeFunctionCall(name, std::move(args), call.pos);
}

Result<ExprPtr> Binder::BindExpr(const ast::Expr& expr, const Scope& scope) {
  ASSIGN_OR_RETURN(ExprPtr e, BindExprNode(expr, scope));
  // A call or cast that can fail at runtime keeps its SQL text, which its errors name.
  const bool can_fail = (e->kind == ExprKind::kCall && e->function && e->function->can_fail) ||
                        (e->kind == ExprKind::kCast && !e->is_try);
  if (!can_fail || !e->sql_text.empty()) return e;
  auto named = std::make_shared<Expr>(*e);
  named->sql_text = sql::Unparse(expr);
  return ExprPtr(std::move(named));
}

Result<ExprPtr> Binder::BindExprNode(const ast::Expr& expr, const Scope& scope) {
  auto rep = replacements_.find(&expr);
  if (rep != replacements_.end()) return rep->second;
  if (agg_) {
    ASSIGN_OR_RETURN(ExprPtr resolved, ResolveInAggregate(expr));
    if (resolved) return resolved;
  }
  switch (expr.kind) {
    case ast::ExprKind::kLiteral: return BindLiteral(expr.As<ast::Literal>());
    case ast::ExprKind::kIntervalLiteral: return BindInterval(expr.As<ast::IntervalLiteral>());
    case ast::ExprKind::kIdentifier: return BindIdentifier(expr.As<ast::Identifier>(), scope);
    case ast::ExprKind::kStar: return Error(expr.pos, "'*' is only allowed in a SELECT list or COUNT(*)");
    case ast::ExprKind::kUnary: {
      const auto& u = expr.As<ast::Unary>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*u.operand, scope));
      if (u.op == ast::UnaryOp::kPlus) return operand;
      if (u.op == ast::UnaryOp::kNot) return MakeFunctionCall("NOT", {operand}, expr.pos);
      // Fold a negated numeric literal so -2147483648 stays an INT.
      if (operand->kind == ExprKind::kLiteral && !operand->literal.is_null()) {
        const Value& v = operand->literal;
        const LogicalType& t = v.type();
        if (t.id() == TypeId::kBigInt && v.int_value() == 2147483648LL) {
          return MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), -2147483648LL));
        }
        if (t.IsIntegral() || t.IsInterval()) return MakeLiteral(Value::Int(t, -v.int_value()));
        if (t.id() == TypeId::kDecimal) return MakeLiteral(Value::Decimal(t.precision(), t.scale(), -v.decimal_value()).WithType(t));
        if (t.IsApproximate()) return MakeLiteral(Value::Double(-v.double_value()).WithType(t));
      }
      return MakeFunctionCall("NEGATE", {operand}, expr.pos);
    }
    case ast::ExprKind::kBinary: {
      const auto& b = expr.As<ast::Binary>();
      ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*b.left, scope));
      ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*b.right, scope));
      if (b.op == ast::BinaryOp::kAnd || b.op == ast::BinaryOp::kOr) {
        ExprKind k = b.op == ast::BinaryOp::kAnd ? ExprKind::kAnd : ExprKind::kOr;
        std::vector<ExprPtr> args;
        for (const ExprPtr& side : {l, r}) {
          if (side->type.id() != TypeId::kBoolean && side->type.id() != TypeId::kNull) {
            return Error(expr.pos, std::string(ast::BinaryOpName(b.op)) + " needs BOOLEAN operands, got " + side->type.ToString());
          }
          ExprPtr s = side;
          if (s->type.id() == TypeId::kNull) s = MakeLiteral(Value::Null(LogicalType::Boolean()));
          if (s->kind == k) {
            for (const auto& a : s->args) args.push_back(a);
          } else {
            args.push_back(s);
          }
        }
        return MakeSpecial(k, LogicalType::Boolean().WithNullable(AnyNullable(args)), std::move(args));
      }
      return MakeFunctionCall(ast::BinaryOpName(b.op), {l, r}, expr.pos);
    }
    case ast::ExprKind::kIs: {
      const auto& is = expr.As<ast::IsExpr>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*is.operand, scope));
      std::string fn;
      switch (is.is_kind) {
        case ast::IsKind::kNull:
        case ast::IsKind::kUnknown: fn = is.negated ? "IS NOT NULL" : "IS NULL"; break;
        case ast::IsKind::kTrue: fn = is.negated ? "IS NOT TRUE" : "IS TRUE"; break;
        case ast::IsKind::kFalse: fn = is.negated ? "IS NOT FALSE" : "IS FALSE"; break;
      }
      return MakeFunctionCall(fn, {operand}, expr.pos);
    }
    case ast::ExprKind::kIsDistinctFrom: {
      const auto& d = expr.As<ast::IsDistinctFrom>();
      ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*d.left, scope));
      ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*d.right, scope));
      return MakeFunctionCall(d.negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", {l, r}, expr.pos);
    }
    case ast::ExprKind::kBetween: {
      const auto& b = expr.As<ast::Between>();
      ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*b.operand, scope));
      ASSIGN_OR_RETURN(ExprPtr lo, BindExpr(*b.low, scope));
      ASSIGN_OR_RETURN(ExprPtr hi, BindExpr(*b.high, scope));
      ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall("BETWEEN", {x, lo, hi}, expr.pos));
      if (b.symmetric) {
        ASSIGN_OR_RETURN(ExprPtr e2, MakeFunctionCall("BETWEEN", {x, hi, lo}, expr.pos));
        e = MakeSpecial(ExprKind::kOr, e->type.WithNullable(e->type.nullable() || e2->type.nullable()), {e, e2});
      }
      if (b.negated) return MakeFunctionCall("NOT", {e}, expr.pos);
      return e;
    }
    case ast::ExprKind::kIn: {
      const auto& in = expr.As<ast::In>();
      if (in.subquery) return NotSupported(expr.pos, "IN (subquery)");
      ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*in.operand, scope));
      std::vector<ExprPtr> args = {x};
      for (const auto& v : in.list) {
        ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*v, scope));
        args.push_back(b);
      }
      ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, expr.pos));
      (void)common;
      ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall("IN", std::move(args), expr.pos));
      if (in.negated) return MakeFunctionCall("NOT", {e}, expr.pos);
      return e;
    }
    case ast::ExprKind::kLike: {
      const auto& l = expr.As<ast::Like>();
      ASSIGN_OR_RETURN(ExprPtr s, BindExpr(*l.operand, scope));
      ASSIGN_OR_RETURN(ExprPtr p, BindExpr(*l.pattern, scope));
      std::vector<ExprPtr> args = {s, p};
      if (l.escape) {
        ASSIGN_OR_RETURN(ExprPtr esc, BindExpr(*l.escape, scope));
        args.push_back(esc);
      }
      ASSIGN_OR_RETURN(ExprPtr e, MakeFunctionCall(l.similar ? "SIMILAR TO" : "LIKE", std::move(args), expr.pos));
      if (l.negated) return MakeFunctionCall("NOT", {e}, expr.pos);
      return e;
    }
    case ast::ExprKind::kCall: return BindCall(expr.As<ast::Call>(), scope);
    case ast::ExprKind::kCast: {
      const auto& c = expr.As<ast::Cast>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*c.operand, scope));
      if (!CanCast(operand->type, c.type, false)) {
        return Error(expr.pos, "Cast function cannot convert value of type " + operand->type.ToString() + " to type " +
                                   c.type.ToString());
      }
      LogicalType target = c.type;
      if (c.try_cast) target = target.WithNullable(true);
      else if (operand->type.nullable()) target = target.WithNullable(true);
      if (operand->kind == ExprKind::kLiteral && operand->literal.is_null()) return MakeLiteral(Value::Null(target.WithNullable(true)));
      return MakeCast(operand, target, c.try_cast);
    }
    case ast::ExprKind::kCase: return BindCase(expr.As<ast::Case>(), scope);
    case ast::ExprKind::kExtract: {
      const auto& e = expr.As<ast::Extract>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*e.operand, scope));
      ExprPtr unit = MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(e.unit)));
      return MakeFunctionCall("EXTRACT", {unit, operand}, expr.pos);
    }
    case ast::ExprKind::kFloorCeil: {
      const auto& f = expr.As<ast::FloorCeil>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*f.operand, scope));
      ExprPtr unit = MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(f.unit)));
      return MakeFunctionCall(f.ceil ? "CEIL_TO" : "FLOOR_TO", {operand, unit}, expr.pos);
    }
    case ast::ExprKind::kTrim: {
      const auto& t = expr.As<ast::Trim>();
      ASSIGN_OR_RETURN(ExprPtr operand, BindExpr(*t.operand, scope));
      ExprPtr chars;
      if (t.chars) {
        ASSIGN_OR_RETURN(chars, BindExpr(*t.chars, scope));
      } else {
        chars = MakeLiteral(Value::Typed(LogicalType::Char(1).WithNullable(false), " "));
      }
      const char* mode = t.mode == ast::Trim::Mode::kBoth ? "BOTH" : (t.mode == ast::Trim::Mode::kLeading ? "LEADING" : "TRAILING");
      ExprPtr m = MakeLiteral(Value::Typed(LogicalType::VarChar(8).WithNullable(false), mode));
      return MakeFunctionCall("TRIM", {m, chars, operand}, expr.pos);
    }
    case ast::ExprKind::kTimeUnit:
      return MakeLiteral(Value::Typed(LogicalType::VarChar(16).WithNullable(false), ast::TimeUnitName(expr.As<ast::TimeUnitExpr>().unit)));
    case ast::ExprKind::kArrayCtor:
    case ast::ExprKind::kMapCtor:
    case ast::ExprKind::kRowCtor: {
      const std::vector<ast::ExprPtr>* elems;
      const char* fn;
      if (expr.kind == ast::ExprKind::kArrayCtor) {
        elems = &expr.As<ast::ArrayCtor>().elements;
        fn = "ARRAY";
      } else if (expr.kind == ast::ExprKind::kMapCtor) {
        elems = &expr.As<ast::MapCtor>().elements;
        fn = "MAP";
      } else {
        elems = &expr.As<ast::RowCtor>().fields;
        fn = "ROW";
      }
      std::vector<ExprPtr> args;
      for (const auto& a : *elems) {
        ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, scope));
        args.push_back(b);
      }
      if (expr.kind == ast::ExprKind::kArrayCtor && !args.empty()) {
        ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&args, expr.pos));
        (void)common;
      }
      if (expr.kind == ast::ExprKind::kMapCtor && !args.empty()) {
        std::vector<ExprPtr> keys, vals;
        for (size_t i = 0; i < args.size(); ++i) (i % 2 ? vals : keys).push_back(args[i]);
        ASSIGN_OR_RETURN(ExprPtr ck, CastAllToCommon(&keys, expr.pos));
        ASSIGN_OR_RETURN(ExprPtr cv, CastAllToCommon(&vals, expr.pos));
        (void)ck;
        (void)cv;
        for (size_t i = 0; i < args.size(); ++i) args[i] = i % 2 ? vals[i / 2] : keys[i / 2];
      }
      return MakeFunctionCall(fn, std::move(args), expr.pos);
    }
    case ast::ExprKind::kSubscript: {
      const auto& s = expr.As<ast::Subscript>();
      ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*s.base, scope));
      ASSIGN_OR_RETURN(ExprPtr index, BindExpr(*s.index, scope));
      return MakeFunctionCall("ITEM", {base, index}, expr.pos);
    }
    case ast::ExprKind::kFieldAccess: {
      const auto& f = expr.As<ast::FieldAccess>();
      ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*f.base, scope));
      if (base->type.id() != TypeId::kRow) return Error(expr.pos, "Cannot access field '" + f.field + "' of " + base->type.ToString());
      for (size_t i = 0; i < base->type.num_children(); ++i) {
        if (base->type.field_name(i) == f.field) {
          return MakeFunctionCall("$FIELD", {base, MakeLiteral(Value::Int(LogicalType::Integer().WithNullable(false), static_cast<int64_t>(i)))}, expr.pos);
        }
      }
      return Error(expr.pos, "Unknown field '" + f.field + "' in " + base->type.ToString());
    }
    case ast::ExprKind::kSubquery: return NotSupported(expr.pos, "A scalar subquery");
    case ast::ExprKind::kExists: return NotSupported(expr.pos, "EXISTS (subquery)");
    case ast::ExprKind::kDescriptor: return Error(expr.pos, "DESCRIPTOR is only allowed in a window table function");
    case ast::ExprKind::kTableArg: return Error(expr.pos, "TABLE arguments are only allowed in a table function");
  }
  return Error(expr.pos, "unsupported expression");
}

// ---------------------------------------------------------------------------------------------
// Relations

Result<Binder::Relation> Binder::ScanTable(std::shared_ptr<const CatalogTable> table, const ast::TableName* ref) {
  auto scan = std::make_shared<TableSourceScanNode>();
  scan->table = table;
  Schema phys = table->physical_schema();
  for (size_t i = 0; i < phys.size(); ++i) {
    scan->projection.push_back(static_cast<int>(i));
    scan->schema.Add(phys.field(i).name, phys.field(i).type);
  }
  for (size_t i = 0; i < table->columns.size(); ++i) {
    const auto& c = table->columns[i];
    if (c.kind == ast::ColumnKind::kMetadata) {
      scan->metadata.push_back(static_cast<int>(i));
      scan->schema.Add(c.name, c.type);
    }
  }
  if (ref) {
    for (const auto& h : ref->hints) {
      if (Upper(h.name) != "OPTIONS") return Error(h.pos, "Unknown table hint '" + h.name + "' (Sluice knows OPTIONS)");
      for (const auto& kv : h.kv_options) scan->hint_options.push_back(kv);
    }
  }
  PlanNodePtr node = scan;
  // Declared order, with computed columns evaluated over physical + metadata columns.
  bool identity = true;
  for (size_t i = 0; i < table->columns.size(); ++i) {
    if (table->columns[i].kind != ast::ColumnKind::kPhysical) identity = false;
  }
  if (!identity) {
    Scope base;
    for (const auto& f : scan->schema.fields()) base.columns.push_back({"", f.name, f.type});
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {node};
    size_t phys_i = 0, meta_i = phys.size();
    for (const auto& c : table->columns) {
      ExprPtr e;
      if (c.kind == ast::ColumnKind::kPhysical) {
        e = MakeColumnRef(static_cast<int>(phys_i), scan->schema.field(phys_i).type);
        ++phys_i;
      } else if (c.kind == ast::ColumnKind::kMetadata) {
        e = MakeColumnRef(static_cast<int>(meta_i), scan->schema.field(meta_i).type);
        ++meta_i;
      } else {
        ASSIGN_OR_RETURN(e, BindExpr(*c.expr, base));
      }
      calc->projections.push_back(e);
      calc->schema.Add(c.name, e->type);
    }
    node = calc;
  }
  if (table->rowtime_column) {
    auto wm = std::make_shared<WatermarkAssignerNode>();
    wm->inputs = {node};
    wm->rowtime_index = static_cast<int>(*table->rowtime_column);
    Scope s;
    for (const auto& f : node->schema.fields()) s.columns.push_back({"", f.name, f.type});
    ASSIGN_OR_RETURN(wm->watermark, BindExpr(*table->watermark_expr, s));
    wm->schema = table->schema();
    node = wm;
  } else {
    // Computed columns keep their declared types (PROCTIME() keeps *PROCTIME*).
    node->schema = table->schema();
  }
  Relation rel;
  rel.node = node;
  std::string qualifier = ref && !ref->alias.empty() ? ref->alias : table->path.name;
  for (const auto& f : node->schema.fields()) rel.scope.columns.push_back({qualifier, f.name, f.type});
  return rel;
}

Result<Binder::Relation> Binder::BindTable(const ast::TableName& ref) {
  if (ref.for_system_time && !temporal_right_) {
    return Error(ref.pos, "FOR SYSTEM_TIME AS OF is only allowed on the right side of a JOIN (a temporal join)");
  }
  // A CTE by that name?
  if (ref.name.size() == 1) {
    for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
      auto f = it->find(ref.name[0]);
      if (f == it->end()) continue;
      const ast::Cte* cte = f->second;
      ASSIGN_OR_RETURN(Relation rel, BindQueryBody(*cte->query));
      if (!cte->columns.empty()) {
        if (cte->columns.size() != rel.node->schema.size()) {
          return Error(cte->pos, "WITH list of '" + cte->name + "' has " + std::to_string(cte->columns.size()) +
                                     " columns but the query has " + std::to_string(rel.node->schema.size()));
        }
        Schema s;
        for (size_t i = 0; i < cte->columns.size(); ++i) s.Add(cte->columns[i], rel.node->schema.field(i).type);
        rel.node->schema = s;
      }
      std::string q = ref.alias.empty() ? cte->name : ref.alias;
      rel.scope.columns.clear();
      for (const auto& fld : rel.node->schema.fields()) rel.scope.columns.push_back({q, fld.name, fld.type});
      return rel;
    }
  }
  auto path = catalog_->Resolve(ref.name);
  if (!path.ok()) return Error(ref.pos, path.status().message());
  auto entry = catalog_->Lookup(*path);
  if (!entry.ok()) return Error(ref.pos, entry.status().message());
  if (entry->table) return ScanTable(entry->table, &ref);
  // A view: bind its query in place.
  const auto& view = entry->view;
  if (++view_depth_ > 32) return Error(ref.pos, "View '" + view->path.name + "' refers to itself");
  auto saved = std::move(ctes_);
  ctes_.clear();
  Result<Relation> rel = BindQueryBody(*view->ddl->query);
  ctes_ = std::move(saved);
  --view_depth_;
  if (!rel.ok()) return rel.status().WithContext("In view '" + view->path.name + "'");
  Relation out = std::move(rel).value();
  // Rename to the view's declared column names.
  if (!view->ddl->columns.empty()) {
    Schema s;
    for (size_t i = 0; i < out.node->schema.size(); ++i) s.Add(view->schema.field(i).name, out.node->schema.field(i).type);
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {out.node};
    calc->projections = IdentityProjections(out.node->schema);
    calc->schema = s;
    out.node = calc;
  }
  std::string q = ref.alias.empty() ? view->path.name : ref.alias;
  out.scope.columns.clear();
  for (const auto& f : out.node->schema.fields()) out.scope.columns.push_back({q, f.name, f.type});
  return out;
}

Result<Binder::Relation> Binder::BindUnnest(Relation left, const ast::Unnest& unnest, bool left_outer) {
  if (unnest.args.size() != 1) return NotSupported(unnest.pos, "UNNEST of several collections");
  ASSIGN_OR_RETURN(ExprPtr coll, BindExpr(*unnest.args[0], left.scope));
  const LogicalType& t = coll->type;
  if (!t.IsList()) return Error(unnest.pos, "UNNEST needs an ARRAY, MAP or MULTISET, got " + t.ToString());
  auto node = std::make_shared<CorrelateNode>();
  node->inputs = {left.node};
  node->collection = coll;
  node->left_outer = left_outer;
  node->with_ordinality = unnest.with_ordinality;
  node->schema = left.node->schema;
  std::vector<std::pair<std::string, LogicalType>> elem_cols;
  if (t.id() == TypeId::kMap) {
    elem_cols.push_back({"KEY", t.child(0)});
    elem_cols.push_back({"VALUE", t.child(1)});
  } else if (t.child(0).id() == TypeId::kRow) {
    for (size_t i = 0; i < t.child(0).num_children(); ++i) elem_cols.push_back({t.child(0).field_name(i), t.child(0).child(i)});
  } else {
    elem_cols.push_back({"EXPR$0", t.child(0)});
  }
  if (unnest.with_ordinality) elem_cols.push_back({"ORDINALITY", LogicalType::Integer().WithNullable(false)});
  if (!unnest.column_aliases.empty()) {
    if (unnest.column_aliases.size() != elem_cols.size()) {
      return Error(unnest.pos, "UNNEST yields " + std::to_string(elem_cols.size()) + " columns but " +
                                   std::to_string(unnest.column_aliases.size()) + " aliases were given");
    }
    for (size_t i = 0; i < elem_cols.size(); ++i) elem_cols[i].first = unnest.column_aliases[i];
  }
  std::string q = unnest.alias;
  Relation out;
  out.scope = left.scope;
  for (auto& [n, ty] : elem_cols) {
    LogicalType et = left_outer ? ty.WithNullable(true) : ty;
    node->schema.Add(n, et);
    out.scope.columns.push_back({q, n, et});
  }
  std::vector<std::string> names = node->schema.names();
  Uniquify(&names);
  Schema s;
  for (size_t i = 0; i < names.size(); ++i) s.Add(names[i], node->schema.field(i).type);
  node->schema = s;
  out.node = node;
  return out;
}

Result<Binder::Relation> Binder::BindJoin(const ast::Join& join) {
  const ast::TableRef& right = *join.right;
  if (right.kind == ast::TableRefKind::kUnnest) {
    bool left_outer = false;
    if (join.join_type == ast::JoinType::kLeft) {
      bool on_true = join.on && join.on->kind == ast::ExprKind::kLiteral &&
                     join.on->As<ast::Literal>().literal_kind == ast::LiteralKind::kBoolean &&
                     join.on->As<ast::Literal>().bool_value;
      if (!on_true) return NotSupported(join.pos, "LEFT JOIN UNNEST with a condition other than ON TRUE");
      left_outer = true;
    } else if (join.join_type == ast::JoinType::kInner) {
      bool on_true = join.on && join.on->kind == ast::ExprKind::kLiteral &&
                     join.on->As<ast::Literal>().literal_kind == ast::LiteralKind::kBoolean &&
                     join.on->As<ast::Literal>().bool_value;
      if (!on_true) return NotSupported(join.pos, "JOIN UNNEST with a condition other than ON TRUE");
    } else if (join.join_type != ast::JoinType::kCross && join.join_type != ast::JoinType::kComma) {
      return NotSupported(join.pos, "This join type with UNNEST");
    }
    ASSIGN_OR_RETURN(Relation left, BindTableRef(*join.left));
    return BindUnnest(std::move(left), right.As<ast::Unnest>(), left_outer);
  }
  if (right.kind == ast::TableRefKind::kTableFunction) return NotSupported(right.pos, "LATERAL TABLE function joins");
  if (join.natural) return NotSupported(join.pos, "NATURAL JOIN");
  const ast::Expr* as_of = right.kind == ast::TableRefKind::kTable ? right.As<ast::TableName>().for_system_time.get() : nullptr;
  ASSIGN_OR_RETURN(Relation left, BindTableRef(*join.left));
  temporal_right_ = as_of != nullptr;
  auto bound_right = BindTableRef(right);
  temporal_right_ = false;
  ASSIGN_OR_RETURN(Relation rightrel, std::move(bound_right));
  JoinType type = JoinType::kInner;
  switch (join.join_type) {
    case ast::JoinType::kLeft: type = JoinType::kLeft; break;
    case ast::JoinType::kRight: type = JoinType::kRight; break;
    case ast::JoinType::kFull: type = JoinType::kFull; break;
    default: type = JoinType::kInner; break;
  }
  const size_t nl = left.node->schema.size();
  bool left_nullable = type == JoinType::kRight || type == JoinType::kFull;
  bool right_nullable = type == JoinType::kLeft || type == JoinType::kFull;
  // Regular joins materialize time attributes (they are plain timestamps afterwards, as in Flink); a
  // temporal join keeps the left side's, whose watermark it forwards.
  Scope combined;
  for (const auto& c : left.scope.columns) {
    LogicalType t = as_of ? c.type : c.type.WithTimeAttribute(TimeAttribute::kNone);
    combined.columns.push_back({c.qualifier, c.name, left_nullable ? t.WithNullable(true) : t});
  }
  for (const auto& c : rightrel.scope.columns) {
    LogicalType t = c.type.WithTimeAttribute(TimeAttribute::kNone);
    combined.columns.push_back({c.qualifier, c.name, right_nullable ? t.WithNullable(true) : t});
  }
  auto node = std::make_shared<JoinNode>();
  node->join_type = type;
  for (const auto& c : left.scope.columns) {
    if (!c.qualifier.empty() && std::find(node->left_names.begin(), node->left_names.end(), c.qualifier) == node->left_names.end()) {
      node->left_names.push_back(c.qualifier);
    }
  }
  for (const auto& c : rightrel.scope.columns) {
    if (!c.qualifier.empty() && std::find(node->right_names.begin(), node->right_names.end(), c.qualifier) == node->right_names.end()) {
      node->right_names.push_back(c.qualifier);
    }
  }
  ExprPtr cond;
  if (join.on) {
    ASSIGN_OR_RETURN(cond, BindExpr(*join.on, combined));
    if (cond->type.id() != TypeId::kBoolean) return Error(join.on->pos, "JOIN condition must be a BOOLEAN expression");
  } else if (!join.using_columns.empty()) {
    std::vector<ExprPtr> eqs;
    for (const auto& u : join.using_columns) {
      auto li = left.node->schema.IndexOf(u);
      auto ri = rightrel.node->schema.IndexOf(u);
      if (!li || !ri) return Error(join.pos, "Column '" + u + "' in USING clause not found on both sides of the join");
      ASSIGN_OR_RETURN(ExprPtr eq, MakeFunctionCall("=", {MakeColumnRef(static_cast<int>(*li), combined.columns[*li].type),
                                                             MakeColumnRef(static_cast<int>(nl + *ri), combined.columns[nl + *ri].type)},
                                                    join.pos));
      eqs.push_back(eq);
    }
    cond = eqs.size() == 1 ? eqs[0] : MakeSpecial(ExprKind::kAnd, LogicalType::Boolean(), eqs);
  } else if (type != JoinType::kInner) {
    return Error(join.pos, "An outer join needs an ON or USING condition");
  }
  // Split the condition into equi-key pairs (left column = right column) and a residual.
  std::vector<ExprPtr> conjuncts;
  if (cond) {
    if (cond->kind == ExprKind::kAnd) conjuncts = cond->args;
    else conjuncts = {cond};
  }
  std::vector<ExprPtr> residual;
  for (const auto& c : conjuncts) {
    bool taken = false;
    if (c->kind == ExprKind::kCall && c->function && c->function->name == "=" && c->args.size() == 2) {
      const Expr* a = c->args[0].get();
      const Expr* b = c->args[1].get();
      if (a->kind == ExprKind::kColumnRef && b->kind == ExprKind::kColumnRef &&
          a->type.EqualsIgnoringNullability(b->type)) {
        int ai = a->column_index, bi = b->column_index;
        if (ai >= static_cast<int>(nl) && bi < static_cast<int>(nl)) std::swap(ai, bi);
        if (ai < static_cast<int>(nl) && bi >= static_cast<int>(nl)) {
          node->left_keys.push_back(ai);
          node->right_keys.push_back(bi - static_cast<int>(nl));
          taken = true;
        }
      }
    }
    if (!taken) residual.push_back(c);
  }
  // An interval join keeps its inputs' time attributes, as Flink's RelTimeIndicatorConverter does, so
  // event-time operators can follow it (a processing-time one keeps processing time only); the
  // optimizer plans it (plan/interval_join_rule.h).
  if (!as_of && !(config_ && IsBatchRuntimeMode(*config_))) {
    if (auto bounds = ExtractIntervalBounds(cond, left.node->schema, rightrel.node->schema)) {
      const size_t nls = left.scope.columns.size();
      for (size_t i = 0; i < combined.columns.size(); ++i) {
        const LogicalType& in = i < nls ? left.scope.columns[i].type : rightrel.scope.columns[i - nls].type;
        if (in.time_attribute() == TimeAttribute::kRowtime && !bounds->rowtime) continue;
        combined.columns[i].type = combined.columns[i].type.WithTimeAttribute(in.time_attribute());
      }
    }
  }
  node->condition = cond;
  if (residual.size() == 1) node->residual = residual[0];
  else if (residual.size() > 1) node->residual = MakeSpecial(ExprKind::kAnd, LogicalType::Boolean(), residual);
  auto lx = std::make_shared<ExchangeNode>();
  lx->inputs = {left.node};
  lx->schema = left.node->schema;
  lx->keys = node->left_keys;
  auto rx = std::make_shared<ExchangeNode>();
  rx->inputs = {rightrel.node};
  rx->schema = rightrel.node->schema;
  rx->keys = node->right_keys;
  node->inputs = {lx, rx};
  std::vector<std::string> names;
  for (const auto& c : combined.columns) names.push_back(c.name);
  Uniquify(&names);
  for (size_t i = 0; i < names.size(); ++i) node->schema.Add(names[i], combined.columns[i].type);
  if (as_of) return FinishTemporalJoin(join, *as_of, std::move(left), std::move(rightrel), *node, std::move(combined));
  Relation out;
  out.node = node;
  out.scope = combined;
  return out;
}

Status Binder::ApplyStateTtlHints(const ast::Select& select, const Relation& from) {
  std::vector<std::pair<std::string, int64_t>> ttls;
  ast::SourcePos pos;
  for (const auto& h : select.hints) {
    if (Upper(h.name) != "STATE_TTL") continue;
    pos = h.pos;
    if (h.kv_options.empty()) return Error(h.pos, "STATE_TTL needs 'table' = 'duration' options, e.g. STATE_TTL('orders' = '1d')");
    for (const auto& [key, value] : h.kv_options) {
      auto ms = ParseDurationMillis(value);
      if (!ms.ok() || *ms < 0) return Error(h.pos, "STATE_TTL('" + key + "' = '" + value + "'): '" + value + "' is not a duration (e.g. '1d', '12 h', '30 min')");
      ttls.push_back({key, *ms});
    }
  }
  if (ttls.empty()) return Status::OK();
  std::vector<bool> used(ttls.size(), false);
  auto match = [&](const std::vector<std::string>& names, int64_t* ttl) {
    for (size_t i = 0; i < ttls.size(); ++i) {
      for (const auto& n : names) {
        if (n == ttls[i].first) {
          *ttl = ttls[i].second;
          used[i] = true;
        }
      }
    }
  };
  // The joins of the FROM clause (through the projections and exchanges the binder puts between them).
  std::vector<PlanNode*> stack = {from.node.get()};
  bool any_join = false;
  while (!stack.empty()) {
    PlanNode* n = stack.back();
    stack.pop_back();
    if (n->kind == PlanKind::kJoin) {
      any_join = true;
      auto& j = n->As<JoinNode>();
      match(j.left_names, &j.left_ttl_ms);
      match(j.right_names, &j.right_ttl_ms);
    }
    if (n->kind == PlanKind::kJoin || n->kind == PlanKind::kCalc || n->kind == PlanKind::kExchange) {
      for (const auto& in : n->inputs) stack.push_back(in.get());
    }
  }
  if (!any_join) {
    std::vector<std::string> names;
    for (const auto& c : from.scope.columns) {
      if (!c.qualifier.empty() && std::find(names.begin(), names.end(), c.qualifier) == names.end()) names.push_back(c.qualifier);
    }
    match(names, &aggregate_ttl_ms_);
  }
  std::string unmatched;
  for (size_t i = 0; i < ttls.size(); ++i) {
    if (!used[i]) unmatched += (unmatched.empty() ? "`" : ", `") + ttls[i].first + "`";
  }
  if (!unmatched.empty()) {
    return Error(pos, "The options of following hints cannot match the name of input tables or views: " + unmatched +
                          " in `STATE_TTL` (name a table or alias of this SELECT's FROM clause)");
  }
  return Status::OK();
}

Result<Binder::Relation> Binder::BindTableRef(const ast::TableRef& ref) {
  switch (ref.kind) {
    case ast::TableRefKind::kTable: return BindTable(ref.As<ast::TableName>());
    case ast::TableRefKind::kSubquery: {
      const auto& sq = ref.As<ast::SubqueryRef>();
      ASSIGN_OR_RETURN(Relation rel, BindQueryBody(*sq.query));
      if (!ref.column_aliases.empty()) {
        if (ref.column_aliases.size() != rel.node->schema.size()) {
          return Error(ref.pos, "List of column aliases must have same degree as table; table has " +
                                    std::to_string(rel.node->schema.size()) + " columns, whereas alias list has " +
                                    std::to_string(ref.column_aliases.size()) + " columns");
        }
        auto calc = std::make_shared<CalcNode>();
        calc->inputs = {rel.node};
        calc->projections = IdentityProjections(rel.node->schema);
        for (size_t i = 0; i < ref.column_aliases.size(); ++i) calc->schema.Add(ref.column_aliases[i], rel.node->schema.field(i).type);
        rel.node = calc;
      }
      rel.scope.columns.clear();
      for (const auto& f : rel.node->schema.fields()) rel.scope.columns.push_back({ref.alias, f.name, f.type});
      return rel;
    }
    case ast::TableRefKind::kJoin: return BindJoin(ref.As<ast::Join>());
    case ast::TableRefKind::kTableFunction: return BindWindowTvf(ref.As<ast::TableFunctionRef>());
    case ast::TableRefKind::kUnnest: {
      // FROM UNNEST(...) alone: unnest over a single empty row.
      Relation one;
      auto values = std::make_shared<ValuesNode>();
      values->rows.push_back({});
      one.node = values;
      return BindUnnest(std::move(one), ref.As<ast::Unnest>(), false);
    }
  }
  return Error(ref.pos, "unsupported FROM item");
}

Result<Binder::Relation> Binder::BindSelect(const ast::Select& select) {
  Relation input;
  if (select.from) {
    ASSIGN_OR_RETURN(input, BindTableRef(*select.from));
  } else {
    auto values = std::make_shared<ValuesNode>();
    values->rows.push_back({});
    input.node = values;
  }
  if (!select.windows.empty()) return NotSupported(select.windows[0].pos, "The WINDOW clause");
  aggregate_ttl_ms_ = -1;
  RETURN_IF_ERROR(ApplyStateTtlHints(select, input));
  if (select.where) {
    std::vector<const ast::Call*> aggs;
    CollectAggregates(*select.where, &aggs);
    if (!aggs.empty()) return Error(aggs[0]->pos, "Aggregate functions are not allowed in WHERE; use HAVING");
    ASSIGN_OR_RETURN(ExprPtr cond, BindExpr(*select.where, input.scope));
    if (cond->type.id() != TypeId::kBoolean && cond->type.id() != TypeId::kNull) {
      return Error(select.where->pos, "WHERE clause must be a BOOLEAN expression, but is " + cond->type.ToString());
    }
    auto filter = std::make_shared<CalcNode>();
    filter->inputs = {input.node};
    filter->projections = IdentityProjections(input.node->schema);
    filter->condition = cond;
    filter->schema = input.node->schema;
    input.node = filter;
  }
  std::vector<const ast::Call*> aggs;
  for (const auto& item : select.items) CollectAggregates(*item.expr, &aggs);
  if (select.having) CollectAggregates(*select.having, &aggs);
  Relation out;
  if (!select.group_by.empty() || !aggs.empty()) {
    ASSIGN_OR_RETURN(out, BindAggregate(select, std::move(input)));
  } else {
    if (select.having) return Error(select.having->pos, "HAVING requires GROUP BY or an aggregate function");
    std::vector<int> rn_items;
    bool has_rn = false;
    for (const auto& item : select.items) has_rn |= IsRowNumberOver(*item.expr);
    if (has_rn) {
      ASSIGN_OR_RETURN(input, BindRowNumber(select, std::move(input), &rn_items));
    }
    std::vector<const ast::Call*> over_calls;
    for (const auto& item : select.items) CollectOverAggregates(*item.expr, &over_calls);
    if (!over_calls.empty()) {
      if (has_rn) return NotSupported(over_calls[0]->pos, "OVER aggregates next to ROW_NUMBER() in one SELECT");
      ASSIGN_OR_RETURN(input, BindOverAggregates(select, std::move(input)));
    }
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {input.node};
    std::vector<std::string> names;
    std::vector<ExprPtr> exprs;
    for (size_t i = 0; i < select.items.size(); ++i) {
      const auto& item = select.items[i];
      if (item.expr->kind == ast::ExprKind::kStar) {
        const auto& star = item.expr->As<ast::Star>();
        bool any = false;
        for (size_t c = 0; c < input.scope.columns.size(); ++c) {
          const auto& col = input.scope.columns[c];
          if (col.qualifier == "$rank" || col.qualifier == "$over") continue;  // helper columns are not part of *
          if (!star.qualifier.empty() && col.qualifier != star.qualifier.back()) continue;
          exprs.push_back(MakeColumnRef(static_cast<int>(c), col.type));
          names.push_back(col.name);
          any = true;
        }
        if (!any && !star.qualifier.empty()) return Error(item.pos, "Unknown table '" + JoinName(star.qualifier) + "'");
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*item.expr, input.scope));
      // Time attributes survive only plain references (Flink materializes them otherwise), and
      // PROCTIME() in a SELECT list declares a processing-time attribute, as in Flink.
      const bool proctime_call = e->kind == ExprKind::kCall && e->function && e->function->name == "PROCTIME";
      if (e->kind != ExprKind::kColumnRef && !proctime_call && e->type.time_attribute() != TimeAttribute::kNone) {
        auto copy = std::make_shared<Expr>(*e);
        copy->type = e->type.WithTimeAttribute(TimeAttribute::kNone);
        e = copy;
      }
      exprs.push_back(e);
      names.push_back(item.alias.empty() ? ImplicitName(*item.expr, i) : item.alias);
    }
    replacements_.clear();
    Uniquify(&names);
    calc->projections = exprs;
    for (size_t i = 0; i < exprs.size(); ++i) calc->schema.Add(names[i], exprs[i]->type);
    out.node = calc;
    for (const auto& f : calc->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
    out.select_calc = calc;
    out.from_scope = input.scope;
  }
  if (select.distinct) {
    out.select_calc = nullptr;
    // SELECT DISTINCT is a GROUP BY every column without aggregates.
    auto ex = std::make_shared<ExchangeNode>();
    ex->inputs = {out.node};
    ex->schema = out.node->schema;
    for (size_t i = 0; i < out.node->schema.size(); ++i) ex->keys.push_back(static_cast<int>(i));
    auto agg = std::make_shared<GroupAggregateNode>();
    agg->state_ttl_ms = aggregate_ttl_ms_;
    agg->inputs = {ex};
    agg->group_keys = ex->keys;
    for (const auto& f : out.node->schema.fields()) agg->schema.Add(f.name, f.type.WithTimeAttribute(TimeAttribute::kNone));
    out.node = agg;
    out.scope.columns.clear();
    for (const auto& f : agg->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  }
  return out;
}

Result<ExprPtr> Binder::ResolveInAggregate(const ast::Expr& expr) {
  AggContext* ctx = agg_;
  if (IsAggregateCall(expr)) {
    auto it = ctx->agg_index.find(&expr);
    if (it == ctx->agg_index.end()) return Error(expr.pos, "aggregate call was not collected");
    return MakeColumnRef(it->second, ctx->output_types[static_cast<size_t>(it->second)]);
  }
  if (ctx->group_window_key >= 0) {
    ASSIGN_OR_RETURN(ExprPtr property, ResolveGroupWindowProperty(expr, *ctx));
    if (property) return property;
  }
  std::vector<const ast::Call*> inner;
  CollectAggregates(expr, &inner);
  if (!inner.empty()) return ExprPtr();  // bind structurally; the aggregates inside resolve on their own
  if (expr.kind == ast::ExprKind::kLiteral || expr.kind == ast::ExprKind::kIntervalLiteral ||
      expr.kind == ast::ExprKind::kTimeUnit) {
    return ExprPtr();
  }
  // Does the expression (over the FROM clause) equal a group key?
  agg_ = nullptr;
  Result<ExprPtr> over_input = BindExpr(expr, ctx->input);
  agg_ = ctx;
  if (over_input.ok()) {
    std::string digest = (*over_input)->ToString();
    for (size_t k = 0; k < ctx->key_digests.size(); ++k) {
      if (ctx->key_digests[k] == digest) return MakeColumnRef(static_cast<int>(k), ctx->output_types[k]);
    }
    if ((*over_input)->IsConstant()) return ExprPtr();
  }
  if (expr.kind == ast::ExprKind::kIdentifier || expr.kind == ast::ExprKind::kFieldAccess) {
    if (!over_input.ok()) return over_input.status();
    std::vector<std::string> names;
    for (const auto& c : ctx->input.columns) names.push_back(c.name);
    return Error(expr.pos, "Expression '" + (*over_input)->ToString(&names) + "' is not being grouped");
  }
  return ExprPtr();
}

Result<Binder::Relation> Binder::BindAggregate(const ast::Select& select, Relation input) {
  AggContext ctx;
  ASSIGN_OR_RETURN(const ast::Call* group_window, PrepareGroupWindow(select, &input));
  ctx.input = input.scope;
  // The projection below the aggregate: group keys, then each aggregate's arguments and filter.
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  std::vector<std::string> key_names;
  for (const auto& g : select.group_by) {
    if (g.kind != ast::GroupingElement::Kind::kExpr) {
      if (g.kind == ast::GroupingElement::Kind::kEmpty) continue;
      return NotSupported(g.pos, "GROUPING SETS, ROLLUP and CUBE");
    }
    if (g.expr.get() == group_window) {
      // The legacy group window groups by its three window columns (the last in the scope).
      ctx.group_window = Upper(group_window->name.back());
      ctx.group_window_key = static_cast<int>(pre->projections.size());
      for (size_t c = input.scope.columns.size() - 3; c < input.scope.columns.size(); ++c) {
        const ScopeColumn& col = input.scope.columns[c];
        ExprPtr k = MakeColumnRef(static_cast<int>(c), col.type);
        ctx.key_digests.push_back(k->ToString());
        pre->projections.push_back(k);
        pre->schema.Add(col.name, col.type.WithTimeAttribute(TimeAttribute::kNone));
        key_names.push_back(col.name);
      }
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr k, BindExpr(*g.expr, input.scope));
    ctx.key_digests.push_back(k->ToString());
    LogicalType kt = k->type.WithTimeAttribute(TimeAttribute::kNone);
    std::string kn = g.expr->kind == ast::ExprKind::kIdentifier ? g.expr->As<ast::Identifier>().parts.back()
                                                                 : "$f" + std::to_string(pre->projections.size());
    pre->projections.push_back(k);
    pre->schema.Add(kn, kt);
    key_names.push_back(kn);
  }
  KeepWindowTimeAttribute(input.node, pre.get());
  ctx.num_keys = pre->projections.size();
  for (size_t i = 0; i < ctx.num_keys; ++i) ctx.output_types.push_back(pre->schema.field(i).type);
  std::vector<const ast::Call*> calls;
  std::vector<std::string> call_aliases;
  for (const auto& item : select.items) {
    size_t before = calls.size();
    CollectAggregates(*item.expr, &calls);
    for (size_t i = before; i < calls.size(); ++i) {
      call_aliases.push_back(calls.size() == before + 1 && item.expr.get() == calls[i] && !item.alias.empty() ? item.alias : "");
    }
  }
  if (select.having) {
    size_t before = calls.size();
    CollectAggregates(*select.having, &calls);
    for (size_t i = before; i < calls.size(); ++i) call_aliases.push_back("");
  }
  auto agg = std::make_shared<GroupAggregateNode>();
  agg->state_ttl_ms = aggregate_ttl_ms_;
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const ast::Call& call = *calls[ci];
    ASSIGN_OR_RETURN(AggregateCall ac, BindAggregateCall(call, input, pre.get(), false));
    ac.output_name = call_aliases[ci].empty() ? "EXPR$" + std::to_string(ctx.num_keys + ci) : call_aliases[ci];
    ctx.agg_index[&call] = static_cast<int>(ctx.num_keys + ci);
    ctx.output_types.push_back(ac.function->result_type);
    agg->aggs.push_back(std::move(ac));
  }
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {pre};
  ex->schema = pre->schema;
  for (size_t i = 0; i < ctx.num_keys; ++i) ex->keys.push_back(static_cast<int>(i));
  agg->inputs = {ex};
  agg->group_keys = ex->keys;
  for (size_t i = 0; i < ctx.num_keys; ++i) agg->schema.Add(key_names[i], ctx.output_types[i]);
  std::vector<std::string> names = agg->schema.names();
  for (const auto& a : agg->aggs) names.push_back(a.output_name);
  Uniquify(&names);
  for (size_t i = 0; i < agg->aggs.size(); ++i) {
    agg->aggs[i].output_name = names[ctx.num_keys + i];
    agg->schema.Add(names[ctx.num_keys + i], ctx.output_types[ctx.num_keys + i]);
  }
  // SELECT list and HAVING over the aggregate's output.
  Scope none;
  agg_ = &ctx;
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {agg};
  std::vector<std::string> out_names;
  Status st;
  for (size_t i = 0; i < select.items.size() && st.ok(); ++i) {
    const auto& item = select.items[i];
    if (item.expr->kind == ast::ExprKind::kStar) {
      st = Error(item.pos, "'*' cannot be used with GROUP BY or aggregates");
      break;
    }
    Result<ExprPtr> e = BindExpr(*item.expr, none);
    if (!e.ok()) {
      st = e.status();
      break;
    }
    calc->projections.push_back(*e);
    out_names.push_back(item.alias.empty() ? ImplicitName(*item.expr, i) : item.alias);
  }
  if (st.ok() && select.having) {
    Result<ExprPtr> h = BindExpr(*select.having, none);
    if (!h.ok()) st = h.status();
    else if ((*h)->type.id() != TypeId::kBoolean) st = Error(select.having->pos, "HAVING must be a BOOLEAN expression");
    else calc->condition = *h;
  }
  agg_ = nullptr;
  RETURN_IF_ERROR(st);
  Uniquify(&out_names);
  for (size_t i = 0; i < out_names.size(); ++i) calc->schema.Add(out_names[i], calc->projections[i]->type);
  Relation out;
  out.node = calc;
  for (const auto& f : calc->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

Result<AggregateCall> Binder::BindAggregateCall(const ast::Call& call, const Relation& input, CalcNode* pre,
                                                bool needs_retract) {
  std::string name = Upper(call.name.back());
  AggregateCall ac;
  ac.name = name;
  ac.distinct = call.distinct;
  std::vector<LogicalType> arg_types;
  std::vector<const Value*> constants;
  std::vector<ExprPtr> bound_args;
  for (const auto& a : call.args) {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, input.scope));
    bound_args.push_back(b);
  }
  // Literal trailing arguments (LISTAGG's separator) stay constants; others are input columns.
  for (size_t i = 0; i < bound_args.size(); ++i) {
    const ExprPtr& b = bound_args[i];
    arg_types.push_back(b->type.WithTimeAttribute(TimeAttribute::kNone));
    bool constant = i > 0 && b->kind == ExprKind::kLiteral;
    constants.push_back(constant ? &b->literal : nullptr);
    if (constant) {
      ac.constant_args.push_back(b->literal);
    } else {
      // Reuse a column already projected for this argument (a key or an earlier aggregate's).
      int existing = -1;
      for (size_t p = 0; p < pre->projections.size(); ++p) {
        if (pre->projections[p]->ToString() == b->ToString()) existing = static_cast<int>(p);
      }
      if (existing >= 0) {
        ac.args.push_back(existing);
        continue;
      }
      ac.args.push_back(static_cast<int>(pre->projections.size()));
      pre->projections.push_back(b);
      std::string an = b->kind == ExprKind::kColumnRef ? input.scope.columns[static_cast<size_t>(b->column_index)].name
                                                       : "$f" + std::to_string(pre->schema.size());
      if (pre->schema.IndexOf(an)) an = "$f" + std::to_string(pre->schema.size());
      pre->schema.Add(an, arg_types.back());
    }
  }
  if (call.filter) {
    ASSIGN_OR_RETURN(ExprPtr f, BindExpr(*call.filter, input.scope));
    if (f->type.id() != TypeId::kBoolean) return Error(call.filter->pos, "FILTER condition must be BOOLEAN");
    ac.filter = static_cast<int>(pre->projections.size());
    pre->projections.push_back(f);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), f->type);
  }
  auto fn = ResolveAggregate(name, arg_types, constants, needs_retract);
  if (!fn.ok()) return Error(call.pos, fn.status().message());
  ac.arg_types = arg_types;
  for (const Value* c : constants) ac.arg_constants.push_back(c ? std::optional<Value>(*c) : std::nullopt);
  ac.function = *fn;
  return ac;
}

Result<Binder::Relation> Binder::BindRowNumber(const ast::Select& select, Relation input, std::vector<int>* rn_items) {
  const ast::Call* rn_call = nullptr;
  for (size_t i = 0; i < select.items.size(); ++i) {
    if (IsRowNumberOver(*select.items[i].expr)) {
      if (rn_call) return NotSupported(select.items[i].pos, "Several ROW_NUMBER() OVER items in one SELECT");
      rn_call = &select.items[i].expr->As<ast::Call>();
      rn_items->push_back(static_cast<int>(i));
    }
  }
  const ast::WindowSpec& w = *rn_call->over;
  if (w.frame_unit != ast::WindowSpec::FrameUnit::kNone) return NotSupported(w.pos, "A frame clause on ROW_NUMBER()");
  // Partition and order keys must be columns; computed ones are projected first.
  auto pre = std::make_shared<CalcNode>();
  pre->inputs = {input.node};
  pre->projections = IdentityProjections(input.node->schema);
  pre->schema = input.node->schema;
  auto column_of = [&](const ast::Expr& e) -> Result<int> {
    ASSIGN_OR_RETURN(ExprPtr b, BindExpr(e, input.scope));
    if (b->kind == ExprKind::kColumnRef) return b->column_index;
    pre->projections.push_back(b);
    pre->schema.Add("$f" + std::to_string(pre->schema.size()), b->type);
    return static_cast<int>(pre->projections.size() - 1);
  };
  auto rank = std::make_shared<RankNode>();
  for (const auto& p : w.partition_by) {
    ASSIGN_OR_RETURN(int c, column_of(*p));
    rank->partition_keys.push_back(c);
  }
  if (w.order_by.empty()) return Error(w.pos, "ROW_NUMBER() OVER needs an ORDER BY");
  for (const auto& o : w.order_by) {
    ASSIGN_OR_RETURN(int c, column_of(*o.expr));
    SortKey k;
    k.column = c;
    k.ascending = !o.descending;
    // Flink sorts NULLs first in ascending order and last in descending order by default.
    k.nulls_first = o.nulls == ast::OrderItem::Nulls::kDefault ? k.ascending : o.nulls == ast::OrderItem::Nulls::kFirst;
    rank->order.push_back(k);
  }
  rank->rank_function = Upper(rn_call->name.back());
  PlanNodePtr below = input.node;
  if (pre->projections.size() != input.node->schema.size()) below = pre;
  auto ex = std::make_shared<ExchangeNode>();
  ex->inputs = {below};
  ex->schema = below->schema;
  ex->keys = rank->partition_keys;
  rank->inputs = {ex};
  rank->schema = below->schema;
  rank->schema.Add("$rn", LogicalType::BigInt().WithNullable(false));
  Relation out;
  out.node = rank;
  out.scope = input.scope;
  for (size_t i = input.scope.columns.size(); i < below->schema.size(); ++i) {
    out.scope.columns.push_back({"$rank", below->schema.field(i).name, below->schema.field(i).type});
  }
  out.scope.columns.push_back({"$rank", "$rn", LogicalType::BigInt().WithNullable(false)});
  replacements_[rn_call] = MakeColumnRef(static_cast<int>(rank->schema.size() - 1), LogicalType::BigInt().WithNullable(false));
  return out;
}

namespace {

// A UNION ALL whose branches can join its parent's: nothing of its own (WITH, ORDER BY, LIMIT, OFFSET).
bool IsPlainUnionAll(const ast::Query& q) {
  if (q.kind != ast::QueryKind::kSetOp || !q.with.empty() || !q.order_by.empty() || q.limit || q.offset) return false;
  const auto& op = q.As<ast::SetOp>();
  return op.op == ast::SetOpKind::kUnion && op.all;
}

}  // namespace

// "a UNION ALL b UNION ALL c ..." parses into a chain of binary SetOps as long as the branches; it binds
// into ONE n-ary Union, collecting the branches with an explicit stack, so neither the binder's recursion
// nor the plan grows with the number of branches (Calcite's UnionMergeRule gives Flink the same node).
Result<Binder::Relation> Binder::BindSetOp(const ast::SetOp& op) {
  if (op.op != ast::SetOpKind::kUnion || !op.all) {
    return NotSupported(op.pos, std::string(op.op == ast::SetOpKind::kUnion ? "UNION (without ALL)"
                                            : op.op == ast::SetOpKind::kIntersect ? "INTERSECT"
                                                                                   : "EXCEPT"));
  }
  struct Branch {
    const ast::Query* query;
    ast::SourcePos pos;  // the UNION ALL that joins it
  };
  std::vector<Branch> branches;
  std::vector<Branch> todo = {{op.right.get(), op.pos}, {op.left.get(), op.pos}};
  while (!todo.empty()) {
    Branch b = todo.back();
    todo.pop_back();
    if (IsPlainUnionAll(*b.query)) {
      const auto& inner = b.query->As<ast::SetOp>();
      todo.push_back({inner.right.get(), inner.pos});
      todo.push_back({inner.left.get(), inner.pos});
      continue;
    }
    branches.push_back(b);
  }
  std::vector<Relation> inputs;
  inputs.reserve(branches.size());
  for (const Branch& b : branches) {
    ASSIGN_OR_RETURN(Relation r, BindQueryBody(*b.query));
    if (!inputs.empty() && r.node->schema.size() != inputs[0].node->schema.size()) {
      return Error(b.pos, "Column count mismatch in UNION ALL: " + std::to_string(inputs[0].node->schema.size()) +
                              " vs " + std::to_string(r.node->schema.size()));
    }
    inputs.push_back(std::move(r));
  }
  // Common types per column; cast each branch where needed.
  const Schema& first = inputs[0].node->schema;
  Schema out_schema;
  std::vector<std::vector<ExprPtr>> projections(inputs.size());
  std::vector<bool> cast(inputs.size(), false);
  for (size_t i = 0; i < first.size(); ++i) {
    std::vector<ExprPtr> column;
    column.reserve(inputs.size());
    for (const Relation& r : inputs) column.push_back(MakeColumnRef(static_cast<int>(i), r.node->schema.field(i).type));
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&column, op.pos));
    bool nullable = false;
    for (size_t b = 0; b < inputs.size(); ++b) {
      nullable |= column[b]->type.nullable();
      cast[b] = cast[b] || column[b]->kind != ExprKind::kColumnRef;
      projections[b].push_back(std::move(column[b]));
    }
    // A time attribute survives the union when every branch has the same kind on this column (Flink's
    // leastRestrictive of time indicators), so windows over a UNION ALL of event-time streams work.
    TimeAttribute attr = inputs[0].node->schema.field(i).type.time_attribute();
    for (const Relation& r : inputs) {
      if (r.node->schema.field(i).type.time_attribute() != attr) attr = TimeAttribute::kNone;
    }
    out_schema.Add(first.field(i).name, common->type.WithNullable(nullable).WithTimeAttribute(attr));
  }
  auto u = std::make_shared<UnionNode>();
  for (size_t b = 0; b < inputs.size(); ++b) {
    PlanNodePtr in = inputs[b].node;
    if (!cast[b]) {
      u->inputs.push_back(in);
      continue;
    }
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {in};
    calc->projections = std::move(projections[b]);
    for (size_t i = 0; i < calc->projections.size(); ++i) calc->schema.Add(in->schema.field(i).name, calc->projections[i]->type);
    u->inputs.push_back(calc);
  }
  u->schema = out_schema;
  Relation out;
  out.node = u;
  for (const auto& f : out_schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

Result<Binder::Relation> Binder::BindValues(const ast::Values& values) {
  Scope empty;
  std::vector<std::vector<ExprPtr>> rows;
  size_t width = values.rows.empty() ? 0 : values.rows[0].size();
  for (const auto& row : values.rows) {
    if (row.size() != width) return Error(values.pos, "Values passed to VALUES operator must have compatible types (rows differ in length)");
    std::vector<ExprPtr> bound;
    for (const auto& e : row) {
      ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*e, empty));
      bound.push_back(b);
    }
    rows.push_back(std::move(bound));
  }
  auto node = std::make_shared<ValuesNode>();
  for (size_t c = 0; c < width; ++c) {
    std::vector<ExprPtr> col;
    for (auto& r : rows) col.push_back(r[c]);
    ASSIGN_OR_RETURN(ExprPtr common, CastAllToCommon(&col, values.pos));
    bool nullable = false;
    for (auto& e : col) nullable |= e->type.nullable();
    for (size_t r = 0; r < rows.size(); ++r) rows[r][c] = col[r];
    LogicalType t = common->type.WithNullable(nullable);
    if (t.id() == TypeId::kNull) t = LogicalType::Null();
    node->schema.Add(ExprColumnName(c), t);
  }
  for (auto& r : rows) {
    std::vector<Value> vals;
    for (size_t c = 0; c < r.size(); ++c) {
      ExprPtr e = r[c];
      Value v;
      if (IsPlainLiteral(*e)) {
        v = e->literal;
      } else {
        if (!e->IsConstant()) return Error(values.pos, "VALUES needs constant expressions");
        auto folded = EvaluateConstant(*e, *eval_context_);
        if (!folded.ok()) return Error(values.pos, folded.status().message());
        v = *folded;
      }
      vals.push_back(v.is_null() ? Value::Null(node->schema.field(c).type) : v.WithType(node->schema.field(c).type));
    }
    node->rows.push_back(std::move(vals));
  }
  Relation out;
  out.node = node;
  for (const auto& f : node->schema.fields()) out.scope.columns.push_back({"", f.name, f.type});
  return out;
}

Result<Binder::Relation> Binder::BindQueryBody(const ast::Query& query, bool top) {
  if (!query.with.empty()) {
    std::map<std::string, const ast::Cte*> level;
    ctes_.push_back({});
    for (const auto& cte : query.with) ctes_.back()[cte.name] = &cte;
  }
  struct Pop {
    Binder* b;
    bool active;
    ~Pop() {
      if (active) b->ctes_.pop_back();
    }
  } pop{this, !query.with.empty()};
  Relation body;
  switch (query.kind) {
    case ast::QueryKind::kSelect: {
      ASSIGN_OR_RETURN(body, BindSelect(query.As<ast::Select>()));
      break;
    }
    case ast::QueryKind::kSetOp: {
      ASSIGN_OR_RETURN(body, BindSetOp(query.As<ast::SetOp>()));
      break;
    }
    case ast::QueryKind::kValues: {
      ASSIGN_OR_RETURN(body, BindValues(query.As<ast::Values>()));
      break;
    }
  }
  if (!body.node) return Error(query.pos, "unknown query");
  if (query.order_by.empty() && !query.limit && !query.offset) {
    body.select_calc = nullptr;
    return body;
  }
  return BindOrderLimit(query, std::move(body), top);
}

namespace {

// The value of a LIMIT / OFFSET / FETCH operand: a non-negative integer literal, as Flink requires.
Result<int64_t> LimitValue(const ast::Expr& e, const char* clause) {
  if (e.kind == ast::ExprKind::kLiteral) {
    const auto& lit = e.As<ast::Literal>();
    if (lit.literal_kind == ast::LiteralKind::kExactNumeric && !lit.text.empty() &&
        lit.text.find_first_not_of("0123456789") == std::string::npos) {
      errno = 0;
      char* end = nullptr;
      unsigned long long v = std::strtoull(lit.text.c_str(), &end, 10);
      if (errno == 0 && *end == '\0' && v <= static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
        return static_cast<int64_t>(v);
      }
    }
  }
  return Status::InvalidArgument(std::string(clause) + " must be a non-negative integer literal (a BIGINT), e.g. " + clause +
                                 " 10");
}

}  // namespace

Result<Binder::Relation> Binder::BindOrderLimit(const ast::Query& query, Relation body, bool top) {
  int64_t offset = 0;
  int64_t fetch = -1;
  if (query.offset) {
    auto v = LimitValue(*query.offset, "OFFSET");
    if (!v.ok()) return Error(query.offset->pos, v.status().message());
    offset = *v;
  }
  if (query.limit) {
    auto v = LimitValue(*query.limit, "LIMIT");
    if (!v.ok()) return Error(query.limit->pos, v.status().message());
    fetch = *v;
  }
  const size_t width = body.node->schema.size();
  std::shared_ptr<CalcNode> select_calc = body.select_calc;
  body.select_calc = nullptr;
  // Calcite (SqlToRelConverter's removeSortInSubQuery, on in Flink) drops an ORDER BY without LIMIT
  // or a non-zero OFFSET below the top query, since it orders nothing there; OFFSET 0 without LIMIT
  // and ORDER BY is no Sort at all.
  const bool no_slice = fetch < 0 && offset == 0;
  if (no_slice && (query.order_by.empty() || !top)) return body;
  // Sort keys must be columns. A key is an output column (by alias, name or 1-based ordinal, as
  // Flink's conformance allows), an expression over the output (computed on top), or, for a plain
  // SELECT, an expression over its FROM clause (kept as a hidden column of the projection).
  std::vector<SortKey> keys;
  std::vector<ExprPtr> over_output;
  std::vector<size_t> over_output_key;
  // A hidden key column is named as Calcite names it: the column it reads, else EXPR$i (unique).
  auto hidden_name = [](const Schema& schema, const ExprPtr& e, const Scope& scope) {
    std::string name = e->kind == ExprKind::kColumnRef ? scope.columns[static_cast<size_t>(e->column_index)].name
                                                       : ExprColumnName(schema.size());
    std::vector<std::string> names = schema.names();
    names.push_back(name);
    Uniquify(&names);
    return names.back();
  };
  for (const auto& o : query.order_by) {
    SortKey k;
    k.ascending = !o.descending;
    // Flink sorts NULLs first in ascending order and last in descending order by default.
    k.nulls_first = o.nulls == ast::OrderItem::Nulls::kDefault ? k.ascending : o.nulls == ast::OrderItem::Nulls::kFirst;
    k.column = -1;
    if (o.expr->kind == ast::ExprKind::kLiteral && o.expr->As<ast::Literal>().literal_kind == ast::LiteralKind::kExactNumeric) {
      auto ordinal = LimitValue(*o.expr, "ORDER BY ordinal");
      if (!ordinal.ok() || *ordinal < 1 || *ordinal > static_cast<int64_t>(width)) {
        return Error(o.pos, "Ordinal out of range");
      }
      k.column = static_cast<int>(*ordinal - 1);
      keys.push_back(k);
      continue;
    }
    std::vector<const ast::Call*> aggs;
    CollectAggregates(*o.expr, &aggs);
    if (!aggs.empty()) return NotSupported(o.pos, "An aggregate function in ORDER BY (name it in the SELECT list and sort by its alias)");
    Result<ExprPtr> e = BindExpr(*o.expr, body.scope);
    if (e.ok()) {
      if ((*e)->kind == ExprKind::kColumnRef) {
        k.column = (*e)->column_index;
      } else if ((*e)->IsConstant()) {
        continue;  // a constant orders nothing (Calcite drops it too)
      } else {
        over_output_key.push_back(keys.size());
        over_output.push_back(*e);
      }
      keys.push_back(k);
      continue;
    }
    if (!select_calc) return e.status();
    Result<ExprPtr> f = BindExpr(*o.expr, body.from_scope);
    if (!f.ok()) return e.status();
    if ((*f)->IsConstant()) continue;
    // A hidden column of the SELECT's projection, dropped again after the sort.
    ExprPtr hidden = *f;
    if (hidden->kind != ExprKind::kColumnRef && hidden->type.time_attribute() != TimeAttribute::kNone) {
      auto copy = std::make_shared<Expr>(*hidden);
      copy->type = hidden->type.WithTimeAttribute(TimeAttribute::kNone);
      hidden = copy;
    }
    k.column = static_cast<int>(select_calc->projections.size());
    select_calc->projections.push_back(hidden);
    select_calc->schema.Add(hidden_name(select_calc->schema, hidden, body.from_scope), hidden->type);
    keys.push_back(k);
  }
  if (keys.empty() && no_slice) return body;  // only constant keys: nothing to do
  PlanNodePtr below = body.node;
  if (!over_output.empty()) {
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {below};
    calc->projections = IdentityProjections(below->schema);
    calc->schema = below->schema;
    for (size_t i = 0; i < over_output.size(); ++i) {
      ExprPtr e = over_output[i];
      if (e->type.time_attribute() != TimeAttribute::kNone) {
        auto copy = std::make_shared<Expr>(*e);
        copy->type = e->type.WithTimeAttribute(TimeAttribute::kNone);
        e = copy;
      }
      keys[over_output_key[i]].column = static_cast<int>(calc->projections.size());
      calc->projections.push_back(e);
      calc->schema.Add(hidden_name(calc->schema, e, body.scope), e->type);
    }
    below = calc;
  }
  Relation out;
  out.scope = body.scope;
  PlanNodePtr result;
  if (fetch == 0) {
    // LIMIT 0: no row at all (Calcite prunes such a Sort to an empty result).
    auto none = std::make_shared<CalcNode>();
    none->inputs = {below};
    none->projections = IdentityProjections(below->schema);
    none->schema = below->schema;
    none->condition = MakeLiteral(Value::Boolean(false));
    result = none;
  } else {
    auto sort = std::make_shared<SortNode>();
    sort->order = keys;
    sort->offset = offset;
    sort->fetch = fetch;
    if (config_ && IsBatchRuntimeMode(*config_)) {
      sort->variant = SortNode::Variant::kBatchSort;
    } else if (keys.empty()) {
      sort->variant = SortNode::Variant::kLimit;  // Flink's StreamPhysicalLimitRule
    } else if (query.limit || query.offset) {
      sort->variant = SortNode::Variant::kSortLimit;  // StreamPhysicalSortLimitRule
    } else {
      // StreamPhysicalTemporalSortRule: the first key must be a time attribute, ascending.
      const LogicalType& first = below->schema.field(static_cast<size_t>(keys[0].column)).type;
      if (first.time_attribute() == TimeAttribute::kNone || !keys[0].ascending) {
        const ast::SourcePos& pos = query.order_by[0].pos;
        return Status::PlanError(
            "Sort on a non-time-attribute field is not supported.\nSluice: in streaming mode ORDER BY (line " +
            std::to_string(pos.line) + ", column " + std::to_string(pos.column) +
            ") must start with a time attribute in ascending order (rows leave as the watermark passes them), or "
            "come with a LIMIT (a Top-N over the whole input); to sort a bounded result, SET "
            "'execution.runtime-mode' = 'batch'.");
      }
      sort->variant = SortNode::Variant::kTemporalSort;
    }
    // Every sort runs on a single task (Flink's SINGLETON distribution).
    auto ex = std::make_shared<ExchangeNode>();
    ex->inputs = {below};
    ex->schema = below->schema;
    sort->inputs = {ex};
    sort->schema = below->schema;
    result = sort;
  }
  if (result->schema.size() != width) {
    // Drop the hidden sort keys.
    auto calc = std::make_shared<CalcNode>();
    calc->inputs = {result};
    for (size_t i = 0; i < width; ++i) {
      calc->projections.push_back(MakeColumnRef(static_cast<int>(i), result->schema.field(i).type));
      calc->schema.Add(result->schema.field(i).name, result->schema.field(i).type);
    }
    result = calc;
  }
  out.node = result;
  return out;
}

Result<PlanNodePtr> Binder::BindQuery(const ast::Query& query) {
  ASSIGN_OR_RETURN(Relation rel, BindQueryBody(query, /*top=*/true));
  return rel.node;
}

Result<PlanNodePtr> Binder::BindInsert(const ast::Insert& insert) {
  auto path = catalog_->Resolve(insert.target);
  if (!path.ok()) return Error(insert.pos, path.status().message());
  auto entry = catalog_->Lookup(*path);
  if (!entry.ok()) return Error(insert.pos, entry.status().message());
  if (!entry->table) return Error(insert.pos, "'" + path->name + "' is a view; INSERT needs a table");
  auto table = entry->table;
  if (insert.overwrite) return NotSupported(insert.pos, "INSERT OVERWRITE in streaming mode");
  if (!insert.static_partition.empty()) return NotSupported(insert.pos, "INSERT with a static PARTITION");
  ASSIGN_OR_RETURN(PlanNodePtr query, BindQuery(*insert.query));
  std::vector<size_t> targets = table->persisted_columns();
  // Map query columns to target columns.
  std::vector<int> source_of(targets.size(), -1);
  if (insert.columns.empty()) {
    if (query->schema.size() != targets.size()) {
      std::string qs, ts;
      for (const auto& f : query->schema.fields()) qs += (qs.empty() ? "" : ", ") + f.name + ": " + f.type.ToString();
      for (size_t t : targets) ts += (ts.empty() ? "" : ", ") + table->columns[t].name + ": " + table->columns[t].type.ToString();
      return Error(insert.pos, "Column types of query result and sink for '" + table->path.FullName() +
                                   "' do not match.\nCause: Different number of columns.\n\nQuery schema: [" + qs +
                                   "]\nSink schema:  [" + ts + "]");
    }
    for (size_t i = 0; i < targets.size(); ++i) source_of[i] = static_cast<int>(i);
  } else {
    if (insert.columns.size() != query->schema.size()) {
      return Error(insert.pos, "Number of columns in the INSERT column list (" + std::to_string(insert.columns.size()) +
                                   ") does not match the query (" + std::to_string(query->schema.size()) + ")");
    }
    for (size_t q = 0; q < insert.columns.size(); ++q) {
      bool found = false;
      for (size_t i = 0; i < targets.size(); ++i) {
        if (table->columns[targets[i]].name == insert.columns[q]) {
          if (source_of[i] >= 0) return Error(insert.pos, "Column '" + insert.columns[q] + "' is listed twice");
          source_of[i] = static_cast<int>(q);
          found = true;
        }
      }
      if (!found) {
        std::vector<std::string> names;
        for (size_t t : targets) names.push_back(table->columns[t].name);
        std::string msg = "Unknown target column '" + insert.columns[q] + "'";
        if (auto d = DidYouMean(insert.columns[q], names)) msg += ". Did you mean '" + *d + "'?";
        return Error(insert.pos, msg);
      }
    }
  }
  auto calc = std::make_shared<CalcNode>();
  calc->inputs = {query};
  bool identity = query->schema.size() == targets.size();
  for (size_t i = 0; i < targets.size(); ++i) {
    const CatalogColumn& col = table->columns[targets[i]];
    LogicalType target_type = col.type.WithTimeAttribute(TimeAttribute::kNone);
    ExprPtr e;
    if (source_of[i] < 0) {
      if (!target_type.nullable()) return Error(insert.pos, "Column '" + col.name + "' is NOT NULL and has no value in the INSERT");
      e = MakeLiteral(Value::Null(target_type));
      identity = false;
    } else {
      const Field& qf = query->schema.field(static_cast<size_t>(source_of[i]));
      e = MakeColumnRef(source_of[i], qf.type);
      if (source_of[i] != static_cast<int>(i)) identity = false;
      if (!qf.type.EqualsIgnoringNullability(target_type)) {
        if (!CanCast(qf.type, target_type, true)) {
          std::string qs, ts;
          for (const auto& f : query->schema.fields()) qs += (qs.empty() ? "" : ", ") + f.name + ": " + f.type.ToString();
          for (size_t t : targets) ts += (ts.empty() ? "" : ", ") + table->columns[t].name + ": " + table->columns[t].type.ToString();
          return Error(insert.pos, "Column types of query result and sink for '" + table->path.FullName() +
                                       "' do not match.\nCause: Incompatible types for sink column '" + col.name +
                                       "' at position " + std::to_string(i) + ".\n\nQuery schema: [" + qs +
                                       "]\nSink schema:  [" + ts + "]");
        }
        e = MakeCast(e, target_type.WithNullable(qf.type.nullable()), false);
        identity = false;
      }
    }
    calc->projections.push_back(e);
    calc->schema.Add(col.name, e->type);
  }
  auto sink = std::make_shared<SinkNode>();
  sink->table = table;
  for (const auto& h : insert.hints) {
    for (const auto& kv : h.kv_options) sink->hint_options.push_back(kv);
  }
  if (identity) {
    sink->inputs = {query};
  } else {
    sink->inputs = {calc};
  }
  Schema s;
  for (size_t t : targets) s.Add(table->columns[t].name, table->columns[t].type);
  sink->schema = s;
  return PlanNodePtr(sink);
}

// ---------------------------------------------------------------------------------------------
// DDL

Result<std::shared_ptr<CatalogTable>> Binder::BindCreateTable(std::shared_ptr<const ast::CreateTable> ddl) {
  auto path = catalog_->Resolve(ddl->name);
  if (!path.ok()) return Error(ddl->pos, path.status().message());
  if (ddl->as_query) return NotSupported(ddl->pos, "CREATE TABLE ... AS SELECT");
  if (ddl->like) return NotSupported(ddl->pos, "CREATE TABLE ... LIKE");
  auto t = std::make_shared<CatalogTable>();
  t->path = *path;
  t->temporary = ddl->temporary;
  t->ddl = ddl;
  std::set<std::string> names;
  std::vector<std::string> pk;
  for (const auto& c : ddl->columns) {
    if (!names.insert(c.name).second) return Error(c.pos, "A column named '" + c.name + "' already exists in the table");
    if (c.primary_key) pk.push_back(c.name);
  }
  if (ddl->primary_key) {
    if (!pk.empty()) return Error(ddl->primary_key->pos, "Duplicate primary key definition");
    if (ddl->primary_key->enforced) {
      return Error(ddl->primary_key->pos, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode");
    }
    pk = ddl->primary_key->columns;
  }
  // Physical and metadata columns first, for the scope of computed columns.
  Scope base;
  for (const auto& c : ddl->columns) {
    if (c.column_kind != ast::ColumnKind::kComputed) base.columns.push_back({"", c.name, c.type});
  }
  for (const auto& c : ddl->columns) {
    CatalogColumn col;
    col.name = c.name;
    col.kind = c.column_kind;
    col.type = c.type;
    if (c.column_kind == ast::ColumnKind::kComputed) {
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*c.expr, base));
      col.type = e->type;
      col.expr = c.expr.get();
    } else if (c.column_kind == ast::ColumnKind::kMetadata) {
      col.metadata_key = c.metadata_key.value_or(c.name);
      col.is_virtual = c.is_virtual;
    }
    if (std::find(pk.begin(), pk.end(), c.name) != pk.end()) {
      if (c.column_kind != ast::ColumnKind::kPhysical) {
        return Error(c.pos, "Could not create a PRIMARY KEY with column '" + c.name + "'. A PRIMARY KEY constraint must be declared on physical columns.");
      }
      col.type = col.type.WithNullable(false);
    }
    t->columns.push_back(col);
  }
  for (const auto& k : pk) {
    if (!names.count(k)) return Error(ddl->pos, "Could not create a PRIMARY KEY '" + k + "'. Column '" + k + "' does not exist.");
  }
  t->primary_key = pk;
  if (ddl->watermark) {
    const auto& wm = *ddl->watermark;
    if (wm.column.size() != 1) return NotSupported(wm.pos, "A watermark on a nested field");
    std::optional<size_t> idx;
    for (size_t i = 0; i < t->columns.size(); ++i) {
      if (t->columns[i].name == wm.column[0]) idx = i;
    }
    if (!idx) {
      std::vector<std::string> all(names.begin(), names.end());
      std::string msg = "The rowtime attribute field '" + wm.column[0] + "' is not defined in the table schema";
      if (auto d = DidYouMean(wm.column[0], all)) msg += ". Did you mean '" + *d + "'?";
      return Error(wm.pos, msg);
    }
    const LogicalType& rt = t->columns[*idx].type;
    if (!rt.IsTimestamp() || rt.precision() > 3) {
      return Error(wm.pos, "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is " + rt.ToString());
    }
    Scope full;
    for (const auto& c : t->columns) full.columns.push_back({"", c.name, c.type});
    ASSIGN_OR_RETURN(ExprPtr wexpr, BindExpr(*wm.expr, full));
    if (!wexpr->type.IsTimestamp()) {
      return Error(wm.pos, "Watermark strategy " + wexpr->ToString() + " must be of type TIMESTAMP or TIMESTAMP_LTZ but is of type '" + wexpr->type.ToString() + "'.");
    }
    t->rowtime_column = *idx;
    t->watermark_expr = wm.expr.get();
    t->columns[*idx].type = rt.WithTimeAttribute(TimeAttribute::kRowtime);
  }
  for (const auto& [k, v] : ddl->options) {
    t->options[k] = v;
    t->ordered_options.push_back({k, v});
  }
  for (const auto& k : ddl->partition_keys) {
    // A transform term ("bucket(16, id)", Iceberg tables) names its column last.
    const std::string column = sql::PartitionTermColumn(k);
    if (!names.count(column)) return Error(ddl->pos, "Partition column '" + column + "' not defined in the table schema.");
    t->partition_keys.push_back(k);
  }
  // A table of an external catalog (Iceberg) is the catalog's: its WITH options are table properties.
  bool external = !t->temporary && catalog_->IsExternal(t->path.catalog);
  if (!external && !t->options.count("connector")) {
    return Error(ddl->pos, "Table options do not contain an option key 'connector' for discovering a connector. Therefore, Flink assumes a managed table. However, a managed table factory that implements org.apache.flink.table.factories.ManagedTableFactory is not in the classpath.");
  }
  return t;
}

Result<std::shared_ptr<CatalogView>> Binder::BindCreateView(std::shared_ptr<const ast::CreateView> ddl) {
  auto path = catalog_->Resolve(ddl->name);
  if (!path.ok()) return Error(ddl->pos, path.status().message());
  ASSIGN_OR_RETURN(PlanNodePtr plan, BindQuery(*ddl->query));
  auto v = std::make_shared<CatalogView>();
  v->path = *path;
  v->temporary = ddl->temporary;
  v->ddl = ddl;
  if (!ddl->columns.empty()) {
    if (ddl->columns.size() != plan->schema.size()) {
      return Error(ddl->pos, "VIEW's field list has " + std::to_string(ddl->columns.size()) + " columns but the query has " +
                                 std::to_string(plan->schema.size()));
    }
    for (size_t i = 0; i < ddl->columns.size(); ++i) v->schema.Add(ddl->columns[i], plan->schema.field(i).type);
  } else {
    v->schema = plan->schema;
  }
  return v;
}

}  // namespace sluice
