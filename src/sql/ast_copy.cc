#include "sql/ast_copy.h"

#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice::sql {

Result<ast::ExprPtr> CopyExpr(const ast::Expr& e) { return ParseExpression(Unparse(e)); }

Result<ast::ColumnDef> CopyColumn(const ast::ColumnDef& c) {
  ast::ColumnDef col;
  col.pos = c.pos;
  col.name = c.name;
  col.column_kind = c.column_kind;
  col.type = c.type;
  col.metadata_key = c.metadata_key;
  col.is_virtual = c.is_virtual;
  col.comment = c.comment;
  if (c.expr) {
    ASSIGN_OR_RETURN(col.expr, CopyExpr(*c.expr));
  }
  return col;
}

}  // namespace sluice::sql
