#!/usr/bin/env bash
# Runs the benchmarks of a release build: first the Google Benchmark micro benchmarks
# (<build>/bench/*_bench), then every bench/nexmark/qN.sql through
# `<build>/sluice run -i bench/nexmark/ddl.sql` (the shared Nexmark DDL runs first), printing
# events per second and peak RSS from the job summary the CLI prints on stderr
# (`... elapsed=<seconds>s ... peak_rss=<bytes> ...`).
#
# Usage: bash bench/run.sh [BUILD_DIR]   (default: build-release)
# Exits 0 when the micro benchmarks ran; a query the CLI cannot run yet is reported as
# "not runnable: <error>" and does not fail the script.
set -u

BUILD_DIR=${1:-build-release}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac

echo "== Micro benchmarks ($BUILD_DIR/bench)"
micro_ran=0
micro_failed=0
shopt -s nullglob
for bin in "$BUILD_DIR"/bench/*_bench; do
  [ -x "$bin" ] || continue
  echo "-- $(basename "$bin")"
  if "$bin" --benchmark_counters_tabular=true; then
    micro_ran=1
  else
    echo "$(basename "$bin") failed" >&2
    micro_failed=1
  fi
done
if [ "$micro_ran" = 0 ]; then
  echo "no micro benchmark binaries found in $BUILD_DIR/bench (configure with -DSLUICE_BUILD_BENCH=ON)" >&2
fi

# Parquet write throughput against pyarrow writing the same rows (issue 16): parquet_write_bench
# leaves its file behind; bench/parquet_write_pyarrow.py writes those rows with pyarrow (zstd 3) and
# prints both rates and their ratio. Needs the interop venv (scripts/install-python.sh).
if [ -x "$BUILD_DIR/bench/parquet_write_bench" ]; then
  echo
  echo "== Parquet write: Sluice vs pyarrow (zstd level 3, 1M lines rows)"
  pq_json=$(mktemp)
  if "$BUILD_DIR/bench/parquet_write_bench" --benchmark_format=json > "$pq_json" 2>/dev/null &&
     py=$(bash scripts/install-python.sh 2>/dev/null); then
    sluice_rate=$("$py" -c 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]; print(b["items_per_second"])' "$pq_json")
    sluice_mbs=$("$py" -c 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]; print(b["bytes_per_second"] / 1e6)' "$pq_json")
    printf 'sluice: %.0f rows/s, %.1f MB/s\n' "$sluice_rate" "$sluice_mbs"
    "$py" bench/parquet_write_pyarrow.py --sluice-rows-per-sec "$sluice_rate"
  else
    echo "parquet comparison not runnable (benchmark or Python venv missing)"
  fi
  rm -f "$pq_json"
fi

# Nexmark q13's side input, as Nexmark's SideInputGenerator writes it: 10000 lines "i,i".
SIDE_INPUT=/tmp/sluice-nexmark-side-input.csv
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%d,%d\n", i, i }' > "$SIDE_INPUT"

echo
echo "== Nexmark queries (single thread, source -> blackhole)"
SLUICE="$BUILD_DIR/sluice"
printf '%-6s %12s %10s %14s %12s\n' query events seconds events/s peak_rss_MiB
queries=$(ls bench/nexmark/q*.sql 2>/dev/null | sed 's/.*\/q\([0-9]*\)\.sql/\1/' | sort -n)
for n in $queries; do
  q="bench/nexmark/q$n.sql"
  events=$(sed -n "s/.*'events.num'[[:space:]]*=[[:space:]]*'\([0-9]*\)'.*/\1/p" "$q" bench/nexmark/ddl.sql | head -n 1)
  if [ ! -x "$SLUICE" ]; then
    printf '%-6s not runnable: %s\n' "q$n" "$SLUICE not built"
    continue
  fi
  err=$(mktemp)
  rm -rf /tmp/sluice-nexmark-q10  # q10's filesystem sink: a fresh folder each run
  "$SLUICE" run -i bench/nexmark/ddl.sql "$q" > /dev/null 2> "$err"
  rc=$?
  summary=$(grep 'elapsed=' "$err" | tail -n 1)
  elapsed=$(printf '%s' "$summary" | sed -n 's/.*elapsed=\([0-9.eE+-]*\)s.*/\1/p')
  rss=$(printf '%s' "$summary" | sed -n 's/.*peak_rss=\([0-9]*\).*/\1/p')
  if [ "$rc" != 0 ] || [ -z "$elapsed" ]; then
    reason=$(grep -v '^[[:space:]]*$' "$err" | head -n 1)
    [ -n "$reason" ] || reason="exit code $rc, no job summary"
    printf '%-6s not runnable: %s\n' "q$n" "$reason"
  else
    awk -v q="q$n" -v ev="${events:-0}" -v s="$elapsed" -v r="${rss:-0}" 'BEGIN {
      rate = (s > 0) ? ev / s : 0;
      printf "%-6s %12d %10.3f %14.0f %12.1f\n", q, ev, s, rate, r / 1048576 }'
  fi
  rm -f "$err"
