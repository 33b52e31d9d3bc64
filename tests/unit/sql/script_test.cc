// SplitStatements, script positions, lexer details and parse errors with exact places.
#include <gtest/gtest.h>

#include <string>

#include "sql/lexer.h"
#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice::sql {
namespace {

std::vector<StatementText> Split(const std::string& script) {
  auto r = SplitStatements(script);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::vector<StatementText>{};
}

std::string ErrorOf(const std::string& sql) {
  auto r = ParseStatement(sql);
  EXPECT_FALSE(r.ok()) << sql;
  return r.ok() ? "" : r.status().message();
}

TEST(SplitStatementsTest, SplitsAtTopLevelSemicolons) {
  auto parts = Split("SELECT 1; SELECT 2;\n\nSELECT 3");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].text, "SELECT 1");
  EXPECT_EQ(parts[1].text, "SELECT 2");
  EXPECT_EQ(parts[1].line, 1);
  EXPECT_EQ(parts[1].column, 11);
  EXPECT_EQ(parts[2].text, "SELECT 3");
  EXPECT_EQ(parts[2].line, 3);
  EXPECT_EQ(parts[2].column, 1);
}

TEST(SplitStatementsTest, SemicolonsInStringsCommentsAndIdentifiersDoNotSplit) {
  auto parts = Split(
      "-- a comment; with a semicolon\n"
      "SELECT 'a;b', `c;d` /* e;f */ FROM t; -- trailing; comment\n"
      "SET 'k' = 'v;w';\n"
      "/* only a comment; */\n"
      ";;");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].text, "SELECT 'a;b', `c;d` /* e;f */ FROM t");
  EXPECT_EQ(parts[0].line, 2);
  EXPECT_EQ(parts[1].text, "SET 'k' = 'v;w'");
  EXPECT_EQ(parts[1].line, 3);
}

TEST(SplitStatementsTest, StatementSetBlocksStayWhole) {
  std::string script =
      "SET 'a' = 'b';\n"
      "EXECUTE STATEMENT SET\n"
      "BEGIN\n"
      "  INSERT INTO x SELECT CASE WHEN a THEN 1 END FROM t;\n"
      "  INSERT INTO y SELECT 2;\n"
      "END;\n"
      "BEGIN STATEMENT SET;\n"
      "  INSERT INTO x SELECT 1;\n"
      "END;\n"
      "EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO x SELECT 1; END;\n"
      "SELECT 'end';\n"
      "EXPLAIN PLAN FOR STATEMENT SET BEGIN INSERT INTO x SELECT 1; INSERT INTO y SELECT 1; END";
  auto parts = Split(script);
  ASSERT_EQ(parts.size(), 6u);
  EXPECT_EQ(parts[1].line, 2);
  EXPECT_EQ(parts[1].text.substr(0, 21), "EXECUTE STATEMENT SET");
  EXPECT_EQ(parts[1].text.substr(parts[1].text.size() - 3), "END");
  EXPECT_EQ(parts[2].line, 7);
  EXPECT_EQ(parts[2].text, "BEGIN STATEMENT SET;\n  INSERT INTO x SELECT 1;\nEND");
  EXPECT_EQ(parts[3].line, 10);
  EXPECT_EQ(parts[4].text, "SELECT 'end'");
  auto statements = ParseScript(script);
  ASSERT_TRUE(statements.ok()) << statements.status().ToString();
  ASSERT_EQ(statements->size(), 6u);
  EXPECT_EQ((*statements)[5]->As<ast::Explain>().inner->As<ast::StatementSet>().inserts.size(), 2u);
  EXPECT_EQ((*statements)[1]->As<ast::StatementSet>().inserts.size(), 2u);
  EXPECT_EQ((*statements)[2]->As<ast::StatementSet>().inserts.size(), 1u);
  EXPECT_EQ((*statements)[3]->As<ast::Explain>().inner->kind, ast::StatementKind::kStatementSet);
}

TEST(SplitStatementsTest, UnterminatedInputFails) {
  auto r = SplitStatements("SELECT 1;\nSELECT 'abc;\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
  EXPECT_NE(r.status().message().find("Unterminated string literal starting at line 2, column 8"), std::string::npos)
      << r.status().message();
  auto c = SplitStatements("SELECT 1 /* never closed");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("Unterminated comment /* starting at line 1, column 10"), std::string::npos);
  auto q = SplitStatements("SELECT `abc");
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("Unterminated quoted identifier"), std::string::npos);
}

