// See parser.h. A recursive-descent parser over the tokens of lexer.h.
//
// Expression precedence, loosest first (as Calcite's operator table, which Flink uses):
//   OR < AND < NOT < comparison, IS, BETWEEN, IN, LIKE, SIMILAR TO < + - < * / % || < unary +/-
//   < postfix ([] and .field) < primary.
//
// Errors: every check of an optional token records what would have been accepted at the current
// token, so a failure can say "Was expecting one of: ..." with exactly the alternatives tried there.
#include "sql/parser.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "sql/lexer.h"

namespace sluice::sql {
namespace {

using namespace ast;  // NOLINT: the parser builds every kind of node

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Functions written without parentheses (CURRENT_TIMESTAMP) when no '(' follows.
bool IsNiladicFunction(std::string_view upper) {
  return upper == "CURRENT_TIMESTAMP" || upper == "CURRENT_DATE" || upper == "CURRENT_TIME" ||
         upper == "LOCALTIMESTAMP" || upper == "LOCALTIME" || upper == "CURRENT_ROW_TIMESTAMP";
}

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

// Levenshtein distance, counting a swap of two neighbours as one edit (FORM -> FROM).
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> tokens) : sql_(sql), tokens_(std::move(tokens)) {}

  Result<StatementPtr> ParseSingleStatement() {
    ASSIGN_OR_RETURN(StatementPtr stmt, ParseStatementBody());
    AcceptPunct(";");
    RETURN_IF_ERROR(ExpectEof());
    return stmt;
  }

  Result<ExprPtr> ParseStandaloneExpression() {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    RETURN_IF_ERROR(ExpectEof());
    return e;
  }

  Result<LogicalType> ParseStandaloneType() {
    ASSIGN_OR_RETURN(LogicalType t, ParseType());
    RETURN_IF_ERROR(ExpectEof());
    return t;
  }

 private:
  // ------------------------------------------------------------------ token helpers

