#include "common/config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "common/check.h"

namespace sluice {

namespace {

// The session: runtime mode, time zone, source idleness, result display, late rows, chunk size,
// parallelism.
std::vector<ConfigOption> SessionOptions() {
  return {
      {kRuntimeModeKey, OptionType::kEnum, "STREAMING",
       "Runtime execution mode: 'streaming' emits a changelog as input arrives; 'batch' runs bounded input "
       "to its end and emits only the final, insert-only result.",
       {"STREAMING", "BATCH", "AUTOMATIC"}},
      {kLocalTimeZoneKey, OptionType::kString, "default",
       "The session time zone (an IANA name such as 'Europe/London', or 'UTC'). It converts TIMESTAMP_LTZ "
       "to text and local fields, and drives CURRENT_DATE, LOCALTIMESTAMP and friends. 'default' means the "
       "machine's zone (the TZ environment variable, else UTC)."},
      {kIdleTimeoutKey, OptionType::kDuration, "0 ms",
       "When a source split has produced no row for this long in processing time (a live split whose reads come "
       "back empty; a scripted 'values' split whose next `advance` step waits at least this long) it is marked idle "
       "and stops holding back the watermark until it produces again; a source whose splits are all idle does not "
       "hold back its consumers. A table's 'scan.watermark.idle-timeout' overrides it. 0 disables idleness detection."},
      {kResultModeKey, OptionType::kEnum, "TABLEAU",
       "How the CLI shows SELECT results: 'tableau' prints changes as a table as they come, 'changelog' the "
       "same as plain +I/-U/+U/-D rows, 'table' only the final materialized result.",
       {"TABLEAU", "CHANGELOG", "TABLE"}},
      {kLateRowsTableKey, OptionType::kString, "",
       "Sluice: the table that receives the rows event-time operators drop behind the watermark (window "
       "aggregations, rowtime OVER aggregations, rowtime keep-first deduplication, rowtime ORDER BY, interval "
       "joins), instead of only counting them. A table declared in the script with any sink connector and exactly "
       "the columns operator STRING (the operator as EXPLAIN names it, '#n' appended when the job has several), "
       "watermark TIMESTAMP(3) (the operator's watermark when it dropped the row, NULL when none yet), row STRING "
       "(the dropped row as a JSON object named by the operator's input columns) and optionally event_time "
       "TIMESTAMP(3) (the row's time attribute), in any order. Checked when a job that can drop late rows is "
       "planned; the job summary counts the rows written there. Empty: late rows are dropped and counted."},
      {kPrintFormatKey, OptionType::kEnum, "PRINT",
       "Sluice: how 'print' sinks write each change. 'PRINT' as Flink's print connector ('<identifier>> +I[...]'); "
       "'JSONL' as one JSON object per line in the form `sluice run --format jsonl` prints ({\"op\":\"+I\",...}), "
       "after '<identifier>> ' where the identifier defaults to the table's name, so a script's sinks can be told "
       "apart and compared exactly (tests/flink, docs/flink.md).",
       {"PRINT", "JSONL"}},
      {kChunkSizeKey, OptionType::kInteger, "1024",
       "Sluice: rows per columnar chunk read from sources. Results never depend on it; tests vary it.",
       {}, {}, 1, 1 << 20},
      {"sluice.exec.match-recognize.max-threads", OptionType::kInteger, "100000",
       "Sluice: the most threads (ways of mapping the rows so far to pattern variables that are still being "
       "followed) a MATCH_RECOGNIZE partition may hold while it matches a pattern Flink's CEP does not run "
       "(alternation, quantified groups, a reluctant ?; docs/sql.md). Threads whose futures are the same are "
       "merged (the same place in the pattern and the same rows read by the DEFINE conditions still to be "
       "evaluated), so a pattern whose DEFINEs read only the row they classify holds at most a few per "
       "undecided attempt; what remains grows when DEFINEs read earlier rows of variables an ambiguous "
       "pattern maps differently (an aggregate of a variable inside (A | B)*). Past the limit the job fails "
       "naming the MATCH_RECOGNIZE and the partition; no match is dropped.",
       {}, {}, 1},
      {kParallelismKey, OptionType::kInteger, "1",
       "Default parallelism of operators. Sluice runs every operator on one task for now; values other than 1 "
       "are accepted and give the same results.",
       {}, {}, 1},
      {"table.exec.resource.default-parallelism", OptionType::kInteger, "-1",
       "Parallelism of all operators of a job (-1: use parallelism.default).", {}, {}, -1},
  };
}

// Sinks (NOT NULL enforcement, upsert materialization) and the planner; last the tableau's column width.
std::vector<ConfigOption> SinkAndPlannerOptions() {
  return {
      {kSinkNotNullEnforcerKey, OptionType::kEnum, "ERROR",
       "What to do when a NULL is written to a NOT NULL sink column: 'ERROR' fails the job, 'DROP' drops the row "
       "(counted).",
       {"ERROR", "DROP"}},
      {kSinkUpsertMaterializeKey, OptionType::kEnum, "AUTO",
       "Whether a SinkUpsertMaterializer runs before a sink with a PRIMARY KEY that receives updates: 'AUTO' "
       "when no unique key of the query lies within the primary key (EXPLAIN says why), 'FORCE' always, 'NONE' "
       "never. Sluice's materializer asks its input for update-before rows and keeps only the live rows per "
       "key, so its state is bounded by the result's size (Flink's keeps each key's history).",
       {"NONE", "AUTO", "FORCE"}},
      {kSinkRequireOnConflictKey, OptionType::kBoolean, "false",
       "Flink 2.3's option: when 'true', an INSERT into a sink with a PRIMARY KEY whose query's upsert key "
       "differs from it is refused at planning time unless it has an ON CONFLICT clause (with "
       "'table.exec.sink.upsert-materialize' = 'AUTO'). Flink 2.3 defaults to 'true'; Sluice defaults to "
       "'false', keeping Flink 2.2's plans (docs/flink_differences.md)."},
      {kAggPhaseStrategyKey, OptionType::kEnum, "AUTO",
       "With mini-batch on, whether group aggregations are planned in two phases (LocalGroupAggregate, then "
       "GlobalGroupAggregate over the Exchange) when every aggregate function can merge: 'AUTO' and "
       "'TWO_PHASE' do, 'ONE_PHASE' does not. One task runs both phases as one operator with Flink's two "
       "bundles: the local one counts input rows, the global one the local one's partial results (one per "
       "key per local bundle), so two phases emit fewer changes than one.",
       {"AUTO", "ONE_PHASE", "TWO_PHASE"}},
      {kNonDeterministicUpdateStrategyKey, OptionType::kEnum, "IGNORE",
       "When it is 'TRY_RESOLVE', the optimizer checks that the columns an updating pipeline needs to be "
       "deterministic (a sink's key, or all its columns without one; the keys of stateful operators over updates) "
       "are not computed by non-deterministic functions (NOW, RAND, UUID, ...) or non-deterministic conditions, "
       "and refuses the query otherwise; a LookupJoin over an updating input is planned with "
       "upsertMaterialize=[true]. 'IGNORE' plans without the check.",
       {"IGNORE", "TRY_RESOLVE"}},
      {kCdcEventsDuplicateKey, OptionType::kBoolean, "false",
       "Whether a source that emits a full changelog (-U rows too) with a PRIMARY KEY may repeat changes; if "
       "true, a ChangelogNormalize over it keyed by the primary key removes the duplicates."},
      {kSourcePredicatePushdownKey, OptionType::kBoolean, "true",
       "When it is true, the optimizer pushes filters down into table sources that support it (the Iceberg source "
       "skips manifests and data files that cannot match, EXPLAIN shows them as filter=[...] on the "
       "TableSourceScan). The filter is always applied after the scan too, so results do not change."},
      {kDisabledOperatorsKey, OptionType::kString, "",
       "Batch mode: a comma-separated list of the batch operators the planner must not use, as Flink's: "
       "`NestedLoopJoin`, `ShuffleHashJoin`, `BroadcastHashJoin`, `HashJoin` (both hash joins), "
       "`SortMergeJoin`, `HashAgg`, `SortAgg` (case-sensitive; items trimmed, empty ones skipped). Disabling "
       "the hash joins (`HashJoin` or `ShuffleHashJoin`; without statistics Flink never broadcasts) plans "
       "equi-joins as `SortMergeJoin`; disabling `SortMergeJoin` too leaves the streaming `Join` (Flink: "
       "`NestedLoopJoin`). `HashAgg`, `SortAgg`, `BroadcastHashJoin` and `NestedLoopJoin` are accepted and "
       "change nothing (Sluice has no `SortAggregate` or broadcast). Another name fails the next batch "
       "query's planning with Flink's error (\"No enum constant "
       "org.apache.flink.table.planner.plan.utils.OperatorType.X\")."},
      {kMaxColumnWidthKey, OptionType::kInteger, "30",
       "The widest a tableau result column is printed; longer values are cut and end in '...'.", {}, {}, 1},
  };
}

// The job's name, checkpointing, state and memory.
std::vector<ConfigOption> CheckpointAndStateOptions() {
  return {
      {"pipeline.name", OptionType::kString, "", "The job name shown in the job summary; with 'state.checkpoints.dir' "
       "it also names the job's checkpoint folder (default job-<n>, the n-th job the script runs)."},
      {"execution.checkpointing.interval", OptionType::kDuration, "0 ms",
       "How often (processing time) a running job starts a checkpoint into 'state.checkpoints.dir', counted from "
       "the start of the previous one; 0 takes none while running. A checkpoint starts only once the previous one "
       "completed (Sluice takes one at a time) and 'execution.checkpointing.min-pause' has passed since. A bounded "
       "job with a checkpoint directory always ends with a final checkpoint, which commits the last output of its "
       "exactly-once sinks."},
      {"execution.checkpointing.min-pause", OptionType::kDuration, "0 ms",
       "The least time between the end of one checkpoint and the start of the next, so that a job whose "
       "checkpoints take longer than the interval still gets time to progress between them."},
      {"execution.checkpointing.timeout", OptionType::kDuration, "10 min",
       "A checkpoint still being written this long (processing time) after it started is abandoned and counts "
       "as failed (see 'execution.checkpointing.tolerable-failed-checkpoints'). The final checkpoint of a "
       "bounded job is always waited for."},
      {"execution.checkpointing.tolerable-failed-checkpoints", OptionType::kInteger, "0",
       "How many checkpoints in a row may fail (an error while writing, or the timeout) before the job fails. A "
       "failed checkpoint leaves nothing behind: the sinks commit its output with the next checkpoint that "
       "completes, and every operator writes its state in full at that one.",
       {}, {}, 0},
      {"execution.checkpointing.mode", OptionType::kEnum, "EXACTLY_ONCE",
       "EXACTLY_ONCE or AT_LEAST_ONCE. Sluice runs a job on one thread, so a barrier never overtakes or waits "
       "for rows (alignment costs nothing) and every checkpoint is exactly-once either way; the sinks' "
       "guarantees are those of docs/checkpoints.md.",
       {"EXACTLY_ONCE", "AT_LEAST_ONCE"}},
      {"execution.checkpointing.max-concurrent-checkpoints", OptionType::kInteger, "1",
       "The most checkpoints that may be in progress at once. Sluice writes one at a time, which "
       "every value allows.",
       {}, {}, 1},
      {"state.checkpoints.dir", OptionType::kString, "",
       "Directory for checkpoints: <dir>/<job>/chk-<id>/_metadata. When set, a job resumes from its latest "
       "intact checkpoint there (a corrupt one is skipped with a note), its filesystem sinks write exactly once "
       "(files become visible when the checkpoint covering them completes), and print/blackhole sinks are "
       "at-least-once. Also set by 'execution.checkpointing.dir' (Flink 2's name) and "
       "'state.backend.fs.checkpointdir'.",
       {}, {"execution.checkpointing.dir", "state.backend.fs.checkpointdir"}},
      {"execution.checkpointing.incremental", OptionType::kBoolean, "true",
       "Incremental checkpoints: an operator whose state is kept in a shared state file (see "
       "'state.storage.fs.memory-threshold') writes, at the next checkpoints, only what changed since (new keys, "
       "the keys written since, new rows), chained onto that file; every 20 deltas, or once the deltas outweigh "
       "the full state 20 times, it writes its state in full again. false: every checkpoint writes every state in "
       "full. Flink's default is false (full snapshots unless the RocksDB backend is incremental); Sluice's "
       "default is true, and the restored state is the same either way. Also set by 'state.backend.incremental' "
       "(Flink 1's name).",
       {}, {"state.backend.incremental"}},
      {"state.storage.fs.memory-threshold", OptionType::kMemorySize, "20kb",
       "An operator state smaller than this is stored inside the checkpoint's _metadata file; a larger one goes "
       "to its own file under <job>/shared/, which later checkpoints share and chain deltas onto. At most 1mb, "
       "as in Flink; 0 puts every state in a shared file. Also set by 'state.backend.fs.memory-threshold'.",
       {}, {"state.backend.fs.memory-threshold"}},
      {"state.checkpoints.num-retained", OptionType::kInteger, "1",
       "How many complete checkpoints are kept per job; older ones are deleted after a new one completes. With 1, "
       "a bounded job abandons the checkpoint it is writing when its sources end rather than wait for it (its "
       "final checkpoint commits what that one pre-committed). Also set by 'execution.checkpointing.num-retained' "
       "(Flink 2's name).",
       {}, {"execution.checkpointing.num-retained"}, 1, INT32_MAX},
      {"sluice.exec.checkpoint-roundtrip", OptionType::kBoolean, "false",
       "Testing aid: after every step of a job whose operators all checkpoint, write each stateful operator's "
       "state and read it back in place of the live one, so any state a snapshot loses shows up as a wrong "
       "result. `make test` runs the .test scripts with it on."},
      {"execution.savepoint.path", OptionType::kString, "",
       "Restore the job from this checkpoint (a chk-<id> directory or its _metadata file) instead of the latest "
       "one in 'state.checkpoints.dir'. Also set by 'execution.state-recovery.path' (Flink 2's name).",
       {}, {"execution.state-recovery.path"}},
      {"table.exec.state.ttl", OptionType::kDuration, "0 ms",
       "How long (processing time) state is kept after it was last written; 0 keeps it forever. Applies to "
       "group aggregations (per group key), regular joins (per stored row) and deduplication (per key: a re-sent "
       "row is emitted again once its key expired); the /*+ STATE_TTL('table' = '1d') */ "
       "hint sets it per join input or aggregation. A retraction that finds its state expired is counted in the job summary "
       "(retractions_without_state), never silently dropped from the books."},
      {kProcessMemoryKey, OptionType::kMemorySize, "",
       "The memory budget of a job (Flink: the total memory of a TaskManager process). Sluice counts what grows "
       "with the data: the bytes its operators hold as state (stored rows, keys, accumulators, indexes, as each "
       "operator's state structures account them) plus the snapshot buffers it keeps between checkpoints, checked "
       "after every step of the job. Not counted: the process's code and libraries, the rows in flight and the "
       "connectors' buffers, so leave headroom under a container's limit. Past the budget the job fails, after its "
       "summary, naming the operator that holds the most state and how much; sinks keep only what the last "
       "completed checkpoint committed. Unset or 0 (the default): no budget. With or without one, an allocation "
       "that fails (std::bad_alloc) fails the job naming the operator that was running, never aborts the process."},
  };
}

// Window emit strategies, split DISTINCT aggregation, streaming sort, mini-batch and DML execution.
std::vector<ConfigOption> OperatorOptions() {
  return {
      // Flink's experimental WindowEmitStrategy options (window aggregations: window TVF aggregation and
      // the legacy GROUP BY TUMBLE/HOP; plan/window_rules.cc validates them with Flink's messages).
      {"table.exec.emit.late-fire.enabled", OptionType::kBoolean, "false",
       "Experimental (Flink's WindowEmitStrategy): late firing of event-time window aggregations. With it and "
       "'table.exec.emit.allow-lateness' > 0, a window still fires when the watermark passes its end, keeps its "
       "state until the watermark passes its end + the allowed lateness, and every late row within that updates "
       "the window's result (-U/+U, or +I for a group the window did not have); rows later than that are dropped "
       "and counted as before. The query is then updating: it needs a sink that accepts updates (EXPLAIN "
       "CHANGELOG_MODE shows it). Needs 'table.exec.emit.late-fire.delay'. SESSION windows refuse it, as Flink's."},
      {"table.exec.emit.late-fire.delay", OptionType::kDuration, "",
       "Experimental: with late firing on, how long (processing time) after the first late row of a window "
       "and key its updated result is emitted: 0 fires on every late row, > 0 at most once per delay (a "
       "processing-time timer; results still pending when the window's state expires are emitted then). Must "
       "not exceed 'table.exec.emit.allow-lateness'."},
      {"table.exec.emit.allow-lateness", OptionType::kDuration, "",
       "Experimental: how late (behind the watermark) a row may be and still update its event-time window when "
       "'table.exec.emit.late-fire.enabled' is true; later rows are dropped. Unset: 'table.exec.state.ttl', as "
       "Flink falls back to the idle state retention. 0 disables allowed lateness."},
      {"table.exec.emit.early-fire.enabled", OptionType::kBoolean, "false",
       "Experimental (Flink's WindowEmitStrategy): early firing of window aggregations (TUMBLE, HOP, "
       "CUMULATE; event and processing time). Before a window fires, its result per key is emitted: +I, then "
       "-U/+U as it changes (nothing when it did not), on every row or per "
       "'table.exec.emit.early-fire.delay'; when the window fires, only what changed since (over an updating "
       "input, on the legacy GROUP BY TUMBLE/HOP(...) only, a key whose rows were all retracted emits -D of its "
       "result). The query is then updating (EXPLAIN: emit=[early no delay]). Needs 'table.exec.emit.early-fire.delay'. SESSION "
       "windows refuse it, as Flink's."},
      {"table.exec.emit.early-fire.delay", OptionType::kDuration, "",
       "Experimental: with early firing on, when a window's changed result per key is emitted: 0 on every "
       "row, > 0 that much processing time after the first row since its last emission (a processing-time "
       "timer, so also while no row arrives). Must not be negative."},
      {"table.optimizer.distinct-agg.split.enabled", OptionType::kBoolean, "false",
       "Split a streaming group aggregation with DISTINCT aggregates, as Flink's SplitAggregateRule, into a "
       "partial GroupAggregate per key and bucket `MOD(HASH_CODE(d), bucket-num)` of the distinct value "
       "(`partialFinalType=[PARTIAL]`) and a final one per key combining the partial results "
       "(`partialFinalType=[FINAL]`): the same answer with more intermediate updates. Split are aggregates "
       "of COUNT, SUM, $SUM0, AVG (a partial `$SUM0` and `COUNT`, a final `$SUM0` of each and a Calc "
       "dividing them), MIN, MAX, FIRST_VALUE, LAST_VALUE and LISTAGG without a separator; when their "
       "DISTINCT and MIN/MAX/FIRST_VALUE/LAST_VALUE calls read several sets of columns, every row is "
       "expanded once per set as in Flink (an `Expand` with the set's id `$e` and `$g_<id>` filters on the "
       "partial calls). Over an insert-only input the final MIN/MAX are plain (Flink's monotonicity "
       "analysis): they ignore the partial phase's retractions and keep one value per key. "
       "STDDEV_POP/STDDEV_SAMP/VAR_POP/VAR_SAMP are first reduced as Flink reduces them (to `SUM(x * x)`, "
       "`SUM(x)` and `COUNT(x)`, AVG and SUM with them) and computed by a Calc over the final phase. A "
       "bucket column hashes its value as Flink's HASH_CODE does (strings, integers, DECIMAL, timestamps, "
       "FLOAT/DOUBLE, BOOLEAN, DATE, TIME). Aggregates with other functions (LISTAGG with a separator, "
       "COLLECT, ...) keep the one-phase plan."},
      {"table.optimizer.distinct-agg.split.bucket-num", OptionType::kInteger, "1024",
       "The number of buckets of 'table.optimizer.distinct-agg.split.enabled' (a positive INT)."},
      {"__table.exec.sort.non-temporal.enabled__", OptionType::kBoolean, "false",
       "Allow a streaming ORDER BY that does not start with an ascending time attribute (and has no LIMIT): the "
       "whole input is kept and emitted sorted when it ends (Flink's StreamExecSort; Flink 2.2's internal key, "
       "set by its tests). Also read as 'table.exec.non-temporal-sort.enabled' (a Sluice spelling without the "
       "internal underscores; Flink 2.2.1 knows only the internal key).",
       {}, {"table.exec.non-temporal-sort.enabled"}},
      {"table.exec.mini-batch.enabled", OptionType::kBoolean, "false",
       "Buffer the input rows of group aggregations, deduplications, ChangelogNormalize and regular joins in "
       "bundles and apply a bundle when it closes, as Flink's mini-batch operators (a group aggregation "
       "emits at most one change per key and bundle): the same final table with fewer changes. A "
       "MiniBatchAssigner over the sources cuts the input with watermarks (mode ProcTime: one per "
       "allow-latency of processing time; mode RowTime, below an operator that needs the watermark: the "
       "watermarks that cross an allow-latency boundary of event time); a bundle closes at each of them (a "
       "regular join's at those of either input, and at either input's end), after 'size' elements, at a "
       "checkpoint's barrier and at the end of input. A regular join folds each side's bundle by the side's "
       "unique key (EXPLAIN leftInputSpec / rightInputSpec), as Flink's."},
      {"table.exec.mini-batch.allow-latency", OptionType::kDuration, "0 ms",
       "The MiniBatchAssigner's interval: processing time (mode ProcTime: a watermark when a row arrives in a "
       "later interval, and from a processing-time timer at each interval's end when none does) or event "
       "time (mode RowTime). Must be set when mini-batch is enabled."},
      {"table.exec.mini-batch.size", OptionType::kInteger, "-1",
       "The most elements a bundle holds before it closes (input rows, of both inputs for a join; partial "
       "results for a GlobalGroupAggregate). Must be positive when mini-batch is enabled."},
      {"table.dml-sync", OptionType::kBoolean, "true",
       "Sluice always runs INSERT statements to completion before the next statement (as Flink with true)."},
  };
}

}  // namespace

const std::vector<ConfigOption>& AllConfigOptions() {
  // One registry, in the order 'sluice reference' prints the options (docs/options.md).
  static const std::vector<ConfigOption> kOptions = [] {
    std::vector<ConfigOption> all = SessionOptions();
    for (const std::vector<ConfigOption>& group :
         {SinkAndPlannerOptions(), CheckpointAndStateOptions(), OperatorOptions()}) {
      all.insert(all.end(), group.begin(), group.end());
    }
    return all;
  }();
  return kOptions;
}

const ConfigOption* FindConfigOption(const std::string& key) {
  for (const auto& o : AllConfigOptions()) {
    if (key == o.key) return &o;
  }
  for (const auto& o : AllConfigOptions()) {
    for (const auto& k : o.fallback_keys) {
      if (key == k) return &o;
    }
  }
  return nullptr;
}

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string TrimCopy(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                                          std::tolower(static_cast<unsigned char>(b[j - 1]))
                                      ? 0
                                      : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::optional<std::string> DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_d = std::max<size_t>(3, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = EditDistance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

// The integer `digits` (an optional '-' and decimal digits) times `mult`; nullopt when it does not
// fit in 64 bits.
static std::optional<int64_t> ScaledInteger(std::string_view digits, int64_t mult) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  int64_t out = 0;
  if (__builtin_mul_overflow(n, mult, &out)) return std::nullopt;
  return out;
}

Result<int64_t> ParseDurationMillis(const std::string& text) {
  std::string t = TrimCopy(text);
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i == 0) return Status::InvalidArgument("'" + text + "' is not a duration (expected e.g. '10 s', '5 min', '100 ms')");
  const std::string digits = t.substr(0, i);
  std::string unit = Lower(TrimCopy(t.substr(i)));
  int64_t mult;
  if (unit.empty() || unit == "ms" || unit == "milli" || unit == "millis" || unit == "millisecond" ||
      unit == "milliseconds") {
    mult = 1;
  } else if (unit == "s" || unit == "sec" || unit == "secs" || unit == "second" || unit == "seconds") {
    mult = 1000;
  } else if (unit == "min" || unit == "m" || unit == "minute" || unit == "minutes" || unit == "mins") {
    mult = 60000;
  } else if (unit == "h" || unit == "hour" || unit == "hours") {
    mult = 3600000;
  } else if (unit == "d" || unit == "day" || unit == "days") {
    mult = 86400000;
  } else {
    return Status::InvalidArgument("'" + text + "' has an unknown time unit '" + unit +
                                   "' (use ms, s, min, h or d)");
  }
  const std::optional<int64_t> ms = ScaledInteger(digits, mult);
  if (!ms) return Status::InvalidArgument("'" + text + "' is too long a duration");
  return *ms;
}

Result<bool> ParseBool(const std::string& text) {
  std::string t = Lower(TrimCopy(text));
  if (t == "true") return true;
  if (t == "false") return false;
  return Status::InvalidArgument("'" + text + "' is not a boolean (expected true or false)");
}

Result<int64_t> ParseMemorySize(const std::string& text) {
  std::string t = Lower(TrimCopy(text));
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i == 0) return Status::InvalidArgument("'" + text + "' is not a memory size (expected e.g. '64 mb')");
  const std::string digits = t.substr(0, i);
  std::string unit = TrimCopy(t.substr(i));
  int shift;
  if (unit.empty() || unit == "b" || unit == "bytes") {
    shift = 0;
  } else if (unit == "k" || unit == "kb" || unit == "kibibytes") {
    shift = 10;
  } else if (unit == "m" || unit == "mb" || unit == "mebibytes") {
    shift = 20;
  } else if (unit == "g" || unit == "gb" || unit == "gibibytes") {
    shift = 30;
  } else {
    return Status::InvalidArgument("'" + text + "' has an unknown size unit '" + unit + "'");
  }
  const std::optional<int64_t> bytes = ScaledInteger(digits, int64_t{1} << shift);
  if (!bytes) return Status::InvalidArgument("'" + text + "' is too large a memory size");
  return *bytes;
}

