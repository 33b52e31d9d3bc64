#include "runtime/operators/accumulators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include "function/aggregate/aggregate_function.h"
#include "state/state_serde.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

// Input (x BIGINT, y BIGINT, f1 BOOLEAN, f2 BOOLEAN). kCalls: COUNT(DISTINCT x), COUNT(DISTINCT x)
// FILTER f1, SUM(DISTINCT x) FILTER f2, COUNT(DISTINCT y), COUNT(DISTINCT x) FILTER f2: four calls
// share x's counts, one has y's (sets of up to four calls keep their counts in the index slot).
// kWideCalls: six calls share y's counts (a set that keeps rows of counts) and two share x's.
const std::vector<LogicalType> kTypes = {LogicalType::BigInt(), LogicalType::BigInt(), LogicalType::Boolean(),
                                         LogicalType::Boolean()};
struct Call {
  int arg;
  int filter;
  bool sum;
};
const std::vector<Call> kCalls = {{0, -1, false}, {0, 2, false}, {0, 3, true}, {1, -1, false}, {0, 3, false}};
const std::vector<Call> kWideCalls = {{1, -1, false}, {1, 2, false}, {1, 3, true},  {0, 2, false},
                                      {1, 3, false},  {1, -1, true}, {1, 2, true},  {0, -1, true}};

AccumulatorLayout MakeLayout(const std::vector<Call>& kCalls) {
  const LogicalType big = LogicalType::BigInt();
  std::vector<AccumulatorCall> calls;
  for (const Call& c : kCalls) {
    calls.push_back({*ResolveAggregate(c.sum ? "SUM" : "COUNT", {big}, {nullptr}, true), {c.arg}, true, c.filter});
  }
  return AccumulatorLayout(std::move(calls));
}

// What each call's result must be: its argument values with a positive count among the rows that pass
// its filter.
struct Model {
  explicit Model(const std::vector<Call>& c) : kCalls(c), counts(c.size()) {}
  const std::vector<Call>& kCalls;
  std::vector<std::map<int64_t, int64_t>> counts;
  void Update(const std::vector<int64_t>& row, bool retract) {
    for (size_t a = 0; a < kCalls.size(); ++a) {
      if (kCalls[a].filter >= 0 && row[kCalls[a].filter] == 0) continue;
      const int64_t v = row[kCalls[a].arg];
      if (!retract) {
        ++counts[a][v];
      } else if (auto it = counts[a].find(v); it != counts[a].end() && --it->second == 0) {
        counts[a].erase(it);
      }
    }
  }
  int64_t Result(size_t a) const {
    int64_t r = 0;
    for (const auto& [v, n] : counts[a]) r += kCalls[a].sum ? v : 1;
    return r;
  }
};

std::vector<int64_t> Results(const AccumulatorLayout& layout, const uint8_t* block) {
  std::vector<LogicalType> out;
  for (const auto& c : layout.calls()) out.push_back(c.function->result_type);
  Chunk chunk(out, 1);
  layout.Finalize(block, &chunk, 0, 0);
  std::vector<int64_t> r;
  for (size_t a = 0; a < out.size(); ++a) {
    Value v = chunk.column(a).GetValue(0);
    r.push_back(v.is_null() ? 0 : v.int_value());
  }
  return r;
}

struct Block {
  explicit Block(const AccumulatorLayout& l) : layout(l), bytes(l.block_bytes() / 8 + 1) {
    layout.Init(data());
  }
  ~Block() { layout.Destroy(data()); }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(bytes.data()); }
  const AccumulatorLayout& layout;
  std::vector<int64_t> bytes;
};

// DISTINCT calls sharing their counts give each call the answer of its own counts, through accumulates,
// retractions of counted and of never-counted rows, and checkpoints (which write the same bytes as the
// state they restore).
void CheckAgainstModel(const std::vector<Call>& kCalls, unsigned seed) {
  const AccumulatorLayout layout = MakeLayout(kCalls);
  std::mt19937 rnd(seed);
  for (int round = 0; round < 20; ++round) {
    auto block = std::make_unique<Block>(layout);
    Model model(kCalls);
    std::vector<std::vector<int64_t>> live;
    for (int step = 0; step < 400; ++step) {
      std::vector<int64_t> row = {static_cast<int64_t>(rnd() % 12), static_cast<int64_t>(rnd() % 5),
                                  static_cast<int64_t>(rnd() % 2), static_cast<int64_t>(rnd() % 3 != 0)};
      bool retract = false;
      if (!live.empty() && rnd() % 3 == 0) {  // a counted row leaves
        const size_t i = rnd() % live.size();
        row = live[i];
        live.erase(live.begin() + static_cast<long>(i));
        retract = true;
      } else if (rnd() % 17 == 0) {
        retract = true;  // a retraction of a row that may never have been counted
        bool counted = false;
        for (const auto& l : live) counted = counted || l == row;
        if (counted) continue;
      } else {
        live.push_back(row);
      }
      Chunk chunk(kTypes);
      chunk.AppendValues({Value::BigInt(row[0]), Value::BigInt(row[1]), Value::Boolean(row[2] != 0),
                          Value::Boolean(row[3] != 0)},
                         retract ? RowKind::kDelete : RowKind::kInsert);
      layout.Update(block->data(), chunk, 0, retract);
      model.Update(row, retract);
      const std::vector<int64_t> got = Results(layout, block->data());
      for (size_t a = 0; a < kCalls.size(); ++a) {
        ASSERT_EQ(got[a], model.Result(a)) << "round " << round << " step " << step << " call " << a;
      }
      if (step % 50 == 49) {
        StateWriter w;
        layout.Serialize(block->data(), &w);
        const std::string bytes = w.Release();
        auto restored = std::make_unique<Block>(layout);
        StateReader r(bytes, "accumulators");
        layout.Deserialize(restored->data(), &r);
        ASSERT_TRUE(r.ok());
        StateWriter again;
        layout.Serialize(restored->data(), &again);
        ASSERT_EQ(again.Release(), bytes);
        block = std::move(restored);
      }
    }
    EXPECT_GT(layout.HeapBytes(block->data()), 0u);
  }
}

TEST(AccumulatorsTest, DistinctCallsSharingTheirArgumentsKeepTheirOwnCounts) { CheckAgainstModel(kCalls, 11); }

TEST(AccumulatorsTest, WideSetsOfDistinctCallsKeepTheirOwnCounts) { CheckAgainstModel(kWideCalls, 12); }

}  // namespace
}  // namespace sluice
