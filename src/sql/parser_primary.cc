// The parser's primaries: literals, constructors, calls and their special syntax (parser_internal.h).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

namespace {

// Functions written without parentheses (CURRENT_TIMESTAMP) when no '(' follows.
bool IsNiladicFunction(std::string_view upper) {
  return upper == "CURRENT_TIMESTAMP" || upper == "CURRENT_DATE" || upper == "CURRENT_TIME" ||
         upper == "LOCALTIMESTAMP" || upper == "LOCALTIME" || upper == "CURRENT_ROW_TIMESTAMP";
}

}  // namespace

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& t = Cur();
  SourcePos pos = PosOf(t);
  auto literal = [&](LiteralKind kind, std::string text) {
    auto lit = std::make_unique<Literal>();
    lit->pos = pos;
    lit->literal_kind = kind;
    lit->text = std::move(text);
    return lit;
  };
  switch (t.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal: {
      auto lit = literal(LiteralKind::kExactNumeric, t.text);
      Advance();
      return ExprPtr(std::move(lit));
    }
    case TokenKind::kApprox: {
      auto lit = literal(LiteralKind::kApproxNumeric, t.text);
      Advance();
      return ExprPtr(std::move(lit));
    }
    case TokenKind::kString: {
      std::string text = t.text;
      Advance();
      // Adjacent string literals concatenate, as in standard SQL ('a' 'b' is 'ab').
      while (Cur().kind == TokenKind::kString) {
        text += Cur().text;
        Advance();
      }
      return ExprPtr(literal(LiteralKind::kString, std::move(text)));
    }
    case TokenKind::kBinaryString: {
      for (char c : t.text) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) {
          return ErrorAt(t, "Binary literal X'" + t.text + "' contains a character that is not a hex digit");
        }
      }
      if (t.text.size() % 2 != 0) {
        return ErrorAt(t, "Binary literal X'" + t.text + "' must have an even number of hex digits");
      }
      auto lit = literal(LiteralKind::kBinary, t.text);
      Advance();
      return ExprPtr(std::move(lit));
    }
    case TokenKind::kPunct:
      if (t.text == "(") return ParseParenthesized();
      break;
    case TokenKind::kQuotedIdentifier:
      return ParseIdentifierOrCall();
    case TokenKind::kWord:
      return ParseWordPrimary();
    default:
      break;
  }
  Expect("<IDENTIFIER>");
  Expect("<LITERAL>");
  Expect("\"(\"");
  return ErrorHere();
}

Result<ExprPtr> Parser::ParseParenthesized() {
  SourcePos pos = Here();
  RETURN_IF_ERROR(ExpectPunct("("));
  if (AtKw("SELECT") || AtKw("WITH") || AtKw("VALUES")) {
    auto sq = std::make_unique<SubqueryExpr>();
    sq->pos = pos;
    ASSIGN_OR_RETURN(sq->query, ParseQuery());
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(sq));
  }
  std::vector<ExprPtr> items;
  do {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    items.push_back(std::move(e));
  } while (AcceptPunct(","));
  RETURN_IF_ERROR(ExpectPunct(")"));
  if (items.size() == 1) return std::move(items[0]);
  auto row = std::make_unique<RowCtor>();
  row->pos = pos;
  row->fields = std::move(items);
  return ExprPtr(std::move(row));
}

Result<std::vector<ExprPtr>> Parser::ParseExprListInParens() {
  RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<ExprPtr> out;
  if (AcceptPunct(")")) return out;
  do {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    out.push_back(std::move(e));
  } while (AcceptPunct(","));
  RETURN_IF_ERROR(ExpectPunct(")"));
  return out;
}

Result<std::vector<ExprPtr>> Parser::ParseExprListInBrackets() {
  RETURN_IF_ERROR(ExpectPunct("["));
  std::vector<ExprPtr> out;
  if (AcceptPunct("]")) return out;
  do {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    out.push_back(std::move(e));
  } while (AcceptPunct(","));
  RETURN_IF_ERROR(ExpectPunct("]"));
  return out;
}

std::unique_ptr<Call> Parser::MakeCall(SourcePos pos, std::string name) {
  auto c = std::make_unique<Call>();
  c->pos = pos;
  c->name = {std::move(name)};
  return c;
}