done

echo
echo "== The design drill: COUNT(DISTINCT) OVER a 10 s RANGE per auction (bench/nexmark/over_drill.sql)"
# State per row in range, two ways (see the header of over_drill.sql):
#  - measured: the OverAggregate's own count of its state bytes at its peak, divided by the rows its
#    frames held then (the job summary's `state_peak=OverAggregate(<bytes>B, rows=<rows>)`);
#  - from RSS: (peak RSS of the drill - peak RSS of the same pipeline without the OVER, run right
#    before it) / the rows in range, 10 s x 100000 events/s x 46/50 bids = 920000.
# Both count the rows waiting for the 4 s watermark delay as state too.
if [ -x "$SLUICE" ]; then
  events=$(sed -n "s/.*'events.num'[[:space:]]*=[[:space:]]*'\([0-9]*\)'.*/\1/p" bench/nexmark/ddl.sql | head -n 1)
  in_range=920000
  baseline_sql="ALTER TABLE datagen SET ('first-event.rate' = '100000', 'next-event.rate' = '100000');
    CREATE TABLE over_drill (auction BIGINT, bidder BIGINT, distinct_bidders BIGINT) WITH ('connector' = 'blackhole');
    INSERT INTO over_drill SELECT auction, bidder, CAST(0 AS BIGINT) FROM bid"
  base_rss=$("$SLUICE" run -i bench/nexmark/ddl.sql -e "$baseline_sql" 2>&1 > /dev/null | sed -n 's/.*peak_rss=\([0-9]*\).*/\1/p' | tail -n 1)
  err=$(mktemp)
  printf '%-10s %12s %10s %14s %12s %12s %12s %14s\n' query events seconds events/s peak_rss_MiB base_MiB rows_in_range state_B/row
  if "$SLUICE" run -i bench/nexmark/ddl.sql bench/nexmark/over_drill.sql > /dev/null 2> "$err"; then
    summary=$(grep 'elapsed=' "$err" | tail -n 1)
    elapsed=$(printf '%s' "$summary" | sed -n 's/.*elapsed=\([0-9.eE+-]*\)s.*/\1/p')
    rss=$(printf '%s' "$summary" | sed -n 's/.*peak_rss=\([0-9]*\).*/\1/p')
    state=$(printf '%s' "$summary" | sed -n 's/.*state_peak=OverAggregate(\([0-9]*\)B, rows=\([0-9]*\)).*/\1 \2/p')
    awk -v ev="${events:-0}" -v s="$elapsed" -v r="${rss:-0}" -v b="${base_rss:-0}" -v n="$in_range" -v st="$state" 'BEGIN {
      split(st, m, " ");
      printf "over_drill %12d %10.3f %14.0f %12.1f %12.1f %12d %14s\n", ev, s, (s > 0) ? ev / s : 0, r / 1048576,
        b / 1048576, m[2] + 0, (m[2] > 0) ? sprintf("%.1f", m[1] / m[2]) : "n/a";
      printf "over_drill state from RSS: (%.1f - %.1f) MiB / %d rows in range = %.1f bytes per row\n",
        r / 1048576, b / 1048576, n, (b > 0) ? (r - b) / n : 0 }'
  else
    printf 'over_drill not runnable: %s\n' "$(head -n 1 "$err")"
  fi
  rm -f "$err"
