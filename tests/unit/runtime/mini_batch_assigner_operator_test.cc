// MiniBatchAssignerOperator driven directly: which watermarks it forwards (mode RowTime: the first
// one, then the first one past each interval end, as Flink's RowTimeMiniBatchAssginerOperator; mode
// ProcTime: one per interval of processing time as rows arrive, and from its processing-time timer
// when none arrive, the input's own dropped), and that a checkpoint restores where it stands.
#include "runtime/operators/mini_batch_assigner_operator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/clock.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/processing_time_service.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

// Records the watermarks it receives (milliseconds) and counts rows.
class WatermarkSink final : public Operator {
 public:
  WatermarkSink() : Operator("watermarks", 1) {}
  Status Process(int, Chunk& chunk) override {
    rows += chunk.size();
    return Status::OK();
  }
  std::vector<int64_t> watermarks;
  size_t rows = 0;

 protected:
  Status OnWatermark(int64_t w) override {
    watermarks.push_back(w == kMaxWatermark ? w : w / 1000);
    return Status::OK();
  }
};

struct Assigner {
  Assigner(int64_t interval_ms, MiniBatchAssignerOperator::Mode mode) : op("MiniBatchAssigner", interval_ms, mode) {
    ctx.eval = &eval;
    ctx.timers = &timers;
    op.AddOutput(&sink, 0);
    EXPECT_TRUE(op.Open(&ctx).ok());
    EXPECT_TRUE(sink.Open(&ctx).ok());
  }
  void Watermark(int64_t ms) { EXPECT_TRUE(op.ReceiveWatermark(0, ms == kMaxWatermark ? ms : ms * 1000).ok()); }
  void Row() {
    Chunk c({LogicalType::BigInt()});
    c.AppendValues({Value::BigInt(1)}, RowKind::kInsert);
    EXPECT_TRUE(op.Process(0, c).ok());
  }
  ManualClock clock{0};
  EvalContext eval{&clock};
  ProcessingTimeService timers{&clock};
  JobContext ctx;
  MiniBatchAssignerOperator op;
  WatermarkSink sink;
};

TEST(MiniBatchAssignerOperatorTest, RowTimeForwardsWatermarksThatCrossAnIntervalEnd) {
  Assigner a(1000, MiniBatchAssignerOperator::Mode::kRowTime);
  // Below the first interval's end (999 ms): held.
  for (int64_t w : {-5000, 0, 500, 998}) a.Watermark(w);
  EXPECT_TRUE(a.sink.watermarks.empty());
  a.Watermark(999);   // the first interval's end
  a.Watermark(1500);  // inside [1000, 1999]: held
  a.Watermark(1999);  // its end
  a.Watermark(5200);  // past several ends at once
  a.Watermark(5999);  // 5999 is the end of 5200's interval
  a.Watermark(6998);
  a.Row();
  a.Watermark(kMaxWatermark);
  EXPECT_EQ(a.sink.watermarks, (std::vector<int64_t>{999, 1999, 5200, 5999, kMaxWatermark}));
  EXPECT_EQ(a.sink.rows, 1u);
}

TEST(MiniBatchAssignerOperatorTest, RowTimeRestoresFromACheckpoint) {
  Assigner a(1000, MiniBatchAssignerOperator::Mode::kRowTime);
  a.Watermark(1200);
  StateWriter w;
  ASSERT_TRUE(a.op.WriteSnapshot(&w).ok());
  const std::string bytes = w.Release();
  Assigner b(1000, MiniBatchAssignerOperator::Mode::kRowTime);
  StateReader r(bytes, "mini-batch assigner");
  ASSERT_TRUE(b.op.Restore(&r).ok());
  b.Watermark(1900);  // still inside 1200's interval
  b.Watermark(2000);
  EXPECT_EQ(a.sink.watermarks, (std::vector<int64_t>{1200}));
  EXPECT_EQ(b.sink.watermarks, (std::vector<int64_t>{2000}));
}

