#include "connectors/iceberg/iceberg_filter.h"

#include <cmath>

#include "function/cast.h"
#include "function/evaluator.h"
#include "function/scalar_function.h"

namespace sluice {
namespace {

constexpr __int128 kMaxUnscaled = static_cast<__int128>(1000000000000000000LL) * 1000000000000000000LL * 100;

IcebergOp Negated(IcebergOp op) {
  switch (op) {
    case IcebergOp::kTrue: return IcebergOp::kFalse;
    case IcebergOp::kFalse: return IcebergOp::kTrue;
    case IcebergOp::kAnd: return IcebergOp::kOr;
    case IcebergOp::kOr: return IcebergOp::kAnd;
    case IcebergOp::kIsNull: return IcebergOp::kNotNull;
    case IcebergOp::kNotNull: return IcebergOp::kIsNull;
    case IcebergOp::kLt: return IcebergOp::kGtEq;
    case IcebergOp::kLtEq: return IcebergOp::kGt;
    case IcebergOp::kGt: return IcebergOp::kLtEq;
    case IcebergOp::kGtEq: return IcebergOp::kLt;
    case IcebergOp::kEq: return IcebergOp::kNotEq;
    case IcebergOp::kNotEq: return IcebergOp::kEq;
    case IcebergOp::kIn: return IcebergOp::kNotIn;
    case IcebergOp::kNotIn: return IcebergOp::kIn;
    case IcebergOp::kStartsWith: return IcebergOp::kStartsWith;  // not negatable: callers refuse it
  }
  return op;
}

// The comparison a call names, with the column on the left (`flipped` when it was on the right).
std::optional<IcebergOp> ComparisonOp(const std::string& name, bool flipped) {
  if (name == "=") return IcebergOp::kEq;
  if (name == "<>") return IcebergOp::kNotEq;
  if (name == "<") return flipped ? IcebergOp::kGt : IcebergOp::kLt;
  if (name == "<=") return flipped ? IcebergOp::kGtEq : IcebergOp::kLtEq;
  if (name == ">") return flipped ? IcebergOp::kLt : IcebergOp::kGt;
  if (name == ">=") return flipped ? IcebergOp::kLtEq : IcebergOp::kGtEq;
  return std::nullopt;
}

bool IsFloating(const IcebergType& t) { return t.id() == IcebergTypeId::kFloat || t.id() == IcebergTypeId::kDouble; }

__int128 Pow10(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// One column of a predicate: its field (id, or ordinal when converting without a schema) and types.
struct Column {
  int32_t field = 0;
  IcebergType type;
};

// Integer digits a type's values can have.
int IntegerDigits(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kTinyInt: return 3;
    case TypeId::kSmallInt: return 5;
    case TypeId::kInteger: return 10;
    case TypeId::kBigInt: return 19;
    case TypeId::kDecimal: return t.precision() - t.scale();
    default: return 1000;
  }
}

// Whether CAST(from AS to) maps distinct values to distinct values in the same order, so a
// comparison of the cast column with a literal compares the column's own values.
bool KeepsValues(const LogicalType& from, const LogicalType& to) {
  if (from.IsIntegral() && to.IsIntegral()) return from.id() <= to.id();
  if ((from.IsIntegral() || from.id() == TypeId::kDecimal) && to.id() == TypeId::kDecimal) {
    int from_scale = from.id() == TypeId::kDecimal ? from.scale() : 0;
    return to.scale() >= from_scale && to.precision() - to.scale() >= IntegerDigits(from);
  }
  if (to.id() == TypeId::kDouble) {
    return from.id() == TypeId::kFloat || from.id() == TypeId::kDouble || (from.IsIntegral() && from.id() <= TypeId::kInteger);
  }
  if (from.id() == TypeId::kVarChar && to.id() == TypeId::kVarChar) return true;
  if (from.id() == to.id() && from.IsTimestamp()) return to.precision() >= from.precision();
  return false;
}

class Converter {
 public:
  Converter(const Schema& physical, const IcebergSchema* schema) : physical_(physical), schema_(schema) {}