fi

echo
echo "== Mini-batch: changes emitted into the sink without and with mini-batch (same final table)"
printf '%-6s %-10s %14s %12s %10s\n' query mini-batch changes events/s peak_MiB
for n in 4 17; do
  q="bench/nexmark/q$n.sql"
  [ -f "$q" ] && [ -x "$SLUICE" ] || continue
  events=$(sed -n "s/.*'events.num'[[:space:]]*=[[:space:]]*'\([0-9]*\)'.*/\1/p" "$q" bench/nexmark/ddl.sql | head -n 1)
  for mb in off on; do
    sets=()
    if [ "$mb" = on ]; then
      sets=(--set table.exec.mini-batch.enabled=true --set table.exec.mini-batch.allow-latency=1s
            --set table.exec.mini-batch.size=5000)
    fi
    err=$(mktemp)
    if "$SLUICE" run "${sets[@]}" -i bench/nexmark/ddl.sql "$q" > /dev/null 2> "$err"; then
      summary=$(grep 'elapsed=' "$err" | tail -n 1)
      # Every change the sinks received: the +I=, -U=, +U= and -D= counts of the summary.
      changes=$(printf '%s' "$summary" | grep -o '[-+][IUD]=[0-9]*' | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')
      elapsed=$(printf '%s' "$summary" | sed -n 's/.*elapsed=\([0-9.eE+-]*\)s.*/\1/p')
      rss=$(printf '%s' "$summary" | sed -n 's/.*peak_rss=\([0-9]*\).*/\1/p')
      awk -v q="q$n" -v m="$mb" -v c="$changes" -v ev="${events:-0}" -v s="$elapsed" -v r="${rss:-0}" 'BEGIN {
        printf "%-6s %-10s %14d %12.0f %10.1f\n", q, m, c, (s > 0) ? ev / s : 0, r / 1048576 }'
    else
      printf '%-6s %-10s not runnable: %s\n' "q$n" "$mb" "$(head -n 1 "$err")"
    fi
    rm -f "$err"
  done
done

