#!/usr/bin/env bash
# Filter push-down into the Iceberg source: a selective filter on a partitioned table, with pruning
# and without ('table.optimizer.source.predicate-pushdown-enabled' = 'false'), in the same run.
# Sluice writes ROWS rows (default 10M) into a table partitioned by p = id / (ROWS / 100) (100
# partitions, one data file each), then runs each query and prints the wall time of both runs, the
# source's summary fields (files read and skipped) and the speed-up; the answers must agree.
#
# Usage: iceberg_prune_bench.sh SLUICE_BINARY [ROWS]
set -euo pipefail
sluice="$1"
rows="${2:-10000000}"
dir="$(mktemp -d /tmp/sluice_iceberg_prune_bench.XXXXXX)"
trap 'rm -rf "$dir"' EXIT
per=$((rows / 100))
catalog="CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file://$dir/wh');"
"$sluice" run -e "$catalog
CREATE DATABASE lake.db;
CREATE TABLE gen (id BIGINT, price DOUBLE, sku STRING) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence',
  'fields.id.start' = '0', 'fields.id.end' = '$((rows - 1))', 'fields.sku.length' = '8', 'rows-per-second' = '1000000000');
CREATE TABLE lake.db.big (id BIGINT, p INT, price DOUBLE, sku STRING) PARTITIONED BY (p);
INSERT INTO lake.db.big SELECT id, CAST(id / $per AS INT), price, sku FROM gen;" 2>"$dir/write.log" >/dev/null
grep "job finished" "$dir/write.log" | sed 's/^/write: /'

run() {  # label, pushdown, query
  local start end
  start=$(date +%s.%N)
  "$sluice" run --format csv --set "table.optimizer.source.predicate-pushdown-enabled=$2" -e "$catalog $3" \
    >"$dir/out.$2" 2>"$dir/err.$2"
  end=$(date +%s.%N)
  echo "$1 pushdown=$2: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f s", b - a }')" \
    "$(grep -o 'source big([^)]*)' "$dir/err.$2")"
  echo "$start $end" >"$dir/time.$2"
}

# Warm the page cache, so neither timed run pays for the first read of the files.
"$sluice" run --set "table.optimizer.source.predicate-pushdown-enabled=false" \
  -e "$catalog SELECT COUNT(*) FROM lake.db.big WHERE price < 0" >/dev/null 2>&1

for q in "partition|SELECT COUNT(*), SUM(price) FROM lake.db.big WHERE p = 42" \
         "metrics|SELECT COUNT(*), SUM(price) FROM lake.db.big WHERE id BETWEEN $((per * 42 + 10)) AND $((per * 42 + 20))"; do
  label="${q%%|*}"
  sql="${q#*|}"
  run "$label" true "$sql"
  run "$label" false "$sql"
  if ! cmp -s "$dir/out.true" "$dir/out.false"; then
    echo "$label: the answers differ"; cat "$dir/out.true" "$dir/out.false"; exit 1
  fi
  read -r s1 e1 <"$dir/time.true"
  read -r s2 e2 <"$dir/time.false"
  awk -v a="$s1" -v b="$e1" -v c="$s2" -v d="$e2" -v l="$label" \
    'BEGIN { printf "%s: pruning is %.1fx faster (%s)\n", l, (d - c) / (b - a), "same answer" }'
done
