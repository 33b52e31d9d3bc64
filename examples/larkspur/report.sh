#!/usr/bin/env bash
# The Larkspur report: runs the pipeline (tables.sql + pipeline.sql) over one upload day's replay and
# the experiments of the chapter it retells, every number from a Sluice query over the replay.
#
#   examples/larkspur/report.sh [--sluice BIN] [--data DIR] [--out DIR] [--kafka HOST:PORT] [PART...]
#
# PART is one of: run explain errors dedup asof reconcile changelog minibatch kafka (default: all but
# kafka, in this order; with --kafka, or KAFKA=HOST:PORT in the environment, kafka too). The kafka part
# runs the pipeline on a Kafka broker (README.md, "On a Kafka broker"; kafka_part.sh). Parts that read
# the pipeline's outputs (asof, reconcile, changelog, minibatch, kafka) run it first if they are
# missing. Three outputs are Iceberg tables in a local hadoop warehouse ($OUT/warehouse, catalog lake,
# database stream); the report reads them back through the Iceberg source and prints the
# sink's job summary (snapshots, rows written, files, deletes). The Top-N board writes Debezium change
# events ('debezium-json'), read back by key and as raw events (the same files as plain JSON).
# The data comes from `sluice gen larkspur --out DIR` (default build/larkspur/data); outputs, the SQL
# as run (paths substituted) and the job summaries (jobs.log) go to --out (default build/larkspur/out).
# The report on stdout is the same, byte for byte, for the same replay (but for the kafka part's counts
# of changes, which depend on how the topic's partitions interleave).
# With LAKE_CATALOG_DDL (a CREATE CATALOG lake statement) and LAKE_METADATA_CMD (a command printing a
# table's current metadata JSON, given the table's name) in the environment, the Iceberg tables live in
# that catalog instead, LAKE_DESC naming it (make demo LAKE=polaris: examples/demo.sh).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SLUICE=build/sluice
DATA=build/larkspur/data
OUT=build/larkspur/out
PARTS=()
KAFKA=${KAFKA:-}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sluice) SLUICE=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --kafka) KAFKA=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    run|explain|errors|dedup|asof|reconcile|changelog|minibatch|kafka) PARTS+=("$1"); shift ;;
    *) echo "report.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [[ ${#PARTS[@]} -eq 0 ]]; then
  PARTS=(run explain errors dedup asof reconcile changelog minibatch)
  [[ -n "$KAFKA" ]] && PARTS+=(kafka)
fi
[[ -x "$SLUICE" ]] || { echo "report.sh: no sluice binary at '$SLUICE' (make build, or --sluice BIN)" >&2; exit 2; }
[[ -f "$DATA/truth/summary.txt" ]] || { echo "report.sh: no replay in '$DATA' (run: $SLUICE gen larkspur --out $DATA)" >&2; exit 2; }
SLUICE=$(cd "$(dirname "$SLUICE")" && pwd)/$(basename "$SLUICE")
mkdir -p "$OUT"
DATA=$(cd "$DATA" && pwd)
OUT=$(cd "$OUT" && pwd)
DAY=$(sed -n 's/^replay_day=//p' "$DATA/truth/summary.txt")
SQL=$OUT/sql
mkdir -p "$SQL"
LOG=$OUT/jobs.log
: >"$LOG"

# The pipeline's SQL with its paths pointed at this replay and output folder.
localize() { sed -e "s#build/larkspur/data#$DATA#g" -e "s#build/larkspur/out#$OUT#g" "$1" >"$2"; }
localize "$HERE/tables.sql" "$SQL/tables.sql"
localize "$HERE/pipeline.sql" "$SQL/pipeline.sql"
if [[ -n "${LAKE_CATALOG_DDL:-}" ]]; then
  awk -v ddl="$LAKE_CATALOG_DDL" '/^CREATE CATALOG lake / { print ddl; next } { print }' "$SQL/pipeline.sql" >"$SQL/pipeline.sql.tmp"
  mv "$SQL/pipeline.sql.tmp" "$SQL/pipeline.sql"
fi
# The whole lake: every upload day of the replay (Part 21's accepted events are computed from it).
cat >"$SQL/lake.sql" <<EOF
CREATE TABLE pos_lake (
  event_id STRING, basket_id STRING, store_id STRING, till_id STRING, currency STRING,
  event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3),
  lines ARRAY<ROW<line_no INT, sku STRING, qty INT, unit_price_minor BIGINT, discount_minor BIGINT, promo_id STRING>>
) WITH ('connector' = 'filesystem', 'path' = '$DATA/pos', 'format' = 'json');
EOF

# sl ARGS...: sluice run with the pipeline's tables; job summaries go to jobs.log.
sl() { "$SLUICE" run -i "$SQL/tables.sql" "$@" 2>>"$LOG"; }
# q SQL: the final result of a batch query as CSV rows without the header.
q() {
  "$SLUICE" run --format csv --mode table -i "$SQL/tables.sql" -i "$SQL/lake.sql" -i "$SQL/outputs.sql" \
    -e "SET 'execution.runtime-mode' = 'batch'; $1" 2>>"$LOG" | tail -n +2
}
# field N CSV-LINE
field() { cut -d, -f"$1" <<<"$2"; }
section() { printf '\n== %s\n' "$1"; }

