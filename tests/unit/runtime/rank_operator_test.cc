// RankOperator driven directly. The first cases replay Flink's own harness tests
// (TopNFunctionTestBase, AppendOnlyTopNFunctionTest, FastTop1FunctionTest, RetractableTopNFunctionTest):
// rows are (category STRING, id BIGINT, price INT), partitioned by category, ordered by price ASC.
// Then Top-3 boards with rows leaving and re-entering, ties, and a randomized check that the folded
// changelog equals a brute-force Top-N for every strategy and chunk size.
#include "runtime/operators/rank_operator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "rank_dedup_test_util.h"
#include "snapshot_chain_util.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

using testing::Big;
using testing::D;
using testing::Harness;
using testing::I;
using testing::Int;
using testing::MakeChunk;
using testing::Row;
using testing::Str;
using testing::UA;
using testing::UB;
using Lines = std::vector<std::string>;

const std::vector<LogicalType> kTypes = {LogicalType::String(), LogicalType::BigInt(), LogicalType::Integer()};

Row R(const std::string& cat, int64_t id, int32_t price) { return I({Str(cat), Big(id), Int(price)}); }
Row RUB(const std::string& cat, int64_t id, int32_t price) { return UB({Str(cat), Big(id), Int(price)}); }
Row RUA(const std::string& cat, int64_t id, int32_t price) { return UA({Str(cat), Big(id), Int(price)}); }

RankOperator MakeRank(int64_t start, int64_t end, bool update_before, bool rank_number, bool retract) {
  return RankOperator("Rank", kTypes, {0}, {{2, true, true}}, start, end, rank_number, retract, update_before);
}

// The input of TopNFunctionTestBase#testOutputRankNumberWithConstantRankRange.
std::vector<Row> BaseInput() {
  return {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11), R("book", 5, 11),
          R("fruit", 4, 33), R("fruit", 3, 44), R("fruit", 5, 22)};
}

Lines Drive(RankOperator& op, const std::vector<Row>& rows) {
  Harness h(&op);
  EXPECT_TRUE(h.open_status.ok()) << h.open_status.ToString();
  for (const Row& r : rows) {
    Status st = h.Push(MakeChunk(kTypes, {r}));
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(h.sink.split_pairs, 0);
  return h.sink.Changes();
}

// ---- Insert-only input: AppendOnlyTopNFunction / FastTop1Function ----

TEST(RankOperatorTest, AppendOnlyWithoutRankNumber) {
  // testConstantRankRangeWithoutOffset, then the row restored from state pushes book's 12 out.
  for (bool retract : {false, true}) {
    auto op = MakeRank(1, 2, true, false, retract);
    std::vector<Row> in = {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11),
                           R("fruit", 4, 33), R("fruit", 3, 44), R("fruit", 5, 22), R("book", 5, 10)};
    EXPECT_EQ(Drive(op, in), (Lines{"+I[book, 1, 12]", "+I[book, 2, 19]", "-D[book, 2, 19]", "+I[book, 4, 11]",
                                  "+I[fruit, 4, 33]", "+I[fruit, 3, 44]", "-D[fruit, 3, 44]", "+I[fruit, 5, 22]",
                                  "-D[book, 1, 12]", "+I[book, 5, 10]"}))
        << "retract=" << retract;
  }
}

TEST(RankOperatorTest, AppendOnlyWithRankNumber) {
  // testOutputRankNumberWithConstantRankRange; RetractableTopNFunction gives the same on inserts.
  for (bool retract : {false, true}) {
    auto op = MakeRank(1, 2, true, true, retract);
    EXPECT_EQ(Drive(op, BaseInput()),
              (Lines{"+I[book, 1, 12, 1]", "+I[book, 2, 19, 2]", "-U[book, 1, 12, 1]", "+U[book, 4, 11, 1]",
                     "-U[book, 2, 19, 2]", "+U[book, 1, 12, 2]", "-U[book, 1, 12, 2]", "+U[book, 5, 11, 2]",
                     "+I[fruit, 4, 33, 1]", "+I[fruit, 3, 44, 2]", "-U[fruit, 4, 33, 1]", "+U[fruit, 5, 22, 1]",
                     "-U[fruit, 3, 44, 2]", "+U[fruit, 4, 33, 2]"}))
        << "retract=" << retract;
  }
}

