// The parser's expressions by precedence, intervals (parser_internal.h).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

namespace {

std::optional<TimeUnit> TimeUnitFromWord(std::string_view word) {
  static const std::pair<const char*, TimeUnit> kUnits[] = {
      {"YEAR", TimeUnit::kYear},         {"QUARTER", TimeUnit::kQuarter},
      {"MONTH", TimeUnit::kMonth},       {"WEEK", TimeUnit::kWeek},
      {"DAY", TimeUnit::kDay},           {"HOUR", TimeUnit::kHour},
      {"MINUTE", TimeUnit::kMinute},     {"SECOND", TimeUnit::kSecond},
      {"MILLISECOND", TimeUnit::kMillisecond}, {"MICROSECOND", TimeUnit::kMicrosecond},
      {"NANOSECOND", TimeUnit::kNanosecond},   {"DOW", TimeUnit::kDow},
      {"DOY", TimeUnit::kDoy},           {"ISODOW", TimeUnit::kIsoDow},
      {"ISOYEAR", TimeUnit::kIsoYear},   {"EPOCH", TimeUnit::kEpoch},
      {"DECADE", TimeUnit::kDecade},     {"CENTURY", TimeUnit::kCentury},
      {"MILLENNIUM", TimeUnit::kMillennium},
  };
  for (const auto& [name, unit] : kUnits) {
    if (IEquals(word, name)) return unit;
  }
  return std::nullopt;
}

}  // namespace

Result<ExprPtr> Parser::ParseExpr() {
  DepthGuard guard(this);
  RETURN_IF_ERROR(CheckDepth());
  // The outermost expression starts a new count of chained operators.
  if (expr_roots_ == 0) expr_operators_ = 0;
  ++expr_roots_;
  Result<ExprPtr> e = ParseOr();
  --expr_roots_;
  return e;
}

ExprPtr Parser::MakeBinary(SourcePos pos, BinaryOp op, ExprPtr l, ExprPtr r) {
  auto b = std::make_unique<Binary>();
  b->pos = pos;
  b->op = op;
  b->left = std::move(l);
  b->right = std::move(r);
  return b;
}