  std::optional<IcebergFilter> Convert(const Expr& e, bool negate) {
    switch (e.kind) {
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        std::vector<IcebergFilter> children;
        for (const auto& a : e.args) {
          auto c = Convert(*a, negate);
          if (!c) return std::nullopt;
          children.push_back(std::move(*c));
        }
        bool conj = (e.kind == ExprKind::kAnd) != negate;
        return conj ? IcebergFilter::And(std::move(children)) : IcebergFilter::Or(std::move(children));
      }
      case ExprKind::kColumnRef: {
        // A BOOLEAN column as a condition: col = true (NOT col: col = false).
        auto col = ColumnOf(e);
        if (!col || col->type.id() != IcebergTypeId::kBoolean) return std::nullopt;
        return IcebergFilter::Predicate(IcebergOp::kEq, col->field, {IcebergLiteral::Boolean(!negate)});
      }
      case ExprKind::kCall: return ConvertCall(e, negate);
      default: return std::nullopt;
    }
  }

 private:
  std::optional<IcebergFilter> ConvertCall(const Expr& e, bool negate) {
    const std::string& name = e.function->name;
    const auto& args = e.args;
    if (name == "NOT" && args.size() == 1) return Convert(*args[0], !negate);
    if ((name == "IS NULL" || name == "IS NOT NULL") && args.size() == 1) {
      auto col = ColumnOf(*args[0]);
      if (!col) return std::nullopt;
      IcebergOp op = name == "IS NULL" ? IcebergOp::kIsNull : IcebergOp::kNotNull;
      return IcebergFilter::Predicate(negate ? Negated(op) : op, col->field);
    }
    if (name == "BETWEEN" && args.size() == 3) {
      auto col = ColumnOf(*args[0]);
      if (!col) return std::nullopt;
      auto lo = LiteralOf(*args[1], *col);
      auto hi = LiteralOf(*args[2], *col);
      if (!lo || !hi) return std::nullopt;
      std::vector<IcebergFilter> both;
      auto a = Leaf(IcebergOp::kGtEq, *col, {*lo}, negate);
      auto b = Leaf(IcebergOp::kLtEq, *col, {*hi}, negate);
      if (!a || !b) return std::nullopt;
      both.push_back(std::move(*a));
      both.push_back(std::move(*b));
      return negate ? IcebergFilter::Or(std::move(both)) : IcebergFilter::And(std::move(both));
    }
    if (name == "IN" && args.size() >= 2) {
      auto col = ColumnOf(*args[0]);
      if (!col) return std::nullopt;
      std::vector<IcebergLiteral> values;
      bool has_null = false;
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i]->kind == ExprKind::kLiteral && args[i]->literal.is_null()) {
          has_null = true;  // x IN (.., NULL) is never true through the NULL
          continue;
        }
        auto v = LiteralOf(*args[i], *col);
        if (!v) return std::nullopt;
        values.push_back(std::move(*v));
      }
      // NOT IN with a NULL in the list is never true.
      if (negate && has_null) return IcebergFilter::False();
      if (values.empty()) return IcebergFilter::False();
      return IcebergFilter::Predicate(negate ? IcebergOp::kNotIn : IcebergOp::kIn, col->field, std::move(values));
    }
    if (name == "LIKE" && args.size() == 2 && !negate) return ConvertLike(*args[0], *args[1]);
    if (args.size() == 2) {
      bool flipped = ColumnOf(*args[0]) == std::nullopt;
      const Expr& c = flipped ? *args[1] : *args[0];
      const Expr& l = flipped ? *args[0] : *args[1];
      auto op = ComparisonOp(name, flipped);
      auto col = ColumnOf(c);
      if (!op || !col) return std::nullopt;
      if (l.kind == ExprKind::kLiteral && l.literal.is_null()) return IcebergFilter::False();
      auto lit = LiteralOf(l, *col);
      if (!lit) return std::nullopt;
      return Leaf(*op, *col, {*lit}, negate);
    }
    return std::nullopt;
  }

  std::optional<IcebergFilter> Leaf(IcebergOp op, const Column& col, std::vector<IcebergLiteral> lits, bool negate) {
    if (negate) {
      // NaN is neither < nor >= anything, so the negation of an ordering is not an ordering.
      bool ordering = op == IcebergOp::kLt || op == IcebergOp::kLtEq || op == IcebergOp::kGt || op == IcebergOp::kGtEq;
      if (ordering && IsFloating(col.type)) return std::nullopt;
      op = Negated(op);
    }
    return IcebergFilter::Predicate(op, col.field, std::move(lits));
  }

  // s LIKE 'abc%' (a prefix without wildcards or escapes, then one '%'): startsWith(s, 'abc').
  std::optional<IcebergFilter> ConvertLike(const Expr& s, const Expr& pattern) {
    auto col = ColumnOf(s);
    if (!col || col->type.id() != IcebergTypeId::kString) return std::nullopt;
    if (pattern.kind != ExprKind::kLiteral || pattern.literal.is_null() ||
        !pattern.literal.type().IsCharacterString()) {
      return std::nullopt;
    }
    const std::string& p = pattern.literal.string_value();
    if (p.size() < 2 || p.back() != '%') return std::nullopt;
    std::string prefix = p.substr(0, p.size() - 1);
    if (prefix.find_first_of("%_\\") != std::string::npos) return std::nullopt;
    return IcebergFilter::Predicate(IcebergOp::kStartsWith, col->field, {IcebergLiteral::String(prefix)});
  }

  // A top-level column of a type with Iceberg statistics, possibly under a cast that keeps every
  // value (the binder widens a column to the comparison's common type).
  std::optional<Column> ColumnOf(const Expr& e) {
    const Expr* x = &e;
    if (x->kind == ExprKind::kCast && !x->is_try && x->args[0]->kind == ExprKind::kColumnRef &&
        KeepsValues(x->args[0]->type, x->type)) {
      x = x->args[0].get();
    }
    if (x->kind != ExprKind::kColumnRef || x->column_index < 0 ||
        static_cast<size_t>(x->column_index) >= physical_.size()) {
      return std::nullopt;
    }
    const Field& f = physical_.field(static_cast<size_t>(x->column_index));
    const LogicalType& t = f.type;
    // CHAR pads, BINARY/BYTES and nested columns are not compared here.
    if (t.id() == TypeId::kChar || t.IsBinaryString() || t.IsInterval()) return std::nullopt;
    Column col;
    if (schema_ == nullptr) {
      int32_t next_id = 1;
      auto it = ToIcebergType(t, &next_id);
      if (!it.ok()) return std::nullopt;
      col.field = x->column_index;
      col.type = *it;
    } else {
      const IcebergField* field = nullptr;
      for (const auto& top : schema_->fields()) {
        if (top.name == f.name) field = &top;
      }
      if (field == nullptr) return std::nullopt;
      col.field = field->id;
      col.type = field->type;
    }
    if (!col.type.IsPrimitive() || col.type.id() == IcebergTypeId::kUuid || col.type.id() == IcebergTypeId::kFixed ||
        col.type.id() == IcebergTypeId::kBinary) {
      return std::nullopt;
    }
    return col;
  }

  // A literal (or a cast of one) as an exact value of the column's Iceberg type.
  std::optional<IcebergLiteral> LiteralOf(const Expr& e, const Column& col) {
    Value v;
    if (e.kind == ExprKind::kLiteral) {
      v = e.literal;
    } else if (e.kind == ExprKind::kCast && e.args[0]->kind == ExprKind::kLiteral) {
      EvalContext ctx;
      auto cast = CastValue(ctx, e.args[0]->literal, e.type, e.is_try);
      if (!cast.ok()) return std::nullopt;
      v = *cast;
    } else {
      return std::nullopt;
    }
    if (v.is_null()) return std::nullopt;
    const LogicalType& t = v.type();
    const IcebergType& it = col.type;
    switch (it.id()) {
      case IcebergTypeId::kBoolean:
        if (t.id() != TypeId::kBoolean) return std::nullopt;
        return IcebergLiteral::Boolean(v.bool_value());
      case IcebergTypeId::kInt:
      case IcebergTypeId::kLong: {
        if (!t.IsIntegral()) return std::nullopt;
        int64_t x = v.int_value();
        if (it.id() == IcebergTypeId::kInt && (x < INT32_MIN || x > INT32_MAX)) return std::nullopt;
        return IcebergLiteral::OfInt(it, x);
      }
      case IcebergTypeId::kFloat:
      case IcebergTypeId::kDouble: {
        double d;
        if (t.IsIntegral()) d = static_cast<double>(v.int_value());
        else if (t.IsApproximate()) d = v.double_value();
        else return std::nullopt;
        if (std::isnan(d)) return std::nullopt;
        return IcebergLiteral::Double(d);  // compared as doubles, as Sluice compares the columns
      }
      case IcebergTypeId::kDecimal: {
        __int128 unscaled;
        int scale;
        if (t.IsIntegral()) {
          unscaled = v.int_value();
          scale = 0;
        } else if (t.id() == TypeId::kDecimal) {
          unscaled = v.decimal_value();
          scale = t.scale();
        } else {
          return std::nullopt;
        }
        if (scale > it.scale()) {
          __int128 div = Pow10(scale - it.scale());
          if (unscaled % div != 0) return std::nullopt;
          unscaled /= div;
        } else {
          __int128 mul = Pow10(it.scale() - scale);
          if (unscaled > kMaxUnscaled / mul || unscaled < -kMaxUnscaled / mul) return std::nullopt;
          unscaled *= mul;
        }
        return IcebergLiteral::Decimal(unscaled, it.precision(), it.scale());
      }
      case IcebergTypeId::kString:
        if (!t.IsCharacterString()) return std::nullopt;
        return IcebergLiteral::String(v.string_value());
      case IcebergTypeId::kDate:
        if (t.id() != TypeId::kDate) return std::nullopt;
        return IcebergLiteral::Date(static_cast<int32_t>(v.int_value()));
      case IcebergTypeId::kTime:
        if (t.id() != TypeId::kTime) return std::nullopt;
        return IcebergLiteral::Time(v.int_value() * 1000);  // Sluice's TIME is milliseconds
      case IcebergTypeId::kTimestamp:
      case IcebergTypeId::kTimestampNs:
      case IcebergTypeId::kTimestampTz:
      case IcebergTypeId::kTimestampTzNs: {
        bool tz = it.id() == IcebergTypeId::kTimestampTz || it.id() == IcebergTypeId::kTimestampTzNs;
        if (t.id() != (tz ? TypeId::kTimestampLtz : TypeId::kTimestamp)) return std::nullopt;
        bool ns = it.id() == IcebergTypeId::kTimestampNs || it.id() == IcebergTypeId::kTimestampTzNs;
        return IcebergLiteral::OfInt(it, ns ? v.int_value() * 1000 : v.int_value());
      }
      default: return std::nullopt;
    }
  }

  const Schema& physical_;
  const IcebergSchema* schema_;
};

}  // namespace