TEST(RankOperatorTest, AppendOnlyWithRankNumberWithoutUpdateBefore) {
  // testDisableGenerateUpdateBeforeAndOutputRankNumber: partition key + rank is a unique key.
  auto op = MakeRank(1, 2, false, true, false);
  EXPECT_EQ(Drive(op, BaseInput()),
            (Lines{"+I[book, 1, 12, 1]", "+I[book, 2, 19, 2]", "+U[book, 4, 11, 1]", "+U[book, 1, 12, 2]",
                   "+U[book, 5, 11, 2]", "+I[fruit, 4, 33, 1]", "+I[fruit, 3, 44, 2]", "+U[fruit, 5, 22, 1]",
                   "+U[fruit, 4, 33, 2]"}));
}

TEST(RankOperatorTest, AppendOnlyTiesKeepArrivalOrder) {
  // testDisableGenerateUpdateBefore: -D is sent even without update-before; (book, 3, 19) ties with
  // the last row of a full top and stays out.
  auto op = MakeRank(1, 2, false, false, false);
  EXPECT_EQ(Drive(op, {R("book", 1, 12), R("book", 2, 19), R("book", 3, 19), R("book", 4, 11), R("book", 5, 11),
                     R("fruit", 4, 33), R("fruit", 3, 44), R("fruit", 5, 22)}),
            (Lines{"+I[book, 1, 12]", "+I[book, 2, 19]", "-D[book, 2, 19]", "+I[book, 4, 11]", "-D[book, 1, 12]",
                   "+I[book, 5, 11]", "+I[fruit, 4, 33]", "+I[fruit, 3, 44]", "-D[fruit, 3, 44]",
                   "+I[fruit, 5, 22]"}));
}

TEST(RankOperatorTest, AppendOnlyWithOffset) {
  // testConstantRankRangeWithOffset: ranks 2..2 without the number use -U/+U.
  for (bool retract : {false, true}) {
    auto op = MakeRank(2, 2, true, false, retract);
    EXPECT_EQ(Drive(op, {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11), R("fruit", 4, 33), R("fruit", 3, 44),
                       R("fruit", 5, 22)}),
              (Lines{"+I[book, 2, 19]", "-U[book, 2, 19]", "+U[book, 1, 12]", "+I[fruit, 3, 44]",
                     "-U[fruit, 3, 44]", "+U[fruit, 4, 33]"}))
        << "retract=" << retract;
  }
}

TEST(RankOperatorTest, Top1UsesUpdates) {
  // FastTop1FunctionTest: a better row updates the partition's single row; ties keep the first.
  auto op = MakeRank(1, 1, true, false, false);
  EXPECT_EQ(Drive(op, {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11), R("book", 5, 11), R("fruit", 4, 33),
                     R("fruit", 3, 44), R("fruit", 5, 22), R("book", 5, 10)}),
            (Lines{"+I[book, 1, 12]", "-U[book, 1, 12]", "+U[book, 4, 11]", "+I[fruit, 4, 33]", "-U[fruit, 4, 33]",
                   "+U[fruit, 5, 22]", "-U[book, 4, 11]", "+U[book, 5, 10]"}));
  auto numbered = MakeRank(1, 1, false, true, false);
  EXPECT_EQ(Drive(numbered, BaseInput()), (Lines{"+I[book, 1, 12, 1]", "+U[book, 4, 11, 1]", "+I[fruit, 4, 33, 1]",
                                               "+U[fruit, 5, 22, 1]"}));
}