Result<ExprPtr> Parser::ParseWordPrimary() {
  const Token& t = Cur();
  SourcePos pos = PosOf(t);
  std::string word = Upper(t.text);
  const Token& next = PeekTok(1);
  bool paren_next = TokIsPunct(next, "(");
  auto literal = [&](LiteralKind kind) {
    auto lit = std::make_unique<Literal>();
    lit->pos = pos;
    lit->literal_kind = kind;
    return lit;
  };
  if (word == "TRUE" || word == "FALSE") {
    auto lit = literal(LiteralKind::kBoolean);
    lit->bool_value = word == "TRUE";
    Advance();
    return ExprPtr(std::move(lit));
  }
  if (word == "NULL") {
    Advance();
    return ExprPtr(literal(LiteralKind::kNull));
  }
  if (word == "UNKNOWN") {
    Advance();
    return ExprPtr(literal(LiteralKind::kUnknown));
  }
  if (next.kind == TokenKind::kString &&
      (word == "DATE" || word == "TIME" || word == "TIMESTAMP" || word == "TIMESTAMP_LTZ")) {
    auto lit = literal(word == "DATE"        ? LiteralKind::kDate
                       : word == "TIME"      ? LiteralKind::kTime
                       : word == "TIMESTAMP" ? LiteralKind::kTimestamp
                                             : LiteralKind::kTimestampLtz);
    lit->text = next.text;
    Advance();
    Advance();
    return ExprPtr(std::move(lit));
  }
  if (word == "INTERVAL") {
    Advance();
    return ParseIntervalLiteral(pos);
  }
  if ((word == "CAST" || word == "TRY_CAST") && paren_next) return ParseCast(pos, word == "TRY_CAST");
  if (word == "CASE") return ParseCase();
  if (word == "EXISTS" && paren_next) {
    Advance();
    auto ex = std::make_unique<Exists>();
    ex->pos = pos;
    RETURN_IF_ERROR(ExpectPunct("("));
    ASSIGN_OR_RETURN(ex->query, ParseQuery());
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(ex));
  }
  if (word == "ARRAY" && TokIsPunct(next, "[")) {
    Advance();
    auto a = std::make_unique<ArrayCtor>();
    a->pos = pos;
    ASSIGN_OR_RETURN(a->elements, ParseExprListInBrackets());
    return ExprPtr(std::move(a));
  }
  if (word == "MAP" && TokIsPunct(next, "[")) {
    const Token& map_tok = t;
    Advance();
    auto m = std::make_unique<MapCtor>();
    m->pos = pos;
    ASSIGN_OR_RETURN(m->elements, ParseExprListInBrackets());
    if (m->elements.empty() || m->elements.size() % 2 != 0) {
      return ErrorAt(map_tok, "MAP[...] needs an even, non-zero number of arguments (key, value, ...)");
    }
    return ExprPtr(std::move(m));
  }
  if (word == "ROW" && paren_next) {
    Advance();
    auto r = std::make_unique<RowCtor>();
    r->pos = pos;
    r->explicit_row = true;
    ASSIGN_OR_RETURN(r->fields, ParseExprListInParens());
    return ExprPtr(std::move(r));
  }
  return ParseSpecialSyntaxCall();
}