TEST(ScriptPositionTest, ErrorsPointIntoTheWholeScript) {
  std::string script = "CREATE TABLE t (a INT) WITH ('connector' = 'x');\n\nSELECT a\n  FROM t WHERE a = = 1;";
  auto r = ParseScript(script);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Encountered \"=\" at line 4, column 20."), std::string::npos)
      << r.status().message();
  auto texts = Split("SELECT 1;   SELECT * FORM t");
  ASSERT_EQ(texts.size(), 2u);
  auto second = ParseStatement(texts[1]);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("Encountered \"FORM\" at line 1, column 22."), std::string::npos)
      << second.status().message();
}

TEST(ParseErrorTest, FlinkLikeWordingWithPlaceAndExpectations) {
  std::string msg = ErrorOf("SELECT * FORM t");
  EXPECT_EQ(msg.substr(0, msg.find('\n')), "SQL parse failed. Encountered \"FORM\" at line 1, column 10.");
  EXPECT_NE(msg.find("Was expecting one of:\n    \"FROM\" ..."), std::string::npos) << msg;
  EXPECT_NE(msg.find("Did you mean \"FROM\"?"), std::string::npos) << msg;

  msg = ErrorOf("SELECT a FROM t GROUP a");
  EXPECT_EQ(msg, "SQL parse failed. Encountered \"a\" at line 1, column 23.\nWas expecting one of:\n    \"BY\" ...");

  msg = ErrorOf("INSERT t SELECT 1");
  EXPECT_EQ(msg,
            "SQL parse failed. Encountered \"t\" at line 1, column 8.\nWas expecting one of:\n"
            "    \"OVERWRITE\" ...\n    \"INTO\" ...");

  msg = ErrorOf("SELECT a FROM t WHERE");
  EXPECT_NE(msg.find("Encountered <EOF> at line 1, column 22."), std::string::npos) << msg;
  EXPECT_NE(msg.find("<IDENTIFIER>"), std::string::npos) << msg;

  msg = ErrorOf("CREATE TABLE t (a INT) WITH ('k' = 1)");
  EXPECT_NE(msg.find("Encountered \"1\" at line 1, column 36."), std::string::npos) << msg;
  EXPECT_NE(msg.find("<STRING>"), std::string::npos) << msg;

  msg = ErrorOf("SELECT * FROM a JOIN b");
  EXPECT_NE(msg.find("\"ON\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"USING\""), std::string::npos) << msg;

  msg = ErrorOf("SELECT a FROM order");
  EXPECT_NE(msg.find("Encountered \"order\" at line 1, column 15."), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"order\" is a reserved keyword; quote it with backticks to use it as a name: `order`."),
            std::string::npos) << msg;
  EXPECT_TRUE(ParseStatement("SELECT a FROM `order`").ok());

  msg = ErrorOf("SELEC 1");
  EXPECT_NE(msg.find("Did you mean \"SELECT\"?"), std::string::npos) << msg;
}

// Words Flink's parser reserves beyond those Sluice's grammar needs (VALUE, COUNT, DATETIME, ...) are
// refused as names with Flink's first line (checked against Flink 2.2.1's parser) and the advice.
TEST(ParseErrorTest, FlinkReservedWordsAsNames) {
  const std::string advice =
      "\"dateTime\" is a reserved keyword; quote it with backticks to use it as a name: `dateTime`.";
  EXPECT_EQ(ErrorOf("SELECT dateTime FROM t"),
            "SQL parse failed. Encountered \"dateTime FROM\" at line 1, column 8.\n" + advice);
  EXPECT_EQ(ErrorOf("SELECT auction, DATE_FORMAT(dateTime, 'HH:mm') FROM t"),
            "SQL parse failed. Encountered \"dateTime ,\" at line 1, column 29.\n" + advice);
  EXPECT_NE(ErrorOf("SELECT value FROM t").find("Encountered \"value\" at line 1, column 8.\n"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT a AS value FROM t").find("Encountered \"value\" at line 1, column 13."), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT 1 user").find("Encountered \"user\" at line 1, column 10."), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT t.value FROM t").find("Encountered \". value\" at line 1, column 9."), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT count FROM t").find("Encountered \"count FROM\" at line 1, column 8."), std::string::npos);
  EXPECT_NE(ErrorOf("CREATE TABLE t (value INT)").find("Encountered \"value\" at line 1, column 17."),
            std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM value").find("Encountered \"value\" at line 1, column 15."), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT a FROM t AS result").find("Encountered \"result\" at line 1, column 20."),
            std::string::npos);
  // WATERMARK in a column list starts the watermark clause, as in Flink's grammar.
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT, watermark TIMESTAMP(3))"),
            "SQL parse failed. Encountered \"TIMESTAMP\" at line 1, column 34.\nWas expecting one of:\n"
            "    \"FOR\" ...\n\"watermark\" is a reserved keyword; quote it with backticks to use it as a name: "
            "`watermark`.");
  // Iceberg partition transforms are function names.
  EXPECT_TRUE(ParseStatement("CREATE TABLE t (a INT, s STRING) PARTITIONED BY (day(ts), truncate(3, s), a)").ok());
  // Quoted, the same words are names; unquoted, they still name functions and types.
  EXPECT_TRUE(ParseStatement("SELECT `dateTime`, t.`value`, `count` AS `result` FROM t").ok());
  EXPECT_TRUE(ParseStatement("SELECT COUNT(*), YEAR(ts), UPPER(s), CAST(a AS DECIMAL(10, 2)) FROM t").ok());
  EXPECT_TRUE(ParseStatement("CREATE TABLE t (`value` STRING, ts TIMESTAMP(3), d DATE)").ok());
}

