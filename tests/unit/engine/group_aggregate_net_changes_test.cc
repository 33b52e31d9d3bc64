// GroupAggregate's net changes for a fold to the final table (GroupAggregateOperator::set_net_changes,
// the CLI's `--mode table`): the folded table, rows and their order, must equal the fold of the full
// changelog, for every chunking of the same input.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/clock.h"
#include "engine/result_table.h"
#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/job.h"
#include "runtime/operators/group_aggregate_operator.h"
#include "state/state_serde.h"
#include "types/value.h"

namespace sluice {
namespace {

// Input (k STRING, v BIGINT, s STRING).
const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::BigInt(), LogicalType::String()};

// Folds what it receives, and counts the changes.
class FoldSink final : public Operator {
 public:
  explicit FoldSink(bool by_key) : Operator("fold", 1) {
    if (by_key) table.SetUpsertKey({0});
  }
  Status Process(int, Chunk& chunk) override {
    changes += chunk.size();
    table.Apply(chunk);
    return Status::OK();
  }
  MaterializedTable table;
  size_t changes = 0;
};

struct Case {
  bool heap_states;          // retracting MAX and MIN (non-plain blocks), else COUNT, SUM, MAX (plain)
  bool emit_update_before;
  bool by_key;               // the fold matches by the group key (the CLI's), else by whole rows
  int64_t ttl_ms;            // with a TTL the clock advances per chunk, so chunkings are compared alike
  bool roundtrip;            // snapshot and restore in place after every chunk (an open window survives)
};

std::unique_ptr<GroupAggregateOperator> MakeOp(const Case& c) {
  std::vector<GroupAggregateOperator::Agg> aggs;
  const LogicalType big = LogicalType::BigInt();
  aggs.push_back({*ResolveAggregate("COUNT", {}, {}, true), {}, false, -1});
  aggs.push_back({*ResolveAggregate("SUM", {big}, {nullptr}, true), {1}, false, -1});
  // MAX over a retracting input keeps its values (heap) unless the function is told it sees no
  // retractions; the plain variant is MAX over an append-only view of the same column.
  aggs.push_back({*ResolveAggregate("MAX", {big}, {nullptr}, c.heap_states), {1}, false, -1});
  if (c.heap_states) aggs.push_back({*ResolveAggregate("MIN", {LogicalType::String()}, {nullptr}, true), {2}, false, -1});
  std::vector<LogicalType> out = {LogicalType::String()};
  for (const auto& a : aggs) out.push_back(a.function->result_type);
  return std::make_unique<GroupAggregateOperator>("GroupAggregate", kTypes, std::vector<int>{0}, std::move(aggs), out,
                                                  c.emit_update_before, 0, false, c.ttl_ms);
}

// A changelog over few keys: inserts, and retractions of live rows (-U/+U pairs and -D), some of
// unknown rows; values repeat so that some rows leave a group's result unchanged.
Chunk RandomInput(uint32_t seed, size_t n, bool retractions) {
  std::mt19937 rnd(seed);
  std::vector<std::tuple<std::string, int64_t, std::string>> live;
  Chunk c(kTypes);
  auto add = [&](RowKind kind, const std::tuple<std::string, int64_t, std::string>& row) {
    c.AppendValues({Value::String(std::get<0>(row)), Value::BigInt(std::get<1>(row)), Value::String(std::get<2>(row))},
                   kind);
  };
  auto fresh = [&]() {
    return std::make_tuple("k" + std::to_string(rnd() % 6), static_cast<int64_t>(rnd() % 4),
                           std::string(1, static_cast<char>('a' + rnd() % 3)));
  };
  while (c.size() < n) {
    const uint32_t pick = rnd() % 10;
    if (!retractions || pick < 5 || live.empty()) {
      auto row = fresh();
      add(RowKind::kInsert, row);
      live.push_back(row);
    } else if (pick < 7) {
      const size_t i = rnd() % live.size();
      add(RowKind::kUpdateBefore, live[i]);
      auto row = fresh();
      std::get<0>(row) = std::get<0>(live[i]);
      add(RowKind::kUpdateAfter, row);
      live[i] = row;
    } else if (pick < 9) {
      const size_t i = rnd() % live.size();
      add(RowKind::kDelete, live[i]);
      live[i] = live.back();
      live.pop_back();
    } else {
      add(RowKind::kDelete, {"gone", 1, "x"});
    }
  }
  return c;
}

struct Folded {
  std::vector<std::vector<Value>> rows;
  int64_t unmatched;
  size_t changes;
};

// Runs `input` in chunks of `chunk` rows (the clock advances 400 ms per chunk).
Folded RunOp(const Case& c, bool net, const Chunk& input, size_t chunk) {
  ManualClock clock(0);
  EvalContext eval(&clock);
  JobContext ctx;
  ctx.eval = &eval;
  auto op = MakeOp(c);
  op->set_net_changes(net);
  FoldSink sink(c.by_key);
  op->AddOutput(&sink, 0);
  EXPECT_TRUE(op->Open(&ctx).ok());
  EXPECT_TRUE(sink.Open(&ctx).ok());
  for (size_t first = 0; first < input.size(); first += chunk) {
    Chunk part(kTypes);
    part.AppendFrom(input, nullptr, first, std::min(chunk, input.size() - first));
    EXPECT_TRUE(op->Process(0, part).ok());
    clock.Advance(400 * 1000);
    if (c.roundtrip) {
      StateWriter w;
      EXPECT_TRUE(op->WriteSnapshot(&w).ok());
      const std::string bytes = w.Release();
      StateReader r(bytes, op->digest());
      EXPECT_TRUE(op->Restore(&r).ok());
    }
  }
  EXPECT_TRUE(op->ReceiveEndOfInput(0).ok());  // closes the last window
  return {sink.table.rows(), sink.table.unmatched_retractions(), sink.changes};
}

std::string Text(const std::vector<std::vector<Value>>& rows) {
  std::string s;
  for (const auto& r : rows) {
    for (const auto& v : r) s += v.ToString() + ",";
    s += "\n";
  }
  return s;
}

class NetChangesTest : public testing::TestWithParam<Case> {};

TEST_P(NetChangesTest, FoldsToTheSameTableInTheSameOrderWhateverTheChunking) {
  const Case c = GetParam();
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    const Chunk input = RandomInput(seed, 300, c.heap_states);
    for (size_t chunk : {size_t{1}, size_t{3}, size_t{7}, size_t{64}, size_t{1024}}) {
      // With a TTL, which groups expire depends on the chunking: compare at the same chunking.
      const Folded full = RunOp(c, false, input, c.ttl_ms > 0 ? chunk : 1);
      ASSERT_EQ(full.unmatched, 0);
      const Folded net = RunOp(c, true, input, chunk);
      EXPECT_EQ(Text(net.rows), Text(full.rows)) << "seed " << seed << ", chunks of " << chunk;
      EXPECT_EQ(net.unmatched, 0) << "seed " << seed << ", chunks of " << chunk;
      if (c.ttl_ms > 0 && chunk == 1) {
        EXPECT_EQ(net.changes, full.changes) << "seed " << seed;  // a window of one row: nothing to net
      }
      if (c.ttl_ms == 0) {
        EXPECT_LT(net.changes, full.changes) << "seed " << seed;  // one window
      }
    }
  }
}

// A long window over few keys: its results are compacted many times (CompactNetResults), and the
// whole input nets to one +I per key left.
TEST(NetChangesTest, ALongWindowCompactsItsResults) {
  for (const Case& c : {Case{true, true, true, 0, false}, Case{true, true, false, 0, true}}) {
    const Chunk input = RandomInput(99, 20000, true);
    const Folded full = RunOp(c, false, input, 1024);
    const Folded net = RunOp(c, true, input, 1000);
    EXPECT_EQ(Text(net.rows), Text(full.rows));
    EXPECT_EQ(net.unmatched, 0);
    EXPECT_GT(full.changes, 20000u);
    EXPECT_EQ(net.changes, net.rows.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, NetChangesTest,
                         testing::Values(Case{false, true, true, 0, false}, Case{false, true, false, 0, false},
                                         Case{true, true, true, 0, false}, Case{true, true, false, 0, false},
                                         Case{true, false, true, 0, false}, Case{true, true, true, 1000, false},
                                         Case{false, true, false, 1000, false}, Case{true, true, true, 0, true},
                                         Case{true, true, false, 1000, true}));

}  // namespace
}  // namespace sluice
