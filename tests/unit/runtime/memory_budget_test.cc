// The job's memory budget and out-of-memory guard (runtime/memory_budget.h): a std::bad_alloc thrown
// inside an operator's Process becomes an error naming that operator, and a state over the budget
// fails naming the operator that holds the most.
#include "runtime/memory_budget.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include "common/config.h"
#include "runtime/job.h"
#include "runtime/operator.h"
#include "types/value.h"

namespace sluice {
namespace {

// Hands chunks to its outputs, as a source does.
class FeedOperator final : public Operator {
 public:
  FeedOperator() : Operator("Feed", 0) {}
  Status Feed(Chunk& chunk) { return Emit(chunk); }
  Status Process(int, Chunk&) override { return Status::OK(); }
};

// Forwards its input (a stateless operator between the feed and the failing one).
class PassOperator final : public Operator {
 public:
  PassOperator() : Operator("Pass", 1) {}
  Status Process(int, Chunk& chunk) override { return Emit(chunk); }
};

// Holds `state_bytes` of state; its Process fails to allocate (std::bad_alloc, or with `too_large`
// std::length_error, as a string asked for more than max_size()).
class FailingOperator final : public Operator {
 public:
  explicit FailingOperator(size_t state_bytes, bool too_large = false)
      : Operator("Failing", 1), state_bytes_(state_bytes), too_large_(too_large) {}
  Status Process(int, Chunk&) override {
    if (too_large_) throw std::length_error("basic_string::_M_create");
    throw std::bad_alloc();
  }
  size_t StateBytes() const override { return state_bytes_; }

 private:
  size_t state_bytes_;
  bool too_large_;
};

// Only holds state.
class StatefulOperator final : public Operator {
 public:
  explicit StatefulOperator(size_t state_bytes) : Operator("Stateful", 1), state_bytes_(state_bytes) {}
  Status Process(int, Chunk&) override { return Status::OK(); }
  size_t StateBytes() const override { return state_bytes_; }

 private:
  size_t state_bytes_;
};

Chunk OneRow() {
  Chunk c({LogicalType::BigInt()});
  c.AppendValues({Value::BigInt(1)}, RowKind::kInsert);
  return c;
}

TEST(MemoryBudgetTest, BadAllocInProcessBecomesAnErrorNamingTheOperator) {
  JobContext ctx;
  ctx.job_name = "j";
  std::vector<std::unique_ptr<Operator>> ops;
  ops.push_back(std::make_unique<FeedOperator>());
  ops.push_back(std::make_unique<PassOperator>());
  ops.push_back(std::make_unique<FailingOperator>(3 * 1024));
  ops[2]->set_digest("Failing(groupBy=[k])");
  ops[0]->AddOutput(ops[1].get(), 0);
  ops[1]->AddOutput(ops[2].get(), 0);
  for (auto& op : ops) ASSERT_TRUE(op->Open(&ctx).ok());
  auto* feed = static_cast<FeedOperator*>(ops[0].get());
  Chunk chunk = OneRow();
  const Status st = GuardOutOfMemory(ctx, ops, [&] {
    ctx.running = feed;
    return feed->Feed(chunk);
  });
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kRuntimeError);
  EXPECT_NE(st.message().find("Job 'j' ran out of memory (an allocation failed: std::bad_alloc) in operator "
                              "Failing(groupBy=[k]), which holds 3 kb of state"),
            std::string::npos)
      << st.message();
}

TEST(MemoryBudgetTest, LengthErrorInProcessBecomesAnErrorNamingTheOperator) {
  JobContext ctx;
  ctx.job_name = "j";
  std::vector<std::unique_ptr<Operator>> ops;
  ops.push_back(std::make_unique<FeedOperator>());
  ops.push_back(std::make_unique<FailingOperator>(0, /*too_large=*/true));
  ops[0]->AddOutput(ops[1].get(), 0);
  for (auto& op : ops) ASSERT_TRUE(op->Open(&ctx).ok());
  Chunk chunk = OneRow();
  const Status st = GuardOutOfMemory(ctx, ops, [&] { return static_cast<FeedOperator*>(ops[0].get())->Feed(chunk); });
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("ran out of memory (an allocation too large: std::length_error: basic_string::_M_create) "
                              "in operator Failing, which holds 0 bytes of state"),
            std::string::npos)
      << st.message();
}

TEST(MemoryBudgetTest, RunningOperatorIsTheCallerAgainAfterADownstreamCallReturns) {
  JobContext ctx;
  FeedOperator feed;
  PassOperator pass;
  feed.AddOutput(&pass, 0);
  ASSERT_TRUE(feed.Open(&ctx).ok());
  ASSERT_TRUE(pass.Open(&ctx).ok());
  Chunk chunk = OneRow();
  ctx.running = &feed;
  ASSERT_TRUE(feed.Feed(chunk).ok());
  EXPECT_EQ(ctx.running, &feed);
}

TEST(MemoryBudgetTest, StateOverTheBudgetNamesTheLargestOperator) {
  JobContext ctx;
  ctx.job_name = "j";
  std::vector<std::unique_ptr<Operator>> ops;
  ops.push_back(std::make_unique<StatefulOperator>(1024 * 1024));
  ops.push_back(std::make_unique<StatefulOperator>(3 * 1024 * 1024 + 20 * 1024));
  ops[1]->set_digest("GroupAggregate(groupBy=[k])");
  EXPECT_TRUE(CheckMemoryBudget(ctx, ops, 0).ok());  // no budget
  ctx.memory_budget_bytes = 8 * 1024 * 1024;
  EXPECT_TRUE(CheckMemoryBudget(ctx, ops, 0).ok());
  ctx.memory_budget_bytes = 2 * 1024 * 1024;
  const Status st = CheckMemoryBudget(ctx, ops, 0);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Job 'j' exceeded the memory budget ('taskmanager.memory.process.size' = 2 mb): operator "
                              "GroupAggregate(groupBy=[k]) holds 3.02 mb of state (all operators: 4.02 mb)"),
            std::string::npos)
      << st.message();
  // Checkpoint buffers count too.
  ctx.memory_budget_bytes = 5 * 1024 * 1024;
  EXPECT_TRUE(CheckMemoryBudget(ctx, ops, 0).ok());
  const Status with_buffers = CheckMemoryBudget(ctx, ops, 1024 * 1024);
  ASSERT_FALSE(with_buffers.ok());
  EXPECT_NE(with_buffers.message().find("and its checkpoint buffers 1 mb"), std::string::npos) << with_buffers.message();
}

TEST(MemoryBudgetTest, FormatMemorySize) {
  EXPECT_EQ(FormatMemorySize(0), "0 bytes");
  EXPECT_EQ(FormatMemorySize(1023), "1023 bytes");
  EXPECT_EQ(FormatMemorySize(1024), "1 kb");
  EXPECT_EQ(FormatMemorySize(1536), "1.50 kb");
  EXPECT_EQ(FormatMemorySize(int64_t{1} << 20), "1 mb");
  EXPECT_EQ(FormatMemorySize((int64_t{1} << 30) + (int64_t{1} << 24)), "1.02 gb");
  EXPECT_EQ(FormatMemorySize(int64_t{5} << 40), "5120 gb");
}

}  // namespace
}  // namespace sluice