TEST(RankOperatorTest, InsertOnlyPlanRejectsRetractions) {
  auto op = MakeRank(1, 3, true, false, false);
  Harness h(&op);
  Status st = h.Push(MakeChunk(kTypes, {R("a", 1, 1), D({Str("a"), Big(1), Int(1)})}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("insert-only input but received a -D"), std::string::npos) << st.ToString();
}

TEST(RankOperatorTest, RejectsBadRankRange) {
  auto op = MakeRank(3, 2, true, false, false);
  Harness h(&op);
  EXPECT_FALSE(h.open_status.ok());
}

// ---- Updating input: RetractableTopNFunction ----

TEST(RankOperatorTest, RetractWithRankNumberAndUpdateBefore) {
  // RetractableTopNFunctionTest#testProcessRetractMessageWithGenerateUpdateBefore.
  auto op = MakeRank(1, 2, true, true, true);
  EXPECT_EQ(Drive(op, {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11), RUB("book", 1, 12), R("book", 5, 11),
                     R("fruit", 4, 33), R("fruit", 3, 44), R("fruit", 5, 22)}),
            (Lines{"+I[book, 1, 12, 1]", "+I[book, 2, 19, 2]", "-U[book, 1, 12, 1]", "+U[book, 4, 11, 1]",
                   "-U[book, 2, 19, 2]", "+U[book, 1, 12, 2]", "-U[book, 1, 12, 2]", "+U[book, 2, 19, 2]",
                   "-U[book, 2, 19, 2]", "+U[book, 5, 11, 2]", "+I[fruit, 4, 33, 1]", "+I[fruit, 3, 44, 2]",
                   "-U[fruit, 4, 33, 1]", "+U[fruit, 5, 22, 1]", "-U[fruit, 3, 44, 2]", "+U[fruit, 4, 33, 2]"}));
}

TEST(RankOperatorTest, RetractWithRankNumberWithoutUpdateBefore) {
  // RetractableTopNFunctionTest#testProcessRetractMessageWithNotGenerateUpdateBefore.
  auto op = MakeRank(1, 2, false, true, true);
  EXPECT_EQ(Drive(op, {R("book", 1, 12), R("book", 2, 19), R("book", 4, 11), RUB("book", 1, 12), R("book", 5, 11),
                     R("fruit", 4, 33), R("fruit", 3, 44), R("fruit", 5, 22)}),
            (Lines{"+I[book, 1, 12, 1]", "+I[book, 2, 19, 2]", "+U[book, 4, 11, 1]", "+U[book, 1, 12, 2]",
                   "+U[book, 2, 19, 2]", "+U[book, 5, 11, 2]", "+I[fruit, 4, 33, 1]", "+I[fruit, 3, 44, 2]",
                   "+U[fruit, 5, 22, 1]", "+U[fruit, 4, 33, 2]"}));
}

// The seed's board: top 3 stores per country by sales (DESC) over an updating aggregate. Each update of
// a store arrives as -U old, +U new; the Top-N answers with -D and +I, never -U/+U.
RankOperator MakeBoard(bool rank_number) {
  return RankOperator("Rank", kTypes, {0}, {{2, false, false}}, 1, 3, rank_number, true, false);
}

TEST(RankOperatorTest, Top3BoardOnUpdatingInputWithoutRankNumber) {
  auto op = MakeBoard(false);
  EXPECT_EQ(Drive(op, {R("GB", 1, 100), R("GB", 2, 90), R("GB", 3, 80), R("GB", 4, 70), R("SG", 9, 5)}),
            (Lines{"+I[GB, 1, 100]", "+I[GB, 2, 90]", "+I[GB, 3, 80]", "+I[SG, 9, 5]"}));
  auto op2 = MakeBoard(false);
  Lines out = Drive(op2, {R("GB", 1, 100), R("GB", 2, 90), R("GB", 3, 80), R("GB", 4, 70),
                        // store 4 grows past 2 and 3: enters, pushing store 3 out
                        RUB("GB", 4, 70), RUA("GB", 4, 95),
                        // store 1 falls to the bottom: leaves, store 3 comes back
                        RUB("GB", 1, 100), RUA("GB", 1, 60),
                        // store 1 recovers: re-enters at the top, store 3 leaves again
                        RUB("GB", 1, 60), RUA("GB", 1, 100),
                        // store 2 ties with store 4 at 95: the earlier arrival (4) ranks first
                        RUB("GB", 2, 90), RUA("GB", 2, 95),
                        // a change below the top emits nothing
                        RUB("GB", 3, 80), RUA("GB", 3, 81)});
  EXPECT_EQ(out, (Lines{"+I[GB, 1, 100]", "+I[GB, 2, 90]", "+I[GB, 3, 80]",
                        "-D[GB, 3, 80]", "+I[GB, 4, 95]",
                        "-D[GB, 1, 100]", "+I[GB, 3, 80]",
                        "-D[GB, 3, 80]", "+I[GB, 1, 100]",
                        "-D[GB, 2, 90]", "+I[GB, 3, 80]", "-D[GB, 3, 80]", "+I[GB, 2, 95]"}));
  EXPECT_EQ(op2.retractions_not_found(), 0);
  EXPECT_EQ(op2.state_rows(), 4u);
}

