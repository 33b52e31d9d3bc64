#include "runtime/operators/source_operator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>

#include "common/clock.h"
#include "function/evaluator.h"
#include "state/state_serde.h"
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

// A split over the numbers [0, total), read `per_read` at a time, that checkpoints its position (the
// count of rows before it) and seeks to one, like a datagen sequence or a Kafka partition.
class SeekableSplit final : public SourceSplit {
 public:
  SeekableSplit(int64_t total, size_t per_read, std::string id = "seq")
      : total_(total), per_read_(per_read), id_(std::move(id)) {}
  std::string id() const override { return id_; }
  Result<bool> Read(size_t, Chunk* out) override {
    last_read_ = 0;
    while (next_ < total_ && last_read_ < per_read_) {
      out->AppendValues({Big(next_++)}, RowKind::kInsert);
      ++last_read_;
    }
    return next_ < total_;
  }
  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    return std::to_string(next_ - static_cast<int64_t>(last_read_ - rows_of_last_read));
  }
  Status SeekToPosition(const std::string& position) override {
    next_ = std::stoll(position);
    return Status::OK();
  }
  // A discovered split starts at 100 (where "earliest" is for this split), so tests see the call.
  Status StartAsDiscovered() override {
    next_ = 100;
    total_ = std::max<int64_t>(total_, 100) + 2;
    return Status::OK();
  }

 private:
  int64_t total_;
  size_t per_read_;
  std::string id_;
  int64_t next_ = 0;
  size_t last_read_ = 0;
};

// Takes the columns and kinds of every chunk it is given and forwards them, as a Calc does (Emit
// lets a consumer steal the chunk it hands over).
class StealingOperator final : public Operator {
 public:
  StealingOperator() : Operator("steal", 1) {}
  Status Process(int, Chunk& chunk) override {
    Chunk out;
    out.columns() = std::move(chunk.columns());
    out.kind_vector() = std::move(chunk.kind_vector());
    return Emit(out);
  }
};

// A checkpoint taken after a source emitted a whole read to a consumer that stole it records the
// position after that read: the restored source goes on with the next row. (The source used to
// read its bookkeeping from the stolen chunk, whose size was then 0, so the checkpoint recorded the
// position before the read and the restored job counted those rows twice.)
TEST(SourceOperatorTest, ACheckpointAfterAStolenChunkRecordsThePositionAfterIt) {
  for (bool seekable : {true, false}) {
    SCOPED_TRACE(seekable ? "seekable split" : "split restored by skipping rows");
    auto make_source = [&] {
      std::vector<std::unique_ptr<SourceSplit>> splits;
      if (seekable) {
        splits.push_back(std::make_unique<SeekableSplit>(10, 4));
      } else {
        std::deque<std::vector<int64_t>> reads{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
        splits.push_back(std::make_unique<ScriptedSplit>("seq", std::move(reads), false));
      }
      return std::make_unique<SourceOperator>("t", std::move(splits), OneColumn(), std::vector<ExprPtr>{}, -1,
                                              nullptr, 4);
    };
    auto first = make_source();
    StealingOperator steal;
    first->AddOutput(&steal, 0);
    Harness h(&steal);
    JobContext ctx;
    ASSERT_TRUE(first->Open(&ctx).ok());
    // The first step reads rows 0..3, the next emits them to `steal`, which takes them.
    for (int i = 0; i < 5 && h.sink.Changes().empty(); ++i) ASSERT_TRUE(first->Step(kMaxWatermark, false).ok());
    StateWriter w;
    ASSERT_TRUE(first->WriteSnapshot(&w).ok());
    const std::string bytes = w.data();

    auto restored = make_source();
    Harness h2(restored.get());
    ASSERT_TRUE(h2.open_status.ok());
    StateReader r(bytes, "source");
    ASSERT_TRUE(restored->Restore(&r).ok()) << r.status().ToString();
    for (int i = 0; i < 20 && !restored->finished(); ++i) ASSERT_TRUE(restored->Step(kMaxWatermark, false).ok());
    EXPECT_EQ(h.sink.Changes(), (std::vector<std::string>{"+I[0]", "+I[1]", "+I[2]", "+I[3]"}));
    EXPECT_EQ(h2.sink.Changes(),
              (std::vector<std::string>{"+I[4]", "+I[5]", "+I[6]", "+I[7]", "+I[8]", "+I[9]"}));
  }
}

// A restore finds the checkpoint's splits by id, whatever their order now; a split the checkpoint
// does not know starts as a discovered one; a split of the checkpoint that is gone fails the restore.
TEST(SourceOperatorTest, RestoreMatchesSplitsByIdAndStartsNewOnesAsDiscovered) {
  std::vector<std::unique_ptr<SourceSplit>> splits;
  splits.push_back(std::make_unique<SeekableSplit>(6, 2, "a"));
  SourceOperator first("t", std::move(splits), OneColumn(), {}, -1, nullptr, 2);
  Harness h(&first);
  ASSERT_TRUE(h.open_status.ok());
  for (int i = 0; i < 10 && h.sink.Changes().size() < 2; ++i) ASSERT_TRUE(first.Step(kMaxWatermark, false).ok());
  ASSERT_EQ(h.sink.Changes(), (std::vector<std::string>{"+I[0]", "+I[1]"}));
  StateWriter w;
  ASSERT_TRUE(first.WriteSnapshot(&w).ok());
  const std::string bytes = w.data();

  std::vector<std::unique_ptr<SourceSplit>> now;
  now.push_back(std::make_unique<SeekableSplit>(0, 2, "new"));
  now.push_back(std::make_unique<SeekableSplit>(6, 2, "a"));
  SourceOperator restored("t", std::move(now), OneColumn(), {}, -1, nullptr, 2);
  Harness h2(&restored);
  StateReader r(bytes, "source");
  ASSERT_TRUE(restored.Restore(&r).ok()) << r.status().ToString();
  for (int i = 0; i < 40 && !restored.finished(); ++i) ASSERT_TRUE(restored.Step(kMaxWatermark, false).ok());
  std::vector<std::string> rows = h2.sink.Changes();
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[100]", "+I[101]", "+I[2]", "+I[3]", "+I[4]", "+I[5]"}));

  std::vector<std::unique_ptr<SourceSplit>> gone;
  gone.push_back(std::make_unique<SeekableSplit>(6, 2, "b"));
  SourceOperator missing("t", std::move(gone), OneColumn(), {}, -1, nullptr, 2);
  Harness h3(&missing);
  StateReader r3(bytes, "source");
  Status s = missing.Restore(&r3);
  EXPECT_NE(s.ToString().find("the checkpoint has split 'a', which the table no longer has"), std::string::npos)
      << s.ToString();
}

// A table source that hands out one more split each time it is asked (split discovery).
class DiscoveringSource final : public TableSource {
 public:
  bool bounded() const override { return false; }
  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    return std::vector<std::unique_ptr<SourceSplit>>{};
  }
  int64_t SplitDiscoveryIntervalMicros() const override { return 1000; }
  Result<std::vector<std::unique_ptr<SourceSplit>>> DiscoverSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> out;
    ++calls;
    if (calls <= 2) out.push_back(std::make_unique<SeekableSplit>(0, 2, "d" + std::to_string(calls)));
    return out;
  }
  Status WaitForSplits(int64_t max_micros) override {
    waits.push_back(max_micros);
    return Status::OK();
  }
  int calls = 0;
  std::vector<int64_t> waits;  // WaitForSplits' bounds
};

