#!/usr/bin/env bash
# make demo: generates the Larkspur replay and runs its report on embedded defaults (files in;
# console and files out). See examples/larkspur/README.md; each part also runs on its own:
#   examples/larkspur/report.sh [run|explain|errors|dedup|asof|reconcile|changelog|minibatch]...
set -euo pipefail
SLUICE=${1:-build/sluice}
cd "$(dirname "$0")/.."
DATA=build/larkspur/data
OUT=build/larkspur/out
rm -rf "$DATA" "$OUT"
echo "== sluice gen larkspur --out $DATA"
"$SLUICE" gen larkspur --out "$DATA"
bash examples/larkspur/report.sh --sluice "$SLUICE" --data "$DATA" --out "$OUT"
# The closing note: how long the pipeline's one job took (wall time and peak RSS vary by machine and
# run, so they stay out of the report above, which is the same byte for byte for the same replay).
echo
echo "== closing note: the pipeline's job (pipeline.sql over one upload day), as Sluice's job summary reports it"
grep -m1 'sink store_sales_daily' "$OUT/jobs.log" | sed -E 's/.*(elapsed=[^ ]+) peak_rss=([0-9]+).*/\1 peak_rss=\2 bytes/'
