#include "function/expression.h"

#include "function/scalar_function.h"
#include "types/value_format.h"

namespace sluice {

namespace {

std::string LiteralSql(const Value& v) {
  if (v.is_null()) return "null:" + v.type().ToString();
  const LogicalType& t = v.type();
  std::string text;
  AppendValueText(v, &text);
  switch (t.id()) {
    case TypeId::kChar:
    case TypeId::kVarChar: {
      std::string q = "_UTF-16LE'";
      for (char c : text) {
        if (c == '\'') q.push_back('\'');
        q.push_back(c);
      }
      q.push_back('\'');
      return q;
    }
    case TypeId::kDate: return "DATE '" + text + "'";
    case TypeId::kTime: return "TIME '" + text + "'";
    case TypeId::kTimestamp: return "TIMESTAMP '" + text + "'";
    case TypeId::kTimestampLtz: return "TIMESTAMP_WITH_LOCAL_TIME_ZONE '" + text + "'";
    default: return text;
  }
}

bool IsInfixOperator(const std::string& name) {
  static const char* const kOps[] = {"+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">=", "||",
                                     "IS DISTINCT FROM", "IS NOT DISTINCT FROM", "LIKE", "SIMILAR TO"};
  for (const char* op : kOps) {
    if (name == op) return true;
  }
  return false;
}

bool IsPostfixOperator(const std::string& name) {
  return name == "IS NULL" || name == "IS NOT NULL" || name == "IS TRUE" || name == "IS NOT TRUE" ||
         name == "IS FALSE" || name == "IS NOT FALSE";
}

}  // namespace

std::string Expr::ToString(const std::vector<std::string>* input_names) const {
  auto arg = [&](size_t i) { return args[i]->ToString(input_names); };
  switch (kind) {
    case ExprKind::kColumnRef:
      if (input_names != nullptr && column_index >= 0 && static_cast<size_t>(column_index) < input_names->size()) {
        return (*input_names)[static_cast<size_t>(column_index)];
      }
      return "$" + std::to_string(column_index);
    case ExprKind::kLiteral: return LiteralSql(literal);
    case ExprKind::kCast:
      return std::string(is_try ? "TRY_CAST(" : "CAST(") + arg(0) + " AS " + type.WithNullable(true).ToString() + ")";
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      std::string s = kind == ExprKind::kAnd ? "AND(" : "OR(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + arg(i);
      return s + ")";
    }
    case ExprKind::kCase:
    case ExprKind::kCoalesce: {
      std::string s = kind == ExprKind::kCase ? "CASE(" : "COALESCE(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + arg(i);
      if (kind == ExprKind::kCase && !has_else) s += ", null:" + type.WithNullable(true).ToString();
      return s + ")";
    }
    case ExprKind::kCall: {
      const std::string& name = function->name;
      if (args.size() == 2 && IsInfixOperator(name)) return "(" + arg(0) + " " + name + " " + arg(1) + ")";
      if (args.size() == 1 && IsPostfixOperator(name)) return name + "(" + arg(0) + ")";
      if (args.size() == 1 && name == "NEGATE") return "-(" + arg(0) + ")";
      if (args.size() == 2 && name == "$FIELD" && args[1]->kind == ExprKind::kLiteral && !args[1]->literal.is_null()) {
        const LogicalType& rt = args[0]->type;
        size_t idx = static_cast<size_t>(args[1]->literal.int_value());
        if (idx < rt.num_children()) return arg(0) + "." + rt.field_name(idx);
      }
      std::string s = name + "(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + arg(i);
      return s + ")";
    }
  }
  return "?";
}

bool Expr::IsConstant() const {
  if (kind == ExprKind::kColumnRef) return false;
  if (kind == ExprKind::kCall && (function == nullptr || !function->deterministic)) return false;
  for (const auto& a : args) {
    if (!a->IsConstant()) return false;
  }
  return true;
}

ExprPtr MakeColumnRef(int index, LogicalType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumnRef;
  e->column_index = index;
  e->type = std::move(type);
  return e;
}

ExprPtr MakeLiteral(Value v) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLiteral;
  e->type = v.type();
  e->literal = std::move(v);
  return e;
}

ExprPtr MakeCall(std::shared_ptr<const ScalarFunction> fn, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->type = fn->return_type;
  e->function = std::move(fn);
  e->args = std::move(args);
  return e;
}

ExprPtr MakeCast(ExprPtr arg, LogicalType type, bool is_try) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCast;
  // Flink: CAST keeps the argument's nullability; TRY_CAST is always nullable.
  e->type = is_try ? type.WithNullable(true) : type;
  e->args.push_back(std::move(arg));
  e->is_try = is_try;
  return e;
}

}  // namespace sluice