TEST(ParseErrorTest, SpecificMessages) {
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a INT,\n  b FOO) WITH ('a' = 'b')"),
            "SQL parse failed. Unknown data type \"FOO\" at line 2, column 5.");
  EXPECT_EQ(ErrorOf("SELECT 'abc FROM t"), "SQL parse failed. Unterminated string literal starting at line 1, column 8");
  EXPECT_NE(ErrorOf("SELECT \"a\" FROM t").find("use backquotes"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT X'0G'").find("not a hex digit"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT MAP['a']").find("even"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT CAST(a AS DECIMAL(50, 2))").find("out of range"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT CAST(a AS DECIMAL(5, 6))").find("scale"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT CAST(a AS) FROM t").find("<DATA TYPE>"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT EXTRACT(FORTNIGHT FROM ts)").find("<TIME UNIT>"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT 1 2").find("Encountered \"2\" at line 1, column 10."), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM t /*+ OPTIONS('a'='b') SELECT 1").find("Unterminated hint /*+ starting at line 1"),
            std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM t /*+ OPTIONS('a'='b') x */").find("\"*/\""), std::string::npos);
  EXPECT_NE(ErrorOf("EXECUTE STATEMENT SET BEGIN SELECT 1; END").find("\"INSERT\""), std::string::npos);
  EXPECT_EQ(ErrorOf("EXECUTE STATEMENT SET BEGIN END"),
            "SQL parse failed. Encountered \"END\" at line 1, column 29.\nWas expecting one of:\n    \"INSERT\" ...");
  EXPECT_NE(ErrorOf("BEGIN STATEMENT SET; END").find("\"INSERT\""), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT 'ü', ä + FROM t").find("line 1, column 17."), std::string::npos);
  EXPECT_NE(ErrorOf("CREATE TABLE t (a INT PRIMARY KEY ENFORCE)").find("\"NOT\""), std::string::npos);
  // MATCH_RECOGNIZE parses (the binder decides what runs); a malformed one is a parse error.
  EXPECT_EQ(ParseStatement("SELECT * FROM t MATCH_RECOGNIZE (x)").status().code(), StatusCode::kParseError);
  auto mr = ParseStatement(
      "SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES FIRST(A.v) AS f, FINAL LAST(S.v) AS l "
      "AFTER MATCH SKIP TO LAST B PATTERN (A{2,}? B C*? D) WITHIN INTERVAL '1' HOUR SUBSET S = (A, B), T = (C) "
      "DEFINE A AS A.v > 1) AS m");
  ASSERT_TRUE(mr.ok()) << mr.status().ToString();
  auto again = ParseStatement(Unparse(**mr));
  ASSERT_TRUE(again.ok()) << Unparse(**mr) << ": " << again.status().ToString();
  EXPECT_EQ(Unparse(**again), Unparse(**mr));
  EXPECT_NE(Unparse(**mr).find("SUBSET `S` = (`A`, `B`), `T` = (`C`) DEFINE"), std::string::npos) << Unparse(**mr);
  for (const char* sql : {"ALTER DATABASE d SET ('k' = 'v')", "LOAD MODULE hive"}) {
    auto r = ParseStatement(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().code(), StatusCode::kNotSupported) << sql;
    EXPECT_NE(r.status().message().find("not supported by Sluice"), std::string::npos) << r.status().message();
  }
  auto constraint_column = ParseStatement("CREATE TABLE t (`constraint` INT, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED)");
  ASSERT_TRUE(constraint_column.ok()) << constraint_column.status().ToString();
  // CREATE FUNCTION parses; the session decides which classes it can run.
  auto fn = ParseStatement("CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS f AS 'com.example.F' LANGUAGE JAVA");
  ASSERT_TRUE(fn.ok()) << fn.status().ToString();
  const auto& cf = (*fn)->As<ast::CreateFunction>();
  EXPECT_TRUE(cf.temporary && cf.system && cf.if_not_exists);
  EXPECT_EQ(cf.class_name, "com.example.F");
  EXPECT_EQ(cf.language, "JAVA");
  EXPECT_EQ(Unparse(**fn), "CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS `f` AS 'com.example.F' LANGUAGE JAVA");
}

