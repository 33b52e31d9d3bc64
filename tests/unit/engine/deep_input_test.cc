// Hostile input sizes (issue 15): long operator chains and UNION ALLs of thousands of branches must run
// or fail with an error naming the place, never overflow the stack; the branches of a UNION ALL become
// one Union node whatever their number, so nothing grows with the square of the branches.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "engine/session.h"
#include "sql/parser.h"
#include "types/vector.h"

namespace sluice {
namespace {

// Sums the first (BIGINT or INT) column of every +I row and counts the rows.
class SumHandler : public QueryResultHandler {
 public:
  Status Begin(const Schema&) override { return Status::OK(); }
  Status Changes(const Chunk& chunk) override {
    const Vector& v = chunk.column(0);
    for (size_t i = 0; i < chunk.size(); ++i) {
      sum += v.type().id() == TypeId::kBigInt ? v.data<int64_t>()[i] : v.data<int32_t>()[i];
      ++rows;
    }
    return Status::OK();
  }
  Status End() override { return Status::OK(); }
  int64_t sum = 0;
  int64_t rows = 0;
};

std::string Chain(const std::string& term, const std::string& op, int terms) {
  std::string s = term;
  for (int i = 1; i < terms; ++i) s += op + term;
  return s;
}

std::string UnionOf(int branches) {
  std::string s;
  for (int i = 0; i < branches; ++i) s += (i ? " UNION ALL SELECT " : "SELECT ") + std::to_string(i);
  return s;
}

class DeepInputTest : public ::testing::Test {
 protected:
  std::ostringstream out_, err_;
  Session session_{SessionOptions{&out_, &err_, nullptr, {}}};
};

// Statements run on a deep stack (common/deep_stack.h), so the longest chains run in every build,
// sanitizers included, whose frames are several times larger.
TEST_F(DeepInputTest, LongestOperatorChainsRunAndExplain) {
  const int terms = sql::kMaxChainedOperators + 1;
  SumHandler sum;
  auto first = session_.Execute("SELECT " + Chain("1", "+", terms), &sum);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(sum.sum, terms);
  for (const std::string& q : {"SELECT " + Chain("1", "*", terms), "SELECT " + Chain("'a'", "||", terms),
                               "SELECT 1 WHERE " + Chain("TRUE", " AND ", terms),
                               "SELECT 1 WHERE " + Chain("FALSE", " OR ", terms - 1) + " OR TRUE"}) {
    SumHandler h;
    auto r = session_.Execute(q, &h);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(h.rows, 1);
    auto e = session_.Execute("EXPLAIN " + q, nullptr);
    ASSERT_TRUE(e.ok()) << e.status().message();
  }
}

TEST_F(DeepInputTest, LongerChainsFailNamingLineColumnAndLimit) {
  const int terms = sql::kMaxChainedOperators + 2;
  for (const char* op : {"+", "*", "||", " AND ", " OR "}) {
    auto r = session_.Execute("SELECT\n  " + Chain("1", op, terms), nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("Expression too long: more than " + std::to_string(sql::kMaxChainedOperators) +
                                        " operators"),
              std::string::npos)
        << r.status().message();
    EXPECT_NE(r.status().message().find("line 2, column"), std::string::npos) << r.status().message();
  }
  // Operators nested in calls and parentheses count too: the bound is on the whole expression.
  std::string nested = "SELECT ABS(" + Chain("1", "+", terms / 2) + ") + (" + Chain("1", "+", terms / 2) + ")";
  EXPECT_FALSE(session_.Execute(nested, nullptr).ok());
  // Each expression has its own budget.
  const int half = terms / 2;
  std::string columns = "SELECT " + Chain("1", "+", half) + ", " + Chain("1", "+", half);
  EXPECT_TRUE(session_.Execute(columns, nullptr).ok());
}

TEST_F(DeepInputTest, ManyUnionBranchesRunAsOneUnion) {
  const int branches = 20000;
  SumHandler sum;
  auto r = session_.Execute(UnionOf(branches), &sum);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(sum.rows, branches);
  EXPECT_EQ(sum.sum, int64_t{branches} * (branches - 1) / 2);
  // One Union node over every branch, not a chain of binary ones (a chain made the plan, its traits
  // and the job grow with the square of the branches).
  auto e = session_.Execute("EXPLAIN " + UnionOf(50), nullptr);
  ASSERT_TRUE(e.ok()) << e.status().message();
  size_t unions = 0;
  for (size_t p = e->text.find("Union("); p != std::string::npos; p = e->text.find("Union(", p + 1)) ++unions;
  EXPECT_EQ(unions, 3u) << e->text;  // one in each of EXPLAIN's three plans
}

}  // namespace
}  // namespace sluice
