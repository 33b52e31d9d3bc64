// Snapshot time and size for 1M keys of state (issue 5's benchmark): a GroupAggregate holding
// COUNT(*), SUM(v) and MAX(v) for 1,000,000 BIGINT keys, as `SELECT k, COUNT(*), SUM(v), MAX(v) ...
// GROUP BY k` over a million distinct keys holds it.
//
// - BM_Snapshot1MKeys: the synchronous part only (Operator::WriteSnapshot into a reused buffer, what
//   stalls the job at a barrier).
// - BM_Checkpoint1MKeys: a whole checkpoint of that state: the snapshot, then
//   CheckpointStorage::Write (zstd, write, fsync of the shared state file and of _metadata, rename),
//   as the background thread writes it.
// - BM_Delta1MKeys: an incremental checkpoint after 1% of the keys changed: the delta's snapshot
//   and its write.
// Counters: raw_MiB is the state's size, file_MiB what was written to disk. Time is wall time
// (the write waits for the disk).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "function/aggregate/aggregate_function.h"
#include "function/evaluator.h"
#include "runtime/checkpoint.h"
#include "runtime/job.h"
#include "runtime/operators/group_aggregate_operator.h"
#include "state/state_serde.h"

namespace sluice {
namespace {

constexpr int64_t kKeys = 1000000;
constexpr size_t kChunk = 1024;

class NullSink final : public Operator {
 public:
  NullSink() : Operator("sink", 1) {}
  Status Process(int, Chunk&) override { return Status::OK(); }
};

void Check(const Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    std::abort();
  }
}

// The operator with one row per key for keys [0, kKeys); `round` varies v.
struct Fixture {
  EvalContext eval;
  JobContext ctx;
  std::unique_ptr<GroupAggregateOperator> op;
  NullSink sink;
  std::string dir;

  Fixture() {
    ctx.eval = &eval;
    std::vector<GroupAggregateOperator::Agg> aggs;
    const std::vector<LogicalType> in = {LogicalType::BigInt(), LogicalType::BigInt()};
    aggs.push_back({*ResolveAggregate("COUNT", {}, {}, true), {}, false, -1});
    aggs.push_back({*ResolveAggregate("SUM", {LogicalType::BigInt()}, {nullptr}, true), {1}, false, -1});
    aggs.push_back({*ResolveAggregate("MAX", {LogicalType::BigInt()}, {nullptr}, true), {1}, false, -1});
    std::vector<LogicalType> out = {LogicalType::BigInt()};
    for (const auto& a : aggs) out.push_back(a.function->result_type);
    op = std::make_unique<GroupAggregateOperator>("GroupAggregate", in, std::vector<int>{0}, std::move(aggs), out,
                                                  true, 0, 0, 0);
    op->AddOutput(&sink, 0);
    Check(op->Open(&ctx));
    Check(sink.Open(&ctx));
    Feed(0, kKeys, 1, 1);
    char tmpl[] = "/tmp/sluice-ckpt-bench-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) std::abort();
    dir = tmpl;
  }
  ~Fixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // Keys first, first + step, ... (count of them), each with value v.
  void Feed(int64_t first, int64_t count, int64_t step, int64_t v) {
    for (int64_t done = 0; done < count;) {
      const size_t n = static_cast<size_t>(std::min<int64_t>(kChunk, count - done));
      Chunk c({LogicalType::BigInt(), LogicalType::BigInt()}, n);
      for (size_t i = 0; i < n; ++i) {
        c.column(0).data<int64_t>()[i] = first + (done + static_cast<int64_t>(i)) * step;
        c.column(1).data<int64_t>()[i] = v + static_cast<int64_t>(i % 1000);
      }
      Check(op->Process(0, c));
      done += static_cast<int64_t>(n);
    }
  }

  // Writes `bytes` as the operator's state file of checkpoint `id`, as the job's background thread
  // does: a full snapshot starts a new chain, a delta goes at the end of the current one. Returns the
  // bytes written.
  int64_t Write(CheckpointStorage* storage, int64_t id, std::string bytes, bool delta) {
    if (!delta) chain.clear();
    CheckpointData data;
    data.id = id;
    CheckpointData::OperatorState st;
    st.digest = op->digest();
    st.chain = chain;
    CheckpointData::StateFile f;
    f.delta = delta;
    f.bytes = std::move(bytes);
    st.chain.push_back(std::move(f));
    data.operators.push_back(std::move(st));
    Result<int64_t> written = storage->Write(&data);
    Check(written.status());
    chain.push_back(data.operators[0].chain.back());
    chain.back().bytes.clear();
    return *written;
  }
  std::vector<CheckpointData::StateFile> chain;  // the files of the last checkpoint (no bytes)
};

void BM_Snapshot1MKeys(benchmark::State& state) {
  Fixture f;
  std::string buffer;
  size_t raw = 0;
  for (auto _ : state) {
    StateWriter w(std::move(buffer));
    Check(f.op->WriteSnapshot(&w));
    raw = w.size();
    buffer = w.Release();
  }
  state.counters["raw_MiB"] = static_cast<double>(raw) / 1048576.0;
}

void BM_Checkpoint1MKeys(benchmark::State& state) {
  Fixture f;
  CheckpointStorage storage(f.dir, 1);
  int64_t id = 0;
  size_t raw = 0;
  int64_t written = 0;
  for (auto _ : state) {
    StateWriter w;
    Check(f.op->WriteSnapshot(&w));
    raw = w.size();
    written = f.Write(&storage, ++id, w.Release(), /*delta=*/false);
  }
  state.counters["raw_MiB"] = static_cast<double>(raw) / 1048576.0;
  state.counters["file_MiB"] = static_cast<double>(written) / 1048576.0;
}

void BM_Delta1MKeys(benchmark::State& state) {
  Fixture f;
  CheckpointStorage storage(f.dir, 1);
  int64_t id = 0;
  {
    StateWriter w;
    Check(f.op->WriteSnapshot(&w));
    f.Write(&storage, ++id, w.Release(), /*delta=*/false);
  }
  size_t raw = 0;
  int64_t written = 0;
  int64_t round = 0;
  for (auto _ : state) {
    state.PauseTiming();
    // 1% of the keys change (every 100th key, a different slice each round).
    ++round;
    f.Feed(round % 100, kKeys / 100, 100, round);
    state.ResumeTiming();
    StateWriter w;
    Check(f.op->WriteDelta(&w));
    raw = w.size();
    written = f.Write(&storage, ++id, w.Release(), /*delta=*/true);
  }
  state.counters["raw_MiB"] = static_cast<double>(raw) / 1048576.0;
  state.counters["file_MiB"] = static_cast<double>(written) / 1048576.0;
}

BENCHMARK(BM_Snapshot1MKeys)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Checkpoint1MKeys)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Delta1MKeys)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
