// The Nexmark generator alone: events per second for 10M events, read the way a source task reads
// (one fresh chunk of 1024 rows per Read), all columns and the bid-only projection of q0-q2.
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "connectors/nexmark/nexmark_connector.h"
#include "connectors/nexmark/nexmark_generator.h"
#include "types/vector.h"

namespace sluice {
namespace {

constexpr int64_t kEvents = 10000000;

void RunGenerator(benchmark::State& state, std::vector<int> projection) {
  auto factory = MakeNexmarkConnectorFactory();
  ConnectorContext ctx;
  ctx.table_name = "datagen";
  ctx.physical_schema = NexmarkGenerator::DdlSchema();
  ctx.projection = projection;
  ctx.options = {{"connector", "nexmark"},
                 {"events.num", std::to_string(kEvents)},
                 {"first-event.rate", "10000000"},
                 {"next-event.rate", "10000000"}};
  Schema schema;
  for (int i : projection) schema.Add(ctx.physical_schema.field(i).name, ctx.physical_schema.field(i).type);
  if (projection.empty()) schema = ctx.physical_schema;
  int64_t total = 0;
  for (auto _ : state) {
    auto source = factory->CreateSource(ctx);
    if (!source.ok()) {
      state.SkipWithError(source.status().ToString().c_str());
      return;
    }
    auto splits = (*source)->CreateSplits();
    auto& split = (*splits)[0];
    for (;;) {
      Chunk chunk(schema);
      auto more = split->Read(Chunk::kDefaultCapacity, &chunk);
      if (!more.ok() || !*more) break;
      total += static_cast<int64_t>(chunk.size());
      benchmark::DoNotOptimize(chunk.column(0).raw_data());
    }
  }
  state.SetItemsProcessed(total);
}

void BM_NexmarkGeneratorAllColumns(benchmark::State& state) { RunGenerator(state, {}); }
void BM_NexmarkGeneratorBidProjection(benchmark::State& state) { RunGenerator(state, {0, 3}); }

BENCHMARK(BM_NexmarkGeneratorAllColumns)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_NexmarkGeneratorBidProjection)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