  const Token& Cur() const { return tokens_[idx_]; }
  const Token& PeekTok(size_t ahead) const {
    size_t i = std::min(idx_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  SourcePos PosOf(const Token& t) const { return SourcePos{t.line, t.column}; }
  SourcePos Here() const { return PosOf(Cur()); }
  void Advance() {
    if (idx_ + 1 < tokens_.size()) ++idx_;
  }

  void Expect(std::string what) {
    if (expected_idx_ != idx_) {
      expected_.clear();
      expected_idx_ = idx_;
    }
    if (std::find(expected_.begin(), expected_.end(), what) == expected_.end()) expected_.push_back(std::move(what));
  }

  static bool TokIsKw(const Token& t, std::string_view kw) { return t.kind == TokenKind::kWord && IEquals(t.text, kw); }
  static bool TokIsPunct(const Token& t, std::string_view p) { return t.kind == TokenKind::kPunct && t.text == p; }
  bool PeekIsKw(size_t ahead, std::string_view kw) const { return TokIsKw(PeekTok(ahead), kw); }
  bool PeekIsPunct(size_t ahead, std::string_view p) const { return TokIsPunct(PeekTok(ahead), p); }

  bool AtKw(std::string_view kw) {
    Expect("\"" + std::string(kw) + "\"");
    return TokIsKw(Cur(), kw);
  }
  bool AcceptKw(std::string_view kw) {
    if (!AtKw(kw)) return false;
    Advance();
    return true;
  }
  Status ExpectKw(std::string_view kw) {
    if (AcceptKw(kw)) return Status::OK();
    return ErrorHere();
  }
  bool AtPunct(std::string_view p) {
    Expect("\"" + std::string(p) + "\"");
    return TokIsPunct(Cur(), p);
  }
  bool AcceptPunct(std::string_view p) {
    if (!AtPunct(p)) return false;
    Advance();
    return true;
  }
  Status ExpectPunct(std::string_view p) {
    if (AcceptPunct(p)) return Status::OK();
    return ErrorHere();
  }
  Status ExpectEof() {
    Expect("<EOF>");
    if (Cur().kind == TokenKind::kEof) return Status::OK();
    return ErrorHere();
  }

  // "SQL parse failed. Encountered "X" at line L, column C. Was expecting one of: ..." for the
  // current token and the alternatives recorded for it.
  Status ErrorHere() const {
    const Token& t = Cur();
    std::string msg = "SQL parse failed. Encountered " + DescribeToken(t) + " at line " + std::to_string(t.line) +
                      ", column " + std::to_string(t.column) + ".";
    if (expected_idx_ == idx_ && !expected_.empty()) {
      constexpr size_t kMaxShown = 10;
      msg += "\nWas expecting one of:";
      for (size_t i = 0; i < expected_.size() && i < kMaxShown; ++i) msg += "\n    " + expected_[i] + " ...";
      if (expected_.size() > kMaxShown) msg += "\n    ...";
      if (t.kind == TokenKind::kWord) {
        // A misspelt keyword (FORM for FROM): name the closest expected keyword.
        std::string best;
        size_t best_distance = 3;
        for (const std::string& e : expected_) {
          if (e.size() < 3 || e.front() != '"' || !std::isalpha(static_cast<unsigned char>(e[1]))) continue;
          std::string kw = e.substr(1, e.size() - 2);
          size_t d = EditDistance(Upper(t.text), kw);
          if (d < best_distance && d < kw.size() / 2 + 1) {
            best_distance = d;
            best = kw;
          }
        }
        if (!best.empty()) msg += "\nDid you mean \"" + best + "\"?";
        bool name_expected = std::find(expected_.begin(), expected_.end(), "<IDENTIFIER>") != expected_.end();
        if (best.empty() && name_expected && IsReservedWord(t.text)) {
          msg += "\n\"" + t.text + "\" is a reserved keyword; write `" + t.text + "` to use it as a name.";
        }
      }
    }
    return Status::ParseError(msg);
  }
  static Status ErrorAt(const Token& t, const std::string& what) {
    return Status::ParseError("SQL parse failed. " + what + " at line " + std::to_string(t.line) + ", column " +
                              std::to_string(t.column) + ".");
  }

  bool AtIdentifier() {
    Expect("<IDENTIFIER>");
    const Token& t = Cur();
    if (t.kind == TokenKind::kQuotedIdentifier) return true;
    return t.kind == TokenKind::kWord && !IsReservedWord(t.text);
  }
  bool TokIsIdentifier(const Token& t) const {
    if (t.kind == TokenKind::kQuotedIdentifier) return true;
    return t.kind == TokenKind::kWord && !IsReservedWord(t.text);
  }
  Result<std::string> ParseIdentifier() {
    if (!AtIdentifier()) return ErrorHere();
    std::string s = Cur().text;
    Advance();
    return s;
  }
  Result<Name> ParseCompoundName() {
    Name name;
    ASSIGN_OR_RETURN(std::string first, ParseIdentifier());
    name.push_back(std::move(first));
    while (PeekIsPunct(0, ".") && TokIsIdentifier(PeekTok(1))) {
      Advance();
      ASSIGN_OR_RETURN(std::string part, ParseIdentifier());
      name.push_back(std::move(part));
    }
    return name;
  }
  Result<std::vector<std::string>> ParseParenIdentifierList() {
    RETURN_IF_ERROR(ExpectPunct("("));
    std::vector<std::string> out;
    do {
      ASSIGN_OR_RETURN(std::string id, ParseIdentifier());
      out.push_back(std::move(id));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    return out;
  }
  Result<std::string> ParseStringLiteral() {
    Expect("<STRING>");
    if (Cur().kind != TokenKind::kString) return ErrorHere();
    std::string s = Cur().text;
    Advance();
    return s;
  }
  Result<int64_t> ParseIntegerLiteral(int64_t max_value) {
    Expect("<INTEGER>");
    if (Cur().kind != TokenKind::kInteger) return ErrorHere();
    const Token& t = Cur();
    if (t.text.size() > 18 || std::stoll(t.text) > max_value) {
      return ErrorAt(t, "Number " + t.text + " is out of range (at most " + std::to_string(max_value) + ")");
    }
    int64_t v = std::stoll(t.text);
    Advance();
    return v;
  }

  // ------------------------------------------------------------------ statements

  Result<StatementPtr> ParseStatementBody() {
    if (AtQueryStart()) return ParseQueryStatement();
    if (AtKw("CREATE")) return ParseCreate();
    if (AtKw("DROP")) return ParseDrop();
    if (AtKw("SHOW")) return ParseShow();
    if (AtKw("DESCRIBE") || AtKw("DESC")) return ParseDescribe();
    if (AtKw("SET")) return ParseSet();
    if (AtKw("RESET")) return ParseReset();
    if (AtKw("INSERT")) {
      ASSIGN_OR_RETURN(auto ins, ParseInsert());
      return StatementPtr(std::move(ins));
    }
    if (AtKw("EXECUTE")) return ParseExecute();
    if (AtKw("BEGIN")) return ParseBeginStatementSet();
    if (AtKw("EXPLAIN")) return ParseExplain();
    if (AtKw("ALTER")) return ParseAlter();
    if (AtKw("USE")) return ParseUse();
    static constexpr const char* kUnsupported[] = {"LOAD",   "UNLOAD", "ADD",    "REMOVE",
                                                   "ANALYZE", "TRUNCATE", "CALL", "DELETE", "UPDATE", "STOP"};
    for (const char* word : kUnsupported) {
      if (TokIsKw(Cur(), word)) {
        return Status::NotSupported(std::string(word) + " statements are not supported by Sluice yet (at line " +
                                    std::to_string(Cur().line) + ", column " + std::to_string(Cur().column) + ")");
      }
    }
    return ErrorHere();
  }

  bool AtQueryStart() {
    bool a = AtKw("SELECT");
    bool b = AtKw("WITH");
    bool c = AtKw("VALUES");
    bool d = AtPunct("(");
    return a || b || c || d;
  }

  Result<StatementPtr> ParseQueryStatement() {
    auto stmt = std::make_unique<QueryStatement>();
    stmt->pos = Here();
    ASSIGN_OR_RETURN(stmt->query, ParseQuery());
    return StatementPtr(std::move(stmt));
  }

  Result<StatementPtr> ParseCreate() {
    SourcePos pos = Here();
    RETURN_IF_ERROR(ExpectKw("CREATE"));
    bool temporary = AcceptKw("TEMPORARY");
    if (AcceptKw("TABLE")) return ParseCreateTable(pos, temporary);
    if (AcceptKw("VIEW")) return ParseCreateView(pos, temporary);
    bool system = false;
    if (AtKw("SYSTEM") && Upper(PeekTok(1).text) == "FUNCTION") {
      AcceptKw("SYSTEM");
      system = true;
    }
    if (AcceptKw("FUNCTION")) {
      auto fn = std::make_unique<CreateFunction>();
      fn->pos = pos;
      fn->temporary = temporary;
      fn->system = system;
      if (AcceptKw("IF")) {
        RETURN_IF_ERROR(ExpectKw("NOT"));
        RETURN_IF_ERROR(ExpectKw("EXISTS"));
        fn->if_not_exists = true;
      }
      ASSIGN_OR_RETURN(fn->name, ParseCompoundName());
      RETURN_IF_ERROR(ExpectKw("AS"));
      ASSIGN_OR_RETURN(fn->class_name, ParseStringLiteral());
      if (AcceptKw("LANGUAGE")) {
        fn->language = Upper(Cur().text);
        Advance();
      }
      return StatementPtr(std::move(fn));
    }
    if (!temporary && AcceptKw("CATALOG")) {
      auto c = std::make_unique<CreateCatalog>();
      c->pos = pos;
      ASSIGN_OR_RETURN(c->if_not_exists, ParseIfNotExists());
      ASSIGN_OR_RETURN(c->name, ParseIdentifier());
      RETURN_IF_ERROR(ExpectKw("WITH"));
      ASSIGN_OR_RETURN(c->options, ParsePropertyList());
      return StatementPtr(std::move(c));
    }
    if (!temporary && AcceptKw("DATABASE")) {
      auto d = std::make_unique<CreateDatabase>();
      d->pos = pos;
      ASSIGN_OR_RETURN(d->if_not_exists, ParseIfNotExists());
      ASSIGN_OR_RETURN(d->name, ParseCompoundName());
      if (AcceptKw("COMMENT")) {
        ASSIGN_OR_RETURN(d->comment, ParseStringLiteral());
      }
      if (AcceptKw("WITH")) {
        ASSIGN_OR_RETURN(d->options, ParsePropertyList());
      }
      return StatementPtr(std::move(d));
    }
    if (AtKw("SYSTEM")) {
      return Status::NotSupported("CREATE SYSTEM is not supported by Sluice (at line " + std::to_string(Cur().line) +
                                  ", column " + std::to_string(Cur().column) + ")");
    }
    return ErrorHere();
  }

  // USE CATALOG name | USE [catalog.]database
  Result<StatementPtr> ParseUse() {
    auto u = std::make_unique<Use>();
    u->pos = Here();
    RETURN_IF_ERROR(ExpectKw("USE"));
    if (AtKw("CATALOG") && PeekTok(1).kind != TokenKind::kEof) {  // `USE catalog` alone names a database
      AcceptKw("CATALOG");
      u->catalog = true;
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      u->name = {name};
      return StatementPtr(std::move(u));
    }
    ASSIGN_OR_RETURN(u->name, ParseCompoundName());
    return StatementPtr(std::move(u));
  }

  // ALTER TABLE [IF EXISTS] name SET (props) | RESET ('key', ...).
  Result<StatementPtr> ParseAlter() {
    auto a = std::make_unique<AlterTable>();
    a->pos = Here();
    RETURN_IF_ERROR(ExpectKw("ALTER"));
    if (!AtKw("TABLE")) {
      return Status::NotSupported("ALTER " + Cur().text + " statements are not supported by Sluice yet (at line " +
                                  std::to_string(Cur().line) + ", column " + std::to_string(Cur().column) + ")");
    }
    RETURN_IF_ERROR(ExpectKw("TABLE"));
    if (AcceptKw("IF")) {
      RETURN_IF_ERROR(ExpectKw("EXISTS"));
      a->if_exists = true;
    }
    ASSIGN_OR_RETURN(a->name, ParseCompoundName());
    if (AcceptKw("SET")) {
      ASSIGN_OR_RETURN(a->set_options, ParsePropertyList());
      return StatementPtr(std::move(a));
    }
    if (AtKw("RESET")) {
      RETURN_IF_ERROR(ExpectKw("RESET"));
      RETURN_IF_ERROR(ExpectPunct("("));
      do {
        ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
        a->reset_keys.push_back(std::move(key));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
      return StatementPtr(std::move(a));
    }
    Expect("SET");
    Expect("RESET");
    if (AtKw("RENAME") || AtKw("ADD") || AtKw("MODIFY") || AtKw("DROP")) {
      return Status::NotSupported("ALTER TABLE ... " + Cur().text + " is not supported by Sluice yet (at line " +
                                  std::to_string(Cur().line) + ", column " + std::to_string(Cur().column) + ")");
    }
    return ErrorHere();
  }

  Result<bool> ParseIfNotExists() {
    if (!AcceptKw("IF")) return false;
    RETURN_IF_ERROR(ExpectKw("NOT"));
    RETURN_IF_ERROR(ExpectKw("EXISTS"));
    return true;
  }

  // A key given twice in one option list is refused (it used to be accepted, the last one winning).
  static Status CheckNewKey(const PropertyList& props, const std::string& key, const Token& at) {
    for (const auto& [k, v] : props) {
      if (k == key) return ErrorAt(at, "Duplicate option key '" + key + "'");
    }
    return Status::OK();
  }

  Result<PropertyList> ParsePropertyList() {
    RETURN_IF_ERROR(ExpectPunct("("));
    PropertyList props;
    if (AcceptPunct(")")) return props;
    do {
      const Token key_token = Cur();
      ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
      RETURN_IF_ERROR(CheckNewKey(props, key, key_token));
      RETURN_IF_ERROR(ExpectPunct("="));
      ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
      props.emplace_back(std::move(key), std::move(value));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    return props;
  }

  // PARTITIONED BY (col, ...). Beyond Flink's grammar, for Iceberg tables, Spark's transform terms:
  // bucket(16, id), truncate(4, name), years(ts), day(ts), ... A term is kept as its normalised text
  // ("bucket(16, id)"); a column is kept as its name.
  Result<std::vector<std::string>> ParsePartitionTerms() {
    RETURN_IF_ERROR(ExpectPunct("("));
    std::vector<std::string> terms;
    do {
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      if (!AcceptPunct("(")) {
        terms.push_back(std::move(name));
        continue;
      }
      std::string term = name + "(";
      if (Cur().kind == TokenKind::kInteger) {
        term += Cur().text + ", ";
        Advance();
        RETURN_IF_ERROR(ExpectPunct(","));
      }
      ASSIGN_OR_RETURN(std::string column, ParseIdentifier());
      RETURN_IF_ERROR(ExpectPunct(")"));
      terms.push_back(term + column + ")");
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    return terms;
  }

  Result<StatementPtr> ParseCreateTable(SourcePos pos, bool temporary) {
    auto ct = std::make_unique<CreateTable>();
    ct->pos = pos;
    ct->temporary = temporary;
    ASSIGN_OR_RETURN(ct->if_not_exists, ParseIfNotExists());
    ASSIGN_OR_RETURN(ct->name, ParseCompoundName());
    if (AcceptPunct("(")) {
      do {
        RETURN_IF_ERROR(ParseTableElement(*ct));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
    if (AcceptKw("COMMENT")) {
      ASSIGN_OR_RETURN(std::string c, ParseStringLiteral());
      ct->comment = std::move(c);
    }
    if (AcceptKw("PARTITIONED")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      ASSIGN_OR_RETURN(ct->partition_keys, ParsePartitionTerms());
    }
    if (AcceptKw("WITH")) {
      ASSIGN_OR_RETURN(ct->options, ParsePropertyList());
    }
    if (AtKw("LIKE")) {
      LikeClause like;
      like.pos = Here();
      Advance();
      ASSIGN_OR_RETURN(like.source, ParseCompoundName());
      if (AcceptPunct("(")) {
        do {
          LikeClause::Strategy strategy;
          if (AcceptKw("INCLUDING")) {
            strategy = LikeClause::Strategy::kIncluding;
          } else if (AcceptKw("EXCLUDING")) {
            strategy = LikeClause::Strategy::kExcluding;
          } else if (AcceptKw("OVERWRITING")) {
            strategy = LikeClause::Strategy::kOverwriting;
          } else {
            return ErrorHere();
          }
          static const std::pair<const char*, LikeClause::Feature> kFeatures[] = {
              {"ALL", LikeClause::Feature::kAll},           {"CONSTRAINTS", LikeClause::Feature::kConstraints},
              {"GENERATED", LikeClause::Feature::kGenerated}, {"METADATA", LikeClause::Feature::kMetadata},
              {"OPTIONS", LikeClause::Feature::kOptions},   {"PARTITIONS", LikeClause::Feature::kPartitions},
              {"WATERMARKS", LikeClause::Feature::kWatermarks},
          };
          bool found = false;
          for (const auto& [word, feature] : kFeatures) {
            if (AcceptKw(word)) {
              like.options.emplace_back(strategy, feature);
              found = true;
              break;
            }
          }
          if (!found) return ErrorHere();
        } while (AcceptPunct(","));
        RETURN_IF_ERROR(ExpectPunct(")"));
      }
      ct->like = std::move(like);
    }
    if (AcceptKw("AS")) {
      ASSIGN_OR_RETURN(ct->as_query, ParseQuery());
    }
    return StatementPtr(std::move(ct));
  }

  Status ParseTableElement(CreateTable& ct) {
    const Token& start = Cur();
    if (AtKw("WATERMARK") && PeekIsKw(1, "FOR")) {
      if (ct.watermark) return ErrorAt(start, "Multiple WATERMARK statements are not supported yet");
      WatermarkDef wm;
      wm.pos = Here();
      Advance();
      Advance();
      ASSIGN_OR_RETURN(wm.column, ParseCompoundName());
      RETURN_IF_ERROR(ExpectKw("AS"));
      ASSIGN_OR_RETURN(wm.expr, ParseExpr());
      ct.watermark = std::move(wm);
      return Status::OK();
    }
    if ((AtKw("CONSTRAINT") && TokIsIdentifier(PeekTok(1)) && PeekIsKw(2, "PRIMARY")) ||
        (AtKw("PRIMARY") && PeekIsKw(1, "KEY"))) {
      PrimaryKeyDef pk;
      pk.pos = Here();
      if (AcceptKw("CONSTRAINT")) {
        ASSIGN_OR_RETURN(pk.constraint_name, ParseIdentifier());
      }
      RETURN_IF_ERROR(ExpectKw("PRIMARY"));
      RETURN_IF_ERROR(ExpectKw("KEY"));
      ASSIGN_OR_RETURN(pk.columns, ParseParenIdentifierList());
      ASSIGN_OR_RETURN(pk.enforced, ParseEnforcement());
      if (ct.primary_key) return ErrorAt(start, "Duplicate primary key definition");
      ct.primary_key = std::move(pk);
      return Status::OK();
    }
    ColumnDef col;
    col.pos = Here();
    ASSIGN_OR_RETURN(col.name, ParseIdentifier());
    if (AcceptKw("AS")) {
      col.column_kind = ColumnKind::kComputed;
      ASSIGN_OR_RETURN(col.expr, ParseExpr());
    } else {
      ASSIGN_OR_RETURN(col.type, ParseType());
      if (AcceptKw("METADATA")) {
        col.column_kind = ColumnKind::kMetadata;
        if (AcceptKw("FROM")) {
          ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
          col.metadata_key = std::move(key);
        }
        if (AcceptKw("VIRTUAL")) col.is_virtual = true;
      }
    }
    // Column constraint and comment, in either order.
    while (true) {
      if (AtKw("CONSTRAINT") || AtKw("PRIMARY")) {
        const Token& pk_tok = Cur();
        std::string constraint_name;
        if (AcceptKw("CONSTRAINT")) {
          ASSIGN_OR_RETURN(constraint_name, ParseIdentifier());
        }
        RETURN_IF_ERROR(ExpectKw("PRIMARY"));
        RETURN_IF_ERROR(ExpectKw("KEY"));
        ASSIGN_OR_RETURN(bool enforced, ParseEnforcement());
        if (ct.primary_key) return ErrorAt(pk_tok, "Duplicate primary key definition");
        PrimaryKeyDef pk;
        pk.pos = PosOf(pk_tok);
        pk.constraint_name = std::move(constraint_name);
        pk.columns = {col.name};
        pk.enforced = enforced;
        ct.primary_key = std::move(pk);
        col.primary_key = true;
        continue;
      }
      if (AcceptKw("COMMENT")) {
        ASSIGN_OR_RETURN(std::string c, ParseStringLiteral());
        col.comment = std::move(c);
        continue;
      }
      break;
    }
    ct.columns.push_back(std::move(col));
    return Status::OK();
  }

  Result<bool> ParseEnforcement() {
    if (AcceptKw("NOT")) {
      RETURN_IF_ERROR(ExpectKw("ENFORCED"));
      return false;
    }
    if (AcceptKw("ENFORCED")) return true;
    return ErrorHere();
  }

  Result<StatementPtr> ParseCreateView(SourcePos pos, bool temporary) {
    auto cv = std::make_unique<CreateView>();
    cv->pos = pos;
    cv->temporary = temporary;
    ASSIGN_OR_RETURN(cv->if_not_exists, ParseIfNotExists());
    ASSIGN_OR_RETURN(cv->name, ParseCompoundName());
    if (AtPunct("(")) {
      ASSIGN_OR_RETURN(cv->columns, ParseParenIdentifierList());
    }
    if (AcceptKw("COMMENT")) {
      ASSIGN_OR_RETURN(std::string c, ParseStringLiteral());
      cv->comment = std::move(c);
    }
    RETURN_IF_ERROR(ExpectKw("AS"));
    size_t start = Cur().offset;
    ASSIGN_OR_RETURN(cv->query, ParseQuery());
    size_t end = tokens_[idx_ > 0 ? idx_ - 1 : 0].end;
    cv->query_text = std::string(sql_.substr(start, end - start));
    return StatementPtr(std::move(cv));
  }

  Result<StatementPtr> ParseDrop() {
    auto d = std::make_unique<Drop>();
    d->pos = Here();
    RETURN_IF_ERROR(ExpectKw("DROP"));
    d->temporary = AcceptKw("TEMPORARY");
    if (AcceptKw("TABLE")) {
      d->object = ObjectKind::kTable;
    } else if (AcceptKw("VIEW")) {
      d->object = ObjectKind::kView;
    } else if (!d->temporary && AcceptKw("CATALOG")) {
      d->object = ObjectKind::kCatalog;
    } else if (!d->temporary && AcceptKw("DATABASE")) {
      d->object = ObjectKind::kDatabase;
    } else {
      return ErrorHere();
    }
    if (AcceptKw("IF")) {
      RETURN_IF_ERROR(ExpectKw("EXISTS"));
      d->if_exists = true;
    }
    if (d->object == ObjectKind::kCatalog) {
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      d->name = {name};
    } else {
      ASSIGN_OR_RETURN(d->name, ParseCompoundName());
    }
    if (d->object == ObjectKind::kDatabase) {
      if (AcceptKw("CASCADE")) d->cascade = true;
      else AcceptKw("RESTRICT");
    }
    return StatementPtr(std::move(d));
  }

  Result<StatementPtr> ParseShow() {
    SourcePos pos = Here();
    RETURN_IF_ERROR(ExpectKw("SHOW"));
    if (AcceptKw("CREATE")) {
      auto sc = std::make_unique<ShowCreate>();
      sc->pos = pos;
      if (AcceptKw("TABLE")) {
        sc->object = ObjectKind::kTable;
      } else if (AcceptKw("VIEW")) {
        sc->object = ObjectKind::kView;
      } else {
        return ErrorHere();
      }
      ASSIGN_OR_RETURN(sc->name, ParseCompoundName());
      return StatementPtr(std::move(sc));
    }
    static const std::pair<const char*, ShowKind> kKinds[] = {
        {"TABLES", ShowKind::kTables},     {"VIEWS", ShowKind::kViews},         {"FUNCTIONS", ShowKind::kFunctions},
        {"CATALOGS", ShowKind::kCatalogs}, {"DATABASES", ShowKind::kDatabases}, {"MODULES", ShowKind::kModules},
    };
    if (AcceptKw("CURRENT")) {
      auto s = std::make_unique<Show>();
      s->pos = pos;
      if (AcceptKw("CATALOG")) s->show_kind = ShowKind::kCurrentCatalog;
      else if (AcceptKw("DATABASE")) s->show_kind = ShowKind::kCurrentDatabase;
      else return ErrorHere();
      return StatementPtr(std::move(s));
    }
    for (const auto& [word, kind] : kKinds) {
      if (AcceptKw(word)) {
        auto s = std::make_unique<Show>();
        s->pos = pos;
        s->show_kind = kind;
        if ((kind == ShowKind::kTables || kind == ShowKind::kViews || kind == ShowKind::kDatabases) &&
            (AcceptKw("FROM") || AcceptKw("IN"))) {
          ASSIGN_OR_RETURN(s->from, ParseCompoundName());
        }
        if (AcceptKw("NOT")) {
          s->not_like = true;
          if (!AtKw("LIKE")) return ErrorHere();
        }
        if (AcceptKw("LIKE")) {
        ASSIGN_OR_RETURN(s->like, ParseStringLiteral());
      }
        return StatementPtr(std::move(s));
      }
    }
    return ErrorHere();
  }

  Result<StatementPtr> ParseDescribe() {
    auto d = std::make_unique<Describe>();
    d->pos = Here();
    Advance();  // DESCRIBE or DESC
    d->extended = AcceptKw("EXTENDED");
    ASSIGN_OR_RETURN(d->name, ParseCompoundName());
    return StatementPtr(std::move(d));
  }

  Result<StatementPtr> ParseSet() {
    auto s = std::make_unique<SetStatement>();
    s->pos = Here();
    RETURN_IF_ERROR(ExpectKw("SET"));
    Expect("<STRING>");
    if (Cur().kind == TokenKind::kString) {
      ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
      RETURN_IF_ERROR(ExpectPunct("="));
      ASSIGN_OR_RETURN(s->value, ParseStringLiteral());
      s->key = std::move(key);
    }
    return StatementPtr(std::move(s));
  }

  Result<StatementPtr> ParseReset() {
    auto r = std::make_unique<Reset>();
    r->pos = Here();
    RETURN_IF_ERROR(ExpectKw("RESET"));
    Expect("<STRING>");
    if (Cur().kind == TokenKind::kString) {
      ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
      r->key = std::move(key);
    }
    return StatementPtr(std::move(r));
  }

  Result<std::unique_ptr<Insert>> ParseInsert() {
    auto ins = std::make_unique<Insert>();
    ins->pos = Here();
    RETURN_IF_ERROR(ExpectKw("INSERT"));
    if (AcceptKw("OVERWRITE")) {
      ins->overwrite = true;
    } else {
      RETURN_IF_ERROR(ExpectKw("INTO"));
    }
    ASSIGN_OR_RETURN(ins->target, ParseCompoundName());
    ASSIGN_OR_RETURN(ins->hints, ParseHintsIfAny());
    if (AcceptKw("PARTITION")) {
      RETURN_IF_ERROR(ExpectPunct("("));
      do {
        ASSIGN_OR_RETURN(std::string key, ParseIdentifier());
        RETURN_IF_ERROR(ExpectPunct("="));
        ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
        ins->static_partition.emplace_back(std::move(key), std::move(value));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
    // "(a, b) SELECT" is a column list; "(SELECT ...)" is the query.
    if (AtPunct("(") && !PeekIsKw(1, "SELECT") && !PeekIsKw(1, "WITH") && !PeekIsKw(1, "VALUES") &&
        !PeekIsPunct(1, "(")) {
      ASSIGN_OR_RETURN(ins->columns, ParseParenIdentifierList());
    }
    if (!AtQueryStart()) return ErrorHere();
    ASSIGN_OR_RETURN(ins->query, ParseQuery());
    return ins;
  }

  // BEGIN (after EXECUTE STATEMENT SET) insert; insert; ... END
  Status ParseStatementSetBody(StatementSet& set) {
    RETURN_IF_ERROR(ExpectKw("BEGIN"));
    while (true) {
      if (!set.inserts.empty() && AcceptKw("END")) break;
      if (!AtKw("INSERT")) return ErrorHere();
      ASSIGN_OR_RETURN(auto ins, ParseInsert());
      set.inserts.push_back(std::move(ins));
      if (!AcceptPunct(";")) {
        RETURN_IF_ERROR(ExpectKw("END"));
        break;
      }
    }
    return Status::OK();
  }

  Result<StatementPtr> ParseExecute() {
    SourcePos pos = Here();
    RETURN_IF_ERROR(ExpectKw("EXECUTE"));
    if (AcceptKw("STATEMENT")) {
      RETURN_IF_ERROR(ExpectKw("SET"));
      auto set = std::make_unique<StatementSet>();
      set->pos = pos;
      set->execute_form = true;
      RETURN_IF_ERROR(ParseStatementSetBody(*set));
      return StatementPtr(std::move(set));
    }
    if (AtKw("INSERT")) {
      ASSIGN_OR_RETURN(auto ins, ParseInsert());
      return StatementPtr(std::move(ins));
    }
    if (AtQueryStart()) return ParseQueryStatement();
    return ErrorHere();
  }

  Result<StatementPtr> ParseBeginStatementSet() {
    auto set = std::make_unique<StatementSet>();
    set->pos = Here();
    set->execute_form = false;
    RETURN_IF_ERROR(ExpectKw("BEGIN"));
    RETURN_IF_ERROR(ExpectKw("STATEMENT"));
    RETURN_IF_ERROR(ExpectKw("SET"));
    RETURN_IF_ERROR(ExpectPunct(";"));
    while (true) {
      if (!set->inserts.empty() && AcceptKw("END")) break;
      if (!AtKw("INSERT")) return ErrorHere();
      ASSIGN_OR_RETURN(auto ins, ParseInsert());
      set->inserts.push_back(std::move(ins));
      RETURN_IF_ERROR(ExpectPunct(";"));
    }
    return StatementPtr(std::move(set));
  }

  Result<StatementPtr> ParseExplain() {
    auto ex = std::make_unique<Explain>();
    ex->pos = Here();
    RETURN_IF_ERROR(ExpectKw("EXPLAIN"));
    if (AcceptKw("PLAN")) {
      RETURN_IF_ERROR(ExpectKw("FOR"));
    } else {
      static const std::pair<const char*, ExplainDetail> kDetails[] = {
          {"CHANGELOG_MODE", ExplainDetail::kChangelogMode},
          {"ESTIMATED_COST", ExplainDetail::kEstimatedCost},
          {"PLAN_ADVICE", ExplainDetail::kPlanAdvice},
          {"JSON_EXECUTION_PLAN", ExplainDetail::kJsonExecutionPlan},
      };
      while (true) {
        bool found = false;
        for (const auto& [word, detail] : kDetails) {
          if (AcceptKw(word)) {
            if (std::find(ex->details.begin(), ex->details.end(), detail) == ex->details.end()) {
              ex->details.push_back(detail);
            }
            found = true;
            break;
          }
        }
        if (!found) {
          if (!ex->details.empty()) return ErrorHere();
          break;
        }
        if (!AcceptPunct(",")) break;
      }
    }
    SourcePos inner_pos = Here();
    if ((AtKw("STATEMENT") && PeekIsKw(1, "SET")) || (AtKw("EXECUTE") && PeekIsKw(1, "STATEMENT"))) {
      bool execute = AcceptKw("EXECUTE");
      RETURN_IF_ERROR(ExpectKw("STATEMENT"));
      RETURN_IF_ERROR(ExpectKw("SET"));
      auto set = std::make_unique<StatementSet>();
      set->pos = inner_pos;
      set->execute_form = execute;
      RETURN_IF_ERROR(ParseStatementSetBody(*set));
      ex->inner = std::move(set);
    } else if (AtKw("BEGIN")) {
      ASSIGN_OR_RETURN(ex->inner, ParseBeginStatementSet());
    } else if (AtKw("INSERT")) {
      ASSIGN_OR_RETURN(auto ins, ParseInsert());
      ex->inner = std::move(ins);
    } else if (AtKw("EXECUTE")) {
      ASSIGN_OR_RETURN(ex->inner, ParseExecute());
    } else if (AtQueryStart()) {
      ASSIGN_OR_RETURN(ex->inner, ParseQueryStatement());
    } else {
      return ErrorHere();
    }
    return StatementPtr(std::move(ex));
  }

  // ------------------------------------------------------------------ hints

  Result<std::vector<Hint>> ParseHintsIfAny() {
    std::vector<Hint> hints;
    Expect("\"/*+\"");
    if (Cur().kind != TokenKind::kHintStart) return hints;
    Advance();
    do {
      Hint h;
      h.pos = Here();
      ASSIGN_OR_RETURN(h.name, ParseIdentifier());
      if (AcceptPunct("(")) {
        if (!AtPunct(")")) {
          bool kv = (Cur().kind == TokenKind::kString || TokIsIdentifier(Cur())) && PeekIsPunct(1, "=");
          do {
            if (kv) {
              const Token key_token = Cur();
              std::string key;
              if (Cur().kind == TokenKind::kString) {
                ASSIGN_OR_RETURN(key, ParseStringLiteral());
              } else {
                ASSIGN_OR_RETURN(key, ParseIdentifier());
              }
              RETURN_IF_ERROR(CheckNewKey(h.kv_options, key, key_token));
              RETURN_IF_ERROR(ExpectPunct("="));
              ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
              h.kv_options.emplace_back(std::move(key), std::move(value));
            } else {
              Expect("<IDENTIFIER>");
              const Token& t = Cur();
              if (t.kind == TokenKind::kString || t.kind == TokenKind::kInteger || TokIsIdentifier(t)) {
                // Qualified names in list options (BROADCAST(db.t)) are joined with '.'.
                std::string item = t.text;
                Advance();
                while (t.kind != TokenKind::kString && PeekIsPunct(0, ".") && TokIsIdentifier(PeekTok(1))) {
                  Advance();
                  item += "." + Cur().text;
                  Advance();
                }
                h.list_options.push_back(std::move(item));
              } else {
                return ErrorHere();
              }
            }
          } while (AcceptPunct(","));
        }
        RETURN_IF_ERROR(ExpectPunct(")"));
      }
      hints.push_back(std::move(h));
    } while (AcceptPunct(","));
    Expect("\"*/\"");
    if (Cur().kind != TokenKind::kHintEnd) return ErrorHere();
    Advance();
    return hints;
  }

  // ------------------------------------------------------------------ queries

  // [WITH ...] set-expression [ORDER BY ...] [LIMIT n] [OFFSET n] [FETCH FIRST n ROWS ONLY]
  Result<QueryPtr> ParseQuery() {
    DepthGuard guard(this);
    RETURN_IF_ERROR(CheckDepth());
    SourcePos pos = Here();
    std::vector<Cte> ctes;
    if (AcceptKw("WITH")) {
      do {
        Cte cte;
        cte.pos = Here();
        ASSIGN_OR_RETURN(cte.name, ParseIdentifier());
        if (AtPunct("(")) {
          ASSIGN_OR_RETURN(cte.columns, ParseParenIdentifierList());
        }
        RETURN_IF_ERROR(ExpectKw("AS"));
        RETURN_IF_ERROR(ExpectPunct("("));
        ASSIGN_OR_RETURN(cte.query, ParseQuery());
        RETURN_IF_ERROR(ExpectPunct(")"));
        ctes.push_back(std::move(cte));
      } while (AcceptPunct(","));
    }
    ASSIGN_OR_RETURN(QueryPtr body, ParseSetExpr());
    std::vector<OrderItem> order_by;
    if (AcceptKw("ORDER")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      ASSIGN_OR_RETURN(order_by, ParseOrderItems());
    }
    ExprPtr limit, offset;
    while (true) {
      if (!limit && AcceptKw("LIMIT")) {
        ASSIGN_OR_RETURN(limit, ParseExpr());
        continue;
      }
      if (!offset && AcceptKw("OFFSET")) {
        ASSIGN_OR_RETURN(offset, ParseExpr());
        if (!AcceptKw("ROWS")) AcceptKw("ROW");
        continue;
      }
      if (!limit && AcceptKw("FETCH")) {
        if (!AcceptKw("FIRST")) RETURN_IF_ERROR(ExpectKw("NEXT"));
        ASSIGN_OR_RETURN(limit, ParseExpr());
        if (!AcceptKw("ROWS")) RETURN_IF_ERROR(ExpectKw("ROW"));
        RETURN_IF_ERROR(ExpectKw("ONLY"));
        continue;
      }
      break;
    }
    bool has_tail = !order_by.empty() || limit || offset;
    if ((has_tail && (!body->order_by.empty() || body->limit || body->offset)) ||
        (!ctes.empty() && !body->with.empty())) {
      // A parenthesized query that already has these clauses: keep it as a subquery.
      auto wrapper = std::make_unique<Select>();
      wrapper->pos = body->pos;
      auto star = std::make_unique<Star>();
      star->pos = body->pos;
      wrapper->items.push_back(SelectItem{body->pos, std::move(star), ""});
      auto sub = std::make_unique<SubqueryRef>();
      sub->pos = body->pos;
      sub->query = std::move(body);
      wrapper->from = std::move(sub);
      body = std::move(wrapper);
    }
    body->with = std::move(ctes);
    if (!body->with.empty()) body->pos = pos;
    if (has_tail) {
      body->order_by = std::move(order_by);
      body->limit = std::move(limit);
      body->offset = std::move(offset);
    }
    return body;
  }

  Result<std::vector<OrderItem>> ParseOrderItems() {
    std::vector<OrderItem> items;
    do {
      OrderItem item;
      item.pos = Here();
      ASSIGN_OR_RETURN(item.expr, ParseExpr());
      if (AcceptKw("DESC")) {
        item.descending = true;
      } else {
        AcceptKw("ASC");
      }
      if (AcceptKw("NULLS")) {
        if (AcceptKw("FIRST")) {
          item.nulls = OrderItem::Nulls::kFirst;
        } else {
          RETURN_IF_ERROR(ExpectKw("LAST"));
          item.nulls = OrderItem::Nulls::kLast;
        }
      }
      items.push_back(std::move(item));
    } while (AcceptPunct(","));
    return items;
  }

  Result<QueryPtr> ParseSetExpr() {
    ASSIGN_OR_RETURN(QueryPtr left, ParseIntersectExpr());
    while (true) {
      SourcePos pos = Here();
      SetOpKind op;
      if (AcceptKw("UNION")) {
        op = SetOpKind::kUnion;
      } else if (AcceptKw("EXCEPT") || AcceptKw("MINUS")) {
        op = SetOpKind::kExcept;
      } else {
        break;
      }
      auto set = std::make_unique<SetOp>();
      set->pos = pos;
      set->op = op;
      if (AcceptKw("ALL")) {
        set->all = true;
      } else {
        AcceptKw("DISTINCT");
      }
      ASSIGN_OR_RETURN(set->right, ParseIntersectExpr());
      set->left = std::move(left);
      left = std::move(set);
    }
    return left;
  }

  Result<QueryPtr> ParseIntersectExpr() {
    ASSIGN_OR_RETURN(QueryPtr left, ParseQueryPrimary());
    while (true) {
      SourcePos pos = Here();
      if (!AcceptKw("INTERSECT")) break;
      auto set = std::make_unique<SetOp>();
      set->pos = pos;
      set->op = SetOpKind::kIntersect;
      if (AcceptKw("ALL")) {
        set->all = true;
      } else {
        AcceptKw("DISTINCT");
      }
      ASSIGN_OR_RETURN(set->right, ParseQueryPrimary());
      set->left = std::move(left);
      left = std::move(set);
    }
    return left;
  }

  Result<QueryPtr> ParseQueryPrimary() {
    if (AtKw("SELECT")) return ParseSelect();
    if (AtKw("VALUES")) return ParseValues();
    if (AcceptPunct("(")) {
      ASSIGN_OR_RETURN(QueryPtr q, ParseQuery());
      RETURN_IF_ERROR(ExpectPunct(")"));
      return q;
    }
    return ErrorHere();
  }

  Result<QueryPtr> ParseValues() {
    auto v = std::make_unique<Values>();
    v->pos = Here();
    RETURN_IF_ERROR(ExpectKw("VALUES"));
    do {
      AcceptKw("ROW");
      RETURN_IF_ERROR(ExpectPunct("("));
      std::vector<ExprPtr> row;
      do {
        ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
        row.push_back(std::move(e));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
      v->rows.push_back(std::move(row));
    } while (AcceptPunct(","));
    return QueryPtr(std::move(v));
  }

  Result<QueryPtr> ParseSelect() {
    auto s = std::make_unique<Select>();
    s->pos = Here();
    RETURN_IF_ERROR(ExpectKw("SELECT"));
    ASSIGN_OR_RETURN(s->hints, ParseHintsIfAny());
    if (AcceptKw("DISTINCT")) {
      s->distinct = true;
    } else {
      AcceptKw("ALL");
    }
    do {
      SelectItem item;
      item.pos = Here();
      if (AtPunct("*")) {
        auto star = std::make_unique<Star>();
        star->pos = Here();
        Advance();
        item.expr = std::move(star);
      } else {
        ASSIGN_OR_RETURN(item.expr, ParseExpr());
        if (item.expr->kind != ExprKind::kStar) {
          ASSIGN_OR_RETURN(item.alias, ParseOptionalAlias());
        }
      }
      s->items.push_back(std::move(item));
      if (AtKw("FROM")) break;
    } while (AcceptPunct(","));
    if (AcceptKw("FROM")) {
      ASSIGN_OR_RETURN(s->from, ParseFromList());
    }
    if (AcceptKw("WHERE")) {
      ASSIGN_OR_RETURN(s->where, ParseExpr());
    }
    if (AcceptKw("GROUP")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      ASSIGN_OR_RETURN(s->group_by, ParseGroupingElements());
    }
    if (AcceptKw("HAVING")) {
      ASSIGN_OR_RETURN(s->having, ParseExpr());
    }
    if (AcceptKw("WINDOW")) {
      do {
        NamedWindow w;
        w.pos = Here();
        ASSIGN_OR_RETURN(w.name, ParseIdentifier());
        RETURN_IF_ERROR(ExpectKw("AS"));
        ASSIGN_OR_RETURN(w.spec, ParseWindowSpec());
        s->windows.push_back(std::move(w));
      } while (AcceptPunct(","));
    }
    return QueryPtr(std::move(s));
  }

  // [AS] alias, or "" when none follows.
  Result<std::string> ParseOptionalAlias() {
    if (AcceptKw("AS")) return ParseIdentifier();
    if (AtIdentifier()) return ParseIdentifier();
    return std::string();
  }

  Result<std::vector<GroupingElement>> ParseGroupingElements() {
    std::vector<GroupingElement> out;
    do {
      GroupingElement g;
      g.pos = Here();
      if (AtKw("GROUPING") && PeekIsKw(1, "SETS")) {
        Advance();
        Advance();
        g.kind = GroupingElement::Kind::kGroupingSets;
        RETURN_IF_ERROR(ExpectPunct("("));
        ASSIGN_OR_RETURN(g.elements, ParseGroupingElements());
        RETURN_IF_ERROR(ExpectPunct(")"));
      } else if ((AtKw("ROLLUP") || AtKw("CUBE")) && PeekIsPunct(1, "(")) {
        g.kind = AtKw("ROLLUP") ? GroupingElement::Kind::kRollup : GroupingElement::Kind::kCube;
        Advance();
        RETURN_IF_ERROR(ExpectPunct("("));
        ASSIGN_OR_RETURN(g.elements, ParseGroupingElements());
        RETURN_IF_ERROR(ExpectPunct(")"));
      } else if (AtPunct("(") && PeekIsPunct(1, ")")) {
        Advance();
        Advance();
        g.kind = GroupingElement::Kind::kEmpty;
      } else {
        ASSIGN_OR_RETURN(g.expr, ParseExpr());
      }
      out.push_back(std::move(g));
    } while (AcceptPunct(","));
    return out;
  }

  // ------------------------------------------------------------------ FROM

  Result<TableRefPtr> ParseFromList() {
    ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
    while (true) {
      SourcePos pos = Here();
      JoinType type;
      bool natural = false;
      if (AcceptPunct(",")) {
        type = JoinType::kComma;
      } else if (AcceptKw("CROSS")) {
        RETURN_IF_ERROR(ExpectKw("JOIN"));
        type = JoinType::kCross;
      } else {
        natural = AcceptKw("NATURAL");
        if (AcceptKw("JOIN")) {
          type = JoinType::kInner;
        } else if (AcceptKw("INNER")) {
          RETURN_IF_ERROR(ExpectKw("JOIN"));
          type = JoinType::kInner;
        } else if (AcceptKw("LEFT") || AcceptKw("RIGHT") || AcceptKw("FULL")) {
          const Token& prev = tokens_[idx_ - 1];
          type = TokIsKw(prev, "LEFT") ? JoinType::kLeft : TokIsKw(prev, "RIGHT") ? JoinType::kRight : JoinType::kFull;
          AcceptKw("OUTER");
          RETURN_IF_ERROR(ExpectKw("JOIN"));
        } else {
          if (natural) return ErrorHere();
          break;
        }
      }
      auto join = std::make_unique<Join>();
      join->pos = pos;
      join->join_type = type;
      join->natural = natural;
      join->left = std::move(left);
      ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
      if (type != JoinType::kComma && type != JoinType::kCross && !natural) {
        if (AcceptKw("ON")) {
          ASSIGN_OR_RETURN(join->on, ParseExpr());
        } else if (AcceptKw("USING")) {
          ASSIGN_OR_RETURN(join->using_columns, ParseParenIdentifierList());
        } else {
          return ErrorHere();
        }
      }
      left = std::move(join);
    }
    return left;
  }

  Result<TableRefPtr> ParseTablePrimary() {
    DepthGuard guard(this);
    RETURN_IF_ERROR(CheckDepth());
    SourcePos pos = Here();
    TableRefPtr ref;
    bool allow_alias = true;
    if (AcceptKw("LATERAL")) {
      if (AcceptKw("TABLE")) {
        ASSIGN_OR_RETURN(ref, ParseTableFunction(pos, /*lateral=*/true));
      } else if (AcceptPunct("(")) {
        auto sub = std::make_unique<SubqueryRef>();
        sub->pos = pos;
        sub->lateral = true;
        ASSIGN_OR_RETURN(sub->query, ParseQuery());
        RETURN_IF_ERROR(ExpectPunct(")"));
        ref = std::move(sub);
      } else {
        return ErrorHere();
      }
    } else if (AtKw("TABLE") && PeekIsPunct(1, "(")) {
      Advance();
      ASSIGN_OR_RETURN(ref, ParseTableFunction(pos, /*lateral=*/false));
    } else if (AcceptKw("UNNEST")) {
      auto un = std::make_unique<Unnest>();
      un->pos = pos;
      RETURN_IF_ERROR(ExpectPunct("("));
      do {
        ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
        un->args.push_back(std::move(e));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
      if (AtKw("WITH") && PeekIsKw(1, "ORDINALITY")) {
        Advance();
        Advance();
        un->with_ordinality = true;
      }
      ref = std::move(un);
    } else if (AtPunct("(")) {
      if (PeekIsKw(1, "SELECT") || PeekIsKw(1, "WITH") || PeekIsKw(1, "VALUES") || PeekIsPunct(1, "(")) {
        // A parenthesized query; "((SELECT ...) UNION ...)" also starts with "((".
        size_t save = idx_;
        bool double_paren = PeekIsPunct(1, "(");
        Advance();
        auto sub = std::make_unique<SubqueryRef>();
        sub->pos = pos;
        auto q = ParseQuery();
        if (q.ok() && AtPunct(")")) {
          Advance();
          sub->query = std::move(q).value();
          ref = std::move(sub);
        } else if (double_paren) {
          // Not a query: a parenthesized join such as ((a JOIN b ON ...) JOIN c ON ...).
          idx_ = save;
          Advance();
          ASSIGN_OR_RETURN(ref, ParseFromList());
          RETURN_IF_ERROR(ExpectPunct(")"));
          allow_alias = false;
        } else {
          if (!q.ok()) return q.status();
          return ErrorHere();
        }
      } else {
        Advance();
        ASSIGN_OR_RETURN(ref, ParseFromList());
        RETURN_IF_ERROR(ExpectPunct(")"));
        allow_alias = ref->kind != TableRefKind::kJoin;
      }
    } else {
      auto t = std::make_unique<TableName>();
      t->pos = pos;
      ASSIGN_OR_RETURN(t->name, ParseCompoundName());
      ASSIGN_OR_RETURN(t->hints, ParseHintsIfAny());
      if (AtKw("FOR") && PeekIsKw(1, "SYSTEM_TIME")) {
        Advance();
        Advance();
        RETURN_IF_ERROR(ExpectKw("AS"));
        RETURN_IF_ERROR(ExpectKw("OF"));
        ASSIGN_OR_RETURN(t->for_system_time, ParseExpr());
      }
      ref = std::move(t);
    }
    if (TokIsKw(Cur(), "MATCH_RECOGNIZE")) {
      return Status::NotSupported("MATCH_RECOGNIZE is not supported by Sluice yet (at line " +
                                  std::to_string(Cur().line) + ", column " + std::to_string(Cur().column) + ")");
    }
    if (allow_alias) {
      ASSIGN_OR_RETURN(ref->alias, ParseOptionalAlias());
      if (!ref->alias.empty() && AtPunct("(")) {
        ASSIGN_OR_RETURN(ref->column_aliases, ParseParenIdentifierList());
      }
    }
    return ref;
  }

  // After [LATERAL] TABLE: '(' call ')'.
  Result<TableRefPtr> ParseTableFunction(SourcePos pos, bool lateral) {
    auto tf = std::make_unique<TableFunctionRef>();
    tf->pos = pos;
    tf->lateral = lateral;
    RETURN_IF_ERROR(ExpectPunct("("));
    const Token& call_tok = Cur();
    ASSIGN_OR_RETURN(tf->call, ParseExpr());
    if (tf->call->kind != ExprKind::kCall) return ErrorAt(call_tok, "Expected a table function call in TABLE(...)");
    RETURN_IF_ERROR(ExpectPunct(")"));
    return TableRefPtr(std::move(tf));
  }

  // ------------------------------------------------------------------ window specs

  Result<std::unique_ptr<WindowSpec>> ParseWindowSpec() {
    auto spec = std::make_unique<WindowSpec>();
    spec->pos = Here();
    RETURN_IF_ERROR(ExpectPunct("("));
    if (AtIdentifier()) {
      ASSIGN_OR_RETURN(spec->base_window, ParseIdentifier());
    }
    if (AcceptKw("PARTITION")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      do {
        ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
        spec->partition_by.push_back(std::move(e));
      } while (AcceptPunct(","));
    }
    if (AcceptKw("ORDER")) {
      RETURN_IF_ERROR(ExpectKw("BY"));
      ASSIGN_OR_RETURN(spec->order_by, ParseOrderItems());
    }
    if (AtKw("ROWS") || AtKw("RANGE")) {
      spec->frame_unit = AtKw("ROWS") ? WindowSpec::FrameUnit::kRows : WindowSpec::FrameUnit::kRange;
      Advance();
      if (AcceptKw("BETWEEN")) {
        ASSIGN_OR_RETURN(spec->frame_start, ParseFrameBound());
        RETURN_IF_ERROR(ExpectKw("AND"));
        ASSIGN_OR_RETURN(FrameBound end, ParseFrameBound());
        spec->frame_end = std::move(end);
      } else {
        ASSIGN_OR_RETURN(spec->frame_start, ParseFrameBound());
      }
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    return spec;
  }

  Result<FrameBound> ParseFrameBound() {
    FrameBound b;
    if (AcceptKw("UNBOUNDED")) {
      if (AcceptKw("PRECEDING")) {
        b.kind = FrameBound::Kind::kUnboundedPreceding;
      } else {
        RETURN_IF_ERROR(ExpectKw("FOLLOWING"));
        b.kind = FrameBound::Kind::kUnboundedFollowing;
      }
      return b;
    }
    if (AcceptKw("CURRENT")) {
      RETURN_IF_ERROR(ExpectKw("ROW"));
      b.kind = FrameBound::Kind::kCurrentRow;
      return b;
    }
    ASSIGN_OR_RETURN(b.offset, ParseAdditive());
    if (AcceptKw("PRECEDING")) {
      b.kind = FrameBound::Kind::kPreceding;
    } else {
      RETURN_IF_ERROR(ExpectKw("FOLLOWING"));
      b.kind = FrameBound::Kind::kFollowing;
    }
    return b;
  }

  // ------------------------------------------------------------------ expressions

  Result<ExprPtr> ParseExpr() {
    DepthGuard guard(this);
    RETURN_IF_ERROR(CheckDepth());
    // The outermost expression starts a new count of chained operators.
    if (expr_roots_ == 0) expr_operators_ = 0;
    ++expr_roots_;
    Result<ExprPtr> e = ParseOr();
    --expr_roots_;
    return e;
  }

  static ExprPtr MakeBinary(SourcePos pos, BinaryOp op, ExprPtr l, ExprPtr r) {
    auto b = std::make_unique<Binary>();
    b->pos = pos;
    b->op = op;
    b->left = std::move(l);
    b->right = std::move(r);
    return b;
  }

  Result<ExprPtr> ParseOr() {
    ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
    while (AcceptKw("OR")) {
      RETURN_IF_ERROR(CountOperator());
      ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
      SourcePos pos = left->pos;
      left = MakeBinary(pos, BinaryOp::kOr, std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseAnd() {
    ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
    while (AcceptKw("AND")) {
      RETURN_IF_ERROR(CountOperator());
      ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
      SourcePos pos = left->pos;
      left = MakeBinary(pos, BinaryOp::kAnd, std::move(left), std::move(right));
    }
    return left;
  }

  Result<ExprPtr> ParseNot() {
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

  Result<ExprPtr> ParsePredicate() {
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
        bool negated = AcceptKw("NOT");
        if (AcceptKw("DISTINCT")) {
          RETURN_IF_ERROR(ExpectKw("FROM"));
          auto d = std::make_unique<IsDistinctFrom>();
          d->pos = pos;
          d->negated = negated;
          d->left = std::move(left);
          ASSIGN_OR_RETURN(d->right, ParseAdditive());
          left = std::move(d);
          continue;
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
        left = std::move(is);
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
        left = std::move(b);
        continue;
      }
      if (AcceptKw("IN")) {
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
        left = std::move(in);
        continue;
      }
      bool like = AtKw("LIKE");
      bool similar = !like && AtKw("SIMILAR");
      if (like || similar) {
        Advance();
        if (similar) RETURN_IF_ERROR(ExpectKw("TO"));
        auto l = std::make_unique<Like>();
        l->pos = pos;
        l->negated = negated;
        l->similar = similar;
        l->operand = std::move(left);
        ASSIGN_OR_RETURN(l->pattern, ParseAdditive());
        if (AcceptKw("ESCAPE")) {
          ASSIGN_OR_RETURN(l->escape, ParseAdditive());
        }
        left = std::move(l);
        continue;
      }
      if (negated) return ErrorHere();
      break;
    }
    return left;
  }

  Result<ExprPtr> ParseAdditive() {
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

  Result<ExprPtr> ParseMultiplicative() {
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

  Result<ExprPtr> ParseUnary() {
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

  Result<ExprPtr> ParsePostfix() {
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

  Result<TimeUnit> ParseTimeUnit() {
    Expect("<TIME UNIT>");
    if (Cur().kind == TokenKind::kWord) {
      if (auto unit = TimeUnitFromWord(Cur().text)) {
        Advance();
        return *unit;
      }
    }
    return ErrorHere();
  }

  Result<ExprPtr> ParseIntervalLiteral(SourcePos pos) {
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

  Result<TimeUnit> ParseIntervalUnit() {
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

  Result<ExprPtr> ParsePrimary() {
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

  Result<ExprPtr> ParseParenthesized() {
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

  Result<std::vector<ExprPtr>> ParseExprListInParens() {
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

  Result<std::vector<ExprPtr>> ParseExprListInBrackets() {
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

  std::unique_ptr<Call> MakeCall(SourcePos pos, std::string name) {
    auto c = std::make_unique<Call>();
    c->pos = pos;
    c->name = {std::move(name)};
    return c;
  }

  Result<ExprPtr> ParseWordPrimary() {
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
    if ((word == "CAST" || word == "TRY_CAST") && paren_next) {
      Advance();
      Advance();
      auto c = std::make_unique<Cast>();
      c->pos = pos;
      c->try_cast = word == "TRY_CAST";
      ASSIGN_OR_RETURN(c->operand, ParseExpr());
      RETURN_IF_ERROR(ExpectKw("AS"));
      ASSIGN_OR_RETURN(c->type, ParseType());
      RETURN_IF_ERROR(ExpectPunct(")"));
      return ExprPtr(std::move(c));
    }
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
    if (word == "TRIM" && paren_next) {
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
    if ((word == "SUBSTRING" || word == "OVERLAY") && paren_next) {
      std::string name = t.text;
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
    if (IsReservedWord(word) && !(paren_next && IsNiladicFunction(word))) {
      Expect("<IDENTIFIER>");
      Expect("<LITERAL>");
      Expect("\"(\"");
      return ErrorHere();
    }
    return ParseIdentifierOrCall();
  }

  // name, a.b.c, t.*, or a call name(...) with its suffixes.
  Result<ExprPtr> ParseIdentifierOrCall() {
    SourcePos pos = Here();
    Name parts;
    std::string first = Cur().text;
    Advance();
    parts.push_back(std::move(first));
    while (PeekIsPunct(0, ".")) {
      if (TokIsIdentifier(PeekTok(1))) {
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
  Result<ExprPtr> ParseCallArg() {
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
  Result<ExprPtr> ParseCallSuffix(std::unique_ptr<Call> c) {
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

  Result<ExprPtr> ParseCase() {
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

  // ------------------------------------------------------------------ types

  // "(n)" or nothing (then `default_value`); used for lengths (at least 1) and precisions (at least 0,
  // when `max_value` is small).
  Result<int> ParseOptionalLength(int default_value, int64_t max_value) {
    if (!AcceptPunct("(")) return default_value;
    const Token& tok = Cur();
    ASSIGN_OR_RETURN(int64_t n, ParseIntegerLiteral(max_value));
    if (n < 1 && max_value == LogicalType::kMaxVarCharLength) {
      return ErrorAt(tok, "Length must be between 1 and " + std::to_string(max_value));
    }
    RETURN_IF_ERROR(ExpectPunct(")"));
    return static_cast<int>(n);
  }

  Result<LogicalType> ParseType() {
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

  Result<LogicalType> ParseNullability(LogicalType t) {
    if (AtKw("NOT") && PeekIsKw(1, "NULL")) {
      Advance();
      Advance();
      return t.WithNullable(false);
    }
    if (AcceptKw("NULL")) return t.WithNullable(true);
    return t;
  }

  Result<LogicalType> ParseBaseType() {
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
    if (w == "DECIMAL" || w == "DEC" || w == "NUMERIC") {
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
    if (w == "INTERVAL") {
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
    if (w == "ROW") {
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
    return ErrorAt(t, "Unknown data type \"" + t.text + "\"");
  }

  // Bounds the recursion, so pathological input ("((((...", "- - - ...") fails cleanly instead of
  // overflowing the stack.
  static constexpr int kMaxDepth = 150;
  static constexpr int kMaxExpressionOperators = kMaxChainedOperators;
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* p_;
  };
  Status CheckDepth() const {
    if (depth_ <= kMaxDepth) return Status::OK();
    return ErrorAt(Cur(), "Expression or query nested too deeply (more than " + std::to_string(kMaxDepth) +
                              " levels)");
  }

  // Bounds the operators chained in one expression ("1 + 1 + ... + 1", "a AND b AND ..."): the parser
  // reads a chain in a loop, but it becomes a tree as deep as the chain is long, which the binder,
  // planner, EXPLAIN printer and evaluator walk recursively. Counting every binary operator of the
  // outermost expression (nested ones included) bounds the tree's depth whatever its shape; the limit
  // keeps every pass within a default 8 MiB thread stack (docs/sql.md, "Limits").
  Status CountOperator() {
    if (++expr_operators_ <= kMaxExpressionOperators) return Status::OK();
    return ErrorAt(Cur(), "Expression too long: more than " + std::to_string(kMaxExpressionOperators) +
                              " operators (AND, OR, comparisons, +, -, *, /, %, ||) in one expression");
  }

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t idx_ = 0;
  int depth_ = 0;
  int expr_roots_ = 0;      // ParseExpr calls under way
  int expr_operators_ = 0;  // binary operators of the outermost expression so far
  std::vector<std::string> expected_;
  size_t expected_idx_ = static_cast<size_t>(-1);
};

bool IsStatementSetStart(const std::vector<std::string>& words) {
  // [EXPLAIN [PLAN FOR | details...]] (EXECUTE STATEMENT SET BEGIN | STATEMENT SET BEGIN | BEGIN STATEMENT SET)
  size_t i = 0;
  if (i < words.size() && words[i] == "EXPLAIN") {
    ++i;
    if (i + 1 < words.size() && words[i] == "PLAN" && words[i + 1] == "FOR") i += 2;
    while (i < words.size() && (words[i] == "CHANGELOG_MODE" || words[i] == "ESTIMATED_COST" ||
                                words[i] == "PLAN_ADVICE" || words[i] == "JSON_EXECUTION_PLAN")) {
      ++i;
    }
  }
  auto at = [&](size_t k, const char* w) { return i + k < words.size() && words[i + k] == w; };
  if (at(0, "EXECUTE")) ++i;
  if (at(0, "STATEMENT") && at(1, "SET") && at(2, "BEGIN")) return true;
  return at(0, "BEGIN") && at(1, "STATEMENT") && at(2, "SET");
}

}  // namespace

Result<std::vector<StatementText>> SplitStatements(std::string_view script) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(script));
  std::vector<StatementText> out;
  size_t start = 0;  // index of the current statement's first token
  std::vector<std::string> words;  // leading words of the current statement, upper-cased
  bool in_block = false;           // inside a statement-set block whose END has not been seen
  bool after_semicolon = false;    // the previous token was a ';' inside the block
  auto flush = [&](size_t end_idx) {  // tokens [start, end_idx)
    if (end_idx > start) {
      const Token& first = tokens[start];
      const Token& last = tokens[end_idx - 1];
      out.push_back(StatementText{std::string(script.substr(first.offset, last.end - first.offset)), first.line,
                                  first.column});
    }
    start = end_idx + 1;
    words.clear();
    in_block = false;
    after_semicolon = false;
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == TokenKind::kEof) {
      flush(i);
      break;
    }
    bool is_semicolon = t.kind == TokenKind::kPunct && t.text == ";";
    if (!is_semicolon && t.kind == TokenKind::kWord) {
      std::string upper = Upper(t.text);
      if (words.size() < 12) {
        words.push_back(upper);
        if (!in_block && IsStatementSetStart(words)) in_block = true;
      }
      if (in_block && upper == "END" &&
          (after_semicolon || (i > 0 && tokens[i - 1].kind == TokenKind::kWord && IEquals(tokens[i - 1].text, "BEGIN")))) {
        in_block = false;
      }
    }
    if (is_semicolon && !in_block) {
      flush(i);
      continue;
    }
    after_semicolon = is_semicolon;
  }
  return out;
}

Result<ast::StatementPtr> ParseStatement(std::string_view sql, int line_offset, int column_offset) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql, line_offset, column_offset));
  Parser parser(sql, std::move(tokens));
  return parser.ParseSingleStatement();
}

Result<ast::StatementPtr> ParseStatement(const StatementText& statement) {
  return ParseStatement(statement.text, statement.line - 1, statement.column - 1);
}

Result<std::vector<ast::StatementPtr>> ParseScript(std::string_view script) {
  ASSIGN_OR_RETURN(std::vector<StatementText> texts, SplitStatements(script));
  std::vector<ast::StatementPtr> out;
  for (const StatementText& text : texts) {
    ASSIGN_OR_RETURN(ast::StatementPtr stmt, ParseStatement(text));
    out.push_back(std::move(stmt));
  }
  return out;
}

Result<ast::ExprPtr> ParseExpression(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  return parser.ParseStandaloneExpression();
}

Result<LogicalType> ParseDataType(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  return parser.ParseStandaloneType();
}

}  // namespace sluice::sql
