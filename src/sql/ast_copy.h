// Deep copies of AST pieces that statements rewrite (CREATE TABLE ... LIKE / AS, ALTER TABLE): the AST
// has no clone, so an expression is copied by unparsing it and parsing the text again.
//
// Threading: stateless functions.
#pragma once

#include "common/status.h"
#include "sql/ast.h"

namespace sluice::sql {

// A copy of `e` (same text, fresh nodes; positions are those of the re-parsed text).
[[nodiscard]] Result<ast::ExprPtr> CopyExpr(const ast::Expr& e);

// A copy of a statement's column definition, its computed expression copied by CopyExpr.
[[nodiscard]] Result<ast::ColumnDef> CopyColumn(const ast::ColumnDef& c);

}  // namespace sluice::sql
