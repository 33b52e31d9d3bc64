#include <gtest/gtest.h>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

std::string S(const std::string& name, std::vector<ExprPtr> args) { return EvalText(Call(name, std::move(args))); }

TEST(StringTest, Substring) {
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello world"), LitInt(7)}), "world");
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello"), LitInt(2), LitInt(3)}), "ell");
  EXPECT_EQ(S("SUBSTR", {LitStr("hello"), LitInt(0), LitInt(2)}), "he");     // 0 starts at the beginning
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello"), LitInt(-3), LitInt(2)}), "ll"); // negative: from the end
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello"), LitInt(10)}), "");
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello"), LitInt(-10), LitInt(2)}), "");
  EXPECT_EQ(S("SUBSTRING", {LitStr("hello"), LitInt(2), LitInt(-1)}), "NULL");
  EXPECT_EQ(S("SUBSTRING", {LitStr("héllo"), LitInt(2), LitInt(2)}), "él");
}

TEST(StringTest, Trim) {
  EXPECT_EQ(S("TRIM", {LitStr("  ab  ")}), "ab");
  EXPECT_EQ(S("TRIM", {LitStr("BOTH"), LitStr("x"), LitStr("xxabxx")}), "ab");
  EXPECT_EQ(S("TRIM", {LitStr("LEADING"), LitStr("x"), LitStr("xxabxx")}), "abxx");
  EXPECT_EQ(S("TRIM", {LitStr("TRAILING"), LitStr("xy"), LitStr("xxabyx")}), "xxab");
  EXPECT_EQ(S("LTRIM", {LitStr("  ab ")}), "ab ");
  EXPECT_EQ(S("RTRIM", {LitStr("  ab ")}), "  ab");
}

TEST(StringTest, Padding) {
  EXPECT_EQ(S("LPAD", {LitStr("hi"), LitInt(4), LitStr("??")}), "??hi");
  EXPECT_EQ(S("LPAD", {LitStr("hi"), LitInt(5), LitStr("ab")}), "abahi");
  EXPECT_EQ(S("LPAD", {LitStr("hi"), LitInt(1), LitStr("??")}), "h");
  EXPECT_EQ(S("RPAD", {LitStr("hi"), LitInt(4), LitStr("??")}), "hi??");
  EXPECT_EQ(S("RPAD", {LitStr("hi"), LitInt(1), LitStr("??")}), "h");
  EXPECT_EQ(S("LPAD", {LitStr("hi"), LitInt(-1), LitStr("?")}), "NULL");
  EXPECT_EQ(S("LPAD", {LitStr("hi"), LitInt(4), LitStr("")}), "NULL");
}