IcebergFilter IcebergFilter::And(std::vector<IcebergFilter> children) {
  std::vector<IcebergFilter> kept;
  for (auto& c : children) {
    if (c.op == IcebergOp::kFalse) return False();
    if (c.op != IcebergOp::kTrue) kept.push_back(std::move(c));
  }
  if (kept.empty()) return True();
  if (kept.size() == 1) return std::move(kept[0]);
  return {IcebergOp::kAnd, std::move(kept), 0, {}};
}

IcebergFilter IcebergFilter::Or(std::vector<IcebergFilter> children) {
  std::vector<IcebergFilter> kept;
  for (auto& c : children) {
    if (c.op == IcebergOp::kTrue) return True();
    if (c.op != IcebergOp::kFalse) kept.push_back(std::move(c));
  }
  if (kept.empty()) return False();
  if (kept.size() == 1) return std::move(kept[0]);
  return {IcebergOp::kOr, std::move(kept), 0, {}};
}

std::optional<IcebergFilter> ConvertIcebergFilter(const Expr& filter, const Schema& physical,
                                                  const IcebergSchema* schema) {
  return Converter(physical, schema).Convert(filter, false);
}

std::optional<int> CompareIcebergValues(const IcebergLiteral& a, const IcebergLiteral& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  if (IsFloating(a.type()) || IsFloating(b.type())) {
    double x = IsFloating(a.type()) ? a.double_value() : static_cast<double>(a.int_value());
    double y = IsFloating(b.type()) ? b.double_value() : static_cast<double>(b.int_value());
    if (std::isnan(x) || std::isnan(y)) return std::nullopt;
    return sign(x, y);
  }
  switch (a.type().id()) {
    case IcebergTypeId::kDecimal: return sign(a.unscaled(), b.unscaled());
    case IcebergTypeId::kString:
    case IcebergTypeId::kUuid:
    case IcebergTypeId::kFixed:
    case IcebergTypeId::kBinary: {
      int c = a.bytes().compare(b.bytes());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default: return sign(a.int_value(), b.int_value());
  }
}

}  // namespace sluice