// The source operator asks for new splits once per discovery interval of its clock, reads them from
// where a discovered split starts, and does not end while it may still discover splits.
TEST(SourceOperatorTest, DiscoveredSplitsAreAddedOnTheIntervalAndRead) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  auto source = std::make_shared<DiscoveringSource>();
  SourceOperator op("t", {}, OneColumn(), {}, -1, nullptr, 2);
  op.SetSplitDiscovery(source);
  testing::CollectSink sink;
  op.AddOutput(&sink, 0);
  JobContext ctx;
  ctx.eval = &eval;
  ASSERT_TRUE(op.Open(&ctx).ok());
  ASSERT_TRUE(sink.Open(&ctx).ok());
  EXPECT_FALSE(op.finished());  // no split yet, but some may come
  ASSERT_TRUE(op.DiscoverSplits().ok());
  EXPECT_EQ(source->calls, 0);  // the interval has not passed
  clock.Advance(1000);
  ASSERT_TRUE(op.DiscoverSplits().ok());
  ASSERT_TRUE(op.DiscoverSplits().ok());
  EXPECT_EQ(source->calls, 1);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  EXPECT_EQ(sink.Changes(), (std::vector<std::string>{"+I[100]", "+I[101]"}));
  EXPECT_FALSE(op.finished());
}

// A source with discovery and no split yet does not spin through the job's loop: each step waits, in
// the table source, at most until the next discovery is due (and not at all once it is).
TEST(SourceOperatorTest, StepWithoutSplitsWaitsForTheNextDiscovery) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  auto source = std::make_shared<DiscoveringSource>();
  SourceOperator op("t", {}, OneColumn(), {}, -1, nullptr, 2);
  op.SetSplitDiscovery(source);
  testing::CollectSink sink;
  op.AddOutput(&sink, 0);
  JobContext ctx;
  ctx.eval = &eval;
  ASSERT_TRUE(op.Open(&ctx).ok());
  ASSERT_TRUE(sink.Open(&ctx).ok());
  ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  clock.Advance(400);
  ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  clock.Advance(900);
  ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  EXPECT_EQ(source->waits, (std::vector<int64_t>{1000, 600, 0}));
  // Once a split is there, steps read it (a read, then its rows) and do not wait.
  ASSERT_TRUE(op.DiscoverSplits().ok());
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(op.Step(kMaxWatermark, false).ok());
  EXPECT_EQ(source->waits.size(), 3u);
  EXPECT_EQ(sink.Changes(), (std::vector<std::string>{"+I[100]", "+I[101]"}));
}

}  // namespace
}  // namespace sluice