std::string FormatMemorySize(int64_t bytes) {
  static constexpr const char* kUnits[] = {"kb", "mb", "gb"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  int unit = 0;
  int64_t scale = 1024;
  while (unit < 2 && bytes / scale >= 1024) {
    ++unit;
    scale *= 1024;
  }
  if (bytes % scale == 0) return std::to_string(bytes / scale) + " " + kUnits[unit];
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.2f %s", static_cast<double>(bytes) / static_cast<double>(scale), kUnits[unit]);
  return buf;
}

// The position of `value` among the option's enum values, matched in any case (Flink's enum options).
static std::optional<size_t> MatchEnum(const ConfigOption& opt, const std::string& value) {
  const std::string v = Lower(TrimCopy(value));
  for (size_t i = 0; i < opt.enum_values.size(); ++i) {
    if (Lower(opt.enum_values[i]) == v) return i;
  }
  return std::nullopt;
}

Status Configuration::Set(const std::string& key, const std::string& value) {
  const ConfigOption* opt = FindConfigOption(key);
  if (opt == nullptr) {
    if (key.rfind("pipeline.", 0) == 0 || key.rfind("env.", 0) == 0) {
      values_[key] = value;
      return Status::OK();
    }
    std::vector<std::string> keys;
    for (const auto& o : AllConfigOptions()) keys.push_back(o.key);
    std::string msg = "Unknown configuration key '" + key + "'.";
    if (auto dym = DidYouMean(key, keys)) msg += " Did you mean '" + *dym + "'?";
    return Status::InvalidArgument(msg);
  }
  Status st;
  std::string normalized = value;
  switch (opt->type) {
    case OptionType::kBoolean: st = ParseBool(value).status(); break;
    case OptionType::kDuration: st = ParseDurationMillis(value).status(); break;
    case OptionType::kMemorySize: st = ParseMemorySize(value).status(); break;
    case OptionType::kInteger: {
      std::string t = TrimCopy(value);
      bool ok = !t.empty();
      for (size_t i = 0; i < t.size(); ++i) {
        if (!(std::isdigit(static_cast<unsigned char>(t[i])) || (i == 0 && t[i] == '-'))) ok = false;
      }
      if (!ok) {
        st = Status::InvalidArgument("'" + value + "' is not an integer");
      } else if (const std::optional<int64_t> n = ScaledInteger(t, 1); !n) {
        st = Status::InvalidArgument("'" + value + "' is out of range (a 64-bit integer)");
      } else if (*n < opt->min_value) {
        st = Status::InvalidArgument("the value must be at least " + std::to_string(opt->min_value) + ", got " + t);
      } else if (*n > opt->max_value) {
        st = Status::InvalidArgument("the value must be at most " + std::to_string(opt->max_value) + ", got " + t);
      }
      break;
    }
    case OptionType::kEnum: {
      const std::optional<size_t> i = MatchEnum(*opt, value);
      if (!i) {
        std::string allowed;
        for (const auto& e : opt->enum_values) allowed += (allowed.empty() ? "" : ", ") + e;
        st = Status::InvalidArgument("'" + value + "' is not one of [" + allowed + "] (in any case)");
      } else {
        normalized = opt->enum_values[*i];
      }
      break;
    }
    case OptionType::kString: break;
  }
  if (!st.ok()) return st.WithContext("Invalid value for configuration key '" + key + "'");
  values_[opt->key] = normalized;
  return Status::OK();
}

void Configuration::Reset(const std::string& key) {
  const ConfigOption* opt = FindConfigOption(key);
  values_.erase(opt != nullptr ? std::string(opt->key) : key);
}

std::string Configuration::GetString(const std::string& key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  const ConfigOption* opt = FindConfigOption(key);
  return opt ? opt->default_value : "";
}

bool Configuration::GetBool(const std::string& key) const {
  auto r = ParseBool(GetString(key));
  return r.ok() && *r;
}

int64_t Configuration::GetInt(const std::string& key) const {
  std::string v = TrimCopy(GetString(key));
  return ScaledInteger(v, 1).value_or(0);  // Set checked it
}

int64_t Configuration::GetDurationMillis(const std::string& key) const {
  auto r = ParseDurationMillis(GetString(key));
  return r.ok() ? *r : 0;
}

size_t Configuration::GetEnumIndex(const std::string& key) const {
  const ConfigOption* opt = FindConfigOption(key);
  if (opt == nullptr || opt->type != OptionType::kEnum) {
    internal::CheckFailed(__FILE__, __LINE__, "not an enum option: " + key);
  }
  // Set stored a declared spelling; the default is one too (else a declaration bug).
  const std::optional<size_t> i = MatchEnum(*opt, GetString(key));
  if (!i) internal::CheckFailed(__FILE__, __LINE__, "enum option " + key + " holds '" + GetString(key) + "'");
  return *i;
}

bool IsBatchRuntimeMode(const Configuration& config) {
  return config.GetEnum<RuntimeMode>(kRuntimeModeKey) == RuntimeMode::kBatch;
}

}  // namespace sluice
