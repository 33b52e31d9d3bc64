#include "function/expression.h"

#include "function/scalar_function.h"
#include "types/value_format.h"

namespace sluice {

namespace {

std::string Quoted(const char* prefix, const std::string& text) {
  std::string s = prefix;
  s += text;
  s += "'";
  return s;
}

std::string LiteralSql(const Value& v) {
  if (v.is_null()) {
    std::string s = "null:";
    s += v.type().ToString();
    return s;
  }
  const LogicalType& t = v.type();
  std::string text;
  AppendValueText(v, &text);
  switch (t.id()) {
    case TypeId::kChar:
    case TypeId::kVarChar: {
      std::string q = "'";
      for (char c : text) {
        if (c == '\'') q.push_back('\'');
        q.push_back(c);
      }
      q.push_back('\'');
      return q;
    }
    case TypeId::kDate: return Quoted("DATE '", text);
    case TypeId::kTime: return Quoted("TIME '", text);
    case TypeId::kTimestamp: return Quoted("TIMESTAMP '", text);
    case TypeId::kTimestampLtz: return Quoted("TIMESTAMP_WITH_LOCAL_TIME_ZONE '", text);
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

}  // namespace

std::string Expr::ToString(const std::vector<std::string>* input_names) const {
  // Built with += (not chains of operator+) to keep GCC 12's -Wrestrict false positive away at -O3.
  std::string s;
  auto append_args = [&](size_t from) {
    for (size_t i = from; i < args.size(); ++i) {
      if (i > from) s += ", ";
      s += args[i]->ToString(input_names);
    }
  };
  switch (kind) {
    case ExprKind::kColumnRef:
      if (input_names != nullptr && column_index >= 0 && static_cast<size_t>(column_index) < input_names->size()) {
        return (*input_names)[static_cast<size_t>(column_index)];
      }
      s = "$";
      s += std::to_string(column_index);
      return s;
    case ExprKind::kLiteral: return LiteralSql(literal);
    case ExprKind::kCast:
      s = is_try ? "TRY_CAST(" : "CAST(";
      s += args[0]->ToString(input_names);
      s += " AS ";
      s += type.WithNullable(true).ToString();
      s += ")";
      return s;
    case ExprKind::kAnd:
    case ExprKind::kOr:
      s = kind == ExprKind::kAnd ? "AND(" : "OR(";
      append_args(0);
      s += ")";
      return s;
    case ExprKind::kCase:
    case ExprKind::kCoalesce:
      s = kind == ExprKind::kCase ? "CASE(" : "COALESCE(";
      append_args(0);
      if (kind == ExprKind::kCase && !has_else) {
        s += ", null:";
        s += type.WithNullable(true).ToString();
      }
      s += ")";
      return s;
    case ExprKind::kCall: {
      const std::string& name = function->name;
      if (args.size() == 2 && IsInfixOperator(name)) {
        s = "(";
        s += args[0]->ToString(input_names);
        s += " ";
        s += name;
        s += " ";
        s += args[1]->ToString(input_names);
        s += ")";
        return s;
      }
      if (args.size() == 1 && name == "NEGATE") {
        s = "-(";
        s += args[0]->ToString(input_names);
        s += ")";
        return s;
      }
      if (args.size() == 2 && name == "$FIELD" && args[1]->kind == ExprKind::kLiteral && !args[1]->literal.is_null()) {
        const LogicalType& rt = args[0]->type;
        size_t idx = static_cast<size_t>(args[1]->literal.int_value());
        if (idx < rt.num_children()) {
          s = args[0]->ToString(input_names);
          s += ".";
          s += rt.field_name(idx);
          return s;
        }
      }
      s = name;
      s += "(";
      append_args(0);
      s += ")";
      return s;
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