TEST(StringTest, ConcatAndFriends) {
  EXPECT_EQ(S("CONCAT", {LitStr("a"), LitStr("b"), LitStr("c")}), "abc");
  EXPECT_EQ(S("CONCAT", {LitStr("a"), LitNull(LogicalType::String())}), "NULL");
  EXPECT_EQ(S("CONCAT_WS", {LitStr("-"), LitStr("a"), LitNull(LogicalType::String()), LitStr("c")}), "a-c");
  EXPECT_EQ(S("||", {LitStr("a"), LitStr("b")}), "ab");
  EXPECT_EQ(S("UPPER", {LitStr("aBc")}), "ABC");
  EXPECT_EQ(S("LOWER", {LitStr("aBc")}), "abc");
  EXPECT_EQ(S("CHAR_LENGTH", {LitStr("héllo")}), "5");
  EXPECT_EQ(S("REPLACE", {LitStr("banana"), LitStr("an"), LitStr("AN")}), "bANANa");
  EXPECT_EQ(S("INITCAP", {LitStr("hello wORLD")}), "Hello World");
  EXPECT_EQ(S("REVERSE", {LitStr("abc")}), "cba");
  EXPECT_EQ(S("REPEAT", {LitStr("ab"), LitInt(3)}), "ababab");
  EXPECT_EQ(S("LEFT", {LitStr("hello"), LitInt(2)}), "he");
  EXPECT_EQ(S("RIGHT", {LitStr("hello"), LitInt(2)}), "lo");
  EXPECT_EQ(S("ASCII", {LitStr("A")}), "65");
  EXPECT_EQ(S("CHR", {LitInt(97)}), "a");
  EXPECT_EQ(S("CHR", {LitInt(353)}), "a");  // 353 & 0xFF = 97
  EXPECT_EQ(S("CHR", {LitInt(-1)}), "");
  EXPECT_EQ(S("HASH_CODE", {LitStr("hello world")}), "1794106052");
  EXPECT_EQ(S("MD5", {LitStr("abc")}), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(S("HASH_CODE", {LitStr("abc")}), "96354");
  EXPECT_EQ(S("TO_BASE64", {LitStr("hello")}), "aGVsbG8=");
  EXPECT_EQ(S("FROM_BASE64", {LitStr("aGVsbG8=")}), "hello");
}

TEST(StringTest, Positions) {
  EXPECT_EQ(S("POSITION", {LitStr("lo"), LitStr("hello")}), "4");
  EXPECT_EQ(S("POSITION", {LitStr("z"), LitStr("hello")}), "0");
  EXPECT_EQ(S("LOCATE", {LitStr("l"), LitStr("hello"), LitInt(4)}), "4");
  EXPECT_EQ(S("INSTR", {LitStr("hello"), LitStr("e")}), "2");
  EXPECT_EQ(S("SPLIT_INDEX", {LitStr("a,b,c"), LitStr(","), LitInt(1)}), "b");
  EXPECT_EQ(S("SPLIT_INDEX", {LitStr("a,b,c"), LitStr(","), LitInt(3)}), "NULL");
  EXPECT_EQ(S("SPLIT_INDEX", {LitStr("a,,c"), LitStr(","), LitInt(1)}), "");
  EXPECT_EQ(S("SPLIT_INDEX", {LitStr("a,b"), LitStr(","), LitInt(-1)}), "NULL");
}

TEST(StringTest, Like) {
  EXPECT_EQ(S("LIKE", {LitStr("hello"), LitStr("h%o")}), "TRUE");
  EXPECT_EQ(S("LIKE", {LitStr("hello"), LitStr("h_llo")}), "TRUE");
  EXPECT_EQ(S("LIKE", {LitStr("hello"), LitStr("h_lo")}), "FALSE");
  EXPECT_EQ(S("LIKE", {LitStr("a%b"), LitStr("a\\%b"), LitStr("\\")}), "TRUE");
  EXPECT_EQ(S("LIKE", {LitStr("axb"), LitStr("a\\%b"), LitStr("\\")}), "FALSE");
  EXPECT_EQ(S("LIKE", {LitStr("abcabc"), LitStr("%abc")}), "TRUE");
  EXPECT_EQ(S("LIKE", {LitStr(""), LitStr("%")}), "TRUE");
  EXPECT_EQ(S("SIMILAR TO", {LitStr("abc"), LitStr("(a|x)%")}), "TRUE");
}

TEST(StringTest, Regex) {
  EXPECT_EQ(S("REGEXP_EXTRACT", {LitStr("foothebar"), LitStr("foo(.*?)(bar)"), LitInt(2)}), "bar");
  EXPECT_EQ(S("REGEXP_EXTRACT", {LitStr("foothebar"), LitStr("foo(.*?)(bar)"), LitInt(1)}), "the");
  EXPECT_EQ(S("REGEXP_EXTRACT", {LitStr("foothebar"), LitStr("foo(.*?)(bar)")}), "foothebar");
  EXPECT_EQ(S("REGEXP_EXTRACT", {LitStr("xyz"), LitStr("a(b)"), LitInt(1)}), "NULL");
  EXPECT_EQ(S("REGEXP_REPLACE", {LitStr("foobar"), LitStr("oo|ar"), LitStr("")}), "fb");
  // The replacement is literal text, as Flink's Matcher.quoteReplacement.
  EXPECT_EQ(S("REGEXP_REPLACE", {LitStr("a-b"), LitStr("(a)-(b)"), LitStr("$2\\1")}), "$2\\1");
  EXPECT_EQ(S("REGEXP", {LitStr("abc123"), LitStr("[0-9]+")}), "TRUE");
  EXPECT_EQ(S("REGEXP", {LitStr("abc"), LitStr("^[0-9]+$")}), "FALSE");
  EXPECT_EQ(S("REGEXP", {LitStr("abc"), LitStr("")}), "FALSE");
}

TEST(StringTest, VectorizedStringsWithNonConstantPatterns) {
  Chunk c = MakeChunk({LogicalType::String(), LogicalType::String()},
                      {{Value::String("apple"), Value::String("a%")},
                       {Value::String("banana"), Value::String("%an%")},
                       {Value::String("cherry"), Value::Null(LogicalType::String())},
                       {Value::String("date"), Value::String("x%")}});
  EvalContext ctx;
  Vector out;
  auto like = Call("LIKE", {Col(0, LogicalType::String()), Col(1, LogicalType::String())});
  ASSERT_TRUE(EvaluateExpr(*like, c, ctx, &out).ok());
  EXPECT_EQ(out.GetValue(0).ToString(), "TRUE");
  EXPECT_EQ(out.GetValue(1).ToString(), "TRUE");
  EXPECT_TRUE(out.IsNull(2));
  EXPECT_EQ(out.GetValue(3).ToString(), "FALSE");
  auto up = Call("UPPER", {Col(0, LogicalType::String())});
  ASSERT_TRUE(EvaluateExpr(*up, c, ctx, &out).ok());
  EXPECT_EQ(out.GetValue(1).ToString(), "BANANA");
}

TEST(StringTest, UuidIsRandomAndWellFormed) {
  auto u = Call("UUID", {});
  EXPECT_FALSE(u->IsConstant());
  std::string a = EvalText(u), b = EvalText(u);
  EXPECT_EQ(a.size(), 36u);
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace sluice::testing