TEST(RankOperatorTest, Top3BoardOnUpdatingInputWithRankNumber) {
  auto op = MakeBoard(true);
  Lines out = Drive(op, {R("GB", 1, 100), R("GB", 2, 90), R("GB", 3, 80), R("GB", 4, 70),
                       RUB("GB", 4, 70), RUA("GB", 4, 95),
                       RUB("GB", 1, 100), RUA("GB", 1, 60)});
  EXPECT_EQ(out, (Lines{"+I[GB, 1, 100, 1]", "+I[GB, 2, 90, 2]", "+I[GB, 3, 80, 3]",
                        // -U of store 4 at rank 4: nothing; +U at 95 takes rank 2, 2 moves to 3
                        "+U[GB, 4, 95, 2]", "+U[GB, 2, 90, 3]",
                        // store 1 leaves rank 1: everyone moves up, rank 3 is refilled by store 3
                        "+U[GB, 4, 95, 1]", "+U[GB, 2, 90, 2]", "+U[GB, 3, 80, 3]"}));
}

TEST(RankOperatorTest, RetractionOfUnknownRowIsCounted) {
  auto op = MakeBoard(false);
  Lines out = Drive(op, {R("GB", 1, 100), RUB("GB", 7, 50), D({Str("GB"), Big(1), Int(99)})});
  EXPECT_EQ(out, (Lines{"+I[GB, 1, 100]"}));
  EXPECT_EQ(op.retractions_not_found(), 2);
}

TEST(RankOperatorTest, NullsAndDescendingOrder) {
  // ORDER BY price DESC NULLS FIRST: NULL ranks first, then the highest price.
  RankOperator op("Rank", kTypes, {0}, {{2, false, true}}, 1, 2, true, false, true);
  Lines out = Drive(op, {R("a", 1, 5), R("a", 2, 7), I({Str("a"), Big(3), Value::Null(LogicalType::Integer())})});
  EXPECT_EQ(out, (Lines{"+I[a, 1, 5, 1]", "-U[a, 1, 5, 1]", "+U[a, 2, 7, 1]", "+I[a, 1, 5, 2]",
                        "-U[a, 2, 7, 1]", "+U[a, 3, NULL, 1]", "-U[a, 1, 5, 2]", "+U[a, 2, 7, 2]"}));
}

// ---- Randomized: the folded changelog equals a brute-force Top-N over the live rows ----

struct LiveRow {
  int64_t id;
  int32_t price;
  int64_t seq;  // arrival order, the ROW_NUMBER tie-break
};

// Expected folded result: for each partition the rows ranked start..end (by price ASC, then arrival).
std::multiset<std::string> BruteForce(const std::map<std::string, std::vector<LiveRow>>& live, int64_t start,
                                      int64_t end, bool rank_number) {
  std::multiset<std::string> out;
  for (const auto& [cat, rows] : live) {
    std::vector<LiveRow> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [](const LiveRow& a, const LiveRow& b) {
      return a.price != b.price ? a.price < b.price : a.seq < b.seq;
    });
    for (int64_t r = start; r <= end && r <= static_cast<int64_t>(sorted.size()); ++r) {
      const LiveRow& x = sorted[static_cast<size_t>(r - 1)];
      std::string s = "[" + cat + ", " + std::to_string(x.id) + ", " + std::to_string(x.price);
      if (rank_number) s += ", " + std::to_string(r);
      out.insert(s + "]");
    }
  }
  return out;
}

