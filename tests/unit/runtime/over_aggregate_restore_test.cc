// OverAggregateOperator's restore (issue 5): a snapshot restores to the same state, and state that
// reads well but does not fit together — a stored ROWS row in two frames or a frame out of order, a
// RANGE frame out of time order, pending rows whose times disagree with the out-of-order heap or the
// in-order sequence — is refused with "Corrupt state of ..." and leaves the operator empty (also one
// that held state before), where it would otherwise retract rows twice or process them out of order.
//
// Rows are (key STRING, value INT, ts TIMESTAMP(3)), partitioned by key; one call, COUNT(*). The
// crafted states change a value at a known offset of a real snapshot (each test checks the value it
// finds there first).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "common/check.h"
#include "function/aggregate/aggregate_function.h"
#include "rank_dedup_test_util.h"
#include "runtime/operators/over_aggregate_operator.h"
#include "snapshot_chain_util.h"

namespace sluice {
namespace {

using testing::I;
using testing::Int;
using testing::Row;
using testing::Str;
using testing::Ts;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::Integer(), LogicalType::Timestamp(3)};

Row R(const std::string& key, int64_t ts) { return I({Str(key), Int(1), Ts(ts)}); }

struct Frame {
  bool rowtime;
  bool rows_frame;
  int64_t preceding;  // -1: UNBOUNDED
};

struct OverRun {
  explicit OverRun(const Frame& f) {
    auto count = ResolveAggregate("COUNT", {}, {}, true);
    SLUICE_CHECK(count.ok());
    std::vector<LogicalType> out = kTypes;
    out.push_back(LogicalType::BigInt().WithNullable(false));
    op = std::make_unique<OverAggregateOperator>("OverAggregate", kTypes, std::vector<int>{0}, 2, f.rowtime,
                                                 f.rows_frame, f.preceding,
                                                 std::vector<AccumulatorCall>{{*count, {}, false, -1}}, out);
    h = std::make_unique<testing::Harness>(op.get(), 4);
    EXPECT_TRUE(h->open_status.ok());
  }
  void Push(const std::vector<Row>& rows) { ASSERT_TRUE(h->Push(testing::MakeChunk(kTypes, rows)).ok()); }
  std::string Full() { return snapshot_chain::FullSnapshot(*op); }

