#!/usr/bin/env bash
# make demo: generates the Larkspur replay and runs its report on embedded defaults (files in; out, three
# Iceberg tables in a local hadoop warehouse, build/larkspur/out/warehouse, and the Top-N board as a
# Debezium changelog). See examples/larkspur/README.md; each part also
# runs on its own:
#   examples/larkspur/report.sh [run|explain|errors|dedup|asof|reconcile|changelog|minibatch|kafka]...
# With KAFKA=host:port (make demo KAFKA=host:port) the report ends with its kafka part: the pipeline on
# that broker (README.md, "On a Kafka broker"); without it the demo is unchanged.
set -euo pipefail
SLUICE=${1:-}
[[ -n "$SLUICE" && -x "$SLUICE" ]] && SLUICE=$(cd "$(dirname "$SLUICE")" && pwd)/$(basename "$SLUICE")
cd "$(dirname "$0")/.."
SLUICE=${SLUICE:-build/sluice}
[[ -x "$SLUICE" ]] || { echo "demo.sh: no sluice binary at '$SLUICE' (run: make build)" >&2; exit 2; }
DATA=build/larkspur/data
OUT=build/larkspur/out
rm -rf "$DATA" "$OUT"
echo "== sluice gen larkspur --out $DATA"
"$SLUICE" gen larkspur --out "$DATA"
KAFKA=${KAFKA:-} bash examples/larkspur/report.sh --sluice "$SLUICE" --data "$DATA" --out "$OUT"

# The closing note: how long the pipeline takes and how much memory it needs. Wall time and peak RSS
# vary by machine and run, so they stay out of the report above, which is the same byte for byte for
# the same replay.
echo
echo "== closing note: pipeline.sql (one statement set, four INSERTs) over one upload day"
grep -m1 'sink store_sales_daily' "$OUT/jobs.log" | sed -E 's/.*elapsed=([^ ]+) peak_rss=([0-9]+).*/\1 \2/' |
  awk '{ printf "the job, as its summary reports it: elapsed %s, peak RSS %.1f MiB above the RSS at its start\n", $1, $2 / 1048576 }'
if [[ -x /usr/bin/time ]]; then
  # The whole process once more (start-up, planning, the job, exit), into a scratch folder.
  timed=$OUT/timed
  rm -rf "$timed"
  mkdir -p "$timed"
  sed "s#$(cd "$OUT" && pwd)/#$(cd "$timed" && pwd)/#g" "$OUT/sql/pipeline.sql" >"$timed/pipeline.sql"
  /usr/bin/time -v "$SLUICE" run -i "$OUT/sql/tables.sql" "$timed/pipeline.sql" >/dev/null 2>"$timed/time.txt"
  awk -F': ' '/Elapsed \(wall clock\)/ { wall = $2 } /User time/ { user = $2 } /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 }
    END { printf "the whole process, by /usr/bin/time -v: wall %s, user %s s, system %s s, max RSS %.1f MiB\n", wall, user, sys, rss / 1024 }' \
    "$timed/time.txt"
fi
echo "(target: under 1 s and 100 MB on a release build; the chapter's Flink job took 4.0 s after start-up, in containers peaking at 3.84 GiB)"
