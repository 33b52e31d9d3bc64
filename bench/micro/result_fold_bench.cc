// The fold of a changelog into its final table (engine/result_table.h), as the CLI's `--mode table`,
// batch mode's sink and the .test runner's `final` run it: a GROUP BY's changelog over 10K, 20K and
// 40K keys, each key inserted and then updated 8 times (-U old, +U new), in 1024-row chunks built up
// front. Linear in the changelog: rows per second should not fall as the keys grow (the boxed fold
// it replaced scanned the table per retraction). Reports changelog rows per second.
#include <benchmark/benchmark.h>

#include "engine/result_table.h"

namespace sluice {
namespace {

constexpr int kUpdatesPerKey = 8;

std::vector<Chunk> GroupByChangelog(int64_t keys) {
  const std::vector<LogicalType> types = {LogicalType::String(), LogicalType::BigInt()};
  std::vector<Chunk> chunks;
  Chunk c(types);
  auto add = [&](RowKind kind, int64_t key, int64_t count) {
    c.AppendValues({Value::String("customer-" + std::to_string(key)), Value::BigInt(count)}, kind);
    if (c.size() == Chunk::kDefaultCapacity) {
      chunks.push_back(std::move(c));
      c = Chunk(types);
    }
  };
  for (int64_t k = 0; k < keys; ++k) add(RowKind::kInsert, k, 1);
  for (int u = 1; u <= kUpdatesPerKey; ++u) {
    for (int64_t k = 0; k < keys; ++k) {
      add(RowKind::kUpdateBefore, k, u);
      add(RowKind::kUpdateAfter, k, u + 1);
    }
  }
  if (c.size()) chunks.push_back(std::move(c));
  return chunks;
}

void BM_FoldGroupByChangelog(benchmark::State& state) {
  const std::vector<Chunk> chunks = GroupByChangelog(state.range(0));
  int64_t rows = 0;
  for (const auto& c : chunks) rows += static_cast<int64_t>(c.size());
  for (auto _ : state) {
    MaterializedTable table;
    for (const auto& c : chunks) table.Apply(c);
    if (table.size() != static_cast<size_t>(state.range(0)) || table.unmatched_retractions() != 0) {
      state.SkipWithError("wrong fold");
    }
    benchmark::DoNotOptimize(table.size());
  }
  state.SetItemsProcessed(state.iterations() * rows);
}
BENCHMARK(BM_FoldGroupByChangelog)->Arg(10000)->Arg(20000)->Arg(40000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
