// Restoring operators from damaged state (found by tests/fuzz/checkpoint_fuzz): a state that passes
// the checkpoint's checksums but holds impossible values fails the restore with an error naming the
// operator, never a CHECK or a crash.
#include <gtest/gtest.h>

#include "runtime/operators/source_operator.h"
#include "state/state_serde.h"
#include "unit/runtime/rank_dedup_test_util.h"

namespace sluice {
namespace {

using testing::Big;
using testing::Harness;

// A split of `rows` single-column rows, read in one go.
class RowsSplit final : public SourceSplit {
 public:
  RowsSplit(std::string id, int rows) : id_(std::move(id)), rows_(rows) {}
  std::string id() const override { return id_; }
  Result<bool> Read(size_t max, Chunk* out) override {
    for (; next_ < rows_ && out->size() < max; ++next_) out->AppendValues({Big(next_)}, RowKind::kInsert);
    return next_ < rows_;
  }

 private:
  std::string id_;
  int rows_;
  int next_ = 0;
};

// The source section of SourceOperator::SnapshotState for one split.
std::string SourceSection(const std::string& split, int64_t offset) {
  StateWriter w;
  w.PutTag("source.v2");
  w.PutVarint(1);
  w.PutString(split);
  w.PutBool(false);  // finished
  w.PutI64(offset);
  w.PutString("");  // position: restore skips `offset` rows
  w.PutI64(kMinWatermark);
  w.PutI64(kMinWatermark);
  return w.Release();
}

// `op`'s snapshot (taken before it read anything) with its source section's offset replaced.
std::string SourceStateWithOffset(Operator* op, const std::string& split, int64_t offset) {
  StateWriter w;
  EXPECT_TRUE(op->WriteSnapshot(&w).ok());
  std::string state = w.Release();
  const std::string fresh = SourceSection(split, 0);
  EXPECT_GE(state.size(), fresh.size());
  EXPECT_EQ(state.substr(state.size() - fresh.size()), fresh) << "the source snapshot's layout changed";
  return state.substr(0, state.size() - fresh.size()) + SourceSection(split, offset);
}

TEST(DamagedStateRestoreTest, SourceWithANegativeOffset) {
  std::vector<std::unique_ptr<SourceSplit>> splits;
  splits.push_back(std::make_unique<RowsSplit>("part-0", 5));
  SourceOperator op("t", std::move(splits), Schema({{"v", LogicalType::BigInt()}}), {}, -1, nullptr, 1024);
  Harness h(&op);
  ASSERT_TRUE(h.open_status.ok()) << h.open_status.ToString();
  const std::string state = SourceStateWithOffset(&op, "part-0", -8863084066665136122);
  StateReader r(state, "operator #1 TableSourceScan(table=[[t]])");
  Status st = op.Restore(&r);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Cannot restore source 't': split 'part-0' has a negative offset"), std::string::npos)
      << st.ToString();
  // The same state with a real offset restores.
  const std::string good = SourceStateWithOffset(&op, "part-0", 3);
  StateReader g(good, "operator #1 TableSourceScan(table=[[t]])");
  EXPECT_TRUE(op.Restore(&g).ok());
}

}  // namespace
}  // namespace sluice
