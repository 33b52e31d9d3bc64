// The parser's data types (parser_internal.h).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

// "(n)" or nothing (then `default_value`); used for lengths (at least 1) and precisions (at least 0,
// when `max_value` is small).
Result<int> Parser::ParseOptionalLength(int default_value, int64_t max_value) {
  if (!AcceptPunct("(")) return default_value;
  const Token& tok = Cur();
  ASSIGN_OR_RETURN(int64_t n, ParseIntegerLiteral(max_value));
  if (n < 1 && max_value == LogicalType::kMaxVarCharLength) {
    return ErrorAt(tok, "Length must be between 1 and " + std::to_string(max_value));
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  return static_cast<int>(n);
}

Result<LogicalType> Parser::ParseType() {
  DepthGuard guard(this);
  RETURN_IF_ERROR(CheckDepth());
  ASSIGN_OR_RETURN(LogicalType t, ParseBaseType());
  ASSIGN_OR_RETURN(t, ParseNullability(std::move(t)));
  // T ARRAY, T MULTISET (postfix collection types), each with its own nullability.
  while (AtKw("ARRAY") || AtKw("MULTISET")) {
    bool array = AtKw("ARRAY");
    Advance();
    t = array ? LogicalType::Array(std::move(t)) : LogicalType::Multiset(std::move(t));
    ASSIGN_OR_RETURN(t, ParseNullability(std::move(t)));
  }
  return t;
}

Result<LogicalType> Parser::ParseNullability(LogicalType t) {
  if (AtKw("NOT") && PeekIsKw(1, "NULL")) {
    Advance();
    Advance();
    return t.WithNullable(false);
  }
  if (AcceptKw("NULL")) return t.WithNullable(true);
  return t;
}

Result<LogicalType> Parser::ParseBaseType() {
  const Token& t = Cur();
  Expect("<DATA TYPE>");
  if (t.kind != TokenKind::kWord) return ErrorHere();
  std::string w = Upper(t.text);
  Advance();
  if (w == "BOOLEAN" || w == "BOOL") return LogicalType::Boolean();
  if (w == "TINYINT") return LogicalType::TinyInt();
  if (w == "SMALLINT") return LogicalType::SmallInt();
  if (w == "INT" || w == "INTEGER") return LogicalType::Integer();
  if (w == "BIGINT") return LogicalType::BigInt();
  if (w == "FLOAT" || w == "REAL") return LogicalType::Float();
  if (w == "DOUBLE") {
    AcceptKw("PRECISION");
    return LogicalType::Double();
  }
  if (w == "DECIMAL" || w == "DEC" || w == "NUMERIC") return ParseDecimalType();
  if (w == "CHAR" || w == "CHARACTER") {
    if (AcceptKw("VARYING")) {
      ASSIGN_OR_RETURN(int n, ParseOptionalLength(LogicalType::kMaxVarCharLength, LogicalType::kMaxVarCharLength));
      return LogicalType::VarChar(n);
    }
    ASSIGN_OR_RETURN(int n, ParseOptionalLength(1, LogicalType::kMaxVarCharLength));
    return LogicalType::Char(n);
  }
  // VARCHAR and VARBINARY without a length are the longest ones (STRING, BYTES), as in Flink's SQL
  // (FlinkTypeSystem.getDefaultPrecision); CHAR and BINARY default to length 1.
  if (w == "VARCHAR") {
    ASSIGN_OR_RETURN(int n, ParseOptionalLength(LogicalType::kMaxVarCharLength, LogicalType::kMaxVarCharLength));
    return LogicalType::VarChar(n);
  }
  if (w == "STRING") return LogicalType::String();
  if (w == "BINARY") {
    ASSIGN_OR_RETURN(int n, ParseOptionalLength(1, LogicalType::kMaxVarCharLength));
    return LogicalType::Binary(n);
  }
  if (w == "VARBINARY") {
    ASSIGN_OR_RETURN(int n, ParseOptionalLength(LogicalType::kMaxVarCharLength, LogicalType::kMaxVarCharLength));
    return LogicalType::VarBinary(n);
  }
  if (w == "BYTES") return LogicalType::Bytes();
  if (w == "DATE") return LogicalType::Date();
  if (w == "TIME") {
    ASSIGN_OR_RETURN(int p, ParseOptionalLength(0, 9));
    if (AtKw("WITHOUT")) {
      Advance();
      RETURN_IF_ERROR(ExpectKw("TIME"));
      RETURN_IF_ERROR(ExpectKw("ZONE"));
    }
    return LogicalType::Time(p);
  }
  if (w == "TIMESTAMP") {
    ASSIGN_OR_RETURN(int p, ParseOptionalLength(LogicalType::kDefaultTimestampPrecision, 9));
    if (AcceptKw("WITHOUT")) {
      RETURN_IF_ERROR(ExpectKw("TIME"));
      RETURN_IF_ERROR(ExpectKw("ZONE"));
    } else if (AtKw("WITH") && PeekIsKw(1, "LOCAL")) {
      Advance();
      Advance();
      RETURN_IF_ERROR(ExpectKw("TIME"));
      RETURN_IF_ERROR(ExpectKw("ZONE"));
      return LogicalType::TimestampLtz(p);
    }
    return LogicalType::Timestamp(p);
  }
  if (w == "TIMESTAMP_LTZ") {
    ASSIGN_OR_RETURN(int p, ParseOptionalLength(LogicalType::kDefaultTimestampPrecision, 9));
    return LogicalType::TimestampLtz(p);
  }
  if (w == "INTERVAL") return ParseIntervalType();
  if (w == "ARRAY" || w == "MULTISET") {
    RETURN_IF_ERROR(ExpectPunct("<"));
    ASSIGN_OR_RETURN(LogicalType elem, ParseType());
    RETURN_IF_ERROR(ExpectPunct(">"));
    return w == "ARRAY" ? LogicalType::Array(std::move(elem)) : LogicalType::Multiset(std::move(elem));
  }
  if (w == "MAP") {
    RETURN_IF_ERROR(ExpectPunct("<"));
    ASSIGN_OR_RETURN(LogicalType key, ParseType());
    RETURN_IF_ERROR(ExpectPunct(","));
    ASSIGN_OR_RETURN(LogicalType value, ParseType());
    RETURN_IF_ERROR(ExpectPunct(">"));
    return LogicalType::Map(std::move(key), std::move(value));
  }
  if (w == "ROW") return ParseRowType();
  return ErrorAt(t, "Unknown data type \"" + t.text + "\"");
}

// After DECIMAL: [(p [, s])].
Result<LogicalType> Parser::ParseDecimalType() {
  int p = 10, s = 0;
  if (AcceptPunct("(")) {
    const Token& ptok = Cur();
    ASSIGN_OR_RETURN(int64_t pv, ParseIntegerLiteral(LogicalType::kMaxDecimalPrecision));
    if (pv < 1) return ErrorAt(ptok, "Decimal precision must be between 1 and 38");
    p = static_cast<int>(pv);
    if (AcceptPunct(",")) {
      const Token& stok = Cur();
      ASSIGN_OR_RETURN(int64_t sv, ParseIntegerLiteral(LogicalType::kMaxDecimalPrecision));
      if (sv > pv) return ErrorAt(stok, "Decimal scale must be between 0 and the precision " + std::to_string(pv));
      s = static_cast<int>(sv);
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
  }
  return LogicalType::Decimal(p, s);
}

// After INTERVAL: unit [(p [, f])] [TO unit [(f)]].
Result<LogicalType> Parser::ParseIntervalType() {
  ASSIGN_OR_RETURN(TimeUnit start, ParseIntervalUnit());
  int precision = 2, fraction = 6;
  if (AcceptPunct("(")) {
    ASSIGN_OR_RETURN(int64_t p, ParseIntegerLiteral(9));
    precision = static_cast<int>(p);
    if (start == TimeUnit::kSecond && AcceptPunct(",")) {
      ASSIGN_OR_RETURN(int64_t f, ParseIntegerLiteral(9));
      fraction = static_cast<int>(f);
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
  }
  TimeUnit end = start;
  if (AcceptKw("TO")) {
    ASSIGN_OR_RETURN(end, ParseIntervalUnit());
    if (end == TimeUnit::kSecond && AcceptPunct("(")) {
      ASSIGN_OR_RETURN(int64_t f, ParseIntegerLiteral(9));
      fraction = static_cast<int>(f);
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
  }
  bool year_month = start == TimeUnit::kYear || start == TimeUnit::kMonth || start == TimeUnit::kQuarter;
  if (year_month) return LogicalType::IntervalYearMonth(precision);
  return LogicalType::IntervalDayTime(precision, fraction);
}

// After ROW: <name type, ...> or (name type, ...), each field with an optional description.
Result<LogicalType> Parser::ParseRowType() {
  std::string close;
  if (AcceptPunct("<")) {
    close = ">";
  } else if (AcceptPunct("(")) {
    close = ")";
  } else {
    return ErrorHere();
  }
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  if (!AcceptPunct(close)) {
    do {
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      ASSIGN_OR_RETURN(LogicalType ft, ParseType());
      // A field description, 'text' or COMMENT 'text', is accepted; LogicalType does not keep it.
      bool has_comment = AcceptKw("COMMENT");
      Expect("<STRING>");
      if (has_comment || Cur().kind == TokenKind::kString) {
        ASSIGN_OR_RETURN(std::string ignored, ParseStringLiteral());
        (void)ignored;
      }
      names.push_back(std::move(name));
      types.push_back(std::move(ft));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(close));
  }
  return LogicalType::Row(std::move(names), std::move(types));
}

}  // namespace sluice::sql::internal