echo
echo "== Checkpoints: q17, q18 and q20 with a checkpoint every second vs none (same run); 1M keys of state: checkpoint_bench above"
# ratio: events/s against the run without checkpoints. ratio_run leaves out the bounded job's final
# checkpoint (the summary's final=<ms>: the wait after the last row until the last state is durable),
# which an unbounded job never takes; 1s-full is the same with 'execution.checkpointing.incremental' off.
# A shared machine's speed drifts between runs, so each query runs CKPT_REPS times (default 3) as
# alternating pairs (none, then 1s), and the ratios are the median of the pairs' ratios; events/s
# is the median rate, the other columns are from the last run.
CKPT_REPS=${CKPT_REPS:-3}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Runs query $q with checkpoints $1 (none, 1s, 1s-full); sets rate, run_rate, taken, deltas, last
# (empty rate when it failed, with the error in run_error).
run_checkpointed() {
  local ck=$1 sets=() ckdir err summary elapsed final
  ckdir=$(mktemp -d)
  [ "$ck" != none ] && sets=(--set "state.checkpoints.dir=$ckdir" --set execution.checkpointing.interval=1s)
  [ "$ck" = 1s-full ] && sets+=(--set execution.checkpointing.incremental=false)
  err=$(mktemp)
  rate=
  if "$SLUICE" run "${sets[@]}" -i bench/nexmark/ddl.sql "$q" > /dev/null 2> "$err"; then
    summary=$(grep 'elapsed=' "$err" | tail -n 1)
    elapsed=$(printf '%s' "$summary" | sed -n 's/.*elapsed=\([0-9.eE+-]*\)s.*/\1/p')
    taken=$(printf '%s' "$summary" | sed -n 's/.*checkpoints=\([0-9]*\)(.*/\1/p')
    last=$(printf '%s' "$summary" | sed -n 's/.*written=\([0-9]*\)B.*/\1/p')
    deltas=$(printf '%s' "$summary" | sed -n 's/.*incremental=\([0-9]*\).*/\1/p')
    final=$(printf '%s' "$summary" | sed -n 's/.*final=\([0-9.]*\)ms.*/\1/p')
    rate=$(awk -v ev="${events:-0}" -v s="$elapsed" 'BEGIN { printf "%.0f", (s > 0) ? ev / s : 0 }')
    run_rate=$(awk -v ev="${events:-0}" -v s="$elapsed" -v f="${final:-0}" 'BEGIN { s -= f / 1000; printf "%.0f", (s > 0) ? ev / s : 0 }')
  else
    run_error=$(head -n 1 "$err")
  fi
  rm -rf "$err" "$ckdir"
}
printf '%-6s %-12s %12s %10s %10s %12s %10s %14s\n' query checkpoints events/s ratio ratio_run ckpts deltas written_MiB
for n in 17 18 20; do
  q="bench/nexmark/q$n.sql"
  [ -f "$q" ] && [ -x "$SLUICE" ] || continue
  events=$(sed -n "s/.*'events.num'[[:space:]]*=[[:space:]]*'\([0-9]*\)'.*/\1/p" "$q" bench/nexmark/ddl.sql | head -n 1)
  for ck in 1s 1s-full; do
    rates_none='' rates='' ratios='' run_ratios='' failed=''
    for ((rep = 0; rep < CKPT_REPS; ++rep)); do
      run_checkpointed none
      [ -n "$rate" ] || { failed="none: $run_error"; break; }
      base=$rate
      rates_none="$rates_none $base"
      run_checkpointed "$ck"
      [ -n "$rate" ] || { failed="$ck: $run_error"; break; }
      rates="$rates $rate"
      ratios="$ratios $(awk -v r="$rate" -v b="$base" 'BEGIN { print r / b }')"
      run_ratios="$run_ratios $(awk -v r="$run_rate" -v b="$base" 'BEGIN { print r / b }')"
      # 1s-full, the comparison, once is enough.
      [ "$ck" = 1s-full ] && break
    done
    if [ -n "$failed" ]; then
      printf '%-6s %-12s not runnable: %s\n' "q$n" "$ck" "$failed"
      continue
    fi
    [ "$ck" = 1s ] && printf '%-6s %-12s %12.0f %10.2f %10.2f %12d %10d %14.1f\n' "q$n" none "$(echo "$rates_none" | median)" 1 1 0 0 0
    printf '%-6s %-12s %12.0f %10.2f %10.2f %12d %10d %14.1f\n' "q$n" "$ck" "$(echo "$rates" | median)" \
      "$(echo "$ratios" | median)" "$(echo "$run_ratios" | median)" "${taken:-0}" "${deltas:-0}" \
      "$(awk -v l="${last:-0}" 'BEGIN { print l / 1048576 }')"
  done
done

echo
echo "== GROUP BY over 400K JSON orders, 800 groups: streaming (--mode table) and batch vs DuckDB (one thread)"
# bench/batch/group_by_vs_duckdb.py: the three runs interleaved, best of BATCH_GROUP_BY_REPS (default 3).
if [ -x "$SLUICE" ]; then
  if python=$(scripts/install-python.sh); then
    "$python" bench/batch/group_by_vs_duckdb.py "$SLUICE" "${BATCH_GROUP_BY_ROWS:-400000}" 800 "${BATCH_GROUP_BY_REPS:-3}" ||
      echo "batch group by: not runnable"
  else
    echo "batch group by: not runnable (no interop venv)"
  fi
else
  echo "batch group by: $SLUICE not built"
fi

echo
echo "== Parquet scan: Sluice's reader vs DuckDB (one thread) on the same pyarrow-written zstd file"
if [ -x "$BUILD_DIR/bench/parquet_scan" ]; then
  if python=$(scripts/install-python.sh); then
    "$python" bench/parquet/parquet_scan_vs_duckdb.py "$BUILD_DIR/bench/parquet_scan" "${PARQUET_SCAN_ROWS:-5000000}" ||
      echo "parquet scan: not runnable"
  else
    echo "parquet scan: not runnable (no interop venv)"
  fi