Result<ExprPtr> Parser::ParseOr() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
  while (AcceptKw("OR")) {
    RETURN_IF_ERROR(CountOperator());
    ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
    SourcePos pos = left->pos;
    left = MakeBinary(pos, BinaryOp::kOr, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseAnd() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
  while (AcceptKw("AND")) {
    RETURN_IF_ERROR(CountOperator());
    ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
    SourcePos pos = left->pos;
    left = MakeBinary(pos, BinaryOp::kAnd, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseNot() {
  SourcePos pos = Here();
  if (AtKw("NOT")) {
    Advance();
    DepthGuard guard(this);
    RETURN_IF_ERROR(CheckDepth());
    ASSIGN_OR_RETURN(ExprPtr operand, ParseNot());
    auto u = std::make_unique<Unary>();
    u->pos = pos;
    u->op = UnaryOp::kNot;
    u->operand = std::move(operand);
    return ExprPtr(std::move(u));
  }
  return ParsePredicate();
}

Result<ExprPtr> Parser::ParsePredicate() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  for (bool first = true;; first = false) {
    // Every pass after the first follows a predicate operator that matched.
    if (!first) RETURN_IF_ERROR(CountOperator());
    SourcePos pos = left->pos;
    static const std::pair<const char*, BinaryOp> kComparisons[] = {
        {"=", BinaryOp::kEq}, {"<>", BinaryOp::kNe}, {"!=", BinaryOp::kNe}, {"<", BinaryOp::kLt},
        {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt}, {">=", BinaryOp::kGe},
    };
    bool matched = false;
    for (const auto& [sym, op] : kComparisons) {
      if (AcceptPunct(sym)) {
        ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = MakeBinary(pos, op, std::move(left), std::move(right));
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (AcceptKw("IS")) {
      ASSIGN_OR_RETURN(left, ParseIsSuffix(pos, std::move(left)));
      continue;
    }
    // [NOT] BETWEEN / IN / LIKE / SIMILAR TO
    bool negated = false;
    if (AtKw("NOT") && (PeekIsKw(1, "BETWEEN") || PeekIsKw(1, "IN") || PeekIsKw(1, "LIKE") ||
                        PeekIsKw(1, "SIMILAR"))) {
      Advance();
      negated = true;
    }
    if (AcceptKw("BETWEEN")) {
      ASSIGN_OR_RETURN(left, ParseBetweenSuffix(pos, negated, std::move(left)));
      continue;
    }
    if (AcceptKw("IN")) {
      ASSIGN_OR_RETURN(left, ParseInSuffix(pos, negated, std::move(left)));
      continue;
    }
    bool like = AtKw("LIKE");
    bool similar = !like && AtKw("SIMILAR");
    if (like || similar) {
      Advance();
      if (similar) RETURN_IF_ERROR(ExpectKw("TO"));
      ASSIGN_OR_RETURN(left, ParseLikeSuffix(pos, negated, similar, std::move(left)));
      continue;
    }
    if (negated) return ErrorHere();
    break;
  }
  return left;
}

// After IS: [NOT] NULL | TRUE | FALSE | UNKNOWN, [NOT] JSON [kind], or [NOT] DISTINCT FROM x.
Result<ExprPtr> Parser::ParseIsSuffix(SourcePos pos, ExprPtr left) {
  bool negated = AcceptKw("NOT");
  if (AcceptKw("DISTINCT")) {
    RETURN_IF_ERROR(ExpectKw("FROM"));
    auto d = std::make_unique<IsDistinctFrom>();
    d->pos = pos;
    d->negated = negated;
    d->left = std::move(left);
    ASSIGN_OR_RETURN(d->right, ParseAdditive());
    return ExprPtr(std::move(d));
  }
  if (AcceptKw("JSON")) {
    // x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]: a call of the internal IS_JSON_<kind>.
    std::string kind = "VALUE";
    for (const char* k : {"VALUE", "SCALAR", "ARRAY", "OBJECT"}) {
      if (AcceptKw(k)) {
        kind = k;
        break;
      }
    }
    auto c = MakeCall(pos, "IS_JSON_" + kind);
    c->args.push_back(std::move(left));
    if (!negated) return ExprPtr(std::move(c));
    auto u = std::make_unique<Unary>();
    u->pos = pos;
    u->op = UnaryOp::kNot;
    u->operand = std::move(c);
    return ExprPtr(std::move(u));
  }
  auto is = std::make_unique<IsExpr>();
  is->pos = pos;
  is->negated = negated;
  if (AcceptKw("NULL")) {
    is->is_kind = IsKind::kNull;
  } else if (AcceptKw("TRUE")) {
    is->is_kind = IsKind::kTrue;
  } else if (AcceptKw("FALSE")) {
    is->is_kind = IsKind::kFalse;
  } else if (AcceptKw("UNKNOWN")) {
    is->is_kind = IsKind::kUnknown;
  } else {
    return ErrorHere();
  }
  is->operand = std::move(left);
  return ExprPtr(std::move(is));
}

// After [NOT] BETWEEN: [SYMMETRIC | ASYMMETRIC] low AND high.
Result<ExprPtr> Parser::ParseBetweenSuffix(SourcePos pos, bool negated, ExprPtr left) {
  auto b = std::make_unique<Between>();
  b->pos = pos;
  b->negated = negated;
  if (AcceptKw("SYMMETRIC")) {
    b->symmetric = true;
  } else {
    AcceptKw("ASYMMETRIC");
  }
  b->operand = std::move(left);
  ASSIGN_OR_RETURN(b->low, ParseAdditive());
  RETURN_IF_ERROR(ExpectKw("AND"));
  ASSIGN_OR_RETURN(b->high, ParseAdditive());
  return ExprPtr(std::move(b));
}

// After [NOT] IN: (subquery) or (x, ...).
Result<ExprPtr> Parser::ParseInSuffix(SourcePos pos, bool negated, ExprPtr left) {
  auto in = std::make_unique<In>();
  in->pos = pos;
  in->negated = negated;
  in->operand = std::move(left);
  RETURN_IF_ERROR(ExpectPunct("("));
  if (AtKw("SELECT") || AtKw("WITH") || AtKw("VALUES")) {
    ASSIGN_OR_RETURN(in->subquery, ParseQuery());
  } else {
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      in->list.push_back(std::move(e));
    } while (AcceptPunct(","));
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  return ExprPtr(std::move(in));
}

// After [NOT] LIKE or [NOT] SIMILAR TO: pattern [ESCAPE e].
Result<ExprPtr> Parser::ParseLikeSuffix(SourcePos pos, bool negated, bool similar, ExprPtr left) {
  auto l = std::make_unique<Like>();
  l->pos = pos;
  l->negated = negated;
  l->similar = similar;
  l->operand = std::move(left);
  ASSIGN_OR_RETURN(l->pattern, ParseAdditive());
  if (AcceptKw("ESCAPE")) {
    ASSIGN_OR_RETURN(l->escape, ParseAdditive());
  }
  return ExprPtr(std::move(l));
}

Result<ExprPtr> Parser::ParseAdditive() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (true) {
    BinaryOp op;
    if (AcceptPunct("+")) {
      op = BinaryOp::kAdd;
    } else if (AcceptPunct("-")) {
      op = BinaryOp::kSub;
    } else {
      break;
    }
    RETURN_IF_ERROR(CountOperator());
    ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    SourcePos pos = left->pos;
    left = MakeBinary(pos, op, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (true) {
    BinaryOp op;
    if (AcceptPunct("*")) {
      op = BinaryOp::kMul;
    } else if (AcceptPunct("/")) {
      op = BinaryOp::kDiv;
    } else if (AcceptPunct("%")) {
      op = BinaryOp::kMod;
    } else if (AcceptPunct("||")) {
      op = BinaryOp::kConcat;
    } else {
      break;
    }
    RETURN_IF_ERROR(CountOperator());
    ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    SourcePos pos = left->pos;
    left = MakeBinary(pos, op, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  SourcePos pos = Here();
  bool minus = AtPunct("-");
  if (minus || AtPunct("+")) {
    Advance();
    DepthGuard guard(this);
    RETURN_IF_ERROR(CheckDepth());
    ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    auto u = std::make_unique<Unary>();
    u->pos = pos;
    u->op = minus ? UnaryOp::kMinus : UnaryOp::kPlus;
    u->operand = std::move(operand);
    return ExprPtr(std::move(u));
  }
  return ParsePostfix();
}

Result<ExprPtr> Parser::ParsePostfix() {
  ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary());
  while (true) {
    if (AtPunct("[")) {
      auto s = std::make_unique<Subscript>();
      s->pos = e->pos;
      Advance();
      ASSIGN_OR_RETURN(s->index, ParseExpr());
      RETURN_IF_ERROR(ExpectPunct("]"));
      s->base = std::move(e);
      e = std::move(s);
      continue;
    }
    if (AtPunct(".") && TokIsIdentifier(PeekTok(1))) {
      Advance();
      auto f = std::make_unique<FieldAccess>();
      f->pos = e->pos;
      ASSIGN_OR_RETURN(f->field, ParseIdentifier());
      f->base = std::move(e);
      e = std::move(f);
      continue;
    }
    break;
  }
  return e;
}

Result<TimeUnit> Parser::ParseTimeUnit() {
  Expect("<TIME UNIT>");
  if (Cur().kind == TokenKind::kWord) {
    if (auto unit = TimeUnitFromWord(Cur().text)) {
      Advance();
      return *unit;
    }
  }
  return ErrorHere();
}

Result<ExprPtr> Parser::ParseIntervalLiteral(SourcePos pos) {
  // INTERVAL already consumed.
  auto iv = std::make_unique<IntervalLiteral>();
  iv->pos = pos;
  if (AcceptPunct("-")) {
    iv->negative = true;
  } else {
    AcceptPunct("+");
  }
  ASSIGN_OR_RETURN(iv->text, ParseStringLiteral());
  ASSIGN_OR_RETURN(iv->start_unit, ParseIntervalUnit());
  if (AcceptPunct("(")) {
    ASSIGN_OR_RETURN(int64_t p, ParseIntegerLiteral(10));
    iv->start_precision = static_cast<int>(p);
    if (iv->start_unit == TimeUnit::kSecond && AcceptPunct(",")) {
      ASSIGN_OR_RETURN(int64_t f, ParseIntegerLiteral(9));
      iv->fraction_precision = static_cast<int>(f);
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
  }
  if (AcceptKw("TO")) {
    ASSIGN_OR_RETURN(TimeUnit end, ParseIntervalUnit());
    iv->end_unit = end;
    if (end == TimeUnit::kSecond && AcceptPunct("(")) {
      ASSIGN_OR_RETURN(int64_t f, ParseIntegerLiteral(9));
      iv->fraction_precision = static_cast<int>(f);
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
  }
  return ExprPtr(std::move(iv));
}

Result<TimeUnit> Parser::ParseIntervalUnit() {
  // Flink's parser (Calcite) also takes the plural: INTERVAL '10' MINUTES, as Flink's docs write it.
  static const std::pair<const char*, TimeUnit> kUnits[] = {
      {"YEAR", TimeUnit::kYear},     {"YEARS", TimeUnit::kYear},       {"QUARTER", TimeUnit::kQuarter},
      {"QUARTERS", TimeUnit::kQuarter}, {"MONTH", TimeUnit::kMonth},   {"MONTHS", TimeUnit::kMonth},
      {"WEEK", TimeUnit::kWeek},     {"WEEKS", TimeUnit::kWeek},       {"DAY", TimeUnit::kDay},
      {"DAYS", TimeUnit::kDay},      {"HOUR", TimeUnit::kHour},        {"HOURS", TimeUnit::kHour},
      {"MINUTE", TimeUnit::kMinute}, {"MINUTES", TimeUnit::kMinute},   {"SECOND", TimeUnit::kSecond},
      {"SECONDS", TimeUnit::kSecond},
  };
  for (const auto& [word, unit] : kUnits) {
    if (AcceptKw(word)) return unit;
  }
  return ErrorHere();
}

}  // namespace sluice::sql::internal
