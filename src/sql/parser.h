// The Flink SQL parser: script splitting, statements and expressions into the AST of ast.h.
//
// A hand-written recursive-descent parser over the tokens of lexer.h. Errors are ParseError
// Statuses worded like Flink's ("SQL parse failed. Encountered "FORM" at line 1, column 10.
// Was expecting one of: ...") and always name a line and column in the whole script, so a
// statement cut out of a script by SplitStatements keeps pointing into the script.
//
// Threading: every function is pure and may be called from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"

namespace sluice::sql {

// The most binary operators (AND, OR, comparisons, + - * / %, ||) one expression may hold, nested ones
// included: a chain of them becomes a tree as deep as the chain is long, which later passes walk
// recursively, and this bound keeps each within a default 8 MiB thread stack. A longer expression
// fails to parse, naming its line and column and the limit.
inline constexpr int kMaxChainedOperators = 5000;

// One statement of a script, without its terminating ';'. `line` and `column` (1-based) are where
// `text` starts in the script.
struct StatementText {
  std::string text;
  int line = 1;
  int column = 1;
};

// Splits a script at top-level ';'. Semicolons in strings, quoted identifiers, comments and
// hints do not split, and a statement-set block (EXECUTE STATEMENT SET BEGIN ...; ...; END, or
// BEGIN STATEMENT SET; ...; END, also after EXPLAIN) stays one statement. Empty statements are
// dropped. Fails on an unterminated string, identifier or comment.
[[nodiscard]] Result<std::vector<StatementText>> SplitStatements(std::string_view script);

// Parses one statement (a trailing ';' is allowed). `line_offset` lines and, on the first line,
// `column_offset` columns are added to every position, so positions can name the whole script.
[[nodiscard]] Result<ast::StatementPtr> ParseStatement(std::string_view sql, int line_offset = 0,
                                                       int column_offset = 0);
// Parses a statement that SplitStatements cut out of a script, with positions in the script.
[[nodiscard]] Result<ast::StatementPtr> ParseStatement(const StatementText& statement);

// Splits and parses a whole script.
[[nodiscard]] Result<std::vector<ast::StatementPtr>> ParseScript(std::string_view script);

// Parses one standalone expression (e.g. a computed column or a test's input).
[[nodiscard]] Result<ast::ExprPtr> ParseExpression(std::string_view sql);

// Parses a data type ("DECIMAL(10, 2) NOT NULL", "ROW<a INT, b ARRAY<STRING>>").
[[nodiscard]] Result<LogicalType> ParseDataType(std::string_view sql);

}  // namespace sluice::sql
