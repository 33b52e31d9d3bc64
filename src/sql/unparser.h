// The unparser: turns an AST (ast.h) back into Flink SQL text.
//
// The output is canonical rather than a copy of the input: keywords in upper case, every
// identifier backquoted (so reserved words and odd names survive), parentheses exactly where the
// operators' precedence needs them. Invariant (tested): Parse(Unparse(tree)) unparses to the same text, so the text is
// fit to store a view's definition or to show one in SHOW CREATE VIEW / EXPLAIN.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <vector>
#include <string_view>

#include "sql/ast.h"

namespace sluice::sql {

std::string Unparse(const ast::Statement& statement);
std::string Unparse(const ast::Query& query);
std::string Unparse(const ast::Expr& expr);
std::string Unparse(const ast::TableRef& table_ref);
// Every compound expression in parentheses, the outermost included: "((`a` + 1) * `b`)". Shows how
// the parser grouped an expression (tests, debugging).
std::string UnparseWithParentheses(const ast::Expr& expr);
std::string UnparseWithParentheses(const ast::Statement& statement);
// Flink's spelling of a data type (LogicalType::ToString) in a form that parses back.
std::string UnparseType(const LogicalType& type);
// `name` with backquotes, a backquote inside doubled.
std::string QuoteIdentifier(std::string_view name);
// "(`day`, bucket(16, id))": PARTITIONED BY terms, columns quoted and transform terms (Iceberg tables)
// kept as written.
std::string PartitionTermsText(const std::vector<std::string>& terms);
// The column a PARTITIONED BY term names: the term itself, or the last argument of a transform term
// ("bucket(16, id)" -> "id"), as the parser writes them.
std::string PartitionTermColumn(const std::string& term);
// 'text' with a quote inside doubled.
std::string QuoteString(std::string_view text);

}  // namespace sluice::sql
