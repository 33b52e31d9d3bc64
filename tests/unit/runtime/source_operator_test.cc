#include "runtime/operators/source_operator.h"

#include <gtest/gtest.h>

#include <deque>

#include "unit/runtime/rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::Big;
using testing::Harness;

// A split that plays a script: each entry is one Read's rows (empty: nothing yet, the split goes
// on); after the script it ends, or stays open and empty when `endless`.
class ScriptedSplit final : public SourceSplit {
 public:
  ScriptedSplit(std::string id, std::deque<std::vector<int64_t>> reads, bool endless)
      : id_(std::move(id)), reads_(std::move(reads)), endless_(endless) {}
  std::string id() const override { return id_; }
  Result<bool> Read(size_t, Chunk* out) override {
    ++reads;
    if (reads_.empty()) return endless_;
    for (int64_t v : reads_.front()) out->AppendValues({Big(v)}, RowKind::kInsert);
    reads_.pop_front();
    return true;
  }
  int reads = 0;

 private:
  std::string id_;
  std::deque<std::vector<int64_t>> reads_;
  bool endless_;
};

Schema OneColumn() { return Schema({{"v", LogicalType::BigInt()}}); }

// An unbounded split with nothing to read (an idle Kafka partition) does not keep the split after
// it from being read.
TEST(SourceOperatorTest, EmptyReadsOfAnEndlessSplitDoNotStarveTheOthers) {
  std::vector<std::unique_ptr<SourceSplit>> splits;
  splits.push_back(std::make_unique<ScriptedSplit>("idle", std::deque<std::vector<int64_t>>{}, true));
  splits.push_back(std::make_unique<ScriptedSplit>("busy", std::deque<std::vector<int64_t>>{{1, 2}, {}, {3}}, false));
  auto* idle = static_cast<ScriptedSplit*>(splits[0].get());
  SourceOperator op("t", std::move(splits), OneColumn(), {}, -1, nullptr, 1024);
  Harness h(&op);
  ASSERT_TRUE(h.open_status.ok()) << h.open_status.ToString();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  EXPECT_EQ(h.sink.Changes(), (std::vector<std::string>{"+I[1]", "+I[2]", "+I[3]"}));
  EXPECT_FALSE(op.finished());  // the idle split goes on
  EXPECT_FALSE(h.sink.ended);
  // The idle split is still polled, but not at every step.
  EXPECT_GT(idle->reads, 1);
  EXPECT_LT(idle->reads, 20);
}

TEST(SourceOperatorTest, SplitsThatComeBackEmptyStillDeliverAndEnd) {
  std::vector<std::unique_ptr<SourceSplit>> splits;
  splits.push_back(std::make_unique<ScriptedSplit>("a", std::deque<std::vector<int64_t>>{{}, {}, {10}}, false));
  splits.push_back(std::make_unique<ScriptedSplit>("b", std::deque<std::vector<int64_t>>{{}, {20}, {}, {21}}, false));
  SourceOperator op("t", std::move(splits), OneColumn(), {}, -1, nullptr, 1024);
  Harness h(&op);
  ASSERT_TRUE(h.open_status.ok()) << h.open_status.ToString();
  for (int i = 0; i < 50 && !op.finished(); ++i) ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  EXPECT_TRUE(op.finished());
  EXPECT_TRUE(h.sink.ended);
  std::vector<std::string> rows = h.sink.Changes();
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[10]", "+I[20]", "+I[21]"}));
}

}  // namespace
}  // namespace sluice
