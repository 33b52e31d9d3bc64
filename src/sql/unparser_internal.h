// The unparser's parts shared by its files (unparser.cc: expressions, queries, statements;
// unparser_match.cc: MATCH_RECOGNIZE; unparser_ddl.cc: CREATE TABLE, ALTER TABLE). Not for use outside src/sql.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <vector>

#include "sql/ast.h"

namespace sluice::sql {

// What the parts printed in other files need from the unparser: expressions at a binding level,
// ORDER BY items, table references and queries, all with the unparser's parenthesis setting.
class UnparserBase {
 public:
  virtual ~UnparserBase() = default;
  // `e` in a place that needs at least `min_level` binding strength (0: any).
  virtual std::string Expr(const ast::Expr& e, int min_level = 0) = 0;
  virtual std::string ExprList(const std::vector<ast::ExprPtr>& list) = 0;
  virtual std::string OrderItems(const std::vector<ast::OrderItem>& items) = 0;
  virtual std::string TableRefText(const ast::TableRef& r) = 0;
  virtual std::string Query(const ast::Query& q) = 0;
};

// `a`.`b`.`c`
std::string NameText(const ast::Name& name);
// (`a`, `b`)
std::string IdentifierList(const std::vector<std::string>& ids);
// ('k' = 'v', ...)
std::string PropertiesText(const ast::PropertyList& props);

// `input MATCH_RECOGNIZE (...)` without the alias.
std::string MatchRecognizeText(UnparserBase& unparser, const ast::MatchRecognize& m);
// CREATE [TEMPORARY] TABLE ... (columns, watermark, key) COMMENT / PARTITIONED BY / WITH / LIKE / AS.
std::string CreateTableText(UnparserBase& unparser, const ast::CreateTable& ct);
// ALTER TABLE [IF EXISTS] name and its action (ADD / MODIFY components always in parentheses).
std::string AlterTableText(UnparserBase& unparser, const ast::AlterTable& a);

}  // namespace sluice::sql