else
  echo "parquet scan: $BUILD_DIR/bench/parquet_scan not built"
fi

echo
echo "== Iceberg scan with 10% position deletes: Sluice's Iceberg reader vs DuckDB (one thread, anti-join)"
if [ -x "$BUILD_DIR/bench/iceberg_scan" ]; then
  if python=$(scripts/install-python.sh); then
    "$python" bench/iceberg/iceberg_scan_vs_duckdb.py "$BUILD_DIR/bench/iceberg_scan" "${ICEBERG_SCAN_ROWS:-10000000}" ||
      echo "iceberg scan: not runnable"
  else
    echo "iceberg scan: not runnable (no interop venv)"
  fi
else
  echo "iceberg scan: $BUILD_DIR/bench/iceberg_scan not built"
fi

echo
echo "== Iceberg filter push-down: a selective filter on a partitioned table, pruning vs none"
if [ -x "$BUILD_DIR/sluice" ]; then
  bench/iceberg/iceberg_prune_bench.sh "$BUILD_DIR/sluice" "${ICEBERG_PRUNE_ROWS:-10000000}" ||
    echo "iceberg prune: not runnable"
else
  echo "iceberg prune: $BUILD_DIR/sluice not built"
fi

echo
echo "== Iceberg upsert pipeline: cost per updated key in each delete mode (equality v2, position v2, dv v3)"
# bench/iceberg/upsert_delete_modes.py: the same running-total upsert job per mode, modes interleaved,
# UPSERT_REPS (default 3) times; the ratio is against Flink's equality mode (lower is cheaper).
if [ -x "$SLUICE" ]; then
  python3 bench/iceberg/upsert_delete_modes.py "$SLUICE" "${UPSERT_KEYS:-100000}" "${UPSERT_UPDATES:-2000000}" \
    "${UPSERT_REPS:-3}" || echo "iceberg upsert modes: not runnable"
else
  echo "iceberg upsert modes: $SLUICE not built"
fi

echo
echo "== Iceberg commit through a catalog: checkpoint -> committed snapshot, REST (Polaris stand-in, s3://) vs local hadoop"
# bench/iceberg/checkpoint_commit_latency.py next to moto, Iceberg's REST catalog server (Java 17 and
# Maven for its jars) and the Polaris stand-in, all started by tests/interop/polaris_server.sh.
if [ -x "$SLUICE" ] && command -v java >/dev/null && command -v mvn >/dev/null; then
  bash tests/interop/polaris_server.sh python3 bench/iceberg/checkpoint_commit_latency.py "$SLUICE" \
    "${COMMIT_BENCH_ROWS:-20000}" || echo "iceberg commit latency: not runnable"
else
  echo "iceberg commit latency: not runnable (needs $SLUICE, java and mvn)"
fi

echo
echo "== Kafka on a real broker: Kafka -> q1 -> Kafka vs kafka-producer/consumer-perf-test; latency, exactly-once vs at-least-once"
# bench/kafka/kafka_bench.py next to a broker started by kafka_broker.sh (Java 17 and Maven for its
# jars); KAFKA_BENCH_EVENTS records for the throughput runs, 100000 events/s for KAFKA_BENCH_SECONDS
# per latency run. Ratios are against the baselines measured in the same run.
if [ -x "$SLUICE" ] && command -v java >/dev/null && command -v mvn >/dev/null; then
  bash tests/interop/kafka_broker.sh python3 bench/kafka/kafka_bench.py "$SLUICE" \
    --events "${KAFKA_BENCH_EVENTS:-1000000}" --rate "${KAFKA_BENCH_RATE:-100000}" \
    --seconds "${KAFKA_BENCH_SECONDS:-10}" || echo "kafka bench: not runnable"
else
  echo "kafka bench: not runnable (needs $SLUICE, java and mvn)"
fi

if [ "$micro_ran" = 1 ] && [ "$micro_failed" = 0 ]; then exit 0; fi
exit 1
