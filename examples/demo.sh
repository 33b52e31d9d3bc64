#!/usr/bin/env bash
# make demo: generates the Larkspur replay and runs its report on embedded defaults (files in; out, three
# Iceberg tables in a local hadoop warehouse, build/larkspur/out/warehouse, and the Top-N board as a
# Debezium changelog). See examples/larkspur/README.md; each part also
# runs on its own:
#   examples/larkspur/report.sh [run|explain|errors|dedup|asof|reconcile|changelog|minibatch|kafka]...
# With KAFKA=host:port (make demo KAFKA=host:port) the report ends with its kafka part: the pipeline on
# that broker (README.md, "On a Kafka broker"); without it the demo is unchanged.
# With LAKE=polaris (make demo LAKE=polaris) the Iceberg tables live in s3:// behind a Polaris catalog:
# tests/interop/polaris_server.sh starts the local S3 server (moto), Iceberg's REST catalog server and
# the Polaris stand-in (docs/iceberg_s3.md), tests/interop/polaris_setup.py sets up the seed's Step 1
# (catalog larkspur, namespace stream, principal sluice with only its privileges on stream), and the
# report runs as that principal with vended credentials (no storage keys in its SQL).
set -euo pipefail
SLUICE=${1:-}
[[ -n "$SLUICE" && -x "$SLUICE" ]] && SLUICE=$(cd "$(dirname "$SLUICE")" && pwd)/$(basename "$SLUICE")
cd "$(dirname "$0")/.."
SLUICE=${SLUICE:-build/sluice}
[[ -x "$SLUICE" ]] || { echo "demo.sh: no sluice binary at '$SLUICE' (run: make build)" >&2; exit 2; }
case "${LAKE:-}" in
  ""|local) ;;
  polaris)
    if [[ -z "${POLARIS_URI:-}" ]]; then
      echo "== starting the local S3 server, Iceberg's REST catalog server and the Polaris stand-in"
      exec bash tests/interop/polaris_server.sh bash examples/demo.sh "$SLUICE"
    fi
    echo "== the job's principal (catalog larkspur, warehouse $POLARIS_WAREHOUSE_LOCATION, privileges on namespace stream)"
    credential=$(python3 tests/interop/polaris_setup.py larkspur sluice)
    export LAKE_CATALOG_DDL="CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = '$POLARIS_URI', 'warehouse' = 'larkspur', 'credential' = '$credential', 'scope' = 'PRINCIPAL_ROLE:ALL', 'header.X-Iceberg-Access-Delegation' = 'vended-credentials');"
    export LAKE_METADATA_CMD="python3 tests/interop/polaris_setup.py --metadata larkspur stream"
    export LAKE_DESC="Polaris catalog larkspur at $POLARIS_URI, $POLARIS_WAREHOUSE_LOCATION"
    # The job sees only the storage credentials the catalog vends.
    unset S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    ;;
  *) echo "demo.sh: LAKE must be empty, local or polaris (got '$LAKE')" >&2; exit 2 ;;
esac
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
