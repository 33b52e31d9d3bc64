// libFuzzer target: the checkpoint reader and every stateful operator's Restore, on damaged checkpoints
// (tests/fuzz/README.md).
//
// At start-up each job below runs once with checkpoints (a values source with processing-time steps,
// so checkpoints are taken mid-job; every state in its own shared file, incremental), and its newest
// mid-job checkpoint is kept as the reference. An input then damages that checkpoint and the job is
// run again restoring from it ('execution.savepoint.path'), the way a restart reads a checkpoint
// directory: CheckpointStorage::ReadPath (the _metadata decoder, the chain files, zstd), Job::RestoreFrom
// (digests), each operator's Restore and ApplyDelta through StateReader, and then the rest of the job
// on the restored state.
//
// Input: byte 0 picks the job, byte 1 the mode, byte 2 the operator (among those with state), the
// rest is the payload:
//   mode 0: the payload is the operator's full snapshot (Operator::WriteSnapshot's bytes);
//   mode 1: the payload is the last delta of the operator's chain (Operator::WriteDelta's bytes);
//   mode 2: the payload is the whole _metadata file but its trailing checksum, which is appended
//           (the checksums inside are the fuzzer's to get right), next to the reference's chain files.
// The checkpoint of modes 0 and 1 is written by CheckpointStorage::Write, so sizes and checksums match
// and the damage reaches the operator.
//
// With SLUICE_FUZZ_WRITE_SEEDS=<dir> in the environment the target writes one seed per job, mode and
// operator (the reference's own bytes) into <dir> and exits; tests/fuzz/run_fuzz.sh calls it so the
// corpus follows the current state formats.
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/clock.h"
#include "connectors/values/values_connector.h"
#include "engine/session.h"
#include "runtime/checkpoint.h"
#include "state/state_serde.h"
#include "types/value.h"

namespace fs = std::filesystem;