TEST(MiniBatchAssignerOperatorTest, ProcTimeEmitsTheIntervalStartWhenARowArrivesInALaterInterval) {
  Assigner a(5000, MiniBatchAssignerOperator::Mode::kProcTime);
  a.Row();              // at 0: interval 0, nothing new
  a.Watermark(123456);  // the input's own watermark: dropped
  a.clock.Set(4999 * 1000);
  a.Row();
  a.clock.Set(7000 * 1000);
  a.Row();  // interval 5000
  a.Row();
  a.clock.Set(21000 * 1000);
  a.Row();  // interval 20000
  a.Watermark(kMaxWatermark);
  EXPECT_EQ(a.sink.watermarks, (std::vector<int64_t>{5000, 20000, kMaxWatermark}));
  EXPECT_EQ(a.sink.rows, 5u);
}

TEST(MiniBatchAssignerOperatorTest, ProcTimeTimerEmitsTheIntervalStartWhenNoRowArrives) {
  Assigner a(5000, MiniBatchAssignerOperator::Mode::kProcTime);
  // Opened at 0: its timer is due at 5000 ms.
  EXPECT_EQ(a.timers.pending(), 1u);
  a.Row();
  a.clock.Set(4999 * 1000);
  ASSERT_TRUE(a.timers.FireDueTimers().ok());
  EXPECT_TRUE(a.sink.watermarks.empty());
  a.clock.Set(5000 * 1000);
  ASSERT_TRUE(a.timers.FireDueTimers().ok());  // no row: the timer cuts the interval
  a.clock.Set(7000 * 1000);
  a.Row();  // still interval 5000: nothing new
  a.clock.Set(23000 * 1000);
  ASSERT_TRUE(a.timers.FireDueTimers().ok());  // the timer at 10000 fires late, once, at 20000's interval
  a.clock.Set(24999 * 1000);
  ASSERT_TRUE(a.timers.FireDueTimers().ok());  // the next is due at 25000
  a.clock.Set(26000 * 1000);
  a.Row();  // the row comes first: interval 25000
  ASSERT_TRUE(a.timers.FireDueTimers().ok());  // its timer finds nothing new
  a.Watermark(kMaxWatermark);
  a.clock.Set(60000 * 1000);
  ASSERT_TRUE(a.timers.FireDueTimers().ok());  // ended: no more watermarks, no more timers
  EXPECT_EQ(a.sink.watermarks, (std::vector<int64_t>{5000, 20000, 25000, kMaxWatermark}));
  EXPECT_EQ(a.timers.pending(), 0u);
}

TEST(ProcessingTimeServiceTest, FiresDueTimersInOrderOnce) {
  struct Recorder : ProcessingTimeCallback {
    Status OnProcessingTime(int64_t t) override {
      fired.push_back(t);
      // A timer registered while firing fires in the same round when it is due already.
      if (t == 20 && service != nullptr) service->RegisterTimer(25, this);
      return Status::OK();
    }
    std::vector<int64_t> fired;
    ProcessingTimeService* service = nullptr;
  };
  ManualClock clock(0);
  ProcessingTimeService timers(&clock);
  Recorder r;
  r.service = &timers;
  timers.RegisterTimer(30, &r);
  timers.RegisterTimer(20, &r);
  timers.RegisterTimer(100, &r);
  ASSERT_TRUE(timers.FireDueTimers().ok());
  EXPECT_TRUE(r.fired.empty());
  clock.Set(30);
  ASSERT_TRUE(timers.FireDueTimers().ok());
  ASSERT_TRUE(timers.FireDueTimers().ok());
  EXPECT_EQ(r.fired, (std::vector<int64_t>{20, 25, 30}));
  EXPECT_EQ(timers.pending(), 1u);
  // Without a clock, time stands at 0.
  ProcessingTimeService no_clock(nullptr);
  EXPECT_EQ(no_clock.NowMicros(), 0);
}

}  // namespace
}  // namespace sluice
