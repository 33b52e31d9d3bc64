// See unparser.h.
#include "sql/unparser.h"

#include "sql/lexer.h"
#include "sql/unparser_internal.h"

#include <cctype>
#include <string>

namespace sluice::sql {

using namespace ast;  // NOLINT: the unparser prints every kind of node

std::string NameText(const Name& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i) out += ".";
    out += QuoteIdentifier(name[i]);
  }
  return out;
}

std::string IdentifierList(const std::vector<std::string>& ids) {
  std::string out = "(";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ", ";
    out += QuoteIdentifier(ids[i]);
  }
  return out + ")";
}

std::string PropertiesText(const PropertyList& props) {
  std::string out = "(";
  for (size_t i = 0; i < props.size(); ++i) {
    if (i) out += ", ";
    out += QuoteString(props[i].first) + " = " + QuoteString(props[i].second);
  }
  return out + ")";
}

namespace {

// Binding strength of an expression's top operator, as the parser's precedence climbing sees it:
// a child prints in parentheses when it binds less tightly than its place requires.
enum Level : int {
  kLevelOr = 1,
  kLevelAnd = 2,
  kLevelNot = 3,
  kLevelPredicate = 4,  // comparisons, IS, BETWEEN, IN, LIKE
  kLevelAdditive = 5,
  kLevelMultiplicative = 6,
  kLevelUnary = 7,
  kLevelPrimary = 8,
};

int LevelOf(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::kBinary:
      switch (e.As<Binary>().op) {
        case BinaryOp::kOr: return kLevelOr;
        case BinaryOp::kAnd: return kLevelAnd;
        case BinaryOp::kAdd:
        case BinaryOp::kSub: return kLevelAdditive;
        case BinaryOp::kMul:
        case BinaryOp::kDiv:
        case BinaryOp::kMod:
        case BinaryOp::kConcat: return kLevelMultiplicative;
        default: return kLevelPredicate;
      }
    case ExprKind::kUnary: return e.As<Unary>().op == UnaryOp::kNot ? kLevelNot : kLevelUnary;
    case ExprKind::kIs:
    case ExprKind::kIsDistinctFrom:
    case ExprKind::kBetween:
    case ExprKind::kIn:
    case ExprKind::kLike: return kLevelPredicate;
    default: return kLevelPrimary;
  }
}

class Unparser : public UnparserBase {
 public:
  explicit Unparser(bool full_parens = false) : full_parens_(full_parens) {}

  // `e` in a place that needs at least `min_level` binding strength.
  std::string Expr(const ast::Expr& e, int min_level = 0) override {
    int level = LevelOf(e);
    std::string text = ExprBody(e);
    if (level < kLevelPrimary && (full_parens_ || level < min_level)) return "(" + text + ")";
    return text;
  }