# The pipeline's outputs, declared as sources for the report's queries.
DAILY_COLS="store_id STRING, business_date DATE, currency STRING, baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT"
TOP_COLS="country STRING, store_id STRING, sales_minor BIGINT, baskets BIGINT"
# events_table NAME PATH COLUMNS: a sink's Debezium files read as plain JSON records.
events_table() {
  echo "CREATE TABLE $1 (\`before\` ROW<$3>, \`after\` ROW<$3>, op STRING) WITH ('connector' = 'filesystem', 'path' = '$2', 'format' = 'json');"
}
WAREHOUSE=$OUT/warehouse
# The pipeline's CREATE CATALOG statement (the report's queries read the same lake).
CATALOG_DDL=$(grep -m1 '^CREATE CATALOG lake ' "$SQL/pipeline.sql")
cat >"$SQL/outputs.sql" <<EOF
$CATALOG_DDL
-- The Iceberg tables, read through the Iceberg source (a scan of the current snapshot, deletes applied).
CREATE VIEW lines_written AS SELECT * FROM lake.\`stream\`.pos_sales_lines;
CREATE VIEW hourly_written AS SELECT * FROM lake.\`stream\`.store_sales_hourly;
CREATE VIEW daily_final AS SELECT * FROM lake.\`stream\`.store_sales_daily;
CREATE TABLE window_late_rows (operator STRING, \`watermark\` TIMESTAMP(3), \`row\` STRING, event_time TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$OUT/late_rows', 'format' = 'json');
-- The Top-N sink's files read back as a changelog: a debezium-json source with the sink's key.
CREATE TABLE top_written ($TOP_COLS, PRIMARY KEY (country, store_id) NOT ENFORCED)
WITH ('connector' = 'filesystem', 'path' = '$OUT/top_stores', 'format' = 'debezium-json');
-- The same files as raw Debezium events ({"before": ..., "after": ..., "op": "c" or "d"}).
$(events_table top_events "$OUT/top_stores" "$TOP_COLS")
-- The running total written once more as Debezium events by the changelog part (the changes the
-- Iceberg table folds into equality and position deletes).
$(events_table daily_events "$OUT/changelog/store_sales_daily" "$DAILY_COLS")
-- The Top-N's final table, folded from its changelog by the run part (fold, below).
CREATE TABLE top_final ($TOP_COLS) WITH ('connector' = 'filesystem', 'path' = '$OUT/final/top_stores', 'format' = 'json');
EOF

# The queries of pipeline.sql's INSERTs (3) and (4).
DAILY_QUERY="SELECT store_id, business_date, MAX(currency) AS currency, COUNT(DISTINCT basket_id) AS baskets, COUNT(*) AS lines, SUM(qty) AS units_out, SUM(net_minor) AS net_minor FROM sales_lines GROUP BY store_id, business_date"
TOPN_QUERY="SELECT country, store_id, sales_minor, baskets FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY country ORDER BY sales_minor DESC) AS rn FROM (SELECT country, store_id, SUM(net_minor) AS sales_minor, COUNT(DISTINCT basket_id) AS baskets FROM sales_lines GROUP BY country, store_id)) WHERE rn <= 3"
# sink_ddl TABLE: pipeline.sql's CREATE TABLE of a sink (to write into it again, pointed elsewhere).
sink_ddl() { sed -n "/^CREATE TABLE $1 /,/;\$/p" "$SQL/pipeline.sql"; }
# iceberg_ddl TABLE NEW: pipeline.sql's CREATE CATALOG and its CREATE TABLE of lake.`stream`.TABLE, for
# a table NEW of the same schema, partitioning and properties.
iceberg_ddl() {
  echo "$CATALOG_DDL CREATE DATABASE IF NOT EXISTS lake.\`stream\`;"
  sed -n "/^CREATE TABLE IF NOT EXISTS lake.\`stream\`.$1 /,/;\$/p" "$SQL/pipeline.sql" | sed "s/\.$1 (/.$2 (/"
}
# snapshot_sum TABLE KEY: the sum of KEY ('added-records', ...) over the snapshot summaries of an Iceberg
# table of the warehouse (its current metadata file, as version-hint.text names it); KEY 'operation'
# counts the snapshots.
# lake_metadata TABLE: the current metadata JSON of lake.`stream`.TABLE.
lake_metadata() {
  if [[ -n "${LAKE_METADATA_CMD:-}" ]]; then
    $LAKE_METADATA_CMD "$1"
  else
    local m=$WAREHOUSE/stream/$1/metadata
    cat "$m/v$(cat "$m/version-hint.text").metadata.json"
  fi
}
snapshot_sum() {
  lake_metadata "$1" | tr -d ' \n' | grep -oE "\"$2\":\"[a-z0-9]+\"" |
    sed -E 's/.*:"([a-z0-9]+)"/\1/' | awk '{ s += ($1 ~ /^[0-9]+$/) ? $1 : 1 } END { print s + 0 }'
}
# iceberg_summary LOG: the Iceberg sinks' table of a job summary (header and one line per table).
iceberg_summary() { sed -n '/^table  *snapshots  *written/,/^$/p' "$1" | grep -E '^(table |stream\.)'; }

# fold TABLE DIR [DDL]: the final rows of a changelog table (a streaming query over its debezium-json
# source, materialized by key as Flink's SQL client shows a table), written as JSON lines into DIR.
fold() {
  rm -rf "$2"
  mkdir -p "$2"
  "$SLUICE" run --format jsonl --mode table -i "$SQL/tables.sql" -i "$SQL/lake.sql" -i "$SQL/outputs.sql" -e "${3:-} SELECT * FROM $1" 2>>"$LOG" >"$2/final.json"
}
# event_counts TABLE: "events,c,d" of a raw Debezium events table.
event_counts() {
  q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN op = 'c' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN op = 'd' THEN 1 ELSE 0 END), 0) FROM $1"
}

part_run() {
  section "run: pipeline.sql, one statement set with four INSERTs, over upload day $DAY"
  rm -rf "$WAREHOUSE" "$OUT/late_rows" "$OUT/top_stores" "$OUT/final"
  "$SLUICE" run -i "$SQL/tables.sql" "$SQL/pipeline.sql" >/dev/null 2>"$OUT/pipeline.log"
  cat "$OUT/pipeline.log" >>"$LOG"
  echo "the job's summary, Iceberg tables (${LAKE_DESC:-warehouse $WAREHOUSE}):"
  iceberg_summary "$OUT/pipeline.log" | sed 's/^/  /'
  local r e
  r=$(q "SELECT l.n, h.n, w.n FROM (SELECT COUNT(*) AS n FROM lines_written) AS l JOIN (SELECT COUNT(*) AS n FROM hourly_written) AS h ON TRUE JOIN (SELECT COUNT(*) AS n FROM window_late_rows) AS w ON TRUE")
  echo "pos_sales_lines     $(field 1 "$r") lines (Iceberg, append, lake.stream.pos_sales_lines)"
  echo "store_sales_hourly  $(field 2 "$r") store-hours (Iceberg, append, lake.stream.store_sales_hourly)"
  echo "late rows           $(field 3 "$r") lines the hourly window dropped (JSON, $OUT/late_rows)"
  fold top_written "$OUT/final/top_stores"
  echo "the same from the tables' own snapshot summaries (metadata/v<N>.metadata.json):"
  printf '  %-26s %9s %13s %16s %22s %22s\n' table snapshots added-records added-data-files added-equality-deletes added-position-deletes
  local t
  for t in pos_sales_lines store_sales_hourly store_sales_daily; do
    printf '  %-26s %9s %13s %16s %22s %22s\n' "stream.$t" "$(snapshot_sum "$t" operation)" "$(snapshot_sum "$t" added-records)" \
      "$(snapshot_sum "$t" added-data-files)" "$(snapshot_sum "$t" added-equality-deletes)" "$(snapshot_sum "$t" added-position-deletes)"
  done
  r=$(q "SELECT COUNT(*), SUM(lines), SUM(net_minor) FROM daily_final")
  echo "store_sales_daily   read back (Iceberg source): $(field 1 "$r") store-days, $(field 2 "$r") lines, net sales $(field 3 "$r") minor units"
  e=$(event_counts top_events)
  r=$(q "SELECT COUNT(*) FROM top_final")
  echo "top_stores          $(field 1 "$e") Debezium events (c $(field 2 "$e"), d $(field 3 "$e")) ($OUT/top_stores)"
  echo "                    read back by key: $r rows"
}

# mode_of PATTERN: the changelogMode of the first physical node matching PATTERN in the EXPLAIN on stdin.
mode_of() {
  sed -n '/== Optimized Physical Plan ==/,/== Optimized Execution Plan ==/p' | grep -m1 -E "$1" |
    sed -E 's/.*changelogMode=\[([^]]*)\].*/\1/'
}

part_explain() {
  section "explain: what each query emits (EXPLAIN CHANGELOG_MODE)"
  local et="SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY basket_id ORDER BY event_ts ASC) AS rn FROM pos_basket_events) WHERE rn = 1"
  local hourly="SELECT store_id, window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE sales_lines, DESCRIPTOR(event_ts), INTERVAL '1' HOUR)) GROUP BY store_id, window_start, window_end"
  printf '%-46s %-38s %s\n' query operator emits
  row() {  # LABEL OPERATOR PATTERN SQL [DDL]
    local m
    m=$(sl -e "${5:-} EXPLAIN CHANGELOG_MODE $4" | mode_of "$3" || true)
    printf '%-46s %-38s %s\n' "$1" "$2" "${m:-?}"
  }
  row "dedup, first copy by arrival" "Deduplicate FirstRow on PROCTIME" 'Deduplicate\(keep=\[FirstRow\].*PROCTIME' "SELECT * FROM baskets"
  row "dedup, first copy by event time" "Deduplicate FirstRow on ROWTIME" 'Deduplicate\(keep=\[FirstRow\].*ROWTIME' "$et"
  row "versioned view (latest price per key)" "Deduplicate LastRow on ROWTIME" 'Deduplicate\(keep=\[LastRow\].*ROWTIME' "SELECT * FROM price_versions"
  row "temporal join (price as of the sale)" "TemporalJoin" '^[ :|+-]*TemporalJoin\(' "SELECT * FROM sales_lines"
  row "tumbling window, 1 hour" "WindowAggregate" '^[ :|+-]*WindowAggregate\(' "$hourly"
  row "running total per store and day" "GroupAggregate" '^[ :|+-]*GroupAggregate\(' "$DAILY_QUERY"
  row "top 3 stores per country" "Rank" '^[ :|+-]*Rank\(' "$TOPN_QUERY"
  local ins
  ins=$(iceberg_ddl store_sales_daily store_sales_daily)
  row "running total into the Iceberg upsert sink" "GroupAggregate -> Sink" '^[ :|+-]*GroupAggregate\(' "INSERT INTO lake.\`stream\`.store_sales_daily $DAILY_QUERY" "$ins"
  # The statement set: which expensive operators run, and how often.
  local plan
  plan=$(sed 's/^EXECUTE STATEMENT SET/EXPLAIN CHANGELOG_MODE EXECUTE STATEMENT SET/' "$SQL/pipeline.sql" | sl /dev/stdin |
    sed -n '/== Optimized Physical Plan ==/,/== Optimized Execution Plan ==/p')
  echo
  echo "the statement set (4 INSERTs), in its optimized plan:"
  printf '  %-40s %s\n' "TemporalJoin" "$(grep -c 'TemporalJoin(' <<<"$plan")"
  printf '  %-40s %s\n' "Deduplicate (baskets, PROCTIME)" "$(grep -c 'Deduplicate(keep=\[FirstRow\], key=\[basket_id\]' <<<"$plan")"
  printf '  %-40s %s\n' "Deduplicate (price_versions, ROWTIME)" "$(grep -c 'Deduplicate(keep=\[LastRow\]' <<<"$plan")"
  printf '  %-40s %s\n' "TableSourceScan" "$(grep -c 'TableSourceScan(' <<<"$plan")"
  printf '  %-40s %s\n' "sub-plans shared (Reused references)" "$(grep -c 'Reused(reference_id=' <<<"$plan")"
}

# The error message on stdin (the lines from "sluice: error" to the first blank one), indented.
error_lines() { awk '/^sluice: error/ { on = 1; sub(/^sluice: error[^:]*: /, "") } on && /^$/ { exit } on { print "  " $0 }'; }

part_errors() {
  section "errors: sinks that cannot store what a query emits (planning errors)"
  local msg
  echo "an updating query into an append-only sink (filesystem):"
  if msg=$("$SLUICE" explain -i "$SQL/tables.sql" -e "CREATE TABLE store_totals_append (store_id STRING, net_minor BIGINT) WITH ('connector' = 'filesystem', 'path' = '$OUT/never', 'format' = 'json'); INSERT INTO store_totals_append SELECT store_id, SUM(net_minor) FROM sales_lines GROUP BY store_id" 2>&1 >/dev/null); then
    echo "  (planned without an error: unexpected)"; return 1
  fi
  error_lines <<<"$msg"
  echo "an upsert-kafka table without a primary key:"
  if msg=$("$SLUICE" explain -i "$SQL/tables.sql" -e "CREATE TABLE top_stores_no_key (country STRING, store_id STRING, sales_minor BIGINT) WITH ('connector' = 'upsert-kafka', 'topic' = 'top-stores', 'properties.bootstrap.servers' = 'mock://larkspur', 'key.format' = 'json', 'value.format' = 'json'); INSERT INTO top_stores_no_key SELECT country, store_id, SUM(net_minor) FROM sales_lines GROUP BY country, store_id" 2>&1 >/dev/null); then
    echo "  (planned without an error: unexpected)"; return 1
  fi
  error_lines <<<"$msg"
}

part_dedup() {
  section "dedup: the first copy of each basket by arrival vs by event time"
  local d=$OUT/dedup
  rm -rf "$d"
  cat >"$SQL/dedup.sql" <<EOF
CREATE TABLE dedup_late_rows (operator STRING, \`watermark\` TIMESTAMP(3), \`row\` STRING, event_time TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/late_rows', 'format' = 'json');
CREATE TABLE kept_by_arrival (basket_id STRING, event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/by_arrival', 'format' = 'json');
CREATE TABLE kept_by_event_time (basket_id STRING, event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/by_event_time', 'format' = 'json');
SET 'sluice.exec.late-rows.table' = 'dedup_late_rows';
CREATE VIEW baskets_by_event_time AS
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY basket_id ORDER BY event_ts ASC) AS rn FROM pos_basket_events)
WHERE rn = 1;
EXECUTE STATEMENT SET
BEGIN
INSERT INTO kept_by_arrival SELECT basket_id, event_ts, uploaded_at FROM baskets;
INSERT INTO kept_by_event_time SELECT basket_id, event_ts, uploaded_at FROM baskets_by_event_time;
END;
EOF
  sl "$SQL/dedup.sql" >/dev/null
  cat >>"$SQL/outputs.sql" <<EOF
CREATE TABLE dedup_arrival (basket_id STRING, event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/by_arrival', 'format' = 'json');
CREATE TABLE dedup_event_time (basket_id STRING, event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/by_event_time', 'format' = 'json');
CREATE TABLE dedup_late (operator STRING, \`watermark\` TIMESTAMP(3), \`row\` STRING, event_time TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '$d/late_rows', 'format' = 'json');
CREATE VIEW dedup_late_baskets AS
SELECT DISTINCT REGEXP_EXTRACT(\`row\`, '"basket_id":"([^"]*)"', 1) AS basket_id FROM dedup_late;
CREATE VIEW dedup_dropped AS
SELECT a.basket_id, a.event_ts, a.uploaded_at FROM dedup_arrival AS a
LEFT JOIN dedup_event_time AS e ON a.basket_id = e.basket_id WHERE e.basket_id IS NULL;
EOF
  local r
  r=$(q "SELECT a.n, e.n, a.n - e.n FROM (SELECT COUNT(*) AS n FROM dedup_arrival) AS a JOIN (SELECT COUNT(*) AS n FROM dedup_event_time) AS e ON TRUE")
  echo "first copy by arrival:    $(field 1 "$r") baskets"
  echo "first copy by event time: $(field 2 "$r") baskets"
  echo "difference:               $(field 3 "$r") baskets"
  r=$(q "SELECT COUNT(*), COUNT(DISTINCT REGEXP_EXTRACT(\`row\`, '\"basket_id\":\"([^\"]*)\"', 1)) FROM dedup_late")
  echo "late-row side output of the event-time dedup: $(field 1 "$r") rows, $(field 2 "$r") baskets"
  r=$(q "SELECT COALESCE(SUM(CASE WHEN e.basket_id IS NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN e.basket_id IS NULL AND l.basket_id IS NOT NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN e.basket_id IS NULL AND TIMESTAMPDIFF(MINUTE, a.event_ts, a.uploaded_at) >= 120 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN e.basket_id IS NOT NULL AND l.basket_id IS NOT NULL THEN 1 ELSE 0 END), 0) FROM dedup_arrival AS a LEFT JOIN dedup_event_time AS e ON a.basket_id = e.basket_id LEFT JOIN dedup_late_baskets AS l ON a.basket_id = l.basket_id")
  echo "  of those baskets: $(field 4 "$r") were kept (a late re-send of a basket already kept), $(field 2 "$r") were dropped"
  echo "dropped baskets (kept by arrival, not by event time): $(field 1 "$r"), found in the side output: $(field 2 "$r"); uploaded 2 hours or more after the sale: $(field 3 "$r")"
  q "SELECT basket_id FROM dedup_dropped ORDER BY basket_id" >"$d/dropped_baskets.csv"
  echo "the first five dropped (by sale time):"
  printf '  %-24s %-23s %-23s\n' basket_id event_ts uploaded_at
  q "SELECT basket_id, event_ts, uploaded_at FROM dedup_dropped ORDER BY event_ts, basket_id LIMIT 5" |
    while IFS=, read -r b e u; do printf '  %-24s %-23s %-23s\n' "$b" "$e" "$u"; done
}

ensure_run() {
  if [[ ! -f "$OUT/pipeline.log" || ! -f "$OUT/final/top_stores/final.json" ]] || ! lake_metadata store_sales_daily >/dev/null 2>&1; then
    part_run >/dev/null
  fi
}

part_asof() {
  ensure_run
  section "asof: each line priced as of its sale (temporal join) vs the latest price"
  local r
  r=$(q "SELECT COUNT(*), COUNT(list_price_minor), COALESCE(SUM(CASE WHEN unit_price_minor = list_price_minor THEN 1 ELSE 0 END), 0) FROM lines_written")
  echo "all lines: $(field 1 "$r"); priced $(field 2 "$r"); till price = as-of list price on $(field 3 "$r")"
  r=$(q "SELECT COALESCE(SUM(CASE WHEN list_price_minor IS NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN list_price_minor IS NULL AND uploaded_at >= TIMESTAMPADD(HOUR, 2, event_ts) THEN 1 ELSE 0 END), 0) FROM lines_written")
  echo "unpriced (NULL from the LEFT temporal join): $(field 1 "$r"), of them uploaded 2 hours or more after the sale: $(field 2 "$r")"
  echo "  (a line behind the watermark finds no version when its price changed between the sale and the watermark:"
  echo "   the join keeps only the newest version at or before the watermark)"
  echo "SKU-00676 in SG stores on business date $DAY, as the job wrote it (times UTC):"
  printf '  %-23s %10s %5s  %-23s %-23s %s\n' "price version from" "list price" lines "first sale" "last sale" "till agrees"
  q "SELECT price_from, list_price_minor, COUNT(*) AS n, MIN(event_ts) AS f, MAX(event_ts) AS l, SUM(CASE WHEN unit_price_minor = list_price_minor THEN 1 ELSE 0 END) AS ok FROM lines_written WHERE sku = 'SKU-00676' AND country = 'SG' AND business_date = DATE '$DAY' GROUP BY price_from, list_price_minor ORDER BY price_from" |
    while IFS=, read -r from price n f l ok; do printf '  %-23s %10s %5s  %-23s %-23s %s\n' "$from" "$price" "$n" "$f" "$l" "$ok"; done
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN l.unit_price_minor <> p.price_minor THEN 1 ELSE 0 END), 0), MAX(p.effective_from) FROM lines_written AS l JOIN (SELECT sku, country, price_minor, effective_from FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY sku, country ORDER BY effective_from DESC) AS rn FROM price_changes) WHERE rn = 1) AS p ON l.sku = p.sku AND l.country = p.country")
  echo "joined to each SKU's latest price instead (versions up to $(field 3 "$r")): $(field 2 "$r") of $(field 1 "$r") lines disagree with the till"
}

part_reconcile() {
  ensure_run
  section "reconcile: the daily totals the pipeline wrote vs batch"
  local d=$OUT/reconcile
  rm -rf "$d"
  # The same query as INSERT (3), run as a batch job ('execution.runtime-mode' = 'batch') over the same
  # input into a JSON folder: a batch aggregate writes each store-day once, as an insert.
  sl -e "SET 'execution.runtime-mode' = 'batch'; CREATE TABLE store_sales_daily_batch ($DAILY_COLS) WITH ('connector' = 'filesystem', 'path' = '$d/batch', 'format' = 'json'); INSERT INTO store_sales_daily_batch $DAILY_QUERY;" >/dev/null
  cat >>"$SQL/outputs.sql" <<EOF
-- What the pipeline wrote into store_sales_daily (the Iceberg table read back), and the batch job.
CREATE VIEW stream_daily AS SELECT * FROM daily_final;
CREATE TABLE batch_daily ($DAILY_COLS) WITH ('connector' = 'filesystem', 'path' = '$d/batch', 'format' = 'json');
-- Part 21's accepted events: the first upload of each basket over every upload day of the lake.
CREATE VIEW accepted AS
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY basket_id ORDER BY uploaded_at, event_id) AS rn FROM pos_lake)
WHERE rn = 1;
-- Their lines, with the business date from the stores table's time zone.
CREATE VIEW accepted_lines AS
SELECT a.basket_id, a.store_id, s.country, a.event_ts, a.uploaded_at, CAST(a.uploaded_at AS DATE) AS upload_day,
       CAST(CONVERT_TZ(CAST(a.event_ts AS STRING), 'UTC', s.time_zone) AS DATE) AS business_date,
       l.qty, l.qty * l.unit_price_minor - l.discount_minor AS net_minor
FROM accepted AS a
JOIN stores AS s ON a.store_id = s.store_id
CROSS JOIN UNNEST(a.lines) AS l (line_no, sku, qty, unit_price_minor, discount_minor, promo_id);
CREATE VIEW part21_daily AS
SELECT store_id, business_date, COUNT(DISTINCT basket_id) AS baskets, COUNT(*) AS lines, SUM(qty) AS units_out, SUM(net_minor) AS net_minor
FROM accepted_lines WHERE upload_day = DATE '$DAY' GROUP BY store_id, business_date;
CREATE VIEW gold_daily AS
SELECT store_id, COUNT(DISTINCT basket_id) AS baskets, SUM(net_minor) AS net_minor
FROM accepted_lines WHERE business_date = DATE '$DAY' GROUP BY store_id;
EOF
  local r
  echo "0. store_sales_daily as the pipeline wrote it (read back through the Iceberg source, deletes applied)"
  echo "   vs a batch run of its query ('execution.runtime-mode' = 'batch') over the same input"
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN s.baskets = b.baskets AND s.lines = b.lines AND s.units_out = b.units_out AND s.net_minor = b.net_minor AND s.currency = b.currency THEN 1 ELSE 0 END), 0), COUNT(s.store_id), COUNT(b.store_id) FROM stream_daily AS s FULL JOIN batch_daily AS b ON s.store_id = b.store_id AND s.business_date = b.business_date")
  echo "   store-days $(field 1 "$r") (stream $(field 3 "$r"), batch $(field 4 "$r")), equal $(field 2 "$r")"
  echo "1. stream vs Part 21's accepted events of upload day $DAY (first upload over every upload day)"
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN s.baskets = p.baskets AND s.lines = p.lines AND s.units_out = p.units_out AND s.net_minor = p.net_minor THEN 1 ELSE 0 END), 0) FROM stream_daily AS s FULL JOIN part21_daily AS p ON s.store_id = p.store_id AND s.business_date = p.business_date")
  echo "   store-days $(field 1 "$r"), equal $(field 2 "$r")"
  q "SELECT COALESCE(s.store_id, p.store_id), COALESCE(s.business_date, p.business_date), COALESCE(s.baskets, 0), COALESCE(p.baskets, 0), COALESCE(s.net_minor, 0) - COALESCE(p.net_minor, 0) AS diff FROM stream_daily AS s FULL JOIN part21_daily AS p ON s.store_id = p.store_id AND s.business_date = p.business_date WHERE s.store_id IS NULL OR p.store_id IS NULL OR s.baskets <> p.baskets OR s.net_minor <> p.net_minor ORDER BY 1, 2" |
    while IFS=, read -r st bd sb pb diff; do echo "   differs: $st $bd  stream $sb baskets, Part 21 $pb; stream - Part 21 = $diff minor units"; done
  q "SELECT b.basket_id, b.store_id, a.uploaded_at, b.first_day FROM (SELECT basket_id, store_id, MIN(event_id) AS event_id, MIN(CAST(uploaded_at AS DATE)) AS first_day FROM pos_lake WHERE CAST(uploaded_at AS DATE) <= DATE '$DAY' GROUP BY basket_id, store_id) AS b JOIN accepted AS a ON a.basket_id = b.basket_id JOIN (SELECT DISTINCT basket_id FROM pos_basket_events) AS r ON r.basket_id = b.basket_id WHERE b.first_day < DATE '$DAY' ORDER BY b.basket_id" |
    while IFS=, read -r bid st up fd; do echo "   $bid ($st): a re-send; Part 21 accepted its first copy, uploaded $up (upload day $fd)"; done
  echo "2. business date $DAY: stream vs gold (every accepted basket of that business date)"
  r=$(q "SELECT COUNT(*), SUM(baskets) FROM gold_daily")
  echo "   gold   $(field 1 "$r") stores, $(field 2 "$r") baskets"
  r=$(q "SELECT COUNT(*), SUM(baskets) FROM stream_daily WHERE business_date = DATE '$DAY'")
  echo "   stream $(field 1 "$r") stores, $(field 2 "$r") baskets"
  q "SELECT upload_day, COUNT(DISTINCT basket_id), COUNT(DISTINCT CASE WHEN country = 'GB' THEN basket_id END), COUNT(DISTINCT CASE WHEN country = 'IN' THEN basket_id END), COUNT(DISTINCT CASE WHEN country = 'SG' THEN basket_id END) FROM accepted_lines WHERE business_date = DATE '$DAY' AND upload_day <> DATE '$DAY' GROUP BY upload_day ORDER BY upload_day" |
    while IFS=, read -r ud n gb in sg; do echo "   + accepted baskets of that business date uploaded $ud (UTC upload day): $n (GB $gb, IN $in, SG $sg)"; done
  r=$(q "SELECT COUNT(DISTINCT CASE WHEN a.upload_day < DATE '$DAY' AND b.basket_id IS NOT NULL THEN a.basket_id END) FROM accepted_lines AS a LEFT JOIN (SELECT DISTINCT basket_id FROM pos_basket_events) AS b ON a.basket_id = b.basket_id WHERE a.business_date = DATE '$DAY'")
  echo "   - baskets of that business date the stream counted whose first copy was uploaded earlier: $r"
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN g.baskets = COALESCE(s.baskets, 0) + COALESCE(o.baskets, 0) - COALESCE(e.baskets, 0) AND g.net_minor = COALESCE(s.net_minor, 0) + COALESCE(o.net_minor, 0) - COALESCE(e.net_minor, 0) THEN 1 ELSE 0 END), 0) FROM gold_daily AS g LEFT JOIN (SELECT store_id, baskets, net_minor FROM stream_daily WHERE business_date = DATE '$DAY') AS s ON g.store_id = s.store_id LEFT JOIN (SELECT store_id, COUNT(DISTINCT basket_id) AS baskets, SUM(net_minor) AS net_minor FROM accepted_lines WHERE business_date = DATE '$DAY' AND upload_day <> DATE '$DAY' GROUP BY store_id) AS o ON g.store_id = o.store_id LEFT JOIN (SELECT a.store_id, COUNT(DISTINCT a.basket_id) AS baskets, SUM(a.net_minor) AS net_minor FROM accepted_lines AS a JOIN (SELECT DISTINCT basket_id FROM pos_basket_events) AS b ON a.basket_id = b.basket_id WHERE a.business_date = DATE '$DAY' AND a.upload_day < DATE '$DAY' GROUP BY a.store_id) AS e ON g.store_id = e.store_id")
  echo "   stores where stream + other upload days - earlier copies = gold (baskets and sales): $(field 2 "$r") of $(field 1 "$r")"
  echo "3. store_sales_hourly vs the lines the job wrote"
  r=$(q "SELECT SUM(baskets), SUM(lines), SUM(units_out) FROM hourly_written")
  echo "   hourly windows: $(field 1 "$r") baskets, $(field 2 "$r") lines, $(field 3 "$r") units"
  r=$(q "SELECT COUNT(DISTINCT basket_id), COUNT(*), SUM(qty) FROM lines_written")
  echo "   lines table:    $(field 1 "$r") baskets, $(field 2 "$r") lines, $(field 3 "$r") units"
  cat >>"$SQL/outputs.sql" <<EOF
CREATE VIEW lines_hourly AS
SELECT store_id, FLOOR(event_ts TO HOUR) AS window_start, COUNT(DISTINCT basket_id) AS baskets, COUNT(*) AS lines
FROM lines_written GROUP BY store_id, FLOOR(event_ts TO HOUR);
CREATE VIEW late_hourly AS
SELECT REGEXP_EXTRACT(\`row\`, '"store_id":"([^"]*)"', 1) AS store_id, FLOOR(event_time TO HOUR) AS window_start, COUNT(*) AS lines
FROM window_late_rows GROUP BY REGEXP_EXTRACT(\`row\`, '"store_id":"([^"]*)"', 1), FLOOR(event_time TO HOUR);
CREATE VIEW short_hours AS
SELECT l.store_id, l.window_start, l.baskets - COALESCE(h.baskets, 0) AS baskets, l.lines - COALESCE(h.lines, 0) AS lines
FROM lines_hourly AS l LEFT JOIN hourly_written AS h ON l.store_id = h.store_id AND l.window_start = h.window_start
WHERE l.lines <> COALESCE(h.lines, 0);
EOF
  r=$(q "SELECT COALESCE(SUM(l.baskets - COALESCE(h.baskets, 0)), 0), COALESCE(SUM(l.lines - COALESCE(h.lines, 0)), 0), COALESCE(SUM(CASE WHEN l.lines <> COALESCE(h.lines, 0) THEN 1 ELSE 0 END), 0) FROM lines_hourly AS l LEFT JOIN hourly_written AS h ON l.store_id = h.store_id AND l.window_start = h.window_start")
  echo "   missing from the windows: $(field 1 "$r") baskets, $(field 2 "$r") lines, in $(field 3 "$r") store-hours"
  r=$(q "SELECT COALESCE(SUM(CASE WHEN s.store_id IS NOT NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN s.lines = t.lines THEN 1 ELSE 0 END), 0) FROM lines_hourly AS l LEFT JOIN short_hours AS s ON l.store_id = s.store_id AND l.window_start = s.window_start LEFT JOIN late_hourly AS t ON s.store_id = t.store_id AND s.window_start = t.window_start")
  echo "   store-hours whose gap is exactly the window's late rows (side output): $(field 2 "$r") of $(field 1 "$r")"
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN up < TIMESTAMPADD(HOUR, 2, ts) THEN 1 ELSE 0 END), 0) FROM (SELECT basket_id, MIN(event_ts) AS ts, MIN(uploaded_at) AS up FROM lines_written GROUP BY basket_id) WHERE up > TIMESTAMPADD(MINUTE, 5, ts)")
  echo "   baskets uploaded more than 5 minutes after the sale: $(field 1 "$r") ($(field 2 "$r") of them within 2 hours)"
}

# qs SQL: a streaming query's changes as CSV rows without the header, in the order they are emitted
# (the first field is the change kind Sluice prints, then the query's columns).
qs() {
  "$SLUICE" run --format csv -i "$SQL/tables.sql" -i "$SQL/lake.sql" -i "$SQL/outputs.sql" -e "$1" 2>>"$LOG" | tail -n +2
}
# The change each Debezium event carries, on stdin as "op,key,..." in the order written: a 'd' directly
# followed by a 'c' of the same key is an update (-U then +U; Flink's debezium-json writes an update as a
# delete and a create); any other 'c' is an insert (+I), any other 'd' a delete (-D). Prints
# "change,op,key,..." per event.
changes_of_events() {
  awk -F, '{ op[NR] = $1; key[NR] = $2; line[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) {
        if (op[i] == "d" && i < NR && op[i + 1] == "c" && key[i + 1] == key[i]) { k[i] = "-U"; k[i + 1] = "+U"; i++ }
        else k[i] = (op[i] == "c") ? "+I" : "-D"
      }
      for (i = 1; i <= NR; i++) print k[i] "," line[i]
    }'
}

part_changelog() {
  ensure_run
  section "changelog: a running total and a Top-N as changelogs (Debezium events)"
  local d=$OUT/changelog
  rm -rf "$d"
  mkdir -p "$d"
  # INSERT (3) of pipeline.sql once more, into a debezium-json sink with the same key: the changes that
  # the Iceberg upsert table turns into equality and position deletes.
  sl -e "CREATE TABLE store_sales_daily_changelog ($DAILY_COLS, PRIMARY KEY (store_id, business_date) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '$d/store_sales_daily', 'format' = 'debezium-json'); INSERT INTO store_sales_daily_changelog $DAILY_QUERY;" >/dev/null
  local store=SG-0042
  # SG-0042's events of the replay day's business date, read from the debezium-json files in order.
  qs "SELECT op, COALESCE(\`after\`.store_id, \`before\`.store_id), COALESCE(\`after\`.baskets, \`before\`.baskets), COALESCE(\`after\`.net_minor, \`before\`.net_minor) FROM daily_events WHERE COALESCE(\`after\`.store_id, \`before\`.store_id) = '$store' AND COALESCE(\`after\`.business_date, \`before\`.business_date) = DATE '$DAY'" |
    cut -d, -f2- | changes_of_events >"$d/store_events.csv"
  local r
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN op = 'c' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN op = 'd' THEN 1 ELSE 0 END), 0) FROM daily_events WHERE COALESCE(\`after\`.store_id, \`before\`.store_id) = '$store' AND COALESCE(\`after\`.business_date, \`before\`.business_date) = DATE '$DAY'")
  echo "$store, business date $DAY, the daily INSERT written as Debezium events: $(field 1 "$r") events (c $(field 2 "$r"), d $(field 3 "$r")); the first 5 and the last:"
  printf '  %-4s %-6s %-8s %7s %12s\n' op change store_id baskets sales_minor
  { head -5 "$d/store_events.csv"; tail -1 "$d/store_events.csv"; } |
    while IFS=, read -r k op st b s; do printf '  %-4s %-6s %-8s %7s %12s\n' "$op" "$k" "$st" "$b" "$s"; done
  echo "  changes: +I $(grep -c '^+I' "$d/store_events.csv" || true), -U $(grep -c '^-U' "$d/store_events.csv" || true), +U $(grep -c '^+U' "$d/store_events.csv" || true), -D $(grep -c '^-D' "$d/store_events.csv" || true)"
  r=$(q "SELECT baskets, net_minor FROM daily_final WHERE store_id = '$store' AND business_date = DATE '$DAY'")
  echo "  in lake.stream.store_sales_daily (Iceberg source, PRIMARY KEY (store_id, business_date)): $(field 1 "$r") baskets, sales_minor $(field 2 "$r")"
  r=$(event_counts top_events)
  echo "top 3 stores per country, in top_stores: $(field 1 "$r") events (c $(field 2 "$r"), d $(field 3 "$r"))"
  # The same files through the debezium-json source, as a streaming query reads the changelog.
  qs "SELECT * FROM top_written" | cut -d, -f1 | sort | uniq -c >"$d/top_kinds.txt"
  kinds() { awk -v k="$1" '$2 == k { print $1 }' "$d/top_kinds.txt" | grep . || echo 0; }
  echo "  read back as a changelog: +I $(kinds +I), -U $(kinds -U), +U $(kinds +U), -D $(kinds -D)"
  echo "  read back by key (debezium-json source, PRIMARY KEY (country, store_id)), at the end:"
  q "SELECT country, store_id, sales_minor, baskets FROM top_final ORDER BY country, sales_minor DESC, store_id" |
    while IFS=, read -r c st s b; do printf '  %s %s  sales_minor %12s  baskets %4s\n' "$c" "$st" "$s" "$b"; done
}

# The latency bound is processing (wall-clock) time: a replay reads in well under a minute, so every
# batch closes after exactly 'size' rows and the report is the same on every run.
part_minibatch() {
  ensure_run
  section "mini-batch: rows written to store_sales_daily (Iceberg upsert), without and with mini-batch"
  echo "('table.exec.mini-batch.enabled' = 'true', 'allow-latency' = '1 min', 'size' = '5000'; counts from the"
  echo " tables' snapshot summaries)"
  local d=$OUT/minibatch
  rm -rf "$d" "$WAREHOUSE/stream/store_sales_daily_minibatch"
  mkdir -p "$d"
  # INSERT (3) of pipeline.sql again, into a table like store_sales_daily (same key, partitioning, upsert).
  local mb=(--set table.exec.mini-batch.enabled=true --set "table.exec.mini-batch.allow-latency=1 min" --set table.exec.mini-batch.size=5000)
  sl "${mb[@]}" -e "$(iceberg_ddl store_sales_daily store_sales_daily_minibatch) INSERT INTO lake.\`stream\`.store_sales_daily_minibatch $DAILY_QUERY;" >/dev/null
  cat >>"$SQL/outputs.sql" <<EOF
CREATE VIEW mb_on_final AS SELECT * FROM lake.\`stream\`.store_sales_daily_minibatch;
EOF
  printf '%-34s %13s %10s %11s %10s\n' "" added-records "eq deletes" "pos deletes" "store-days"
  local name table final label r
  for name in off on; do
    table=store_sales_daily; final=daily_final; label="without mini-batch (the pipeline)"
    [[ $name == on ]] && { table=store_sales_daily_minibatch; final=mb_on_final; label="with mini-batch"; }
    r=$(q "SELECT COUNT(*) FROM $final")
    printf '%-34s %13s %10s %11s %10s\n' "$label" "$(snapshot_sum $table added-records)" \
      "$(snapshot_sum $table added-equality-deletes)" "$(snapshot_sum $table added-position-deletes)" "$r"
  done
  r=$(q "SELECT COUNT(*), COALESCE(SUM(CASE WHEN a.baskets = b.baskets AND a.lines = b.lines AND a.units_out = b.units_out AND a.net_minor = b.net_minor AND a.currency = b.currency THEN 1 ELSE 0 END), 0) FROM daily_final AS a FULL JOIN mb_on_final AS b ON a.store_id = b.store_id AND a.business_date = b.business_date")
  echo "final tables (read back through the Iceberg source): $(field 1 "$r") store-days, equal $(field 2 "$r")"
}

source "$HERE/kafka_part.sh"

for p in "${PARTS[@]}"; do "part_$p"; done
