// The recursive-descent parser behind parser.h, one class whose parts live in one file each:
// parser.cc (errors, names, literals, the entry points), parser_statements.cc (statement dispatch,
// SHOW, DESCRIBE, SET, RESET, INSERT, statement sets, EXPLAIN), parser_ddl.cc (CREATE, ALTER, DROP,
// USE), parser_query.cc (queries, FROM, window specs, hints), parser_expression.cc (operators by
// precedence, intervals), parser_primary.cc (literals, constructors, calls) and parser_types.cc
// (data types). Private to src/sql: only the parser files include it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"
#include "sql/lexer.h"
#include "sql/parser.h"

namespace sluice::sql::internal {

using namespace ast;  // NOLINT: the parser builds every kind of node

std::string Upper(std::string_view s);
bool IEquals(std::string_view a, std::string_view b);
// The advice after a parse error at a reserved word used as a name: quote it with backticks.
std::string ReservedAdvice(const std::string& word);

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> tokens) : sql_(sql), tokens_(std::move(tokens)) {}

  Result<StatementPtr> ParseSingleStatement() {
    ASSIGN_OR_RETURN(StatementPtr stmt, ParseStatementBody());
    AcceptPunct(";");
    RETURN_IF_ERROR(ExpectEof());
    return stmt;
  }

  Result<ExprPtr> ParseStandaloneExpression() {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    RETURN_IF_ERROR(ExpectEof());
    return e;
  }

  Result<LogicalType> ParseStandaloneType() {
    ASSIGN_OR_RETURN(LogicalType t, ParseType());
    RETURN_IF_ERROR(ExpectEof());
    return t;
  }

 private:
  // ------------------------------------------------------------------ token helpers

  const Token& Cur() const { return tokens_[idx_]; }
  const Token& PeekTok(size_t ahead) const {
    size_t i = std::min(idx_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  SourcePos PosOf(const Token& t) const { return SourcePos{t.line, t.column}; }
  SourcePos Here() const { return PosOf(Cur()); }
  void Advance() {
    if (idx_ + 1 < tokens_.size()) ++idx_;
  }

  void Expect(std::string what) {
    if (expected_idx_ != idx_) {
      expected_.clear();
      expected_idx_ = idx_;
    }
    if (std::find(expected_.begin(), expected_.end(), what) == expected_.end()) expected_.push_back(std::move(what));
  }

  static bool TokIsKw(const Token& t, std::string_view kw) { return t.kind == TokenKind::kWord && IEquals(t.text, kw); }
  static bool TokIsPunct(const Token& t, std::string_view p) { return t.kind == TokenKind::kPunct && t.text == p; }
  bool PeekIsKw(size_t ahead, std::string_view kw) const { return TokIsKw(PeekTok(ahead), kw); }
  bool PeekIsPunct(size_t ahead, std::string_view p) const { return TokIsPunct(PeekTok(ahead), p); }

  bool AtKw(std::string_view kw) {
    Expect("\"" + std::string(kw) + "\"");
    return TokIsKw(Cur(), kw);
  }
  bool AcceptKw(std::string_view kw) {
    if (!AtKw(kw)) return false;
    Advance();
    return true;
  }
  Status ExpectKw(std::string_view kw) {
    if (AcceptKw(kw)) return Status::OK();
    return ErrorHere();
  }
  bool AtPunct(std::string_view p) {
    Expect("\"" + std::string(p) + "\"");
    return TokIsPunct(Cur(), p);
  }
  bool AcceptPunct(std::string_view p) {
    if (!AtPunct(p)) return false;
    Advance();
    return true;
  }
  Status ExpectPunct(std::string_view p) {
    if (AcceptPunct(p)) return Status::OK();
    return ErrorHere();
  }
  Status ExpectEof() {
    Expect("<EOF>");
    if (Cur().kind == TokenKind::kEof) return Status::OK();
    return ErrorHere();
  }

  // ---------------------------------------- parser.cc
  // Errors, names and literals.

  Status ErrorHere() const;
  // OK unless token `at` is an unquoted word Flink's parser reserves (IsFlinkReservedWord) used as a
  // name: then Flink's parse error ("Encountered ..." from the token, or from the dot before it for
  // `t.value`, with the next token where Flink's grammar looks two ahead at an expression's start) and
  // the advice to quote it.
  Status CheckNameNotReserved(size_t at, bool expression_start = false, bool after_dot = false) const;
  static Status ErrorAt(const Token& t, const std::string& what);
  bool AtIdentifier();
  bool TokIsIdentifier(const Token& t) const;
  Result<std::string> ParseIdentifier();
  Result<Name> ParseCompoundName();
  Result<std::vector<std::string>> ParseParenIdentifierList();
  Result<std::string> ParseStringLiteral();
  Result<int64_t> ParseIntegerLiteral(int64_t max_value);
  Status CheckDepth() const;
  Status CountOperator();

  // ---------------------------------------- parser_statements.cc
  // Statements: dispatch, SHOW, DESCRIBE, SET, RESET, INSERT, statement sets, EXPLAIN.

  Result<StatementPtr> ParseStatementBody();
  bool AtQueryStart();
  Result<StatementPtr> ParseQueryStatement();
  Result<StatementPtr> ParseShow();
  Result<StatementPtr> ParseDescribe();
  Result<StatementPtr> ParseSet();
  Result<StatementPtr> ParseReset();
  Result<std::unique_ptr<Insert>> ParseInsert();
  Status ParseStatementSetBody(StatementSet& set);
  Result<StatementPtr> ParseExecute();
  Result<StatementPtr> ParseBeginStatementSet();
  Result<StatementPtr> ParseExplain();

  // ---------------------------------------- parser_ddl.cc
  // DDL: CREATE, ALTER, DROP, USE.

  Result<StatementPtr> ParseCreate();
  Result<StatementPtr> ParseUse();
  Result<bool> ParseIfNotExists();
  static Status CheckNewKey(const PropertyList& props, const std::string& key, const Token& at);
  Result<PropertyList> ParsePropertyList();
  Result<std::vector<std::string>> ParsePartitionTerms();
  Result<StatementPtr> ParseCreateTable(SourcePos pos, bool temporary);
  Status ParseTableElement(CreateTable& ct);
  Result<bool> ParseEnforcement();
  Result<StatementPtr> ParseCreateView(SourcePos pos, bool temporary);
  Result<StatementPtr> ParseDrop();

  // ---------------------------------------- parser_alter.cc
  // ALTER TABLE, ALTER VIEW, ALTER FUNCTION.

  Result<StatementPtr> ParseAlter();
  Result<StatementPtr> ParseAlterView(SourcePos pos);
  Result<StatementPtr> ParseAlterFunction(SourcePos pos, bool temporary, bool system);
  Status ParseAlterSchema(AlterTable& a);
  Status ParseAlterComponent(AlterTable& a, CreateTable& scratch);
  Status ParseAlterDrop(AlterTable& a);
  Status RefusePartitionOrDistribution(const std::string& verb);

  // ---------------------------------------- parser_query.cc
  // Queries: hints, set operations, SELECT, FROM, window specs.

  Result<std::vector<Hint>> ParseHintsIfAny();
  Result<QueryPtr> ParseQuery();
  Result<std::vector<OrderItem>> ParseOrderItems();
  Result<QueryPtr> ParseSetExpr();
  Result<QueryPtr> ParseIntersectExpr();
  Result<QueryPtr> ParseQueryPrimary();
  Result<QueryPtr> ParseValues();
  Result<QueryPtr> ParseSelect();
  Result<std::string> ParseOptionalAlias();
  Result<std::vector<GroupingElement>> ParseGroupingElements();
  Result<TableRefPtr> ParseFromList();
  Result<TableRefPtr> ParseTablePrimary();
  Result<TableRefPtr> ParseTableFunction(SourcePos pos, bool lateral);
  Result<std::unique_ptr<WindowSpec>> ParseWindowSpec();
  // ---------------------------------------- parser_match.cc
  // MATCH_RECOGNIZE (...) after a table reference.
  Result<TableRefPtr> ParseMatchRecognize(TableRefPtr input);
  Status ParseMatchClauses(MatchRecognize* m);
  Status ParseMatchMeasures(MatchRecognize* m);
  Status ParseMatchSkip(MatchRecognize* m);
  Result<PatternTerm> ParsePatternAlternation();
  Result<PatternTerm> ParsePatternConcat();
  Result<PatternTerm> ParsePatternPrimary();
  Status ParsePatternQuantifier(PatternTerm* t);
  Result<FrameBound> ParseFrameBound();

  // ---------------------------------------- parser_expression.cc
  // Expressions by precedence, intervals.

  Result<ExprPtr> ParseExpr();
  static ExprPtr MakeBinary(SourcePos pos, BinaryOp op, ExprPtr l, ExprPtr r);
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseIsSuffix(SourcePos pos, ExprPtr left);
  Result<ExprPtr> ParseBetweenSuffix(SourcePos pos, bool negated, ExprPtr left);
  Result<ExprPtr> ParseInSuffix(SourcePos pos, bool negated, ExprPtr left);
  Result<ExprPtr> ParseLikeSuffix(SourcePos pos, bool negated, bool similar, ExprPtr left);
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePostfix();
  Result<TimeUnit> ParseTimeUnit();
  Result<ExprPtr> ParseIntervalLiteral(SourcePos pos);
  Result<TimeUnit> ParseIntervalUnit();

  // ---------------------------------------- parser_primary.cc
  // Primaries: literals, constructors, calls and their special syntax.

  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseParenthesized();
  Result<std::vector<ExprPtr>> ParseExprListInParens();
  Result<std::vector<ExprPtr>> ParseExprListInBrackets();
  std::unique_ptr<Call> MakeCall(SourcePos pos, std::string name);
  Result<ExprPtr> ParseWordPrimary();
  Result<ExprPtr> ParseSpecialSyntaxCall();
  Result<ExprPtr> ParseCast(SourcePos pos, bool try_cast);
  Result<ExprPtr> ParseTrim(SourcePos pos);
  Result<ExprPtr> ParseJsonConstructor(SourcePos pos, bool object);
  Result<ExprPtr> ParseJsonQuery(SourcePos pos);
  Result<ExprPtr> ParseSubstringOrOverlay(SourcePos pos, const std::string& word);
  Result<ExprPtr> ParseIdentifierOrCall();
  Result<ExprPtr> ParseCallArg();
  Result<ExprPtr> ParseCallSuffix(std::unique_ptr<Call> c);
  Result<ExprPtr> ParseCase();

  // ---------------------------------------- parser_types.cc
  // Data types.

  Result<int> ParseOptionalLength(int default_value, int64_t max_value);
  Result<LogicalType> ParseType();
  Result<LogicalType> ParseNullability(LogicalType t);
  Result<LogicalType> ParseBaseType();
  Result<LogicalType> ParseDecimalType();
  Result<LogicalType> ParseIntervalType();
  Result<LogicalType> ParseRowType();

  // Bounds the recursion, so pathological input ("((((...", "- - - ...") fails cleanly instead of
  // overflowing the stack.
  static constexpr int kMaxDepth = 150;
  static constexpr int kMaxExpressionOperators = kMaxChainedOperators;
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* p_;
  };

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t idx_ = 0;
  int depth_ = 0;
  int expr_roots_ = 0;      // ParseExpr calls under way
  int expr_operators_ = 0;  // binary operators of the outermost expression so far
  std::vector<std::string> expected_;
  size_t expected_idx_ = static_cast<size_t>(-1);
};

}  // namespace sluice::sql::internal
