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

// Over an insert-only input the sets keep a bit mask per tuple (accumulators.h): tuples of one 8-byte
// value in the compact WordSet (x, growing to thousands of tuples), NULLs, short and long strings (y:
// VARCHAR of 0 to 20 characters) in maps. Input (x BIGINT, y VARCHAR, f1 BOOLEAN, f2 BOOLEAN). Each
// call's result must be its distinct non-null values among the rows that pass its filter (COUNT:
// how many, SUM: their sum), also after checkpoints (which write the same bytes as the state they
// restore, and equal the bytes a set of counts writes for calls that saw each tuple once).
void CheckInsertOnly(const std::vector<Call>& calls_x, size_t y_calls, unsigned seed) {
  const LogicalType big = LogicalType::BigInt();
  const LogicalType str = LogicalType::String();
  std::vector<AccumulatorCall> calls;
  for (const Call& c : calls_x) {
    calls.push_back({*ResolveAggregate(c.sum ? "SUM" : "COUNT", {big}, {nullptr}, true), {0}, true, c.filter});
  }
  for (size_t i = 0; i < y_calls; ++i) {
    calls.push_back({*ResolveAggregate("COUNT", {str}, {nullptr}, true), {1}, true, i % 2 == 0 ? -1 : 3});
  }
  const AccumulatorLayout layout(calls, /*insert_only=*/true);
  const AccumulatorLayout counting(calls);
  const std::vector<LogicalType> types = {big, str, LogicalType::Boolean(), LogicalType::Boolean()};
  std::mt19937 rnd(seed);
  for (int round = 0; round < 3; ++round) {
    auto block = std::make_unique<Block>(layout);
    auto counts = std::make_unique<Block>(counting);
    std::vector<std::map<std::string, int64_t>> seen(calls.size());  // per call: value -> x (0 for y)
    for (int step = 0; step < 6000; ++step) {
      const bool x_null = rnd() % 50 == 0, y_null = rnd() % 40 == 0;
      const int64_t x = static_cast<int64_t>(rnd() % 3000) * (round == 2 ? (int64_t{1} << 40) : 1) - 7;
      const std::string y = std::string(rnd() % 21, 'y') + std::to_string(rnd() % 200);
      const bool f1 = rnd() % 2 == 0, f2 = rnd() % 3 != 0;
      Chunk chunk(types);
      chunk.AppendValues({x_null ? Value::Null(big) : Value::BigInt(x), y_null ? Value::Null(str) : Value::String(y),
                          Value::Boolean(f1), Value::Boolean(f2)},
                         RowKind::kInsert);
      layout.Update(block->data(), chunk, 0, false);
      counting.Update(counts->data(), chunk, 0, false);
      for (size_t a = 0; a < calls.size(); ++a) {
        const int f = calls[a].filter;
        if ((f == 2 && !f1) || (f == 3 && !f2)) continue;
        const bool is_x = calls[a].args[0] == 0;
        if (is_x ? x_null : y_null) continue;
        seen[a].emplace(is_x ? std::to_string(x) : y, is_x ? x : 0);
      }
      if (step % 500 != 499) continue;
      const std::vector<int64_t> got = Results(layout, block->data());
      for (size_t a = 0; a < calls.size(); ++a) {
        int64_t want = 0;
        for (const auto& [v, n] : seen[a]) want += a < calls_x.size() && calls_x[a].sum ? n : 1;
        ASSERT_EQ(got[a], want) << "round " << round << " step " << step << " call " << a;
      }
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
      ASSERT_EQ(Results(layout, restored->data()), got);
      block = std::move(restored);
      // A set of counts' checkpoint restores into masks with the same results.
      StateWriter from_counts;
      counting.Serialize(counts->data(), &from_counts);
      const std::string counted = from_counts.Release();
      Block converted(layout);
      StateReader cr(counted, "accumulators");
      layout.Deserialize(converted.data(), &cr);
      ASSERT_TRUE(cr.ok());
      ASSERT_EQ(Results(layout, converted.data()), got);
    }
    EXPECT_GT(layout.HeapBytes(block->data()), 0u);
  }
}

TEST(AccumulatorsTest, InsertOnlySetsKeepMasks) { CheckInsertOnly(kCalls, 2, 13); }

// Sets of 8 to 15 calls keep 16-bit masks (the top bit marks a used slot).
TEST(AccumulatorsTest, InsertOnlyWideSetsKeepWiderMasks) {
  std::vector<Call> calls;
  for (int i = 0; i < 12; ++i) calls.push_back({0, i % 3 == 0 ? -1 : 2 + i % 2, i % 4 == 1});
  CheckInsertOnly(calls, 9, 14);
}

