// The parser's statements: dispatch, SHOW, DESCRIBE, SET, RESET, INSERT, statement sets, EXPLAIN (parser_internal.h).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

Result<StatementPtr> Parser::ParseStatementBody() {
  if (AtQueryStart()) return ParseQueryStatement();
  if (AtKw("CREATE") || (AtKw("REPLACE") && PeekIsKw(1, "TABLE"))) return ParseCreate();
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

bool Parser::AtQueryStart() {
  bool a = AtKw("SELECT");
  bool b = AtKw("WITH");
  bool c = AtKw("VALUES");
  bool d = AtPunct("(");
  return a || b || c || d;
}

Result<StatementPtr> Parser::ParseQueryStatement() {
  auto stmt = std::make_unique<QueryStatement>();
  stmt->pos = Here();
  ASSIGN_OR_RETURN(stmt->query, ParseQuery());
  return StatementPtr(std::move(stmt));
}

Result<StatementPtr> Parser::ParseShow() {
  SourcePos pos = Here();
  RETURN_IF_ERROR(ExpectKw("SHOW"));
  if (AcceptKw("CREATE")) {
    auto sc = std::make_unique<ShowCreate>();
    sc->pos = pos;
    if (AcceptKw("TABLE")) {
      sc->object = ObjectKind::kTable;
    } else if (AcceptKw("VIEW")) {
      sc->object = ObjectKind::kView;
    } else if (AcceptKw("CATALOG")) {
      sc->object = ObjectKind::kCatalog;
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      sc->name = {name};
      return StatementPtr(std::move(sc));
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

Result<StatementPtr> Parser::ParseDescribe() {
  auto d = std::make_unique<Describe>();
  d->pos = Here();
  Advance();  // DESCRIBE or DESC
  // CATALOG is not reserved: `DESCRIBE catalog` and `DESCRIBE catalog.db.t` name a table.
  if (AtKw("CATALOG") && PeekTok(1).kind != TokenKind::kEof && !PeekIsPunct(1, ".") && !PeekIsPunct(1, ";")) {
    AcceptKw("CATALOG");
    d->catalog = true;
    d->extended = AcceptKw("EXTENDED");
    ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
    d->name = {name};
    return StatementPtr(std::move(d));
  }
  d->extended = AcceptKw("EXTENDED");
  ASSIGN_OR_RETURN(d->name, ParseCompoundName());
  return StatementPtr(std::move(d));
}

Result<StatementPtr> Parser::ParseSet() {
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

Result<StatementPtr> Parser::ParseReset() {
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

Result<std::unique_ptr<Insert>> Parser::ParseInsert() {
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
  // Flink 2.3 (FLIP-558): ON CONFLICT DO { NOTHING | ERROR | DEDUPLICATE } closes the statement.
  if (AcceptKw("ON")) {
    RETURN_IF_ERROR(ExpectKw("CONFLICT"));
    RETURN_IF_ERROR(ExpectKw("DO"));
    if (AcceptKw("NOTHING")) {
      ins->on_conflict = InsertConflictStrategy::kNothing;
    } else if (AcceptKw("ERROR")) {
      ins->on_conflict = InsertConflictStrategy::kError;
    } else if (AcceptKw("DEDUPLICATE")) {
      ins->on_conflict = InsertConflictStrategy::kDeduplicate;
    } else {
      return ErrorHere();
    }
  }
  return ins;
}

// BEGIN (after EXECUTE STATEMENT SET) insert; insert; ... END
Status Parser::ParseStatementSetBody(StatementSet& set) {
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

Result<StatementPtr> Parser::ParseExecute() {
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

Result<StatementPtr> Parser::ParseBeginStatementSet() {
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

Result<StatementPtr> Parser::ParseExplain() {
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
  } else if (AtKw("CREATE") || AtKw("REPLACE")) {  // [CREATE OR REPLACE | REPLACE] TABLE ... AS SELECT (the session refuses other CREATEs)
    ASSIGN_OR_RETURN(ex->inner, ParseCreate());
  } else if (AtKw("EXECUTE")) {
    ASSIGN_OR_RETURN(ex->inner, ParseExecute());
  } else if (AtQueryStart()) {
    ASSIGN_OR_RETURN(ex->inner, ParseQueryStatement());
  } else {
    return ErrorHere();
  }
  return StatementPtr(std::move(ex));
}

}  // namespace sluice::sql::internal
