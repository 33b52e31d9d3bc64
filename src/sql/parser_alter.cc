// The parser's ALTER statements (parser_internal.h): ALTER TABLE with Flink's actions (SET / RESET
// options, RENAME TO, ADD / MODIFY / DROP schema components, RENAME a column), ALTER VIEW (RENAME TO,
// AS query) and ALTER FUNCTION, as Flink 2.2's grammar spells them.
#include <algorithm>
#include <string>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

// ALTER TABLE [IF EXISTS] name <action> | ALTER VIEW ... | ALTER [TEMPORARY [SYSTEM]] FUNCTION ...
Result<StatementPtr> Parser::ParseAlter() {
  const SourcePos pos = Here();
  RETURN_IF_ERROR(ExpectKw("ALTER"));
  if (AcceptKw("VIEW")) return ParseAlterView(pos);
  const bool temporary = AcceptKw("TEMPORARY");
  const bool system = temporary && AcceptKw("SYSTEM");
  if (AcceptKw("FUNCTION")) return ParseAlterFunction(pos, temporary, system);
  if (temporary || !AtKw("TABLE")) {
    if (!temporary) {
      Expect("\"TABLE\"");
      Expect("\"VIEW\"");
    }
    Expect("\"FUNCTION\"");
    if (!temporary && Cur().kind == TokenKind::kWord) {
      return Status::NotSupported("ALTER " + Cur().text + " statements are not supported by Sluice yet (at line " +
                                  std::to_string(Cur().line) + ", column " + std::to_string(Cur().column) + ")");
    }
    return ErrorHere();
  }
  auto a = std::make_unique<AlterTable>();
  a->pos = pos;
  RETURN_IF_ERROR(ExpectKw("TABLE"));
  if (AcceptKw("IF")) {
    RETURN_IF_ERROR(ExpectKw("EXISTS"));
    a->if_exists = true;
  }
  ASSIGN_OR_RETURN(a->name, ParseCompoundName());
  a->action_pos = Here();
  if (AcceptKw("SET")) {
    a->action = AlterTable::Action::kSetOptions;
    ASSIGN_OR_RETURN(a->set_options, ParsePropertyList());
    return StatementPtr(std::move(a));
  }
  if (AcceptKw("RESET")) {
    a->action = AlterTable::Action::kResetOptions;
    RETURN_IF_ERROR(ExpectPunct("("));
    do {
      ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
      a->reset_keys.push_back(std::move(key));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    return StatementPtr(std::move(a));
  }
  if (AcceptKw("RENAME")) {
    if (AcceptKw("TO")) {
      a->action = AlterTable::Action::kRenameTable;
      ASSIGN_OR_RETURN(a->new_name, ParseCompoundName());
      return StatementPtr(std::move(a));
    }
    a->action = AlterTable::Action::kRenameColumn;
    ASSIGN_OR_RETURN(a->old_column, ParseIdentifier());
    RETURN_IF_ERROR(ExpectKw("TO"));
    ASSIGN_OR_RETURN(a->new_column, ParseIdentifier());
    return StatementPtr(std::move(a));
  }
  if (AtKw("ADD") || AtKw("MODIFY")) {
    RETURN_IF_ERROR(ParseAlterSchema(*a));
    return StatementPtr(std::move(a));
  }
  if (AcceptKw("DROP")) {
    RETURN_IF_ERROR(ParseAlterDrop(*a));
    return StatementPtr(std::move(a));
  }
  for (const char* word : {"\"ADD\"", "\"DROP\"", "\"MODIFY\"", "\"RENAME\"", "\"RESET\"", "\"SET\""}) Expect(word);
  return ErrorHere();
}

// ADD | MODIFY <component> | (<component>, ...): the components are parsed as CREATE TABLE's
// elements (into `scratch`, which also refuses a second watermark or key), each column followed by
// an optional FIRST or AFTER column.
Status Parser::ParseAlterSchema(AlterTable& a) {
  const std::string verb = Upper(Cur().text);
  a.action = AcceptKw("ADD") ? AlterTable::Action::kAdd : AlterTable::Action::kModify;
  if (a.action == AlterTable::Action::kModify) RETURN_IF_ERROR(ExpectKw("MODIFY"));
  RETURN_IF_ERROR(RefusePartitionOrDistribution(verb));
  CreateTable scratch;
  if (AcceptPunct("(")) {
    do {
      RETURN_IF_ERROR(ParseAlterComponent(a, scratch));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
  } else {
    RETURN_IF_ERROR(ParseAlterComponent(a, scratch));
  }
  a.watermark = std::move(scratch.watermark);
  a.primary_key = std::move(scratch.primary_key);
  return Status::OK();
}

Status Parser::ParseAlterComponent(AlterTable& a, CreateTable& scratch) {
  const size_t columns = scratch.columns.size();
  RETURN_IF_ERROR(ParseTableElement(scratch));
  if (scratch.columns.size() == columns) return Status::OK();  // a watermark or a key
  AlterColumn c;
  c.column = std::move(scratch.columns.back());
  scratch.columns.pop_back();
  if (AcceptKw("FIRST")) {
    c.position = AlterColumn::Position::kFirst;
  } else if (AcceptKw("AFTER")) {
    c.position = AlterColumn::Position::kAfter;
    c.after_pos = Here();
    ASSIGN_OR_RETURN(c.after, ParseIdentifier());
  }
  a.columns.push_back(std::move(c));
  return Status::OK();
}

// ADD/MODIFY/DROP [IF [NOT] EXISTS] PARTITION ... and DISTRIBUTION: Flink's forms for partitioned
// catalogs and bucketed tables, which Sluice's in-memory catalog does not keep.
Status Parser::RefusePartitionOrDistribution(const std::string& verb) {
  size_t ahead = 0;
  if (AtKw("IF")) ahead = PeekIsKw(1, "NOT") ? 3 : 2;
  const Token& t = PeekTok(ahead);
  const std::string word = t.kind == TokenKind::kWord ? Upper(t.text) : "";
  if (word != "PARTITION" && word != "DISTRIBUTION") return Status::OK();
  if (word == "DISTRIBUTION" && ahead == 0 && !PeekIsKw(1, "BY") && verb != "DROP") return Status::OK();  // a column
  return Status::NotSupported("ALTER TABLE ... " + verb + " " + word + " is not supported by Sluice (at line " +
                              std::to_string(t.line) + ", column " + std::to_string(t.column) + ")");
}

// DROP c | (c, ...) | PRIMARY KEY | CONSTRAINT name | WATERMARK
Status Parser::ParseAlterDrop(AlterTable& a) {
  RETURN_IF_ERROR(RefusePartitionOrDistribution("DROP"));
  if (AtKw("PRIMARY") && PeekIsKw(1, "KEY")) {
    Advance();
    Advance();
    a.action = AlterTable::Action::kDropPrimaryKey;
    return Status::OK();
  }
  if (AcceptKw("CONSTRAINT")) {
    a.action = AlterTable::Action::kDropConstraint;
    ASSIGN_OR_RETURN(a.constraint_name, ParseIdentifier());
    return Status::OK();
  }
  if (AcceptKw("WATERMARK")) {
    a.action = AlterTable::Action::kDropWatermark;
    return Status::OK();
  }
  a.action = AlterTable::Action::kDropColumns;
  if (AtPunct("(")) {
    ASSIGN_OR_RETURN(a.drop_columns, ParseParenIdentifierList());
  } else {
    ASSIGN_OR_RETURN(std::string c, ParseIdentifier());
    a.drop_columns.push_back(std::move(c));
  }
  return Status::OK();
}

// ALTER VIEW name RENAME TO name2 | ALTER VIEW name AS query
Result<StatementPtr> Parser::ParseAlterView(SourcePos pos) {
  auto v = std::make_unique<AlterView>();
  v->pos = pos;
  ASSIGN_OR_RETURN(v->name, ParseCompoundName());
  if (AcceptKw("RENAME")) {
    RETURN_IF_ERROR(ExpectKw("TO"));
    ASSIGN_OR_RETURN(v->new_name, ParseCompoundName());
    return StatementPtr(std::move(v));
  }
  Expect("\"RENAME\"");
  RETURN_IF_ERROR(ExpectKw("AS"));
  const size_t start = Cur().offset;
  ASSIGN_OR_RETURN(v->query, ParseQuery());
  const size_t end = tokens_[idx_ > 0 ? idx_ - 1 : 0].end;
  v->query_text = std::string(sql_.substr(start, end - start));
  return StatementPtr(std::move(v));
}

// ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name AS 'class' [LANGUAGE JAVA | SCALA | PYTHON]
Result<StatementPtr> Parser::ParseAlterFunction(SourcePos pos, bool temporary, bool system) {
  auto f = std::make_unique<AlterFunction>();
  f->pos = pos;
  f->temporary = temporary;
  f->system = system;
  if (AcceptKw("IF")) {
    RETURN_IF_ERROR(ExpectKw("EXISTS"));
    f->if_exists = true;
  }
  ASSIGN_OR_RETURN(f->name, ParseCompoundName());
  RETURN_IF_ERROR(ExpectKw("AS"));
  ASSIGN_OR_RETURN(f->class_name, ParseStringLiteral());
  if (AcceptKw("LANGUAGE")) {
    f->language = Upper(Cur().text);
    Advance();
  }
  return StatementPtr(std::move(f));
}

}  // namespace sluice::sql::internal
