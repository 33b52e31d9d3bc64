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

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

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

std::string ReservedAdvice(const std::string& word) {
  return "\"" + word + "\" is a reserved keyword; quote it with backticks to use it as a name: `" + word + "`.";
}

namespace {

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

// A token as Flink's parser (JavaCC) shows it in "Encountered ...": as written.
std::string TokenImage(const Token& t) {
  switch (t.kind) {
    case TokenKind::kEof: return "<EOF>";
    case TokenKind::kString: {
      std::string out = "'";
      for (char c : t.text) out += c == '\'' ? std::string("''") : std::string(1, c);
      return out + "'";
    }
    case TokenKind::kBinaryString: return "X'" + t.text + "'";
    case TokenKind::kQuotedIdentifier: return "`" + t.text + "`";
    default: return t.text;
  }
}

}  // namespace

Status Parser::CheckNameNotReserved(size_t at, bool expression_start, bool after_dot) const {
  if (at >= tokens_.size()) return Status::OK();
  const Token& name = tokens_[at];
  if (name.kind != TokenKind::kWord || !IsFlinkReservedWord(name.text)) return Status::OK();
  size_t from = after_dot && at > 0 ? at - 1 : at;
  size_t shown = after_dot || (expression_start && FlinkReportsNextToken(name.text)) ? 2 : 1;
  std::string images;
  for (size_t i = from; i < from + shown && i < tokens_.size(); ++i) {
    images += (images.empty() ? "" : " ") + TokenImage(tokens_[i]);
    if (tokens_[i].kind == TokenKind::kEof) break;
  }
  const Token& first = tokens_[from];
  return Status::ParseError("SQL parse failed. Encountered \"" + images + "\" at line " + std::to_string(first.line) +
                            ", column " + std::to_string(first.column) + ".\n" + ReservedAdvice(name.text));
}

// "SQL parse failed. Encountered "X" at line L, column C. Was expecting one of: ..." for the
// current token and the alternatives recorded for it.
Status Parser::ErrorHere() const {
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
      if (best.empty() && name_expected && IsReservedWord(t.text)) msg += "\n" + ReservedAdvice(t.text);
    }
  }
  return Status::ParseError(msg);
}

Status Parser::ErrorAt(const Token& t, const std::string& what) {
  return Status::ParseError("SQL parse failed. " + what + " at line " + std::to_string(t.line) + ", column " +
                            std::to_string(t.column) + ".");
}

bool Parser::AtIdentifier() {
  Expect("<IDENTIFIER>");
  const Token& t = Cur();
  if (t.kind == TokenKind::kQuotedIdentifier) return true;
  return t.kind == TokenKind::kWord && !IsReservedWord(t.text);
}

bool Parser::TokIsIdentifier(const Token& t) const {
  if (t.kind == TokenKind::kQuotedIdentifier) return true;
  return t.kind == TokenKind::kWord && !IsReservedWord(t.text);
}

Result<std::string> Parser::ParseIdentifier() {
  if (!AtIdentifier()) return ErrorHere();
  RETURN_IF_ERROR(CheckNameNotReserved(idx_));
  std::string s = Cur().text;
  Advance();
  return s;
}

Result<Name> Parser::ParseCompoundName() {
  Name name;
  ASSIGN_OR_RETURN(std::string first, ParseIdentifier());
  name.push_back(std::move(first));
  while (PeekIsPunct(0, ".") && TokIsIdentifier(PeekTok(1))) {
    RETURN_IF_ERROR(CheckNameNotReserved(idx_ + 1, false, true));
    Advance();
    ASSIGN_OR_RETURN(std::string part, ParseIdentifier());
    name.push_back(std::move(part));
  }
  return name;
}

Result<std::vector<std::string>> Parser::ParseParenIdentifierList() {
  RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<std::string> out;
  do {
    ASSIGN_OR_RETURN(std::string id, ParseIdentifier());
    out.push_back(std::move(id));
  } while (AcceptPunct(","));
  RETURN_IF_ERROR(ExpectPunct(")"));
  return out;
}

Result<std::string> Parser::ParseStringLiteral() {
  Expect("<STRING>");
  if (Cur().kind != TokenKind::kString) return ErrorHere();
  std::string s = Cur().text;
  Advance();
  return s;
}

Result<int64_t> Parser::ParseIntegerLiteral(int64_t max_value) {
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

Status Parser::CheckDepth() const {
  if (depth_ <= kMaxDepth) return Status::OK();
  return ErrorAt(Cur(), "Expression or query nested too deeply (more than " + std::to_string(kMaxDepth) +
                            " levels)");
}

// Bounds the operators chained in one expression ("1 + 1 + ... + 1", "a AND b AND ..."): the parser
// reads a chain in a loop, but it becomes a tree as deep as the chain is long, which the binder,
// planner, EXPLAIN printer and evaluator walk recursively. Counting every binary operator of the
// outermost expression (nested ones included) bounds the tree's depth whatever its shape; the limit
// keeps every pass within a default 8 MiB thread stack (docs/sql.md, "Limits").
Status Parser::CountOperator() {
  if (++expr_operators_ <= kMaxExpressionOperators) return Status::OK();
  return ErrorAt(Cur(), "Expression too long: more than " + std::to_string(kMaxExpressionOperators) +
                            " operators (AND, OR, comparisons, +, -, *, /, %, ||) in one expression");
}

}  // namespace sluice::sql::internal

namespace sluice::sql {
namespace {

using internal::IEquals;
using internal::Parser;
using internal::Upper;

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