// The calls with SQL's own argument syntax (EXTRACT(u FROM x), FLOOR(x TO u), POSITION(a IN b), TRIM,
// SUBSTRING, OVERLAY, TIMESTAMPADD/DIFF), DESCRIPTOR(...), the niladic functions, else a name or a call.
Result<ExprPtr> Parser::ParseSpecialSyntaxCall() {
  const Token& t = Cur();
  SourcePos pos = PosOf(t);
  std::string word = Upper(t.text);
  bool paren_next = TokIsPunct(PeekTok(1), "(");
  if (word == "EXTRACT" && paren_next) {
    Advance();
    Advance();
    auto e = std::make_unique<Extract>();
    e->pos = pos;
    ASSIGN_OR_RETURN(e->unit, ParseTimeUnit());
    RETURN_IF_ERROR(ExpectKw("FROM"));
    ASSIGN_OR_RETURN(e->operand, ParseExpr());
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(e));
  }
  if ((word == "FLOOR" || word == "CEIL" || word == "CEILING") && paren_next) {
    std::string name = t.text;
    Advance();
    Advance();
    ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
    if (AcceptKw("TO")) {
      auto fc = std::make_unique<FloorCeil>();
      fc->pos = pos;
      fc->ceil = word != "FLOOR";
      fc->operand = std::move(operand);
      ASSIGN_OR_RETURN(fc->unit, ParseTimeUnit());
      RETURN_IF_ERROR(ExpectPunct(")"));
      return ExprPtr(std::move(fc));
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    auto c = MakeCall(pos, name);
    c->args.push_back(std::move(operand));
    return ParseCallSuffix(std::move(c));
  }
  if (word == "POSITION" && paren_next) {
    std::string name = t.text;
    Advance();
    Advance();
    auto c = MakeCall(pos, name);
    ASSIGN_OR_RETURN(ExprPtr needle, ParseAdditive());
    RETURN_IF_ERROR(ExpectKw("IN"));
    ASSIGN_OR_RETURN(ExprPtr haystack, ParseExpr());
    RETURN_IF_ERROR(ExpectPunct(")"));
    c->args.push_back(std::move(needle));
    c->args.push_back(std::move(haystack));
    return ExprPtr(std::move(c));
  }
  if (word == "TRIM" && paren_next) return ParseTrim(pos);
  if (word == "JSON_QUERY" && paren_next) return ParseJsonQuery(pos);
  if (word == "JSON_EXISTS" && paren_next) {
    // JSON_EXISTS(json, path [{TRUE | FALSE | UNKNOWN | ERROR} ON ERROR]): the clause as a third,
    // string-literal argument.
    std::string name = t.text;
    Advance();
    Advance();
    auto c = MakeCall(pos, name);
    for (int i = 0; i < 2; ++i) {
      if (i) RETURN_IF_ERROR(ExpectPunct(","));
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      c->args.push_back(std::move(e));
    }
    for (const char* b : {"TRUE", "FALSE", "UNKNOWN", "ERROR"}) {
      if (AtKw(b) && PeekIsKw(1, "ON") && PeekIsKw(2, "ERROR")) {
        Advance();
        Advance();
        Advance();
        auto lit = std::make_unique<Literal>();
        lit->pos = pos;
        lit->literal_kind = LiteralKind::kString;
        lit->text = b;
        c->args.push_back(std::move(lit));
        break;
      }
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(c));
  }
  if ((word == "JSON_OBJECT" || word == "JSON_ARRAY") && paren_next) return ParseJsonConstructor(pos, word == "JSON_OBJECT");
  if ((word == "SUBSTRING" || word == "OVERLAY") && paren_next) return ParseSubstringOrOverlay(pos, word);
  if ((word == "TIMESTAMPADD" || word == "TIMESTAMPDIFF") && paren_next) {
    std::string name = t.text;
    Advance();
    Advance();
    auto c = MakeCall(pos, name);
    auto unit = std::make_unique<TimeUnitExpr>();
    unit->pos = Here();
    ASSIGN_OR_RETURN(unit->unit, ParseTimeUnit());
    c->args.push_back(std::move(unit));
    for (int i = 0; i < 2; ++i) {
      RETURN_IF_ERROR(ExpectPunct(","));
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      c->args.push_back(std::move(e));
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(c));
  }
  if (word == "DESCRIPTOR" && paren_next) {
    Advance();
    auto d = std::make_unique<Descriptor>();
    d->pos = pos;
    ASSIGN_OR_RETURN(d->columns, ParseParenIdentifierList());
    return ExprPtr(std::move(d));
  }
  if (IsNiladicFunction(word) && !paren_next) {
    auto c = MakeCall(pos, t.text);
    c->no_parens = true;
    Advance();
    return ExprPtr(std::move(c));
  }
  // LEFT and RIGHT are reserved (joins) but name string functions when a "(" follows, as in Calcite's
  // grammar, which lists them among its reserved function names.
  const bool reserved_function = paren_next && (IsNiladicFunction(word) || word == "LEFT" || word == "RIGHT");
  if (IsReservedWord(word) && !reserved_function) {
    Expect("<IDENTIFIER>");
    Expect("<LITERAL>");
    Expect("\"(\"");
    return ErrorHere();
  }
  return ParseIdentifierOrCall();
}