// Calls with equal plain states (share_states): SUM and AVG of one column, COUNT(*) (the block's row
// count), a second SUM under the same FILTER share; SUM of another column, under another FILTER, MIN and
// a COUNT(*) with a FILTER keep their own. Same results and checkpoint bytes as the unshared layout,
// through accumulates and retractions, in a narrower block.
TEST(AccumulatorsTest, EqualStatesAreSharedAndGiveTheSameResults) {
  const LogicalType big = LogicalType::BigInt();
  auto resolve = [&](const char* name, std::vector<LogicalType> types) {
    std::vector<const Value*> constants(types.size(), nullptr);
    return *ResolveAggregate(name, types, constants, /*needs_retract=*/true);
  };
  std::vector<AccumulatorCall> calls = {
      {resolve("SUM", {big}), {0}, false, -1},   {resolve("AVG", {big}), {0}, false, -1},
      {resolve("COUNT", {}), {}, false, -1},     {resolve("SUM", {big}), {0}, false, 2},
      {resolve("AVG", {big}), {0}, false, 2},    {resolve("SUM", {big}), {1}, false, -1},
      {resolve("COUNT", {}), {}, false, 3},      {resolve("MIN", {big}), {0}, false, -1},
      {resolve("$SUM0", {big}), {0}, false, -1}, {resolve("COUNT", {big}), {0}, false, -1}};
  const AccumulatorLayout plain_layout(calls);
  const AccumulatorLayout shared(calls, /*insert_only=*/false, /*share_states=*/true);
  // SUM/AVG/$SUM0 of x (16), SUM/AVG of x FILTER f1 (16), SUM of y (16), COUNT(*) FILTER f2 (8), MIN (a
  // retracting map pointer, 8), COUNT(x) (8), the row count (8); COUNT(*) without FILTER is the latter.
  EXPECT_EQ(shared.block_bytes(), 80u);
  EXPECT_LT(shared.block_bytes(), plain_layout.block_bytes());
  EXPECT_EQ(shared.offset(0), shared.offset(1));
  EXPECT_EQ(shared.offset(0), shared.offset(8));
  EXPECT_EQ(shared.offset(3), shared.offset(4));
  EXPECT_NE(shared.offset(0), shared.offset(3));
  EXPECT_NE(shared.offset(0), shared.offset(5));
  std::mt19937 rnd(21);
  Block a(plain_layout);
  Block b(shared);
  std::vector<std::vector<int64_t>> live;
  for (int step = 0; step < 2000; ++step) {
    std::vector<int64_t> row = {static_cast<int64_t>(rnd() % 1000) - 300, static_cast<int64_t>(rnd() % 7),
                                static_cast<int64_t>(rnd() % 2), static_cast<int64_t>(rnd() % 3 != 0)};
    bool retract = false;
    if (!live.empty() && rnd() % 3 == 0) {
      const size_t i = rnd() % live.size();
      row = live[i];
      live.erase(live.begin() + static_cast<long>(i));
      retract = true;
    } else {
      live.push_back(row);
    }
    Chunk chunk(kTypes);
    chunk.AppendValues({Value::BigInt(row[0]), Value::BigInt(row[1]), Value::Boolean(row[2] != 0),
                        Value::Boolean(row[3] != 0)},
                       retract ? RowKind::kDelete : RowKind::kInsert);
    plain_layout.Update(a.data(), chunk, 0, retract);
    shared.Update(b.data(), chunk, 0, retract);
    ASSERT_EQ(plain_layout.count(a.data()), shared.count(b.data()));
    std::vector<LogicalType> out;
    for (const auto& c : calls) out.push_back(c.function->result_type);
    Chunk ra(out, 1);
    Chunk rb(out, 1);
    plain_layout.Finalize(a.data(), &ra, 0, 0);
    shared.Finalize(b.data(), &rb, 0, 0);
    for (size_t c = 0; c < calls.size(); ++c) {
      ASSERT_EQ(ra.column(c).GetValue(0), rb.column(c).GetValue(0)) << "step " << step << " call " << c;
    }
    if (step % 100 == 99) {
      // Checkpoints write each call's state, as without sharing.
      StateWriter wa;
      StateWriter wb;
      plain_layout.Serialize(a.data(), &wa);
      shared.Serialize(b.data(), &wb);
      const std::string bytes = wb.Release();
      ASSERT_EQ(wa.Release(), bytes);
      Block restored(shared);
      StateReader r(bytes, "accumulators");
      shared.Deserialize(restored.data(), &r);
      ASSERT_TRUE(r.ok());
      StateWriter again;
      shared.Serialize(restored.data(), &again);
      ASSERT_EQ(again.Release(), bytes);
    }
  }
}

}  // namespace
}  // namespace sluice