  std::string ExprBody(const ast::Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral: return LiteralText(e.As<Literal>());
      case ExprKind::kIntervalLiteral: return IntervalText(e.As<IntervalLiteral>());
      case ExprKind::kIdentifier: return NameText(e.As<Identifier>().parts);
      case ExprKind::kStar: {
        const auto& s = e.As<Star>();
        return s.qualifier.empty() ? "*" : NameText(s.qualifier) + ".*";
      }
      case ExprKind::kUnary:
      case ExprKind::kBinary:
      case ExprKind::kIs:
      case ExprKind::kIsDistinctFrom:
      case ExprKind::kBetween:
      case ExprKind::kIn:
      case ExprKind::kLike: return OperatorText(e);
      case ExprKind::kCall: return CallText(e.As<Call>());
      case ExprKind::kCast: {
        const auto& c = e.As<Cast>();
        return std::string(c.try_cast ? "TRY_CAST(" : "CAST(") + Expr(*c.operand) + " AS " + UnparseType(c.type) + ")";
      }
      case ExprKind::kCase: {
        const auto& c = e.As<Case>();
        std::string out = "CASE";
        if (c.operand) out += " " + Expr(*c.operand);
        for (const auto& [when, then] : c.when_then) out += " WHEN " + Expr(*when) + " THEN " + Expr(*then);
        if (c.else_expr) out += " ELSE " + Expr(*c.else_expr);
        return out + " END";
      }
      case ExprKind::kExtract: {
        const auto& x = e.As<Extract>();
        return std::string("EXTRACT(") + TimeUnitName(x.unit) + " FROM " + Expr(*x.operand) + ")";
      }
      case ExprKind::kFloorCeil: {
        const auto& f = e.As<FloorCeil>();
        return std::string(f.ceil ? "CEIL(" : "FLOOR(") + Expr(*f.operand) + " TO " + TimeUnitName(f.unit) + ")";
      }
      case ExprKind::kTrim: {
        const auto& t = e.As<Trim>();
        static const char* kModes[] = {"BOTH", "LEADING", "TRAILING"};
        std::string out = std::string("TRIM(") + kModes[static_cast<int>(t.mode)] + " ";
        if (t.chars) out += Expr(*t.chars) + " ";
        return out + "FROM " + Expr(*t.operand) + ")";
      }
      case ExprKind::kTimeUnit: return TimeUnitName(e.As<TimeUnitExpr>().unit);
      case ExprKind::kArrayCtor: return "ARRAY[" + ExprList(e.As<ArrayCtor>().elements) + "]";
      case ExprKind::kMapCtor: return "MAP[" + ExprList(e.As<MapCtor>().elements) + "]";
      case ExprKind::kRowCtor: {
        const auto& r = e.As<RowCtor>();
        // An implicit row of one field would read back as a parenthesized expression.
        bool explicit_row = r.explicit_row || r.fields.size() < 2;
        return (explicit_row ? "ROW(" : "(") + ExprList(r.fields) + ")";
      }
      case ExprKind::kSubscript: {
        const auto& s = e.As<Subscript>();
        return Expr(*s.base, kLevelPrimary) + "[" + Expr(*s.index) + "]";
      }
      case ExprKind::kFieldAccess: {
        const auto& f = e.As<FieldAccess>();
        std::string base = Expr(*f.base, kLevelPrimary);
        // A bare identifier chain would absorb the field into its name; keep it apart.
        if (f.base->kind == ExprKind::kIdentifier) base = "(" + base + ")";
        return base + "." + QuoteIdentifier(f.field);
      }
      case ExprKind::kSubquery: return "(" + Query(*e.As<SubqueryExpr>().query) + ")";
      case ExprKind::kExists: return "EXISTS (" + Query(*e.As<Exists>().query) + ")";
      case ExprKind::kDescriptor: return "DESCRIPTOR" + IdentifierList(e.As<Descriptor>().columns);
      case ExprKind::kTableArg: {
        const auto& t = e.As<TableArg>();
        std::string out = "TABLE " + NameText(t.table);
        if (t.partition_by.size() == 1) out += " PARTITION BY " + Expr(*t.partition_by[0]);
        if (t.partition_by.size() > 1) out += " PARTITION BY (" + ExprList(t.partition_by) + ")";
        return out;
      }
    }
    SLUICE_UNREACHABLE();
  }

  // Unary and binary operators and the predicates (IS, IS DISTINCT FROM, BETWEEN, IN, LIKE).
  std::string OperatorText(const ast::Expr& e) {
    switch (e.kind) {
      case ExprKind::kUnary: {
        const auto& u = e.As<Unary>();
        if (u.op == UnaryOp::kNot) return "NOT " + Expr(*u.operand, kLevelNot);
        std::string operand = Expr(*u.operand, kLevelUnary);
        // "--" would start a comment.
        std::string op = u.op == UnaryOp::kMinus ? "-" : "+";
        if (!operand.empty() && (operand[0] == '-' || operand[0] == '+')) op += " ";
        return op + operand;
      }
      case ExprKind::kBinary: {
        const auto& b = e.As<Binary>();
        int level = LevelOf(e);
        // Left-associative: the left operand may bind as loosely as this operator, the right one
        // must bind more tightly (comparisons take an additive right operand).
        int right_level = level == kLevelAnd ? kLevelNot : level + 1;
        return Expr(*b.left, level) + " " + BinaryOpName(b.op) + " " + Expr(*b.right, right_level);
      }
      case ExprKind::kIs: {
        const auto& is = e.As<IsExpr>();
        static const char* kNames[] = {"NULL", "TRUE", "FALSE", "UNKNOWN"};
        return Expr(*is.operand, kLevelPredicate) + (is.negated ? " IS NOT " : " IS ") +
               kNames[static_cast<int>(is.is_kind)];
      }
      case ExprKind::kIsDistinctFrom: {
        const auto& d = e.As<IsDistinctFrom>();
        return Expr(*d.left, kLevelPredicate) + (d.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") +
               Expr(*d.right, kLevelAdditive);
      }
      case ExprKind::kBetween: {
        const auto& b = e.As<Between>();
        return Expr(*b.operand, kLevelPredicate) + (b.negated ? " NOT" : "") + " BETWEEN " +
               (b.symmetric ? "SYMMETRIC " : "") + Expr(*b.low, kLevelAdditive) + " AND " +
               Expr(*b.high, kLevelAdditive);
      }
      case ExprKind::kIn: {
        const auto& in = e.As<In>();
        std::string out = Expr(*in.operand, kLevelPredicate) + (in.negated ? " NOT IN (" : " IN (");
        if (in.subquery) {
          out += Query(*in.subquery);
        } else {
          out += ExprList(in.list);
        }
        return out + ")";
      }
      case ExprKind::kLike: {
        const auto& l = e.As<Like>();
        std::string out = Expr(*l.operand, kLevelPredicate) + (l.negated ? " NOT" : "") +
                          (l.similar ? " SIMILAR TO " : " LIKE ") + Expr(*l.pattern, kLevelAdditive);
        if (l.escape) out += " ESCAPE " + Expr(*l.escape, kLevelAdditive);
        return out;
      }
      default: break;
    }
    SLUICE_UNREACHABLE();
  }

  bool full_parens_;

  std::string ExprList(const std::vector<ExprPtr>& list) override {
    std::string out;
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ", ";
      out += Expr(*list[i]);
    }
    return out;
  }

  std::string LiteralText(const Literal& l) {
    switch (l.literal_kind) {
      case LiteralKind::kNull: return "NULL";
      case LiteralKind::kBoolean: return l.bool_value ? "TRUE" : "FALSE";
      case LiteralKind::kUnknown: return "UNKNOWN";
      case LiteralKind::kExactNumeric:
      case LiteralKind::kApproxNumeric: return l.text;
      case LiteralKind::kString: return QuoteString(l.text);
      case LiteralKind::kBinary: return "X'" + l.text + "'";
      case LiteralKind::kDate: return "DATE " + QuoteString(l.text);
      case LiteralKind::kTime: return "TIME " + QuoteString(l.text);
      case LiteralKind::kTimestamp: return "TIMESTAMP " + QuoteString(l.text);
      case LiteralKind::kTimestampLtz: return "TIMESTAMP_LTZ " + QuoteString(l.text);
    }
    SLUICE_UNREACHABLE();
  }

  std::string IntervalText(const IntervalLiteral& iv) {
    std::string out = "INTERVAL ";
    if (iv.negative) out += "-";
    out += QuoteString(iv.text) + " " + TimeUnitName(iv.start_unit);
    bool fraction_on_start = !iv.end_unit && iv.start_unit == TimeUnit::kSecond;
    if (iv.start_precision >= 0) {
      out += "(" + std::to_string(iv.start_precision);
      if (fraction_on_start && iv.fraction_precision >= 0) out += ", " + std::to_string(iv.fraction_precision);
      out += ")";
    }
    if (iv.end_unit) {
      out += std::string(" TO ") + TimeUnitName(*iv.end_unit);
      if (*iv.end_unit == TimeUnit::kSecond && iv.fraction_precision >= 0) {
        out += "(" + std::to_string(iv.fraction_precision) + ")";
      }
    }
    return out;
  }

  // Function names print as written when they are plain, unreserved words, so built-ins stay
  // readable; anything the parser would read as other syntax is backquoted.
  static std::string CallName(const Name& name, const Call* call = nullptr) {
    if (name.size() == 1) {
      const std::string& n = name[0];
      bool plain = !n.empty() && (std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_');
      for (char c : n) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      if (plain && !IsReservedWord(n) && (call == nullptr || !NeedsQuotedName(Upper(n), *call))) return n;
    }
    return NameText(name);
  }

  static std::string Upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
  }

  // Names with special call syntax in the parser: a call of that name prints plainly only when its
  // shape is the one the special syntax produces.
  static bool NeedsQuotedName(const std::string& upper, const Call& c) {
    bool simple = !c.distinct && !c.star && c.arg_names.empty();
    if (upper == "FLOOR" || upper == "CEIL" || upper == "CEILING") return !(simple && c.args.size() == 1);
    if (upper == "POSITION") return !(simple && c.args.size() == 2);
    if (upper == "OVERLAY") return !(simple && (c.args.size() == 3 || c.args.size() == 4));
    if (upper == "SUBSTRING") return !(simple && !c.args.empty());
    if (upper == "TIMESTAMPADD" || upper == "TIMESTAMPDIFF") {
      return !(simple && c.args.size() == 3 && c.args[0]->kind == ExprKind::kTimeUnit);
    }
    return upper == "CAST" || upper == "TRY_CAST" || upper == "EXTRACT" || upper == "TRIM" ||
           upper == "DESCRIPTOR" || upper == "ROW" || upper == "EXISTS";
  }

  std::string CallText(const Call& c) {
    std::string upper;
    if (c.name.size() == 1) {
      for (char ch : c.name[0]) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    }
    std::string out;
    if (c.no_parens) {
      out = c.name.size() == 1 ? c.name[0] : NameText(c.name);
    } else if (upper.rfind("IS_JSON_", 0) == 0 && c.args.size() == 1 && !c.distinct && !c.star) {
      // The parser's form of x IS JSON <kind>.
      out = "(" + Expr(*c.args[0], kLevelAdditive) + " IS JSON " + upper.substr(8) + ")";
    } else if ((upper == "JSON_OBJECT" || upper == "JSON_ARRAY") && !c.args.empty() &&
               c.args[0]->kind == ExprKind::kLiteral) {
      // The parser's form: a flags literal ('N' / 'A' for NULL / ABSENT ON NULL), then keys and values.
      const std::string& flags = static_cast<const Literal&>(*c.args[0]).text;
      const size_t step = upper == "JSON_OBJECT" ? 2 : 1;
      out = CallName(c.name) + "(";
      for (size_t i = 1; i + step - 1 < c.args.size(); i += step) {
        if (i > 1) out += ", ";
        if (step == 2) out += "KEY " + Expr(*c.args[i], kLevelAdditive) + " VALUE ";
        out += Expr(*c.args[i + step - 1]);
      }
      out += std::string(c.args.size() > 1 ? " " : "") + (flags.rfind('A', 0) == 0 ? "ABSENT" : "NULL") + " ON NULL)";
    } else if (upper == "JSON_QUERY" && c.args.size() == 5 && c.args[2]->kind == ExprKind::kLiteral) {
      // The parser's form of the clauses: wrapper, ON EMPTY and ON ERROR as string literals.
      auto text = [&](size_t i) { return static_cast<const Literal&>(*c.args[i]).text; };
      out = CallName(c.name) + "(" + Expr(*c.args[0]) + ", " + Expr(*c.args[1]) +
            (text(2) == "WITHOUT" ? " WITHOUT" : " WITH " + text(2)) + " ARRAY WRAPPER " + text(3) + " ON EMPTY " +
            text(4) + " ON ERROR)";
    } else if (upper == "JSON_EXISTS" && c.args.size() == 3 && c.args[2]->kind == ExprKind::kLiteral) {
      out = CallName(c.name) + "(" + Expr(*c.args[0]) + ", " + Expr(*c.args[1]) + " " +
            static_cast<const Literal&>(*c.args[2]).text + " ON ERROR)";
    } else if (upper == "POSITION" && !NeedsQuotedName(upper, c)) {
      out = CallName(c.name) + "(" + Expr(*c.args[0], kLevelAdditive) + " IN " + Expr(*c.args[1]) + ")";
    } else if (upper == "OVERLAY" && !NeedsQuotedName(upper, c)) {
      out = CallName(c.name) + "(" + Expr(*c.args[0]) + " PLACING " + Expr(*c.args[1]) + " FROM " + Expr(*c.args[2]);
      if (c.args.size() == 4) out += " FOR " + Expr(*c.args[3]);
      out += ")";
    } else {
      out = CallName(c.name, &c) + "(";
      if (c.distinct) out += "DISTINCT ";
      if (c.star) out += "*";
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (i) out += ", ";
        if (i < c.arg_names.size() && !c.arg_names[i].empty()) out += CallName({c.arg_names[i]}) + " => ";
        out += Expr(*c.args[i]);
      }
      out += ")";
    }
    if (c.filter) out += " FILTER (WHERE " + Expr(*c.filter) + ")";
    if (c.over) out += " OVER " + WindowSpecText(*c.over);
    if (!c.over_window.empty()) out += " OVER " + QuoteIdentifier(c.over_window);
    return out;
  }

  std::string OrderItems(const std::vector<OrderItem>& items) override {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += Expr(*items[i].expr);
      if (items[i].descending) out += " DESC";
      if (items[i].nulls == OrderItem::Nulls::kFirst) out += " NULLS FIRST";
      if (items[i].nulls == OrderItem::Nulls::kLast) out += " NULLS LAST";
    }
    return out;
  }

  std::string BoundText(const FrameBound& b) {
    switch (b.kind) {
      case FrameBound::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
      case FrameBound::Kind::kPreceding: return Expr(*b.offset, kLevelAdditive) + " PRECEDING";
      case FrameBound::Kind::kCurrentRow: return "CURRENT ROW";
      case FrameBound::Kind::kFollowing: return Expr(*b.offset, kLevelAdditive) + " FOLLOWING";
      case FrameBound::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
    }
    SLUICE_UNREACHABLE();
  }

  std::string WindowSpecText(const WindowSpec& w) {
    std::string out = "(";
    auto sep = [&] {
      if (out.size() > 1) out += " ";
    };
    if (!w.base_window.empty()) out += QuoteIdentifier(w.base_window);
    if (!w.partition_by.empty()) {
      sep();
      out += "PARTITION BY " + ExprList(w.partition_by);
    }
    if (!w.order_by.empty()) {
      sep();
      out += "ORDER BY " + OrderItems(w.order_by);
    }
    if (w.frame_unit != WindowSpec::FrameUnit::kNone) {
      sep();
      out += w.frame_unit == WindowSpec::FrameUnit::kRows ? "ROWS " : "RANGE ";
      if (w.frame_end) {
        out += "BETWEEN " + BoundText(w.frame_start) + " AND " + BoundText(*w.frame_end);
      } else {
        out += BoundText(w.frame_start);
      }
    }
    return out + ")";
  }

  std::string HintsText(const std::vector<Hint>& hints) {
    if (hints.empty()) return "";
    std::string out = "/*+ ";
    for (size_t i = 0; i < hints.size(); ++i) {
      const Hint& h = hints[i];
      if (i) out += ", ";
      out += h.name;
      if (!h.kv_options.empty()) {
        out += "(";
        for (size_t k = 0; k < h.kv_options.size(); ++k) {
          if (k) out += ", ";
          out += QuoteString(h.kv_options[k].first) + " = " + QuoteString(h.kv_options[k].second);
        }
        out += ")";
      } else if (!h.list_options.empty()) {
        out += "(";
        for (size_t k = 0; k < h.list_options.size(); ++k) {
          if (k) out += ", ";
          out += h.list_options[k];
        }
        out += ")";
      }
    }
    return out + " */";
  }

  std::string Alias(const TableRef& r) {
    if (r.alias.empty()) return "";
    std::string out = " AS " + QuoteIdentifier(r.alias);
    if (!r.column_aliases.empty()) out += IdentifierList(r.column_aliases);
    return out;
  }

  std::string TableRefText(const TableRef& r) override {
    switch (r.kind) {
      case TableRefKind::kTable: {
        const auto& t = r.As<TableName>();
        std::string out = NameText(t.name);
        if (!t.hints.empty()) out += " " + HintsText(t.hints);
        if (t.for_system_time) out += " FOR SYSTEM_TIME AS OF " + Expr(*t.for_system_time);
        return out + Alias(r);
      }
      case TableRefKind::kSubquery: {
        const auto& s = r.As<SubqueryRef>();
        return std::string(s.lateral ? "LATERAL " : "") + "(" + Query(*s.query) + ")" + Alias(r);
      }
      case TableRefKind::kJoin: {
        const auto& j = r.As<Join>();
        std::string out = TableRefText(*j.left);
        switch (j.join_type) {
          case JoinType::kComma: out += ", "; break;
          case JoinType::kCross: out += " CROSS JOIN "; break;
          case JoinType::kInner: out += j.natural ? " NATURAL JOIN " : " JOIN "; break;
          case JoinType::kLeft: out += j.natural ? " NATURAL LEFT JOIN " : " LEFT JOIN "; break;
          case JoinType::kRight: out += j.natural ? " NATURAL RIGHT JOIN " : " RIGHT JOIN "; break;
          case JoinType::kFull: out += j.natural ? " NATURAL FULL JOIN " : " FULL JOIN "; break;
        }
        std::string right = TableRefText(*j.right);
        if (j.right->kind == TableRefKind::kJoin) right = "(" + right + ")";
        out += right;
        if (j.on) out += " ON " + Expr(*j.on);
        if (!j.using_columns.empty()) out += " USING " + IdentifierList(j.using_columns);
        return out;
      }
      case TableRefKind::kTableFunction: {
        const auto& t = r.As<TableFunctionRef>();
        return std::string(t.lateral ? "LATERAL TABLE(" : "TABLE(") + Expr(*t.call) + ")" + Alias(r);
      }
      case TableRefKind::kUnnest: {
        const auto& u = r.As<Unnest>();
        return "UNNEST(" + ExprList(u.args) + ")" + (u.with_ordinality ? " WITH ORDINALITY" : "") + Alias(r);
      }
      case TableRefKind::kMatchRecognize: return MatchRecognizeText(*this, r.As<MatchRecognize>()) + Alias(r);
    }
    SLUICE_UNREACHABLE();
  }

  std::string GroupingText(const GroupingElement& g) {
    switch (g.kind) {
      case GroupingElement::Kind::kExpr: return Expr(*g.expr);
      case GroupingElement::Kind::kEmpty: return "()";
      case GroupingElement::Kind::kGroupingSets: return "GROUPING SETS (" + GroupingList(g.elements) + ")";
      case GroupingElement::Kind::kRollup: return "ROLLUP(" + GroupingList(g.elements) + ")";
      case GroupingElement::Kind::kCube: return "CUBE(" + GroupingList(g.elements) + ")";
    }
    SLUICE_UNREACHABLE();
  }

  std::string GroupingList(const std::vector<GroupingElement>& list) {
    std::string out;
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ", ";
      out += GroupingText(list[i]);
    }
    return out;
  }

  static bool HasOuterClauses(const ast::Query& q) {
    return !q.with.empty() || !q.order_by.empty() || q.limit || q.offset;
  }

  // A set operation's operand: parenthesized when it is itself a set operation or carries
  // clauses that would otherwise attach to the whole expression.
  std::string SetOperand(const ast::Query& q) {
    std::string text = Query(q);
    if (q.kind == QueryKind::kSetOp || HasOuterClauses(q)) return "(" + text + ")";
    return text;
  }

  std::string Query(const ast::Query& q) override {
    std::string out;
    if (!q.with.empty()) {
      out += "WITH ";
      for (size_t i = 0; i < q.with.size(); ++i) {
        const Cte& cte = q.with[i];
        if (i) out += ", ";
        out += QuoteIdentifier(cte.name);
        if (!cte.columns.empty()) out += " " + IdentifierList(cte.columns);
        out += " AS (" + Query(*cte.query) + ")";
      }
      out += " ";
    }
    switch (q.kind) {
      case QueryKind::kSelect: out += SelectBody(q.As<Select>()); break;
      case QueryKind::kSetOp: {
        const auto& s = q.As<SetOp>();
        static const char* kOps[] = {"UNION", "INTERSECT", "EXCEPT"};
        out += SetOperand(*s.left) + " " + kOps[static_cast<int>(s.op)] + (s.all ? " ALL " : " ") +
               SetOperand(*s.right);
        break;
      }
      case QueryKind::kValues: {
        const auto& v = q.As<Values>();
        out += "VALUES ";
        for (size_t i = 0; i < v.rows.size(); ++i) {
          if (i) out += ", ";
          out += "(" + ExprList(v.rows[i]) + ")";
        }
        break;
      }
    }
    if (!q.order_by.empty()) out += " ORDER BY " + OrderItems(q.order_by);
    if (q.limit) out += " LIMIT " + Expr(*q.limit);
    if (q.offset) out += " OFFSET " + Expr(*q.offset) + " ROWS";
    return out;
  }

  std::string SelectBody(const Select& s) {
    std::string out = "SELECT ";
    if (!s.hints.empty()) out += HintsText(s.hints) + " ";
    if (s.distinct) out += "DISTINCT ";
    for (size_t i = 0; i < s.items.size(); ++i) {
      if (i) out += ", ";
      out += Expr(*s.items[i].expr);
      if (!s.items[i].alias.empty()) out += " AS " + QuoteIdentifier(s.items[i].alias);
    }
    if (s.from) out += " FROM " + TableRefText(*s.from);
    if (s.where) out += " WHERE " + Expr(*s.where);
    if (!s.group_by.empty()) out += " GROUP BY " + GroupingList(s.group_by);
    if (s.having) out += " HAVING " + Expr(*s.having);
    if (!s.windows.empty()) {
      out += " WINDOW ";
      for (size_t i = 0; i < s.windows.size(); ++i) {
        if (i) out += ", ";
        out += QuoteIdentifier(s.windows[i].name) + " AS " + WindowSpecText(*s.windows[i].spec);
      }
    }
    return out;
  }

  std::string InsertText(const Insert& ins) {
    std::string out = ins.overwrite ? "INSERT OVERWRITE " : "INSERT INTO ";
    out += NameText(ins.target);
    if (!ins.hints.empty()) out += " " + HintsText(ins.hints);
    if (!ins.static_partition.empty()) {
      out += " PARTITION (";
      for (size_t i = 0; i < ins.static_partition.size(); ++i) {
        if (i) out += ", ";
        out += QuoteIdentifier(ins.static_partition[i].first) + " = " + Expr(*ins.static_partition[i].second);
      }
      out += ")";
    }
    if (!ins.columns.empty()) out += " " + IdentifierList(ins.columns);
    out += " " + Query(*ins.query);
    if (ins.on_conflict != InsertConflictStrategy::kNone) out += std::string(" ON CONFLICT DO ") + InsertConflictStrategyName(ins.on_conflict);
    return out;
  }

  std::string Statement(const ast::Statement& st) {
    switch (st.kind) {
      case StatementKind::kQuery: return Query(*st.As<QueryStatement>().query);
      case StatementKind::kCreateTable: return CreateTableText(*this, st.As<CreateTable>());
      case StatementKind::kCreateView: {
        const auto& v = st.As<CreateView>();
        std::string out = v.temporary ? "CREATE TEMPORARY VIEW " : "CREATE VIEW ";
        if (v.if_not_exists) out += "IF NOT EXISTS ";
        out += NameText(v.name);
        if (!v.columns.empty()) out += " " + IdentifierList(v.columns);
        if (v.comment) out += " COMMENT " + QuoteString(*v.comment);
        return out + " AS " + Query(*v.query);
      }
      case StatementKind::kDrop: {
        const auto& d = st.As<Drop>();
        static const char* kObject[] = {"TABLE ", "VIEW ", "CATALOG ", "DATABASE "};
        std::string out = "DROP ";
        if (d.temporary) out += "TEMPORARY ";
        out += kObject[static_cast<int>(d.object)];
        if (d.if_exists) out += "IF EXISTS ";
        out += NameText(d.name);
        if (d.cascade) out += " CASCADE";
        return out;
      }
      case StatementKind::kShow:
      case StatementKind::kCreateCatalog:
      case StatementKind::kCreateDatabase:
      case StatementKind::kUse:
      case StatementKind::kShowCreate:
      case StatementKind::kDescribe:
      case StatementKind::kSet:
      case StatementKind::kReset: return SessionStatement(st);
      case StatementKind::kInsert: return InsertText(st.As<Insert>());
      case StatementKind::kStatementSet: {
        const auto& s = st.As<StatementSet>();
        return StatementSetBody(s, s.execute_form ? "EXECUTE STATEMENT SET BEGIN\n" : "BEGIN STATEMENT SET;\n");
      }
      case StatementKind::kAlterTable: return AlterTableText(*this, st.As<AlterTable>());
      case StatementKind::kAlterView: {
        const auto& v = st.As<AlterView>();
        if (!v.query) return "ALTER VIEW " + NameText(v.name) + " RENAME TO " + NameText(v.new_name);
        return "ALTER VIEW " + NameText(v.name) + " AS " + Query(*v.query);
      }
      case StatementKind::kAlterFunction: {
        const auto& f = st.As<AlterFunction>();
        std::string out = std::string("ALTER ") + (f.temporary ? "TEMPORARY " : "") + (f.system ? "SYSTEM " : "") +
                          "FUNCTION " + (f.if_exists ? "IF EXISTS " : "") + NameText(f.name) + " AS " +
                          QuoteString(f.class_name);
        if (!f.language.empty()) out += " LANGUAGE " + f.language;
        return out;
      }
      case StatementKind::kCreateFunction: {
        const auto& f = st.As<CreateFunction>();
        std::string out = std::string("CREATE ") + (f.temporary ? "TEMPORARY " : "") + (f.system ? "SYSTEM " : "") +
                          "FUNCTION " + (f.if_not_exists ? "IF NOT EXISTS " : "") + NameText(f.name) + " AS " +
                          QuoteString(f.class_name);
        if (!f.language.empty()) out += " LANGUAGE " + f.language;
        return out;
      }
      case StatementKind::kExplain: {
        const auto& e = st.As<Explain>();
        static const char* kDetails[] = {"CHANGELOG_MODE", "ESTIMATED_COST", "PLAN_ADVICE", "JSON_EXECUTION_PLAN"};
        std::string out = "EXPLAIN ";
        for (size_t i = 0; i < e.details.size(); ++i) {
          out += kDetails[static_cast<int>(e.details[i])];
          out += i + 1 < e.details.size() ? ", " : " ";
        }
        // EXPLAIN takes a statement set as STATEMENT SET BEGIN ... END in Flink's grammar.
        if (e.inner->kind == StatementKind::kStatementSet) {
          return out + StatementSetBody(e.inner->As<StatementSet>(), "STATEMENT SET BEGIN\n");
        }
        return out + Statement(*e.inner);
      }
    }
    SLUICE_UNREACHABLE();
  }

  // Statement of the catalog and session statements: SHOW, CREATE CATALOG / DATABASE, USE, SHOW CREATE,
  // DESCRIBE, SET and RESET.
  std::string SessionStatement(const ast::Statement& st) {
    switch (st.kind) {
      case StatementKind::kShow: {
        static const char* kWhat[] = {"TABLES",  "VIEWS",   "FUNCTIONS",       "CATALOGS",
                                      "DATABASES", "MODULES", "CURRENT CATALOG", "CURRENT DATABASE"};
        const auto& sh = st.As<Show>();
        std::string out = std::string("SHOW ") + kWhat[static_cast<int>(sh.show_kind)];
        if (!sh.from.empty()) out += " FROM " + NameText(sh.from);
        if (sh.like) out += std::string(sh.not_like ? " NOT" : "") + " LIKE " + QuoteString(*sh.like);
        return out;
      }
      case StatementKind::kCreateCatalog: {
        const auto& c = st.As<CreateCatalog>();
        return std::string("CREATE CATALOG ") + (c.if_not_exists ? "IF NOT EXISTS " : "") + QuoteIdentifier(c.name) +
               (c.comment ? " COMMENT " + QuoteString(*c.comment) : std::string()) + " WITH " + PropertiesText(c.options);
      }
      case StatementKind::kCreateDatabase: {
        const auto& d = st.As<CreateDatabase>();
        std::string out = std::string("CREATE DATABASE ") + (d.if_not_exists ? "IF NOT EXISTS " : "") + NameText(d.name);
        if (d.comment) out += " COMMENT " + QuoteString(*d.comment);
        if (!d.options.empty()) out += " WITH " + PropertiesText(d.options);
        return out;
      }
      case StatementKind::kUse: {
        const auto& u = st.As<Use>();
        return std::string(u.catalog ? "USE CATALOG " : "USE ") + NameText(u.name);
      }
      case StatementKind::kShowCreate: {
        const auto& s = st.As<ShowCreate>();
        const char* object = s.object == ObjectKind::kTable ? "TABLE " : s.object == ObjectKind::kView ? "VIEW " : "CATALOG ";
        return std::string("SHOW CREATE ") + object + NameText(s.name);
      }
      case StatementKind::kDescribe: {
        const auto& d = st.As<Describe>();
        return std::string("DESCRIBE ") + (d.catalog ? "CATALOG " : "") + (d.extended ? "EXTENDED " : "") + NameText(d.name);
      }
      case StatementKind::kSet: {
        const auto& s = st.As<SetStatement>();
        if (!s.key) return "SET";
        return "SET " + QuoteString(*s.key) + " = " + QuoteString(s.value);
      }
      case StatementKind::kReset: {
        const auto& r = st.As<Reset>();
        return r.key ? "RESET " + QuoteString(*r.key) : "RESET";
      }
      default: break;
    }
    SLUICE_UNREACHABLE();
  }

  std::string StatementSetBody(const StatementSet& s, std::string out) {
    for (const auto& ins : s.inserts) out += InsertText(*ins) + ";\n";
    return out + "END";
  }
};

}  // namespace

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