  std::unique_ptr<OverAggregateOperator> op;
  std::unique_ptr<testing::Harness> h;
};

template <typename T>
T ValueAt(const std::string& bytes, size_t at) {
  T v;
  EXPECT_LE(at + sizeof(T), bytes.size());
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

template <typename T>
std::string WithValueAt(std::string bytes, size_t at, T v) {
  std::memcpy(bytes.data() + at, &v, sizeof(T));
  return bytes;
}

// The offset just past the operator's tag in a snapshot.
size_t BodyStart(const std::string& full) {
  const size_t pos = full.find("over-aggregate");
  EXPECT_NE(pos, std::string::npos);
  return pos + std::strlen("over-aggregate");
}

// Restores `crafted` into an operator that holds state and expects a refusal naming `why` that leaves
// it as a new operator; `good` (the snapshot `crafted` was made from) restores.
void ExpectRefused(const Frame& f, const std::string& good, const std::string& crafted, const std::string& why) {
  const std::string empty = OverRun(f).Full();
  {
    OverRun ok(f);
    Status st = snapshot_chain::RestoreFull(*ok.op, good);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  OverRun b(f);
  b.Push({R("x", 50), R("y", 51)});
  ASSERT_GT(b.op->state_rows(), 0u);
  Status st = snapshot_chain::RestoreFull(*b.op, crafted);
  ASSERT_FALSE(st.ok()) << "restored state that should be refused (" << why << ")";
  EXPECT_NE(st.ToString().find("Corrupt state of OverAggregate"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find(why), std::string::npos) << st.ToString();
  EXPECT_EQ(b.op->state_rows(), 0u);
  EXPECT_EQ(b.Full(), empty);
}

TEST(OverAggregateRestoreTest, SnapshotRestoresTheSameStateAndOutput) {
  for (const Frame& f : {Frame{false, true, 2}, Frame{false, false, 10}, Frame{true, false, -1}, Frame{true, true, 1}}) {
    OverRun a(f);
    a.Push({R("a", 5), R("b", 3), R("a", 4), R("b", 7)});
    if (f.rowtime) {
      ASSERT_TRUE(a.h->Watermark(4).ok());
    }
    const std::string full = a.Full();
    OverRun b(f);
    ASSERT_TRUE(snapshot_chain::RestoreFull(*b.op, full).ok());
    EXPECT_EQ(b.op->state_rows(), a.op->state_rows());
    const size_t body = BodyStart(full);  // the versions before it differ
    EXPECT_EQ(b.Full().substr(body), a.Full().substr(body));
    const size_t a_before = a.h->sink.rows.size();
    for (OverRun* run : {&a, &b}) {
      run->Push({R("a", 8), R("b", 9), R("a", 9)});
      ASSERT_TRUE(run->h->End().ok());
    }
    std::vector<std::string> after_a(a.h->sink.rows.begin() + static_cast<std::ptrdiff_t>(a_before), a.h->sink.rows.end());
    EXPECT_FALSE(after_a.empty());
    EXPECT_EQ(b.h->sink.rows, after_a);
  }
}

TEST(OverAggregateRestoreTest, StoredRowsRowInTwoFramesOrOutOfOrderIsRefused) {
  // Processing time, ROWS BETWEEN 2 PRECEDING: stored rows 0 (a), 1 (b), 2 (a), 3 (b); the snapshot
  // ends with the frames, a's [0, 2] then b's [1, 3], each id a u32.
  const Frame f{false, true, 2};
  OverRun a(f);
  a.Push({R("a", 1), R("b", 2), R("a", 3), R("b", 4)});
  const std::string full = a.Full();
  const size_t last = full.size() - 4;
  ASSERT_EQ(ValueAt<uint32_t>(full, last), 3u);
  ASSERT_EQ(ValueAt<uint32_t>(full, last - 4), 1u);
  // b's frame names a's row 2: it would be retracted from both partitions.
  ExpectRefused(f, full, WithValueAt<uint32_t>(full, last, 2), "ROWS frame rows out of order or in two frames");
  // b's frame [3, 1]: the newer row would leave the frame first.
  ExpectRefused(f, full, WithValueAt<uint32_t>(WithValueAt<uint32_t>(full, last, 1), last - 4, 3),
                "ROWS frame rows out of order or in two frames");
}

TEST(OverAggregateRestoreTest, RangeFrameOutOfTimeOrderIsRefused) {
  // Processing time (no clock: every row at time 0), RANGE BETWEEN INTERVAL '10' MILLISECOND
  // PRECEDING: one frame block of rows a, b, a; the snapshot ends with its times (u32 offsets from
  // the block's base) and its partitions.
  const Frame f{false, false, 10};
  OverRun a(f);
  a.Push({R("a", 1), R("b", 2), R("a", 3)});
  const std::string full = a.Full();
  const size_t part = full.size() - 3 * 4;
  const size_t dt = part - 3 * 4;
  ASSERT_EQ(ValueAt<uint32_t>(full, part), 0u);
  ASSERT_EQ(ValueAt<uint32_t>(full, part + 4), 1u);
  ASSERT_EQ(ValueAt<uint32_t>(full, dt), 0u);
  ExpectRefused(f, full, WithValueAt<uint32_t>(full, dt, 5000), "RANGE frame rows out of time order");
  // (A row of another partition breaks the partitions' row counts, checked before.)
  ExpectRefused(f, full, WithValueAt<uint32_t>(full, part, 1), "partition row count does not match its frame");
}

TEST(OverAggregateRestoreTest, PendingRowTimesThatDisagreeAreRefused) {
  // Event time, unbounded RANGE: rows a at 5 and b at 3 (out of order) wait for the watermark. The
  // snapshot body: call counts (2 bytes), four 8-byte scalars, the partition pool and index (3 bytes,
  // all empty), then pend_first, pend_end, in_next, in_max, the heap's size (1 byte) and its entry
  // (time, position).
  const Frame f{true, false, -1};
  OverRun a(f);
  a.Push({R("a", 5), R("b", 3)});
  const std::string full = a.Full();
  const size_t in_max = BodyStart(full) + 2 + 32 + 3 + 24;
  const size_t heap_time = in_max + 8 + 1;
  ASSERT_EQ(ValueAt<int64_t>(full, in_max), 5000);
  ASSERT_EQ(ValueAt<int64_t>(full, heap_time), 3000);
  ASSERT_EQ(ValueAt<uint64_t>(full, heap_time + 8), 1u);
  // The heap orders b by another time than b's.
  ExpectRefused(f, full, WithValueAt<int64_t>(full, heap_time, 4000), "out-of-order row with another time");
  // b is not before the latest in-order time.
  ExpectRefused(f, full, WithValueAt<int64_t>(full, in_max, 3000), "not out of order");
  // a is after the latest in-order time.
  ExpectRefused(f, full, WithValueAt<int64_t>(full, in_max, 4000), "pending in-order rows out of time order");
}

}  // namespace
}  // namespace sluice