// CAST(x AS type) and TRY_CAST(x AS type).
Result<ExprPtr> Parser::ParseCast(SourcePos pos, bool try_cast) {
  Advance();
  Advance();
  auto c = std::make_unique<Cast>();
  c->pos = pos;
  c->try_cast = try_cast;
  ASSIGN_OR_RETURN(c->operand, ParseExpr());
  RETURN_IF_ERROR(ExpectKw("AS"));
  ASSIGN_OR_RETURN(c->type, ParseType());
  RETURN_IF_ERROR(ExpectPunct(")"));
  return ExprPtr(std::move(c));
}

// JSON_OBJECT([[KEY] k VALUE v | k : v], ... [{NULL | ABSENT} ON NULL]) and JSON_ARRAY(v, ... [{NULL |
// ABSENT} ON NULL]) as a call whose first argument is a string literal of flags: 'N' (NULL ON NULL) or
// 'A' (ABSENT ON NULL), then one letter per value, 'j' for a nested JSON_OBJECT / JSON_ARRAY call (its
// text is inserted as JSON, as Flink does) and 'v' for any other value; keys and values follow.
Result<ExprPtr> Parser::ParseJsonConstructor(SourcePos pos, bool object) {
  std::string name = Cur().text;
  Advance();
  Advance();
  auto c = MakeCall(pos, name);
  std::string flags(1, object ? 'N' : 'A');
  c->args.push_back(nullptr);
  auto on_null = [&]() -> bool {
    if ((AtKw("NULL") || AtKw("ABSENT")) && PeekIsKw(1, "ON") && PeekIsKw(2, "NULL")) {
      flags[0] = AtKw("NULL") ? 'N' : 'A';
      Advance();
      Advance();
      Advance();
      return true;
    }
    return false;
  };
  if (!AtPunct(")") && !on_null()) {
    do {
      if (object) {
        AcceptKw("KEY");
        ASSIGN_OR_RETURN(ExprPtr key, ParseAdditive());
        if (!AcceptPunct(":")) RETURN_IF_ERROR(ExpectKw("VALUE"));
        c->args.push_back(std::move(key));
      }
      ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      bool nested = false;
      if (value->kind == ExprKind::kCall) {
        const auto& inner = static_cast<const Call&>(*value);
        nested = inner.name.size() == 1 && (IEquals(inner.name[0], "JSON_OBJECT") || IEquals(inner.name[0], "JSON_ARRAY"));
      }
      flags.push_back(nested ? 'j' : 'v');
      c->args.push_back(std::move(value));
    } while (AcceptPunct(",") && !on_null());
    on_null();
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  auto lit = std::make_unique<Literal>();
  lit->pos = pos;
  lit->literal_kind = LiteralKind::kString;
  lit->text = flags;
  c->args[0] = std::move(lit);
  return ExprPtr(std::move(c));
}

// JSON_QUERY(json, path [WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER]
// [{NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR} ON EMPTY] [... ON ERROR]): with any clause, a call of
// five arguments whose last three are string literals: the wrapper (WITHOUT, CONDITIONAL or
// UNCONDITIONAL) and the ON EMPTY and ON ERROR behaviours.
Result<ExprPtr> Parser::ParseJsonQuery(SourcePos pos) {
  std::string name = Cur().text;
  Advance();
  Advance();
  auto c = MakeCall(pos, name);
  ASSIGN_OR_RETURN(ExprPtr json, ParseExpr());
  RETURN_IF_ERROR(ExpectPunct(","));
  ASSIGN_OR_RETURN(ExprPtr path, ParseExpr());
  c->args.push_back(std::move(json));
  c->args.push_back(std::move(path));
  std::string wrapper = "WITHOUT", behaviour[2] = {"NULL", "NULL"};
  bool clauses = false;
  if (AcceptKw("WITHOUT")) {
    AcceptKw("ARRAY");
    RETURN_IF_ERROR(ExpectKw("WRAPPER"));
    clauses = true;
  } else if (AcceptKw("WITH")) {
    wrapper = AcceptKw("CONDITIONAL") ? "CONDITIONAL" : "UNCONDITIONAL";
    if (wrapper == "UNCONDITIONAL") AcceptKw("UNCONDITIONAL");
    AcceptKw("ARRAY");
    RETURN_IF_ERROR(ExpectKw("WRAPPER"));
    clauses = true;
  }
  for (int which = 0; which < 2; ++which) {
    std::string b;
    if (AtKw("NULL") || AtKw("ERROR")) {
      b = Upper(Cur().text);
      Advance();
    } else if (AtKw("EMPTY") && (PeekIsKw(1, "ARRAY") || PeekIsKw(1, "OBJECT"))) {
      Advance();
      b = "EMPTY " + Upper(Cur().text);
      Advance();
    } else {
      continue;
    }
    RETURN_IF_ERROR(ExpectKw("ON"));
    if (which == 0 && AcceptKw("EMPTY")) {
      behaviour[0] = b;
    } else {
      RETURN_IF_ERROR(ExpectKw("ERROR"));
      behaviour[1] = b;
      which = 1;
    }
    clauses = true;
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  if (clauses) {
    for (const std::string& text : {wrapper, behaviour[0], behaviour[1]}) {
      auto lit = std::make_unique<Literal>();
      lit->pos = pos;
      lit->literal_kind = LiteralKind::kString;
      lit->text = text;
      c->args.push_back(std::move(lit));
    }
  }
  return ExprPtr(std::move(c));
}

// TRIM([[BOTH | LEADING | TRAILING] [chars] FROM] s).
Result<ExprPtr> Parser::ParseTrim(SourcePos pos) {
  Advance();
  Advance();
  auto tr = std::make_unique<Trim>();
  tr->pos = pos;
  bool has_mode = true;
  if (AcceptKw("BOTH")) {
    tr->mode = Trim::Mode::kBoth;
  } else if (AcceptKw("LEADING")) {
    tr->mode = Trim::Mode::kLeading;
  } else if (AcceptKw("TRAILING")) {
    tr->mode = Trim::Mode::kTrailing;
  } else {
    has_mode = false;
  }
  if (AcceptKw("FROM")) {
    ASSIGN_OR_RETURN(tr->operand, ParseExpr());
  } else {
    ASSIGN_OR_RETURN(ExprPtr first, ParseExpr());
    if (AcceptKw("FROM")) {
      tr->chars = std::move(first);
      ASSIGN_OR_RETURN(tr->operand, ParseExpr());
    } else {
      if (has_mode) return ErrorHere();
      tr->operand = std::move(first);
    }
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  return ExprPtr(std::move(tr));
}

// SUBSTRING(s FROM a [FOR b]), SUBSTRING(s, a [, b]) and OVERLAY(s PLACING r FROM a [FOR b]).
Result<ExprPtr> Parser::ParseSubstringOrOverlay(SourcePos pos, const std::string& word) {
  std::string name = Cur().text;
  Advance();
  Advance();
  auto c = MakeCall(pos, name);
  ASSIGN_OR_RETURN(ExprPtr s, ParseExpr());
  c->args.push_back(std::move(s));
  if (word == "OVERLAY") {
    RETURN_IF_ERROR(ExpectKw("PLACING"));
    ASSIGN_OR_RETURN(ExprPtr r, ParseExpr());
    c->args.push_back(std::move(r));
    RETURN_IF_ERROR(ExpectKw("FROM"));
  } else if (!AcceptKw("FROM")) {
    // SUBSTRING(s, a [, b])
    while (AcceptPunct(",")) {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      c->args.push_back(std::move(e));
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    return ExprPtr(std::move(c));
  }
  ASSIGN_OR_RETURN(ExprPtr from, ParseExpr());
  c->args.push_back(std::move(from));
  if (AcceptKw("FOR")) {
    ASSIGN_OR_RETURN(ExprPtr len, ParseExpr());
    c->args.push_back(std::move(len));
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  return ExprPtr(std::move(c));
}

// name, a.b.c, t.*, or a call name(...) with its suffixes.
Result<ExprPtr> Parser::ParseIdentifierOrCall() {
  SourcePos pos = Here();
  Name parts;
  // A function's name may be a reserved word (COUNT(...), YEAR(...)); a column's may not.
  // USER, CURRENT_USER, ...: a whole expression to Flink's parser, a column here as before.
  if (!PeekIsPunct(1, "(") && !FlinkParsesAsExpression(Cur().text)) {
    RETURN_IF_ERROR(CheckNameNotReserved(idx_, true));
  }
  std::string first = Cur().text;
  Advance();
  parts.push_back(std::move(first));
  while (PeekIsPunct(0, ".")) {
    if (TokIsIdentifier(PeekTok(1))) {
      RETURN_IF_ERROR(CheckNameNotReserved(idx_ + 1, false, true));
      Advance();
      parts.push_back(Cur().text);
      Advance();
      continue;
    }
    if (PeekIsPunct(1, "*")) {
      Advance();
      Advance();
      auto star = std::make_unique<Star>();
      star->pos = pos;
      star->qualifier = std::move(parts);
      return ExprPtr(std::move(star));
    }
    break;
  }
  if (AtPunct("(")) {
    auto c = std::make_unique<Call>();
    c->pos = pos;
    c->name = std::move(parts);
    Advance();
    if (AtPunct("*") && PeekIsPunct(1, ")")) {
      Advance();
      Advance();
      c->star = true;
      return ParseCallSuffix(std::move(c));
    }
    if (!AcceptPunct(")")) {
      if (AcceptKw("DISTINCT")) {
        c->distinct = true;
      } else {
        AcceptKw("ALL");
      }
      bool any_named = false;
      std::vector<std::string> names;
      do {
        std::string arg_name;
        if (TokIsIdentifier(Cur()) && PeekIsPunct(1, "=>")) {
          arg_name = Cur().text;
          any_named = true;
          Advance();
          Advance();
        }
        ASSIGN_OR_RETURN(ExprPtr arg, ParseCallArg());
        c->args.push_back(std::move(arg));
        names.push_back(std::move(arg_name));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
      if (any_named) c->arg_names = std::move(names);
    }
    return ParseCallSuffix(std::move(c));
  }
  auto id = std::make_unique<Identifier>();
  id->pos = pos;
  id->parts = std::move(parts);
  return ExprPtr(std::move(id));
}

// An argument of a call: TABLE t [PARTITION BY ...] or an expression.
Result<ExprPtr> Parser::ParseCallArg() {
  if (AtKw("TABLE") && TokIsIdentifier(PeekTok(1))) {
    auto ta = std::make_unique<TableArg>();
    ta->pos = Here();
    Advance();
    ASSIGN_OR_RETURN(ta->table, ParseCompoundName());
    if (AcceptKw("PARTITION")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      // One key, or several in parentheses: a ',' after the key ends the table argument.
      if (AtPunct("(")) {
        ASSIGN_OR_RETURN(ta->partition_by, ParseExprListInParens());
      } else {
        ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
        ta->partition_by.push_back(std::move(e));
      }
    }
    return ExprPtr(std::move(ta));
  }
  return ParseExpr();
}

// FILTER (WHERE ...) and OVER ... after a call.
Result<ExprPtr> Parser::ParseCallSuffix(std::unique_ptr<Call> c) {
  if (AtKw("FILTER") && PeekIsPunct(1, "(")) {
    Advance();
    Advance();
    RETURN_IF_ERROR(ExpectKw("WHERE"));
    ASSIGN_OR_RETURN(c->filter, ParseExpr());
    RETURN_IF_ERROR(ExpectPunct(")"));
  }
  if (AcceptKw("OVER")) {
    if (AtPunct("(")) {
      ASSIGN_OR_RETURN(c->over, ParseWindowSpec());
    } else {
      ASSIGN_OR_RETURN(c->over_window, ParseIdentifier());
    }
  }
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParseCase() {
  auto c = std::make_unique<Case>();
  c->pos = Here();
  RETURN_IF_ERROR(ExpectKw("CASE"));
  if (!AtKw("WHEN")) {
    ASSIGN_OR_RETURN(c->operand, ParseExpr());
  }
  RETURN_IF_ERROR(ExpectKw("WHEN"));
  do {
    ASSIGN_OR_RETURN(ExprPtr when, ParseExpr());
    RETURN_IF_ERROR(ExpectKw("THEN"));
    ASSIGN_OR_RETURN(ExprPtr then, ParseExpr());
    c->when_then.emplace_back(std::move(when), std::move(then));
  } while (AcceptKw("WHEN"));
  if (AcceptKw("ELSE")) {
    ASSIGN_OR_RETURN(c->else_expr, ParseExpr());
  }
  RETURN_IF_ERROR(ExpectKw("END"));
  return ExprPtr(std::move(c));
}

}  // namespace sluice::sql::internal
