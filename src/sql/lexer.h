// The lexer of Sluice's Flink SQL dialect: script text into tokens with 1-based positions.
//
// Words are one token kind (kWord); the parser decides which words are keywords, comparing
// case-insensitively, so `select` and `SELECT` are the same keyword and `select` in backquotes is
// an identifier. Comments (-- and /* */) are skipped; `/*+` opens a hint, which the lexer turns
// into kHintStart ... kHintEnd around ordinary tokens. Literal tokens keep their text: strings and
// quoted identifiers with their quotes undone, numbers as written.
//
// Threading: pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice::sql {

enum class TokenKind : unsigned char {
  kWord,              // an unquoted identifier or keyword
  kQuotedIdentifier,  // `name`
  kInteger,           // 42
  kDecimal,           // 1.5, .5, 1.
  kApprox,            // 1.5E3
  kString,            // 'text'
  kBinaryString,      // X'0aff'
  kPunct,             // ( ) [ ] , ; . + - * / % || = <> != < <= > >= => : ? { }
  kHintStart,         // /*+
  kHintEnd,           // */ closing a hint
  kEof,
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string text;  // undone quotes for strings and quoted identifiers; the symbol for kPunct
  size_t offset = 0;  // byte offset of the token's first character in the input
  size_t end = 0;     // one past its last character
  int line = 1;
  int column = 1;
};

// Tokenizes `sql`; the last token is kEof. Positions add `line_offset` lines, and on the first line
// `column_offset` columns. Fails on an unterminated string, quoted identifier, comment or hint, and
// on a character that starts no token.
[[nodiscard]] Result<std::vector<Token>> Tokenize(std::string_view sql, int line_offset = 0,
                                                  int column_offset = 0);

// Whether an unquoted `word` (any case) is reserved: it cannot be an identifier or alias without
// backquotes, because it starts or continues a clause (SELECT, FROM, JOIN, AS, ...).
bool IsReservedWord(std::string_view word);

// Whether Flink 2.2.1's parser reserves an unquoted `word` (any case; a superset of IsReservedWord's:
// VALUE, COUNT, DATE, YEAR, RESULT, ...). Sluice's grammar needs only IsReservedWord's words to tell
// its clauses apart; a name that is one of these is refused as Flink refuses it (reserved_words.cc).
bool IsFlinkReservedWord(std::string_view word);

// Whether Flink's parse error for `word` (a reserved word) starting an expression shows the next token
// too: Encountered "count FROM".
bool FlinkReportsNextToken(std::string_view word);

// Whether Flink's parser takes reserved `word` alone as an expression (USER, CURRENT_DATE, TRUE, ...).
bool FlinkParsesAsExpression(std::string_view word);

// How a token is quoted in a message: "FORM", "'abc'", "<EOF>".
std::string DescribeToken(const Token& token);

}  // namespace sluice::sql
