// The parser's DDL: CREATE, DROP, USE (parser_internal.h; ALTER is in parser_alter.cc).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

Result<StatementPtr> Parser::ParseCreate() {
  SourcePos pos = Here();
  // [CREATE OR] REPLACE TABLE ... AS SELECT (Flink's RTAS; AS is required).
  const bool replace = AcceptKw("REPLACE");
  if (!replace) RETURN_IF_ERROR(ExpectKw("CREATE"));
  const bool or_replace = !replace && AtKw("OR") && PeekIsKw(1, "REPLACE");
  if (replace || or_replace) {
    if (or_replace) {
      Advance();
      Advance();
    }
    RETURN_IF_ERROR(ExpectKw("TABLE"));
    ASSIGN_OR_RETURN(StatementPtr st, ParseCreateTable(pos, false));
    auto& ct = static_cast<CreateTable&>(*st);
    if (!ct.as_query) {
      Expect("\"AS\"");
      return ErrorHere();
    }
    ct.replace = replace;
    ct.or_replace = or_replace;
    return st;
  }
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
    if (AcceptKw("COMMENT")) {
      ASSIGN_OR_RETURN(c->comment, ParseStringLiteral());
    }
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
Result<StatementPtr> Parser::ParseUse() {
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

Result<bool> Parser::ParseIfNotExists() {
  if (!AcceptKw("IF")) return false;
  RETURN_IF_ERROR(ExpectKw("NOT"));
  RETURN_IF_ERROR(ExpectKw("EXISTS"));
  return true;
}

// A key given twice in one option list is refused (it used to be accepted, the last one winning).
Status Parser::CheckNewKey(const PropertyList& props, const std::string& key, const Token& at) {
  for (const auto& [k, v] : props) {
    if (k == key) return ErrorAt(at, "Duplicate option key '" + key + "'");
  }
  return Status::OK();
}

Result<PropertyList> Parser::ParsePropertyList() {
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
Result<std::vector<std::string>> Parser::ParsePartitionTerms() {
  RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<std::string> terms;
  do {
    std::string name;
    if (Cur().kind == TokenKind::kWord && !IsReservedWord(Cur().text) && PeekIsPunct(1, "(")) {
      // A transform's name: a function's, so day(ts) and truncate(4, s) as written (words Flink
      // reserves as names, like any function name).
      name = Cur().text;
      Advance();
    } else {
      ASSIGN_OR_RETURN(name, ParseIdentifier());
    }
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

Result<StatementPtr> Parser::ParseCreateTable(SourcePos pos, bool temporary) {
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
    like.source_pos = Here();
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
        // Separated by spaces, as in Flink's grammar (which refuses a comma).
      } while (AtKw("INCLUDING") || AtKw("EXCLUDING") || AtKw("OVERWRITING"));
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
    ct->like = std::move(like);
  }
  if (AcceptKw("AS")) {
    ASSIGN_OR_RETURN(ct->as_query, ParseQuery());
  }
  return StatementPtr(std::move(ct));
}

Status Parser::ParseTableElement(CreateTable& ct) {
  const Token& start = Cur();
  if (AtKw("WATERMARK")) {
    // As in Flink's grammar, WATERMARK starts the watermark clause: a column named watermark is
    // written `watermark` (Flink: Encountered "TIMESTAMP" ... Was expecting: "FOR").
    if (!PeekIsKw(1, "FOR")) {
      Advance();
      Expect("\"FOR\"");
      return Status::ParseError(ErrorHere().message() + "\n" + ReservedAdvice(start.text));
    }
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
      ct.primary_key = std::move(pk);  // recorded once, as the table's key
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

Result<bool> Parser::ParseEnforcement() {
  if (AcceptKw("NOT")) {
    RETURN_IF_ERROR(ExpectKw("ENFORCED"));
    return false;
  }
  if (AcceptKw("ENFORCED")) return true;
  return ErrorHere();
}

Result<StatementPtr> Parser::ParseCreateView(SourcePos pos, bool temporary) {
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

Result<StatementPtr> Parser::ParseDrop() {
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

}  // namespace sluice::sql::internal
