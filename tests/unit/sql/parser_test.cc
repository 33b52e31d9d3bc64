// Parser tests: the tree shape of statements and expressions, precedence, types, positions.
#include <gtest/gtest.h>

#include <string>

#include "sql/ast.h"
#include "sql/lexer.h"
#include "sql/parser.h"
#include "sql/unparser.h"

namespace sluice::sql {
namespace {

using namespace ast;  // NOLINT

StatementPtr MustParse(const std::string& sql) {
  auto r = ParseStatement(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

ExprPtr MustParseExpr(const std::string& sql) {
  auto r = ParseExpression(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// Parses and keeps the tree alive for the whole test binary, so tests can hold references.
const Expr& E(const std::string& sql) {
  static std::vector<ExprPtr> keep;
  ExprPtr e = MustParseExpr(sql);
  if (!e) e = std::make_unique<Literal>();  // the failure is already reported
  keep.push_back(std::move(e));
  return *keep.back();
}

const Statement& S(const std::string& sql) {
  static std::vector<StatementPtr> keep;
  StatementPtr st = MustParse(sql);
  if (!st) st = std::make_unique<Show>();  // the failure is already reported
  keep.push_back(std::move(st));
  return *keep.back();
}

// The canonical (fully parenthesized) text of an expression.
std::string Canon(const std::string& sql) {
  ExprPtr e = MustParseExpr(sql);
  return e ? UnparseWithParentheses(*e) : "<error>";
}

const Select& SelectOf(const Statement& st) {
  return st.As<QueryStatement>().query->As<Select>();
}

TEST(ParserPrecedenceTest, LogicalOperators) {
  EXPECT_EQ(Canon("a OR b AND c"), "(`a` OR (`b` AND `c`))");
  EXPECT_EQ(Canon("a AND b OR c"), "((`a` AND `b`) OR `c`)");
  EXPECT_EQ(Canon("NOT a AND b"), "((NOT `a`) AND `b`)");
  EXPECT_EQ(Canon("NOT a = b"), "(NOT (`a` = `b`))");
  EXPECT_EQ(Canon("a OR b OR c"), "((`a` OR `b`) OR `c`)");
}

TEST(ParserPrecedenceTest, Arithmetic) {
  EXPECT_EQ(Canon("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(Canon("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(Canon("a - b - c"), "((`a` - `b`) - `c`)");
  EXPECT_EQ(Canon("a / b % c"), "((`a` / `b`) % `c`)");
  EXPECT_EQ(Canon("-a * b"), "((-`a`) * `b`)");
  EXPECT_EQ(Canon("- - a"), "(-(-`a`))");
  EXPECT_EQ(Canon("a || b || c"), "((`a` || `b`) || `c`)");
  EXPECT_EQ(Canon("a + b || c"), "(`a` + (`b` || `c`))");
  EXPECT_EQ(Canon("a = b + 1"), "(`a` = (`b` + 1))");
}

TEST(ParserPrecedenceTest, Predicates) {
  EXPECT_EQ(Canon("a + 1 BETWEEN b AND c + 1 AND d"), "(((`a` + 1) BETWEEN `b` AND (`c` + 1)) AND `d`)");
  EXPECT_EQ(Canon("a IS NULL OR b IS NOT NULL"), "((`a` IS NULL) OR (`b` IS NOT NULL))");
  EXPECT_EQ(Canon("a = b IS TRUE"), "((`a` = `b`) IS TRUE)");
  EXPECT_EQ(Canon("a NOT IN (1, 2) AND b LIKE 'x%'"), "((`a` NOT IN (1, 2)) AND (`b` LIKE 'x%'))");
  EXPECT_EQ(Canon("NOT a IN (1)"), "(NOT (`a` IN (1)))");
  EXPECT_EQ(Canon("a || 'x' LIKE 'y'"), "((`a` || 'x') LIKE 'y')");
  EXPECT_EQ(Canon("a IS NOT DISTINCT FROM b + 1"), "(`a` IS NOT DISTINCT FROM (`b` + 1))");
}

TEST(ParserPrecedenceTest, PostfixBindsTightest) {
  EXPECT_EQ(Canon("-a[1]"), "(-`a`[1])");
  EXPECT_EQ(Canon("a.b.c"), "`a`.`b`.`c`");
  EXPECT_EQ(Canon("f(x).g"), "f(`x`).`g`");
  EXPECT_EQ(Canon("arr[1].f['k']"), "`arr`[1].`f`['k']");
  EXPECT_EQ(Canon("(a).b"), "(`a`).`b`");
}

TEST(ParserExprTest, Literals) {
  ExprPtr e = MustParseExpr("42");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->kind, ExprKind::kLiteral);
  EXPECT_EQ(e->As<Literal>().literal_kind, LiteralKind::kExactNumeric);
  EXPECT_EQ(e->As<Literal>().text, "42");
  EXPECT_EQ(E("1.50").As<Literal>().text, "1.50");
  EXPECT_EQ(E("1.5").As<Literal>().literal_kind, LiteralKind::kExactNumeric);
  EXPECT_EQ(E("1.5E3").As<Literal>().literal_kind, LiteralKind::kApproxNumeric);
  EXPECT_EQ(E("2e-3").As<Literal>().literal_kind, LiteralKind::kApproxNumeric);
  EXPECT_EQ(E("99999999999999999999").As<Literal>().text, "99999999999999999999");
  const auto& s = E("'it''s'").As<Literal>();
  EXPECT_EQ(s.literal_kind, LiteralKind::kString);
  EXPECT_EQ(s.text, "it's");
  EXPECT_EQ(E("'ab' 'cd'").As<Literal>().text, "abcd");
  const auto& x = E("X'0aFF'").As<Literal>();
  EXPECT_EQ(x.literal_kind, LiteralKind::kBinary);
  EXPECT_EQ(x.text, "0aFF");
  EXPECT_TRUE(E("TRUE").As<Literal>().bool_value);
  EXPECT_FALSE(E("false").As<Literal>().bool_value);
  EXPECT_EQ(E("UNKNOWN").As<Literal>().literal_kind, LiteralKind::kUnknown);
  EXPECT_EQ(E("NULL").As<Literal>().literal_kind, LiteralKind::kNull);
  const auto& d = E("DATE '2024-02-29'").As<Literal>();
  EXPECT_EQ(d.literal_kind, LiteralKind::kDate);
  EXPECT_EQ(d.text, "2024-02-29");
  EXPECT_EQ(E("TIME '10:00:00'").As<Literal>().literal_kind, LiteralKind::kTime);
  EXPECT_EQ(E("timestamp '2024-01-01 00:00:00'").As<Literal>().literal_kind, LiteralKind::kTimestamp);
  EXPECT_EQ(E("TIMESTAMP_LTZ '2024-01-01 00:00:00'").As<Literal>().literal_kind,
            LiteralKind::kTimestampLtz);
  ExprPtr neg = MustParseExpr("-5");
  ASSERT_EQ(neg->kind, ExprKind::kUnary);
  EXPECT_EQ(neg->As<Unary>().op, UnaryOp::kMinus);
}

TEST(ParserExprTest, Intervals) {
  const auto& a = E("INTERVAL '1' HOUR").As<IntervalLiteral>();
  EXPECT_EQ(a.text, "1");
  EXPECT_EQ(a.start_unit, TimeUnit::kHour);
  EXPECT_FALSE(a.end_unit.has_value());
  const auto& b = E("INTERVAL '1 02:00:00' DAY TO SECOND").As<IntervalLiteral>();
  EXPECT_EQ(b.start_unit, TimeUnit::kDay);
  EXPECT_EQ(b.end_unit, TimeUnit::kSecond);
  EXPECT_EQ(b.text, "1 02:00:00");
  const auto& c = E("INTERVAL '1-2' YEAR TO MONTH").As<IntervalLiteral>();
  EXPECT_EQ(c.start_unit, TimeUnit::kYear);
  EXPECT_EQ(c.end_unit, TimeUnit::kMonth);
  const auto& d = E("INTERVAL '5' SECOND(3)").As<IntervalLiteral>();
  EXPECT_EQ(d.start_precision, 3);
  const auto& e = E("INTERVAL -'10' MINUTE").As<IntervalLiteral>();
  EXPECT_TRUE(e.negative);
  EXPECT_EQ(e.start_unit, TimeUnit::kMinute);
  const auto& f = E("INTERVAL '1 2:3:4.567' DAY(3) TO SECOND(3)").As<IntervalLiteral>();
  EXPECT_EQ(f.start_precision, 3);
  EXPECT_EQ(f.fraction_precision, 3);
}

TEST(ParserExprTest, IntervalUnitsMayBePlural) {
  EXPECT_EQ(E("INTERVAL '10' MINUTES").As<IntervalLiteral>().start_unit, TimeUnit::kMinute);
  EXPECT_EQ(E("INTERVAL '2' HOURS").As<IntervalLiteral>().start_unit, TimeUnit::kHour);
  EXPECT_EQ(E("INTERVAL '3' DAYS").As<IntervalLiteral>().start_unit, TimeUnit::kDay);
  EXPECT_EQ(E("INTERVAL '1' SECONDS").As<IntervalLiteral>().start_unit, TimeUnit::kSecond);
}

TEST(ParserExprTest, CallsAndAggregates) {
  const auto& c = E("COUNT(*)").As<Call>();
  EXPECT_TRUE(c.star);
  EXPECT_TRUE(c.args.empty());
  EXPECT_EQ(c.name, Name({"COUNT"}));
  const auto& d = E("count(DISTINCT bidder) FILTER (WHERE price < 10000)").As<Call>();
  EXPECT_TRUE(d.distinct);
  ASSERT_EQ(d.args.size(), 1u);
  ASSERT_TRUE(d.filter);
  EXPECT_EQ(d.filter->kind, ExprKind::kBinary);
  const auto& q = E("`cat`.db.`my fn`(1, 2)").As<Call>();
  EXPECT_EQ(q.name, Name({"cat", "db", "my fn"}));
  EXPECT_EQ(q.args.size(), 2u);
  const auto& now = E("CURRENT_TIMESTAMP").As<Call>();
  EXPECT_TRUE(now.no_parens);
  EXPECT_EQ(now.name, Name({"CURRENT_TIMESTAMP"}));
  EXPECT_TRUE(E("current_row_timestamp").As<Call>().no_parens);
  EXPECT_FALSE(E("CURRENT_ROW_TIMESTAMP()").As<Call>().no_parens);
  EXPECT_EQ(E("PROCTIME()").As<Call>().args.size(), 0u);
}

TEST(ParserExprTest, OverClauses) {
  const auto& c = E("SUM(x) OVER (PARTITION BY a, b ORDER BY ts DESC NULLS FIRST "
                    "RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)")
                      .As<Call>();
  ASSERT_TRUE(c.over);
  EXPECT_EQ(c.over->partition_by.size(), 2u);
  ASSERT_EQ(c.over->order_by.size(), 1u);
  EXPECT_TRUE(c.over->order_by[0].descending);
  EXPECT_EQ(c.over->order_by[0].nulls, OrderItem::Nulls::kFirst);
  EXPECT_EQ(c.over->frame_unit, WindowSpec::FrameUnit::kRange);
  EXPECT_EQ(c.over->frame_start.kind, FrameBound::Kind::kPreceding);
  EXPECT_EQ(c.over->frame_start.offset->kind, ExprKind::kIntervalLiteral);
  ASSERT_TRUE(c.over->frame_end.has_value());
  EXPECT_EQ(c.over->frame_end->kind, FrameBound::Kind::kCurrentRow);
  const auto& r = E("ROW_NUMBER() OVER (ORDER BY p ROWS UNBOUNDED PRECEDING)").As<Call>();
  EXPECT_EQ(r.over->frame_unit, WindowSpec::FrameUnit::kRows);
  EXPECT_EQ(r.over->frame_start.kind, FrameBound::Kind::kUnboundedPreceding);
  EXPECT_FALSE(r.over->frame_end.has_value());
  EXPECT_EQ(E("AVG(x) OVER w").As<Call>().over_window, "w");
}

TEST(ParserExprTest, SpecialForms) {
  const auto& cast = E("CAST(a AS DECIMAL(10, 2) NOT NULL)").As<Cast>();
  EXPECT_FALSE(cast.try_cast);
  EXPECT_EQ(cast.type, LogicalType::Decimal(10, 2).WithNullable(false));
  EXPECT_TRUE(E("TRY_CAST(a AS INT)").As<Cast>().try_cast);
  const auto& ex = E("EXTRACT(DOW FROM ts)").As<Extract>();
  EXPECT_EQ(ex.unit, TimeUnit::kDow);
  const auto& fl = E("FLOOR(ts TO MINUTE)").As<FloorCeil>();
  EXPECT_FALSE(fl.ceil);
  EXPECT_EQ(fl.unit, TimeUnit::kMinute);
  EXPECT_TRUE(E("CEIL(ts TO HOUR)").As<FloorCeil>().ceil);
  EXPECT_EQ(E("FLOOR(1.5)").kind, ExprKind::kCall);
  const auto& pos = E("POSITION('a' IN s)").As<Call>();
  EXPECT_EQ(pos.args.size(), 2u);
  const auto& tr = E("TRIM(LEADING 'x' FROM s)").As<Trim>();
  EXPECT_EQ(tr.mode, Trim::Mode::kLeading);
  ASSERT_TRUE(tr.chars);
  const auto& tr2 = E("TRIM(s)").As<Trim>();
  EXPECT_EQ(tr2.mode, Trim::Mode::kBoth);
  EXPECT_FALSE(tr2.chars);
  EXPECT_EQ(E("SUBSTRING(s FROM 2 FOR 3)").As<Call>().args.size(), 3u);
  EXPECT_EQ(E("SUBSTRING(s, 2)").As<Call>().args.size(), 2u);
  EXPECT_EQ(E("OVERLAY(s PLACING 'x' FROM 2)").As<Call>().args.size(), 3u);
  const auto& add = E("TIMESTAMPADD(WEEK, 1, ts)").As<Call>();
  ASSERT_EQ(add.args.size(), 3u);
  EXPECT_EQ(add.args[0]->As<TimeUnitExpr>().unit, TimeUnit::kWeek);
  const auto& cs = E("CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END").As<Case>();
  EXPECT_TRUE(cs.operand);
  EXPECT_EQ(cs.when_then.size(), 2u);
  EXPECT_TRUE(cs.else_expr);
  const auto& searched = E("CASE WHEN a > 1 THEN 1 END").As<Case>();
  EXPECT_FALSE(searched.operand);
  EXPECT_FALSE(searched.else_expr);
  const auto& bt = E("a NOT BETWEEN SYMMETRIC 1 AND 2").As<Between>();
  EXPECT_TRUE(bt.negated);
  EXPECT_TRUE(bt.symmetric);
  const auto& like = E("s NOT LIKE 'a!_%' ESCAPE '!'").As<Like>();
  EXPECT_TRUE(like.negated);
  EXPECT_FALSE(like.similar);
  EXPECT_TRUE(like.escape);
  EXPECT_TRUE(E("s SIMILAR TO 'a|b'").As<Like>().similar);
  const auto& in = E("a IN (SELECT b FROM t)").As<In>();
  EXPECT_TRUE(in.subquery);
  EXPECT_TRUE(in.list.empty());
  EXPECT_EQ(E("EXISTS (SELECT 1)").kind, ExprKind::kExists);
  EXPECT_EQ(E("(SELECT MAX(a) FROM t)").kind, ExprKind::kSubquery);
  const auto& is = E("a IS NOT UNKNOWN").As<IsExpr>();
  EXPECT_TRUE(is.negated);
  EXPECT_EQ(is.is_kind, IsKind::kUnknown);
  EXPECT_TRUE(E("a IS DISTINCT FROM b").kind == ExprKind::kIsDistinctFrom);
}

TEST(ParserExprTest, Constructors) {
  EXPECT_EQ(E("ARRAY[1, 2]").As<ArrayCtor>().elements.size(), 2u);
  EXPECT_EQ(E("MAP['a', 1, 'b', 2]").As<MapCtor>().elements.size(), 4u);
  const auto& r = E("ROW(1, 'a')").As<RowCtor>();
  EXPECT_TRUE(r.explicit_row);
  const auto& r2 = E("(1, 'a')").As<RowCtor>();
  EXPECT_FALSE(r2.explicit_row);
  EXPECT_EQ(E("ROW(1)").As<RowCtor>().fields.size(), 1u);
  const auto& sub = E("m['k']").As<Subscript>();
  EXPECT_EQ(sub.base->As<Identifier>().parts, Name({"m"}));
  EXPECT_EQ(E("t.a.b").As<Identifier>().parts, Name({"t", "a", "b"}));
  EXPECT_EQ(E("`Weird Name`.`x``y`").As<Identifier>().parts, Name({"Weird Name", "x`y"}));
  EXPECT_EQ(E("DESCRIPTOR(ts)").As<Descriptor>().columns, std::vector<std::string>({"ts"}));
}

TEST(ParserExprTest, IdentifiersKeepCaseKeywordsDoNot) {
  auto st = MustParse("select MixedCase, `select` FrOm MyTable");
  ASSERT_TRUE(st);
  const Select& s = SelectOf(*st);
  EXPECT_EQ(s.items[0].expr->As<Identifier>().parts, Name({"MixedCase"}));
  EXPECT_EQ(s.items[1].expr->As<Identifier>().parts, Name({"select"}));
  EXPECT_EQ(s.from->As<TableName>().name, Name({"MyTable"}));
}

TEST(ParserTypeTest, ScalarTypesAndDefaults) {
  auto T = [](const std::string& s) {
    auto r = ParseDataType(s);
    EXPECT_TRUE(r.ok()) << s << " " << r.status().ToString();
    return r.ok() ? *r : LogicalType();
  };
  EXPECT_EQ(T("BOOLEAN"), LogicalType::Boolean());
  EXPECT_EQ(T("TINYINT"), LogicalType::TinyInt());
  EXPECT_EQ(T("SMALLINT"), LogicalType::SmallInt());
  EXPECT_EQ(T("INT"), LogicalType::Integer());
  EXPECT_EQ(T("integer"), LogicalType::Integer());
  EXPECT_EQ(T("BIGINT NOT NULL"), LogicalType::BigInt().WithNullable(false));
  EXPECT_EQ(T("BIGINT NULL"), LogicalType::BigInt());
  EXPECT_EQ(T("FLOAT"), LogicalType::Float());
  EXPECT_EQ(T("REAL"), LogicalType::Float());
  EXPECT_EQ(T("DOUBLE"), LogicalType::Double());
  EXPECT_EQ(T("DOUBLE PRECISION"), LogicalType::Double());
  EXPECT_EQ(T("DECIMAL"), LogicalType::Decimal(10, 0));
  EXPECT_EQ(T("DEC(5)"), LogicalType::Decimal(5, 0));
  EXPECT_EQ(T("NUMERIC(38, 18)"), LogicalType::Decimal(38, 18));
  EXPECT_EQ(T("CHAR"), LogicalType::Char(1));
  EXPECT_EQ(T("CHAR(5)"), LogicalType::Char(5));
  // Flink's SQL (not its Table API type strings) makes a VARCHAR without length the longest one.
  EXPECT_EQ(T("VARCHAR"), LogicalType::String());
  EXPECT_EQ(T("VARBINARY"), LogicalType::Bytes());
  EXPECT_EQ(T("VARCHAR(20)"), LogicalType::VarChar(20));
  EXPECT_EQ(T("STRING"), LogicalType::String());
  EXPECT_EQ(T("BINARY"), LogicalType::Binary(1));
  EXPECT_FALSE(ParseDataType("VARCHAR(0)").ok());
  EXPECT_FALSE(ParseDataType("FOO").ok());
  EXPECT_FALSE(ParseDataType("INT extra").ok());
  EXPECT_EQ(T("VARBINARY(8)"), LogicalType::VarBinary(8));
  EXPECT_EQ(T("BYTES"), LogicalType::Bytes());
  EXPECT_EQ(T("DATE"), LogicalType::Date());
  EXPECT_EQ(T("TIME"), LogicalType::Time(0));
  EXPECT_EQ(T("TIME(3)"), LogicalType::Time(3));
  EXPECT_EQ(T("TIMESTAMP"), LogicalType::Timestamp(6));
  EXPECT_EQ(T("TIMESTAMP(3)"), LogicalType::Timestamp(3));
  EXPECT_EQ(T("TIMESTAMP(3) WITHOUT TIME ZONE"), LogicalType::Timestamp(3));
  EXPECT_EQ(T("TIMESTAMP(3) WITH LOCAL TIME ZONE"), LogicalType::TimestampLtz(3));
  EXPECT_EQ(T("TIMESTAMP WITH LOCAL TIME ZONE"), LogicalType::TimestampLtz(6));
  EXPECT_EQ(T("TIMESTAMP_LTZ"), LogicalType::TimestampLtz(6));
  EXPECT_EQ(T("TIMESTAMP_LTZ(3)"), LogicalType::TimestampLtz(3));
  EXPECT_EQ(T("INTERVAL DAY TO SECOND(3)").id(), TypeId::kIntervalDayTime);
  EXPECT_EQ(T("INTERVAL YEAR TO MONTH").id(), TypeId::kIntervalYearMonth);
  EXPECT_EQ(T("INTERVAL MINUTE").id(), TypeId::kIntervalDayTime);
}

TEST(ParserTypeTest, NestedTypes) {
  auto T = [](const std::string& s) {
    auto r = ParseDataType(s);
    EXPECT_TRUE(r.ok()) << s << " " << r.status().ToString();
    return r.ok() ? *r : LogicalType();
  };
  EXPECT_EQ(T("ARRAY<INT>"), LogicalType::Array(LogicalType::Integer()));
  EXPECT_EQ(T("INT ARRAY"), LogicalType::Array(LogicalType::Integer()));
  EXPECT_EQ(T("INT NOT NULL ARRAY NOT NULL"),
            LogicalType::Array(LogicalType::Integer().WithNullable(false)).WithNullable(false));
  EXPECT_EQ(T("MULTISET<STRING>"), LogicalType::Multiset(LogicalType::String()));
  EXPECT_EQ(T("MAP<STRING, ARRAY<BIGINT>>"),
            LogicalType::Map(LogicalType::String(), LogicalType::Array(LogicalType::BigInt())));
  LogicalType row = LogicalType::Row({"a", "b"}, {LogicalType::Integer(), LogicalType::String()});
  EXPECT_EQ(T("ROW<a INT, b STRING>"), row);
  EXPECT_EQ(T("ROW(a INT, b STRING)"), row);
  EXPECT_EQ(T("ROW<a INT 'a comment', b STRING COMMENT 'another'>"), row);
}

TEST(ParserStatementTest, CreateTable) {
  auto st = MustParse(R"(CREATE TEMPORARY TABLE IF NOT EXISTS db.orders (
      id BIGINT NOT NULL COMMENT 'key',
      amount DECIMAL(10, 2),
      ts TIMESTAMP(3),
      `offset` BIGINT METADATA VIRTUAL,
      part INT METADATA FROM 'partition',
      total AS amount * 2,
      WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
      PRIMARY KEY (id) NOT ENFORCED
    ) COMMENT 'orders' PARTITIONED BY (part) WITH ('connector' = 'kafka', 'topic' = 'o'))");
  ASSERT_TRUE(st);
  const auto& ct = st->As<CreateTable>();
  EXPECT_TRUE(ct.temporary);
  EXPECT_TRUE(ct.if_not_exists);
  EXPECT_EQ(ct.name, Name({"db", "orders"}));
  ASSERT_EQ(ct.columns.size(), 6u);
  EXPECT_EQ(ct.columns[0].name, "id");
  EXPECT_EQ(ct.columns[0].column_kind, ColumnKind::kPhysical);
  EXPECT_EQ(ct.columns[0].type, LogicalType::BigInt().WithNullable(false));
  EXPECT_EQ(ct.columns[0].comment, std::optional<std::string>("key"));
  EXPECT_EQ(ct.columns[3].column_kind, ColumnKind::kMetadata);
  EXPECT_TRUE(ct.columns[3].is_virtual);
  EXPECT_FALSE(ct.columns[3].metadata_key.has_value());
  EXPECT_EQ(ct.columns[4].metadata_key, std::optional<std::string>("partition"));
  EXPECT_FALSE(ct.columns[4].is_virtual);
  EXPECT_EQ(ct.columns[5].column_kind, ColumnKind::kComputed);
  ASSERT_TRUE(ct.columns[5].expr);
  ASSERT_TRUE(ct.watermark.has_value());
  EXPECT_EQ(ct.watermark->column, Name({"ts"}));
  EXPECT_EQ(Unparse(*ct.watermark->expr), "`ts` - INTERVAL '5' SECOND");
  ASSERT_TRUE(ct.primary_key.has_value());
  EXPECT_EQ(ct.primary_key->columns, std::vector<std::string>({"id"}));
  EXPECT_FALSE(ct.primary_key->enforced);
  EXPECT_EQ(ct.comment, std::optional<std::string>("orders"));
  EXPECT_EQ(ct.partition_keys, std::vector<std::string>({"part"}));
  ASSERT_EQ(ct.options.size(), 2u);
  EXPECT_EQ(ct.options[0], Property("connector", "kafka"));
  EXPECT_EQ(ct.options[1], Property("topic", "o"));
}

TEST(ParserStatementTest, ColumnPrimaryKey) {
  auto st = MustParse("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('connector' = 'x')");
  ASSERT_TRUE(st);
  const auto& ct = st->As<CreateTable>();
  ASSERT_TRUE(ct.primary_key.has_value());
  EXPECT_EQ(ct.primary_key->columns, std::vector<std::string>({"id"}));
  EXPECT_FALSE(ParseStatement("CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, PRIMARY KEY (a) NOT ENFORCED)").ok());
}

TEST(ParserStatementTest, CreateViewKeepsQueryText) {
  std::string sql = "CREATE VIEW v (x) AS SELECT a /* keep */ FROM t WHERE a > 1";
  auto st = MustParse(sql);
  ASSERT_TRUE(st);
  const auto& cv = st->As<CreateView>();
  EXPECT_EQ(cv.columns, std::vector<std::string>({"x"}));
  EXPECT_EQ(cv.query_text, "SELECT a /* keep */ FROM t WHERE a > 1");
  EXPECT_EQ(cv.query->kind, QueryKind::kSelect);
}

TEST(ParserStatementTest, SimpleStatements) {
  auto drop = MustParse("DROP TABLE IF EXISTS a.b");
  EXPECT_EQ(drop->As<Drop>().object, ObjectKind::kTable);
  EXPECT_TRUE(drop->As<Drop>().if_exists);
  EXPECT_EQ(S("DROP VIEW v").As<Drop>().object, ObjectKind::kView);
  EXPECT_EQ(S("SHOW TABLES").As<Show>().show_kind, ShowKind::kTables);
  EXPECT_EQ(S("show views;").As<Show>().show_kind, ShowKind::kViews);
  EXPECT_EQ(S("DESCRIBE t").As<Describe>().name, Name({"t"}));
  EXPECT_EQ(S("DESC t").As<Describe>().name, Name({"t"}));
  const auto& sc = S("SHOW CREATE VIEW v").As<ShowCreate>();
  EXPECT_EQ(sc.object, ObjectKind::kView);
  EXPECT_EQ(S("SHOW CREATE CATALOG c").As<ShowCreate>().object, ObjectKind::kCatalog);
  const auto& dc = S("DESC CATALOG EXTENDED c").As<Describe>();
  EXPECT_TRUE(dc.catalog && dc.extended);
  EXPECT_EQ(dc.name, Name({"c"}));
  // CATALOG is not reserved: these name tables.
  EXPECT_FALSE(S("DESCRIBE catalog").As<Describe>().catalog);
  EXPECT_FALSE(S("DESCRIBE catalog;").As<Describe>().catalog);
  EXPECT_EQ(S("DESCRIBE catalog.db.t").As<Describe>().name, Name({"catalog", "db", "t"}));
  EXPECT_EQ(S("CREATE CATALOG c COMMENT 'x' WITH ('type' = 'generic_in_memory')").As<CreateCatalog>().comment,
            std::optional<std::string>("x"));
  const auto& set = S("SET 'parallelism.default' = '2'").As<SetStatement>();
  EXPECT_EQ(set.key, std::optional<std::string>("parallelism.default"));
  EXPECT_EQ(set.value, "2");
  EXPECT_FALSE(S("SET").As<SetStatement>().key.has_value());
  EXPECT_EQ(S("RESET 'a.b'").As<Reset>().key, std::optional<std::string>("a.b"));
  EXPECT_FALSE(S("RESET").As<Reset>().key.has_value());
}

TEST(ParserStatementTest, InsertStatementSetExplain) {
  const auto& ins = S("INSERT OVERWRITE t (a, b) SELECT 1, 2").As<Insert>();
  EXPECT_TRUE(ins.overwrite);
  EXPECT_EQ(ins.columns, std::vector<std::string>({"a", "b"}));
  const auto& vals = S("INSERT INTO t VALUES (1), (2)").As<Insert>();
  EXPECT_EQ(vals.query->As<Values>().rows.size(), 2u);
  const auto& sub = S("INSERT INTO t (SELECT 1)").As<Insert>();
  EXPECT_TRUE(sub.columns.empty());
  auto set = MustParse("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END");
  EXPECT_EQ(set->As<StatementSet>().inserts.size(), 2u);
  EXPECT_TRUE(set->As<StatementSet>().execute_form);
  auto begin = MustParse("BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END");
  EXPECT_EQ(begin->As<StatementSet>().inserts.size(), 1u);
  EXPECT_FALSE(begin->As<StatementSet>().execute_form);
  // Flink 2.3's ON CONFLICT clause closes the INSERT, after a column list or PARTITION.
  EXPECT_EQ(S("INSERT INTO t SELECT 1").As<Insert>().on_conflict, InsertConflictStrategy::kNone);
  EXPECT_EQ(S("INSERT INTO t SELECT * FROM u ON CONFLICT DO ERROR").As<Insert>().on_conflict, InsertConflictStrategy::kError);
  EXPECT_EQ(S("INSERT INTO t (a) SELECT a FROM u JOIN v ON u.a = v.a ON CONFLICT DO NOTHING").As<Insert>().on_conflict,
            InsertConflictStrategy::kNothing);
  EXPECT_EQ(S("INSERT OVERWRITE t PARTITION (p = 'v') SELECT 1 ON CONFLICT DO DEDUPLICATE").As<Insert>().on_conflict,
            InsertConflictStrategy::kDeduplicate);
  auto set_oc = MustParse("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1 ON CONFLICT DO NOTHING; INSERT INTO b SELECT 2; END");
  EXPECT_EQ(set_oc->As<StatementSet>().inserts[0]->on_conflict, InsertConflictStrategy::kNothing);
  EXPECT_EQ(set_oc->As<StatementSet>().inserts[1]->on_conflict, InsertConflictStrategy::kNone);
  EXPECT_FALSE(ParseStatement("INSERT INTO t SELECT 1 ON CONFLICT DO UPDATE").ok());
  EXPECT_FALSE(ParseStatement("INSERT INTO t SELECT 1 ON CONFLICT NOTHING").ok());
  const auto& ex = S("EXPLAIN CHANGELOG_MODE, JSON_EXECUTION_PLAN SELECT 1").As<Explain>();
  EXPECT_EQ(ex.details, std::vector<ExplainDetail>({ExplainDetail::kChangelogMode, ExplainDetail::kJsonExecutionPlan}));
  EXPECT_EQ(ex.inner->kind, StatementKind::kQuery);
  const auto& ex2 = S("EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; END").As<Explain>();
  EXPECT_EQ(ex2.inner->kind, StatementKind::kStatementSet);
  EXPECT_EQ(S("EXPLAIN PLAN FOR INSERT INTO a SELECT 1").As<Explain>().inner->kind, StatementKind::kInsert);
  EXPECT_EQ(S("EXECUTE INSERT INTO a SELECT 1").kind, StatementKind::kInsert);
}

TEST(ParserQueryTest, SelectClauses) {
  auto st = MustParse(
      "SELECT /*+ STATE_TTL('o'='1d') */ DISTINCT a AS x, b y, t.* FROM t WHERE a > 1 GROUP BY a, b "
      "HAVING COUNT(*) > 1 ORDER BY x DESC LIMIT 5 OFFSET 2");
  ASSERT_TRUE(st);
  const auto& q = *st->As<QueryStatement>().query;
  const auto& s = q.As<Select>();
  ASSERT_EQ(s.hints.size(), 1u);
  EXPECT_EQ(s.hints[0].name, "STATE_TTL");
  EXPECT_EQ(s.hints[0].kv_options, PropertyList({{"o", "1d"}}));
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.items.size(), 3u);
  EXPECT_EQ(s.items[0].alias, "x");
  EXPECT_EQ(s.items[1].alias, "y");
  EXPECT_EQ(s.items[2].expr->As<Star>().qualifier, Name({"t"}));
  EXPECT_TRUE(s.where);
  EXPECT_EQ(s.group_by.size(), 2u);
  EXPECT_TRUE(s.having);
  ASSERT_EQ(q.order_by.size(), 1u);
  EXPECT_TRUE(q.order_by[0].descending);
  EXPECT_EQ(q.limit->As<Literal>().text, "5");
  EXPECT_EQ(q.offset->As<Literal>().text, "2");
}

TEST(ParserQueryTest, FromClauseShapes) {
  auto st = MustParse(
      "SELECT * FROM a /*+ OPTIONS('k'='v') */ AS x (c1, c2) "
      "LEFT JOIN b FOR SYSTEM_TIME AS OF x.ts AS y ON x.c1 = y.c1 "
      "CROSS JOIN UNNEST(x.arr) WITH ORDINALITY AS u (e, n), "
      "LATERAL TABLE(f(x.c2)) AS z (w)");
  ASSERT_TRUE(st);
  const TableRef& from = *SelectOf(*st).from;
  // Joins are left-deep: ((((a LEFT JOIN b) CROSS JOIN UNNEST), LATERAL TABLE)).
  const auto& comma = from.As<Join>();
  EXPECT_EQ(comma.join_type, JoinType::kComma);
  const auto& tf = comma.right->As<TableFunctionRef>();
  EXPECT_TRUE(tf.lateral);
  EXPECT_EQ(tf.alias, "z");
  EXPECT_EQ(tf.call->As<Call>().name, Name({"f"}));
  const auto& cross = comma.left->As<Join>();
  EXPECT_EQ(cross.join_type, JoinType::kCross);
  const auto& un = cross.right->As<Unnest>();
  EXPECT_TRUE(un.with_ordinality);
  EXPECT_EQ(un.column_aliases, std::vector<std::string>({"e", "n"}));
  const auto& left = cross.left->As<Join>();
  EXPECT_EQ(left.join_type, JoinType::kLeft);
  ASSERT_TRUE(left.on);
  const auto& b = left.right->As<TableName>();
  ASSERT_TRUE(b.for_system_time);
  EXPECT_EQ(b.alias, "y");
  const auto& a = left.left->As<TableName>();
  ASSERT_EQ(a.hints.size(), 1u);
  EXPECT_EQ(a.hints[0].name, "OPTIONS");
  EXPECT_EQ(a.alias, "x");
  EXPECT_EQ(a.column_aliases, std::vector<std::string>({"c1", "c2"}));
}

TEST(ParserQueryTest, WindowTvfArguments) {
  auto st = MustParse(
      "SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTE))");
  const auto& call = SelectOf(*st).from->As<TableFunctionRef>().call->As<Call>();
  EXPECT_EQ(call.name, Name({"SESSION"}));
  ASSERT_EQ(call.args.size(), 3u);
  const auto& table = call.args[0]->As<TableArg>();
  EXPECT_EQ(table.table, Name({"Bid"}));
  EXPECT_EQ(table.partition_by.size(), 1u);
  EXPECT_EQ(call.args[1]->kind, ExprKind::kDescriptor);
  EXPECT_TRUE(call.arg_names.empty());
  const auto& two = S("SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY (a, b), DESCRIPTOR(ts), INTERVAL '1' MINUTE))");
  const auto& two_call = SelectOf(two).from->As<TableFunctionRef>().call->As<Call>();
  EXPECT_EQ(two_call.args[0]->As<TableArg>().partition_by.size(), 2u);
  EXPECT_EQ(two_call.args.size(), 3u);
  auto named = MustParse(
      "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '1' HOUR))");
  const auto& ncall = SelectOf(*named).from->As<TableFunctionRef>().call->As<Call>();
  EXPECT_EQ(ncall.arg_names, std::vector<std::string>({"DATA", "TIMECOL", "SIZE"}));
}

TEST(ParserQueryTest, SetOperationsAndWith) {
  auto st = MustParse("WITH c AS (SELECT 1 AS x) SELECT x FROM c UNION ALL SELECT 2 INTERSECT SELECT 3");
  const auto& q = *st->As<QueryStatement>().query;
  ASSERT_EQ(q.kind, QueryKind::kSetOp);
  ASSERT_EQ(q.with.size(), 1u);
  EXPECT_EQ(q.with[0].name, "c");
  const auto& u = q.As<SetOp>();
  EXPECT_EQ(u.op, SetOpKind::kUnion);
  EXPECT_TRUE(u.all);
  // INTERSECT binds tighter than UNION.
  EXPECT_EQ(u.right->As<SetOp>().op, SetOpKind::kIntersect);
  auto paren = MustParse("(SELECT 1 ORDER BY 1 LIMIT 1) ORDER BY 1");
  const auto& wrapped = paren->As<QueryStatement>().query->As<Select>();
  EXPECT_EQ(wrapped.from->kind, TableRefKind::kSubquery);
  EXPECT_EQ(wrapped.order_by.size(), 1u);
}

TEST(ParserPositionTest, NodesCarryLineAndColumn) {
  auto st = MustParse("SELECT a,\n  b + 1 AS c\nFROM t");
  const Select& s = SelectOf(*st);
  EXPECT_EQ(s.pos, (SourcePos{1, 1}));
  EXPECT_EQ(s.items[0].expr->pos, (SourcePos{1, 8}));
  EXPECT_EQ(s.items[1].expr->pos, (SourcePos{2, 3}));
  EXPECT_EQ(s.items[1].expr->As<Binary>().right->pos, (SourcePos{2, 7}));
  EXPECT_EQ(s.from->pos, (SourcePos{3, 6}));
  auto shifted = ParseStatement("SELECT x FROM t", 9, 4);
  ASSERT_TRUE(shifted.ok());
  EXPECT_EQ(SelectOf(**shifted).items[0].expr->pos, (SourcePos{10, 12}));
}

}  // namespace
// SQL text must be UTF-8: a Latin-1 byte is refused at the lexer with its line and column.
TEST(LexerTest, InvalidUtf8IsRefusedWithPosition) {
  auto bad = Tokenize("SELECT 1;\nSELECT 'caf\xE9' AS s");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2, column 12: invalid UTF-8 byte 0xE9"), std::string::npos)
      << bad.status().message();
  EXPECT_FALSE(Tokenize("SELECT '\xC0\xAF'").ok());      // overlong
  EXPECT_FALSE(Tokenize("SELECT '\xED\xA0\x80'").ok());  // surrogate
  EXPECT_TRUE(Tokenize("SELECT 'caf\xC3\xA9 \xF0\x9F\x98\x80'").ok());
}

}  // namespace sluice::sql