// Folds a retract changelog (+I/+U add a row, -U/-D remove one).
std::multiset<std::string> Fold(const Lines& changes) {
  std::multiset<std::string> table;
  for (const auto& c : changes) {
    std::string row = c.substr(2);
    if (c[0] == '+') {
      table.insert(row);
    } else {
      auto it = table.find(row);
      EXPECT_NE(it, table.end()) << "retraction of a row never emitted: " << c;
      if (it != table.end()) table.erase(it);
    }
  }
  return table;
}

TEST(RankOperatorTest, FoldedChangelogMatchesBruteForce) {
  struct Config {
    int64_t start, end;
    bool rank_number, retract;
  };
  const std::vector<Config> configs = {{1, 3, false, false}, {1, 3, true, false}, {2, 4, false, false},
                                       {1, 1, false, false}, {1, 1, true, false}, {1, 3, false, true},
                                       {1, 3, true, true},   {2, 3, false, true}, {3, 5, true, true}};
  for (const Config& cfg : configs) {
    std::mt19937 rng(42);
    std::vector<Row> input;
    std::map<std::string, std::vector<LiveRow>> live;
    int64_t seq = 0;
    for (int i = 0; i < 600; ++i) {
      std::string cat = "c" + std::to_string(rng() % 4);
      auto& rows = live[cat];
      if (cfg.retract && !rows.empty() && rng() % 3 == 0) {
        // Retract a live row, sometimes as an update to a new price (-U then +U).
        size_t k = rng() % rows.size();
        LiveRow old = rows[k];
        rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(k));
        if (rng() % 2) {
          input.push_back(D({Str(cat), Big(old.id), Int(old.price)}));
        } else {
          input.push_back(RUB(cat, old.id, old.price));
          int32_t price = static_cast<int32_t>(rng() % 20);
          input.push_back(RUA(cat, old.id, price));
          rows.push_back({old.id, price, seq++});
        }
      } else {
        int32_t price = static_cast<int32_t>(rng() % 20);
        input.push_back(R(cat, i, price));
        rows.push_back({i, price, seq++});
      }
    }
    const auto expected = BruteForce(live, cfg.start, cfg.end, cfg.rank_number);
    for (size_t chunk : {size_t{1}, size_t{5}, size_t{1024}}) {
      RankOperator op("Rank", kTypes, {0}, {{2, true, true}}, cfg.start, cfg.end, cfg.rank_number, cfg.retract,
                      true);
      Harness h(&op, chunk);
      ASSERT_TRUE(h.open_status.ok());
      for (size_t b = 0; b < input.size(); b += chunk) {
        std::vector<Row> part(input.begin() + static_cast<std::ptrdiff_t>(b),
                              input.begin() + static_cast<std::ptrdiff_t>(std::min(input.size(), b + chunk)));
        ASSERT_TRUE(h.Push(MakeChunk(kTypes, part)).ok());
      }
      EXPECT_EQ(Fold(h.sink.Changes()), expected)
          << "start=" << cfg.start << " end=" << cfg.end << " number=" << cfg.rank_number
          << " retract=" << cfg.retract << " chunk=" << chunk;
      EXPECT_EQ(h.sink.split_pairs, 0);
      EXPECT_EQ(op.retractions_not_found(), 0);
    }
  }
}