std::string PartitionTermsText(const std::vector<std::string>& terms) {
  std::string out;
  for (const auto& t : terms) out += (out.empty() ? "" : ", ") + (t.find('(') == std::string::npos ? QuoteIdentifier(t) : t);
  return "(" + out + ")";
}

std::string PartitionTermColumn(const std::string& term) {
  size_t open = term.find('(');
  if (open == std::string::npos || term.back() != ')') return term;
  size_t space = term.rfind(' ');
  size_t start = (space == std::string::npos || space < open ? open : space) + 1;
  return term.substr(start, term.size() - 1 - start);
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string UnparseType(const LogicalType& t) {
  std::string s;
  switch (t.id()) {
    case TypeId::kArray: s = "ARRAY<" + UnparseType(t.child(0)) + ">"; break;
    case TypeId::kMultiset: s = "MULTISET<" + UnparseType(t.child(0)) + ">"; break;
    case TypeId::kMap: s = "MAP<" + UnparseType(t.child(0)) + ", " + UnparseType(t.child(1)) + ">"; break;
    case TypeId::kRow: {
      s = "ROW<";
      for (size_t i = 0; i < t.num_children(); ++i) {
        if (i) s += ", ";
        s += QuoteIdentifier(t.field_name(i)) + " " + UnparseType(t.child(i));
      }
      s += ">";
      break;
    }
    default: {
      // Scalar types: LogicalType's own spelling, without nullability and time attribute.
      s = t.WithNullable(true).WithTimeAttribute(TimeAttribute::kNone).ToString();
      break;
    }
  }
  if (!t.nullable()) s += " NOT NULL";
  return s;
}

std::string Unparse(const ast::Statement& statement) { return Unparser().Statement(statement); }
std::string Unparse(const ast::Query& query) { return Unparser().Query(query); }
std::string Unparse(const ast::Expr& expr) { return Unparser().Expr(expr); }
std::string UnparseWithParentheses(const ast::Expr& expr) { return Unparser(/*full_parens=*/true).Expr(expr); }
std::string UnparseWithParentheses(const ast::Statement& statement) {
  return Unparser(/*full_parens=*/true).Statement(statement);
}
std::string Unparse(const ast::TableRef& table_ref) { return Unparser().TableRefText(table_ref); }

}  // namespace sluice::sql