TEST(ParseErrorTest, DeepNestingFailsCleanly) {
  std::string deep = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  EXPECT_NE(ErrorOf(deep).find("nested too deeply"), std::string::npos);
  std::string minus = "SELECT ";
  for (int i = 0; i < 5000; ++i) minus += "- ";
  EXPECT_NE(ErrorOf(minus + "1").find("nested too deeply"), std::string::npos);
  std::string nots = "SELECT ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(ErrorOf(nots + "TRUE").find("nested too deeply"), std::string::npos);
  std::string types = "SELECT CAST(x AS ";
  for (int i = 0; i < 5000; ++i) types += "ARRAY<";
  EXPECT_NE(ErrorOf(types + "INT").find("nested too deeply"), std::string::npos);
  std::string queries = "SELECT * FROM ";
  for (int i = 0; i < 5000; ++i) queries += "(SELECT * FROM ";
  EXPECT_NE(ErrorOf(queries + "t").find("nested too deeply"), std::string::npos);
  EXPECT_NE(ErrorOf("SELECT * FROM " + std::string(5000, '(') + "t").find("nested too deeply"), std::string::npos);
  // Reasonable nesting parses.
  std::string ok = "SELECT " + std::string(50, '(') + "1" + std::string(50, ')');
  EXPECT_TRUE(ParseStatement(ok).ok());
}

TEST(LexerTest, TokensAndPositions) {
  auto r = Tokenize("SELECT a1, `b``c`, 'x''y', 1.5e3, .5, 7, X'ff' -- tail\n<> != <= >= || => /*+ H */");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& t = *r;
  ASSERT_GE(t.size(), 20u);
  EXPECT_EQ(t[0].kind, TokenKind::kWord);
  EXPECT_EQ(t[1].text, "a1");
  EXPECT_EQ(t[3].kind, TokenKind::kQuotedIdentifier);
  EXPECT_EQ(t[3].text, "b`c");
  EXPECT_EQ(t[5].kind, TokenKind::kString);
  EXPECT_EQ(t[5].text, "x'y");
  EXPECT_EQ(t[7].kind, TokenKind::kApprox);
  EXPECT_EQ(t[9].kind, TokenKind::kDecimal);
  EXPECT_EQ(t[11].kind, TokenKind::kInteger);
  EXPECT_EQ(t[13].kind, TokenKind::kBinaryString);
  EXPECT_EQ(t[13].text, "ff");
  EXPECT_EQ(t[14].text, "<>");
  EXPECT_EQ(t[14].line, 2);
  EXPECT_EQ(t[14].column, 1);
  EXPECT_EQ(t[15].text, "!=");
  EXPECT_EQ(t[18].text, "||");
  EXPECT_EQ(t[19].text, "=>");
  EXPECT_EQ(t[20].kind, TokenKind::kHintStart);
  EXPECT_EQ(t[21].text, "H");
  EXPECT_EQ(t[22].kind, TokenKind::kHintEnd);
  EXPECT_EQ(t.back().kind, TokenKind::kEof);
}

TEST(LexerTest, ReservedWords) {
  EXPECT_TRUE(IsReservedWord("select"));
  EXPECT_TRUE(IsReservedWord("FROM"));
  EXPECT_FALSE(IsReservedWord("window_start"));
  EXPECT_FALSE(IsReservedWord("value"));
}

TEST(UnparseTest, QuotingHelpers) {
  EXPECT_EQ(QuoteIdentifier("a`b"), "`a``b`");
  EXPECT_EQ(QuoteString("it's"), "'it''s'");
  EXPECT_EQ(UnparseType(LogicalType::Row({"x"}, {LogicalType::Integer().WithNullable(false)})),
            "ROW<`x` INT NOT NULL>");
  EXPECT_EQ(UnparseType(LogicalType::Timestamp(3).WithTimeAttribute(TimeAttribute::kRowtime)), "TIMESTAMP(3)");
  // A function whose name collides with special syntax keeps its backquotes.
  auto e = ParseExpression("`ROW`(1) + `select`(2) + `trim`(3, 4)");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  std::string text = Unparse(**e);
  EXPECT_EQ(text, "`ROW`(1) + `select`(2) + `trim`(3, 4)");
  auto again = ParseExpression(text);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(Unparse(**again), text);
}

}  // namespace
}  // namespace sluice::sql