// Many rows through a small top: rows pushed out are compacted away.
TEST(RankOperatorTest, AppendOnlyCompactsItsState) {
  auto op = MakeRank(1, 3, false, false, false);
  Harness h(&op);
  for (int b = 0; b < 200000; b += 1000) {
    Chunk c(kTypes);
    // Descending prices: every row enters the top and pushes one out.
    for (int i = b; i < b + 1000; ++i) c.AppendValues({Str("p"), Big(i), Int(1000000 - i)}, RowKind::kInsert);
    ASSERT_TRUE(h.Push(std::move(c)).ok());
  }
  EXPECT_EQ(op.state_rows(), 3u);
  Lines changes = h.sink.Changes();
  ASSERT_GE(changes.size(), 3u);
  EXPECT_EQ(changes.back(), "+I[p, 199999, 800001]");
  EXPECT_EQ(Fold(changes), (std::multiset<std::string>{"[p, 199997, 800003]", "[p, 199998, 800002]",
                                                      "[p, 199999, 800001]"}));
}

// ---- Checkpoints: full snapshots and incremental deltas ----

std::string FullSnapshot(Operator& op) {
  StateWriter w;
  Status st = op.WriteSnapshot(&w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w.Release();
}

std::string DeltaSnapshot(Operator& op) {
  EXPECT_TRUE(op.CanSnapshotDelta());
  StateWriter w;
  Status st = op.WriteDelta(&w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w.Release();
}

Status RestoreFull(Operator& op, const std::string& bytes) {
  StateReader r(bytes, "Rank");
  return op.Restore(&r);
}

Status ApplyDeltaBytes(Operator& op, const std::string& bytes) {
  StateReader r(bytes, "Rank (delta)");
  return op.ApplyDelta(&r);
}

// A changelog over partitions c<n>: new rows, and (when `retract`) deletes of live rows and updates
// of live rows to a new price (-U then +U), so every retraction matches a row the input inserted.
class ChangelogGenerator {
 public:
  ChangelogGenerator(bool retract, uint32_t seed) : retract_(retract), rng_(seed) {}

  std::vector<Row> Next(int count, int first_partition, int partitions) {
    std::vector<Row> out;
    for (int i = 0; i < count; ++i) {
      const std::string cat = "c" + std::to_string(first_partition + static_cast<int>(rng_() % partitions));
      std::vector<std::pair<int64_t, int32_t>>& rows = live_[cat];
      if (retract_ && !rows.empty() && rng_() % 3 == 0) {
        const size_t k = rng_() % rows.size();
        const auto [id, price] = rows[k];
        rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(k));
        if (rng_() % 2) {
          out.push_back(D({Str(cat), Big(id), Int(price)}));
        } else {
          out.push_back(RUB(cat, id, price));
          const int32_t next = static_cast<int32_t>(rng_() % 50);
          out.push_back(RUA(cat, id, next));
          rows.emplace_back(id, next);
        }
      } else {
        const int32_t price = static_cast<int32_t>(rng_() % 50);
        const int64_t id = next_id_++;
        out.push_back(R(cat, id, price));
        rows.emplace_back(id, price);
      }
    }
    return out;
  }

 private:
  bool retract_;
  std::mt19937 rng_;
  int64_t next_id_ = 0;
  std::map<std::string, std::vector<std::pair<int64_t, int32_t>>> live_;
};

void PushAll(Harness& h, const std::vector<Row>& rows, size_t chunk = 7) {
  Status st = PushInChunks(h, kTypes, rows, chunk);
  ASSERT_TRUE(st.ok()) << st.ToString();
}

struct RankConfig {
  int64_t start, end;
  bool rank_number, retract;
};

std::string Describe(const RankConfig& c) {
  return "start=" + std::to_string(c.start) + " end=" + std::to_string(c.end) +
         " number=" + std::to_string(c.rank_number) + " retract=" + std::to_string(c.retract);
}

RankOperator MakeConfigured(const RankConfig& c) {
  return RankOperator("Rank", kTypes, {0}, {{2, true, true}}, c.start, c.end, c.rank_number, c.retract, true);
}

const std::vector<RankConfig> kCheckpointConfigs = {
    {1, 3, false, false}, {1, 3, true, false}, {1, 1, false, false}, {2, 4, false, false},
    {1, 3, false, true},  {1, 3, true, true},  {2, 3, true, true}};

TEST(RankOperatorTest, FullSnapshotPlusDeltasRestoresTheSameState) {
  for (const RankConfig& cfg : kCheckpointConfigs) {
    SCOPED_TRACE(Describe(cfg));
    ChangelogGenerator gen(cfg.retract, 7);
    auto a = MakeConfigured(cfg);
    Harness ha(&a);
    ASSERT_TRUE(ha.open_status.ok());
    EXPECT_FALSE(a.CanSnapshotDelta());  // no base yet
    PushAll(ha, gen.Next(300, 0, 20));
    const std::string full = FullSnapshot(a);
    // Old partitions 15..19 change, 20..24 are new.
    PushAll(ha, gen.Next(40, 15, 10));
    const std::string d1 = DeltaSnapshot(a);
    PushAll(ha, gen.Next(40, 22, 8));
    const std::string d2 = DeltaSnapshot(a);
    // A delta carries the changed partitions and new rows, not the whole state.
    EXPECT_LT(d1.size(), full.size() / 2);
    EXPECT_LT(d2.size(), full.size() / 2);

    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(hb.open_status.ok());
    Status st = RestoreFull(b, full);
    ASSERT_TRUE(st.ok()) << st.ToString();
    st = ApplyDeltaBytes(b, d1);
    ASSERT_TRUE(st.ok()) << st.ToString();
    st = ApplyDeltaBytes(b, d2);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(b.state_rows(), a.state_rows());
    EXPECT_EQ(b.num_partitions(), a.num_partitions());
    EXPECT_TRUE(b.CanSnapshotDelta());
    EXPECT_EQ(FullSnapshot(a), FullSnapshot(b));
    // A delta that fails halfway leaves the operator empty; the chain restores again afterwards.
    JobContext ctx;
    snapshot_chain::ExpectFailedDeltasDropTheState(
        [&] {
          auto op = std::make_unique<RankOperator>("Rank", kTypes, std::vector<int>{0},
                                                   std::vector<RankOperator::SortKey>{{2, true, true}}, cfg.start,
                                                   cfg.end, cfg.rank_number, cfg.retract, true);
          EXPECT_TRUE(op->Open(&ctx).ok());
          return op;
        },
        {full, d1, d2});

    // Both go on alike: the same output for the same input, and equal deltas after it.
    const size_t a_before = ha.sink.rows.size();
    const std::vector<Row> more = gen.Next(150, 0, 35);
    PushAll(ha, more);
    PushAll(hb, more);
    const Lines a_after(ha.sink.rows.begin() + static_cast<std::ptrdiff_t>(a_before), ha.sink.rows.end());
    EXPECT_FALSE(a_after.empty());
    EXPECT_EQ(hb.sink.rows, a_after);
    EXPECT_EQ(DeltaSnapshot(a), DeltaSnapshot(b));
    EXPECT_EQ(b.retractions_not_found(), 0);
  }
}

TEST(RankOperatorTest, DeltaOnTheWrongBaseIsRefused) {
  const RankConfig cfg{1, 3, true, true};
  ChangelogGenerator gen(true, 11);
  auto a = MakeConfigured(cfg);
  Harness ha(&a);
  PushAll(ha, gen.Next(200, 0, 10));
  const std::string full = FullSnapshot(a);
  PushAll(ha, gen.Next(30, 5, 10));
  const std::string d1 = DeltaSnapshot(a);
  PushAll(ha, gen.Next(30, 0, 20));
  const std::string d2 = DeltaSnapshot(a);
  const std::string a_state = FullSnapshot(a);  // what a restore of full + d1 + d2 must write

  {  // applied twice
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(RestoreFull(b, full).ok());
    ASSERT_TRUE(ApplyDeltaBytes(b, d1).ok());
    Status st = ApplyDeltaBytes(b, d1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("applied to snapshot"), std::string::npos) << st.ToString();
  }
  {  // to a fresh operator
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    EXPECT_FALSE(ApplyDeltaBytes(b, d1).ok());
  }
  {  // out of order: the second delta straight onto the full snapshot
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(RestoreFull(b, full).ok());
    EXPECT_FALSE(ApplyDeltaBytes(b, d2).ok());
    // Refused before anything was applied: the chain still continues in order.
    ASSERT_TRUE(ApplyDeltaBytes(b, d1).ok());
    ASSERT_TRUE(ApplyDeltaBytes(b, d2).ok());
    EXPECT_EQ(FullSnapshot(b), a_state);
  }
  {  // a full snapshot restored again resets the base: its deltas apply once more
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(RestoreFull(b, full).ok());
    ASSERT_TRUE(ApplyDeltaBytes(b, d1).ok());
    ASSERT_TRUE(RestoreFull(b, full).ok());
    ASSERT_TRUE(ApplyDeltaBytes(b, d1).ok());
    ASSERT_TRUE(ApplyDeltaBytes(b, d2).ok());
    EXPECT_EQ(FullSnapshot(b), a_state);
  }
}

TEST(RankOperatorTest, CorruptDeltasFailCleanly) {
  const RankConfig cfg{1, 3, false, true};
  ChangelogGenerator gen(true, 5);
  auto a = MakeConfigured(cfg);
  Harness ha(&a);
  PushAll(ha, gen.Next(100, 0, 8));
  const std::string full = FullSnapshot(a);
  PushAll(ha, gen.Next(20, 4, 8));
  const std::string d1 = DeltaSnapshot(a);
  const std::vector<Row> more = gen.Next(60, 0, 12);
  // Every truncation is refused.
  for (size_t len = 0; len < d1.size(); ++len) {
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(RestoreFull(b, full).ok());
    EXPECT_FALSE(ApplyDeltaBytes(b, d1.substr(0, len)).ok()) << "length " << len;
  }
  // Flipped bytes: refused, or (when the bytes still form a consistent state) the operator keeps
  // working; never a crash.
  std::mt19937 rng(3);
  int refused = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bad = d1;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    ASSERT_TRUE(RestoreFull(b, full).ok());
    if (!ApplyDeltaBytes(b, bad).ok()) {
      ++refused;
      continue;
    }
    PushAll(hb, more);
  }
  EXPECT_GT(refused, 0);
  // The same for the full snapshot.
  for (size_t len = 0; len < full.size(); len += 7) {
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    EXPECT_FALSE(RestoreFull(b, full.substr(0, len)).ok()) << "length " << len;
  }
  for (int i = 0; i < 300; ++i) {
    std::string bad = full;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    auto b = MakeConfigured(cfg);
    Harness hb(&b);
    if (RestoreFull(b, bad).ok()) PushAll(hb, more);
  }
}