namespace sluice {
namespace {

struct JobSpec {
  const char* name;
  const char* sink_ddl;  // the values sink's CREATE TABLE
  const char* insert;
};

// Sources (registered rows, see SourceRows): src and src2 are append-only with an event-time
// attribute, upd is a changelog.
constexpr const char* kSourceDdl[] = {
    "CREATE TABLE src (k BIGINT, v BIGINT, s STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), "
    "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'values', 'data-id' = 'src')",
    "CREATE TABLE src2 (k BIGINT, v BIGINT, s STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), "
    "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'values', 'data-id' = 'src2')",
    "CREATE TABLE upd (k BIGINT, v BIGINT, s STRING) WITH ('connector' = 'values', 'data-id' = 'upd', "
    "'changelog-mode' = 'I,UB,UA,D')",
};

// One job per stateful operator family.
const JobSpec kJobs[] = {
    {"group_aggregate", "CREATE TABLE o (k BIGINT, c BIGINT, sv BIGINT, ms STRING, ds BIGINT)",
     "INSERT INTO o SELECT k, COUNT(*), SUM(v), MAX(s), COUNT(DISTINCT s) FROM src GROUP BY k"},
    {"group_aggregate_retract", "CREATE TABLE o (g BIGINT, c BIGINT, sk BIGINT, mn STRING)",
     "INSERT INTO o SELECT v % 3, COUNT(*), SUM(k), MIN(s) FROM upd GROUP BY v % 3"},
    {"join", "CREATE TABLE o (k BIGINT, v BIGINT, v2 BIGINT, s STRING)",
     "INSERT INTO o SELECT a.k, a.v, b.v, b.s FROM src a LEFT JOIN upd b ON a.k = b.k"},
    {"rank", "CREATE TABLE o (k BIGINT, v BIGINT, s STRING, rn BIGINT)",
     "INSERT INTO o SELECT k, v, s, rn FROM (SELECT k, v, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) "
     "AS rn FROM src) WHERE rn <= 2"},
    {"deduplicate", "CREATE TABLE o (k BIGINT, v BIGINT, s STRING)",
     "INSERT INTO o SELECT k, v, s FROM (SELECT k, v, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) "
     "AS rn FROM src) WHERE rn = 1"},
    {"window_aggregate", "CREATE TABLE o (ws TIMESTAMP(3), k BIGINT, c BIGINT, sv BIGINT)",
     "INSERT INTO o SELECT window_start, k, COUNT(DISTINCT s), SUM(v) FROM TABLE(TUMBLE(TABLE src, "
     "DESCRIPTOR(ts), INTERVAL '2' SECOND)) GROUP BY window_start, window_end, k"},
    {"over_aggregate", "CREATE TABLE o (k BIGINT, v BIGINT, sv BIGINT)",
     "INSERT INTO o SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT "
     "ROW) FROM src"},
    {"interval_join", "CREATE TABLE o (k BIGINT, v BIGINT, v2 BIGINT)",
     "INSERT INTO o SELECT a.k, a.v, b.v FROM src a, src2 b WHERE a.k = b.k AND b.ts BETWEEN a.ts - INTERVAL "
     "'1' SECOND AND a.ts + INTERVAL '1' SECOND"},
    {"temporal_sort", "CREATE TABLE o (k BIGINT, v BIGINT, s STRING)",
     "INSERT INTO o SELECT k, v, s FROM src ORDER BY ts, v"},
    {"window_rank", "CREATE TABLE o (ws TIMESTAMP(3), k BIGINT, v BIGINT, rn BIGINT)",
     "INSERT INTO o SELECT window_start, k, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, "
     "window_end ORDER BY v DESC) AS rn FROM TABLE(HOP(TABLE src, DESCRIPTOR(ts), INTERVAL '1' SECOND, "
     "INTERVAL '3' SECOND))) WHERE rn <= 2"},
};

// Rows with a processing-time step of 1 s after every sixth, so a 1 s checkpoint interval takes
// several checkpoints mid-job.
std::vector<ValuesRow> SourceRows(int salt, bool changelog) {
  std::vector<ValuesRow> rows;
  for (int i = 0; i < 30; ++i) {
    const int64_t k = (i * (salt + 3)) % 5;
    const int64_t v = (i * 7 + salt) % 11;
    const std::string s = "s" + std::to_string((i + salt) % 4);
    const int64_t ms = 1000 + i * 300 - (i % 3) * 200;
    if (changelog) {
      // Each key: an insert, then updates of its last row, a delete now and then.
      if (i >= 5 && i % 4 == 1) {
        const int64_t pv = ((i - 5) * 7 + salt) % 11;
        const int64_t pk = ((i - 5) * (salt + 3)) % 5;
        const std::string ps = "s" + std::to_string((i - 5 + salt) % 4);
        rows.push_back({RowKind::kUpdateBefore, {Value::BigInt(pk), Value::BigInt(pv), Value::String(ps)}});
        rows.push_back({RowKind::kUpdateAfter, {Value::BigInt(pk), Value::BigInt(v), Value::String(ps)}});
      } else if (i >= 5 && i % 4 == 3) {
        const int64_t pv = ((i - 5) * 7 + salt) % 11;
        const int64_t pk = ((i - 5) * (salt + 3)) % 5;
        const std::string ps = "s" + std::to_string((i - 5 + salt) % 4);
        rows.push_back({RowKind::kDelete, {Value::BigInt(pk), Value::BigInt(pv), Value::String(ps)}});
      } else {
        rows.push_back({RowKind::kInsert, {Value::BigInt(k), Value::BigInt(v), Value::String(s)}});
      }
    } else {
      rows.push_back({RowKind::kInsert, {Value::BigInt(k), Value::BigInt(v), Value::String(s), Value::BigInt(ms)}});
    }
    if (i % 6 == 5) rows.push_back({RowKind::kInsert, {}, 1000000});
  }
  return rows;
}

void Die(const std::string& what) {
  std::fprintf(stderr, "checkpoint_fuzz: %s\n", what.c_str());
  std::abort();
}

// One job: its session, the reference checkpoint, and where damaged copies go.
struct FuzzJob {
  std::unique_ptr<ManualClock> clock;
  std::unique_ptr<std::ostringstream> out;
  std::unique_ptr<Session> session;
  std::string insert;
  CheckpointData reference;
  std::vector<size_t> with_state;  // operators with a non-empty state
  std::vector<size_t> with_delta;  // operators whose chain has a delta
  std::string run_dir;             // modes 0 and 1: CheckpointStorage::Write's job directory
  std::string raw_dir;             // mode 2: <raw_dir>/chk-<id>/_metadata beside the reference's files
};

void Exec(Session* s, const std::string& sql) {
  auto r = s->Execute(sql, nullptr);
  if (!r.ok()) Die("'" + sql + "' failed: " + r.status().ToString());
}

// The newest checkpoint in `job_dir` that is not final (a final one holds no operator state).
CheckpointData NewestMidJobCheckpoint(const std::string& job_dir) {
  std::vector<int64_t> ids;
  for (const auto& e : fs::directory_iterator(job_dir)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("chk-", 0) == 0) ids.push_back(std::stoll(n.substr(4)));
  }
  std::sort(ids.rbegin(), ids.rend());
  for (int64_t id : ids) {
    auto d = CheckpointStorage::ReadPath(job_dir + "/chk-" + std::to_string(id));
    if (!d.ok()) Die("reference checkpoint unreadable: " + d.status().ToString());
    if (!d->final) return std::move(d).value();
  }
  Die("no mid-job checkpoint in " + job_dir);
  return {};
}

// Writes `data` (every chain file anew) as checkpoint `data.id` in `job_dir`.
void WriteCheckpoint(const std::string& job_dir, CheckpointData data) {
  for (auto& op : data.operators) {
    for (auto& f : op.chain) f.name.clear();
  }
  CheckpointStorage storage(job_dir, 1);
  auto w = storage.Write(&data);
  if (!w.ok()) Die("cannot write a checkpoint: " + w.status().ToString());
}

std::string& Root() {
  static std::string root;
  return root;
}

std::vector<FuzzJob>& Jobs() {
  static std::vector<FuzzJob> jobs;
  return jobs;
}

FuzzJob MakeJob(const JobSpec& spec) {
  FuzzJob j;
  j.clock = std::make_unique<ManualClock>(0);
  j.out = std::make_unique<std::ostringstream>();
  SessionOptions o;
  o.out = j.out.get();
  o.err = j.out.get();
  o.clock = j.clock.get();
  j.session = std::make_unique<Session>(o);
  ManualClock* clock = j.clock.get();
  ValuesDataRegistry* reg = j.session->values_registry();
  reg->set_clock_advancer([clock](int64_t micros) { clock->Advance(micros); });
  reg->Register("src", {SourceRows(0, false)});
  reg->Register("src2", {SourceRows(1, false)});
  reg->Register("upd", {SourceRows(2, true)});
  for (const char* ddl : kSourceDdl) Exec(j.session.get(), ddl);
  Exec(j.session.get(), std::string(spec.sink_ddl) + " WITH ('connector' = 'values', 'sink-insert-only' = 'false')");
  j.insert = spec.insert;
  const std::string ref = Root() + "/ref-" + spec.name;
  Exec(j.session.get(), "SET 'pipeline.name' = 'job'");
  Exec(j.session.get(), "SET 'state.checkpoints.dir' = '" + ref + "'");
  Exec(j.session.get(), "SET 'state.checkpoints.num-retained' = '100'");
  Exec(j.session.get(), "SET 'execution.checkpointing.interval' = '1 s'");
  Exec(j.session.get(), "SET 'state.storage.fs.memory-threshold' = '0'");
  Exec(j.session.get(), j.insert);
  j.reference = NewestMidJobCheckpoint(ref + "/job");
  for (size_t i = 0; i < j.reference.operators.size(); ++i) {
    const auto& op = j.reference.operators[i];
    if (!op.chain.empty() || !op.bytes.empty()) j.with_state.push_back(i);
    if (op.chain.size() >= 2) j.with_delta.push_back(i);
  }
  if (j.with_state.empty()) Die(std::string("job ") + spec.name + " has no operator state in its checkpoint");
  // The damaged runs restore and take no checkpoints.
  Exec(j.session.get(), "RESET 'state.checkpoints.dir'");
  Exec(j.session.get(), "RESET 'execution.checkpointing.interval'");
  j.run_dir = Root() + "/run-" + spec.name;
  j.raw_dir = Root() + "/raw-" + spec.name;
  WriteCheckpoint(j.raw_dir, j.reference);  // mode 2's chain files; its _metadata is replaced per input
  j.session->values_registry()->ClearResults();
  return j;
}

std::string MetadataWithoutChecksum(const CheckpointData& data) {
  std::string m = EncodeCheckpoint(data);
  m.resize(m.size() - 8);
  return m;
}

// The reference with the chain files named as WriteCheckpoint wrote them into raw_dir.
CheckpointData RawReference(const FuzzJob& j) {
  auto d = CheckpointStorage::ReadPath(j.raw_dir + "/chk-" + std::to_string(j.reference.id));
  if (!d.ok()) Die("cannot read " + j.raw_dir + ": " + d.status().ToString());
  return std::move(d).value();
}

void WriteSeeds(const std::string& dir) {
  fs::create_directories(dir);
  auto put = [&](size_t job, int mode, size_t op, const std::string& payload) {
    std::string bytes = {static_cast<char>(job), static_cast<char>(mode), static_cast<char>(op)};
    bytes += payload;
    const std::string name = dir + "/seed-" + kJobs[job].name + "-" + std::to_string(mode) + "-" + std::to_string(op);
    std::ofstream(name, std::ios::binary) << bytes;
  };
  for (size_t j = 0; j < Jobs().size(); ++j) {
    const FuzzJob& job = Jobs()[j];
    for (size_t k = 0; k < job.with_state.size(); ++k) {
      const auto& op = job.reference.operators[job.with_state[k]];
      put(j, 0, k, op.chain.empty() ? op.bytes : op.chain[0].bytes);
    }
    for (size_t k = 0; k < job.with_delta.size(); ++k) {
      put(j, 1, k, job.reference.operators[job.with_delta[k]].chain.back().bytes);
    }
    put(j, 2, 0, MetadataWithoutChecksum(RawReference(job)));
  }
}

}  // namespace
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  using namespace sluice;
  // A tmpfs when there is one: every input writes a checkpoint, and fsync there costs nothing.
  const std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string();
  Root() = base + "/sluice-checkpoint-fuzz-" + std::to_string(::getpid());
  fs::remove_all(Root());
  fs::create_directories(Root());
  std::atexit([] { fs::remove_all(Root()); });
  for (const JobSpec& spec : kJobs) Jobs().push_back(MakeJob(spec));
  if (const char* seeds = std::getenv("SLUICE_FUZZ_WRITE_SEEDS"); seeds != nullptr && *seeds != '\0') {
    WriteSeeds(seeds);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice;
  if (size < 3) return 0;
  FuzzJob& job = Jobs()[data[0] % Jobs().size()];
  const int mode = data[1] % 3;
  const std::string payload(reinterpret_cast<const char*>(data + 3), size - 3);
  std::string path;
  if (mode == 2) {
    // The whole _metadata, with a valid trailing checksum.
    const std::string chk = job.raw_dir + "/chk-" + std::to_string(job.reference.id);
    std::string file = payload;
    const uint64_t sum = XXH64(file.data(), file.size(), 0);
    StateWriter tail;
    tail.PutU64(sum);
    file += tail.data();
    std::ofstream(chk + "/_metadata", std::ios::binary | std::ios::trunc) << file;
    path = chk;
  } else {
    CheckpointData d = job.reference;
    const bool delta = mode == 1 && !job.with_delta.empty();
    const std::vector<size_t>& pick = delta ? job.with_delta : job.with_state;
    auto& op = d.operators[pick[data[2] % pick.size()]];
    if (delta) {
      op.chain.back().bytes = payload;
    } else if (op.chain.empty()) {
      op.bytes = payload;
    } else {
      op.chain.resize(1);  // the damaged full snapshot alone
      op.chain[0].bytes = payload;
    }
    WriteCheckpoint(job.run_dir, std::move(d));
    path = job.run_dir + "/chk-" + std::to_string(job.reference.id);
  }
  Exec(job.session.get(), "SET 'execution.savepoint.path' = '" + path + "'");
  (void)job.session->Execute(job.insert, nullptr);  // errors are expected; crashes are findings
  job.session->values_registry()->ClearResults();
  job.out->str("");
  return 0;
}