TEST(RankOperatorTest, CompactionForcesAFullSnapshot) {
  auto a = MakeRank(1, 3, false, false, false);
  Harness ha(&a);
  auto push_descending = [&](int from, int to) {
    for (int b = from; b < to; b += 1000) {
      Chunk c(kTypes);
      for (int i = b; i < std::min(to, b + 1000); ++i) {
        c.AppendValues({Str(i % 2 ? "p" : "q"), Big(i), Int(1000000 - i)}, RowKind::kInsert);
      }
      ASSERT_TRUE(ha.Push(std::move(c)).ok());
    }
  };
  push_descending(0, 100);
  (void)FullSnapshot(a);
  EXPECT_TRUE(a.CanSnapshotDelta());
  // Every row enters its top and pushes one out: the arena is compacted, renumbering its rows.
  push_descending(100, 80000);
  EXPECT_FALSE(a.CanSnapshotDelta());
  const std::string full = FullSnapshot(a);
  EXPECT_TRUE(a.CanSnapshotDelta());
  push_descending(80000, 80100);
  const std::string d1 = DeltaSnapshot(a);

  auto b = MakeRank(1, 3, false, false, false);
  Harness hb(&b);
  ASSERT_TRUE(RestoreFull(b, full).ok());
  ASSERT_TRUE(ApplyDeltaBytes(b, d1).ok());
  EXPECT_EQ(b.state_rows(), 6u);
  EXPECT_EQ(FullSnapshot(a), FullSnapshot(b));
}

}  // namespace
}  // namespace sluice
