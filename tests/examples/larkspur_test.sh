#!/usr/bin/env bash
# The Larkspur example end to end: generates a small replay with `sluice gen larkspur`, runs the
# report (examples/larkspur/report.sh) twice, checks that both runs print the same bytes, and checks
# the report's numbers against the ground truth the generator wrote (truth/summary.txt and the lists
# beside it).
#   tests/examples/larkspur_test.sh SLUICE_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
SLUICE=$1
SRC=$2
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
"$SLUICE" gen larkspur --out "$WORK/data" --stores 150 --days 3 --seed 11 2>/dev/null
bash "$SRC/examples/larkspur/report.sh" --sluice "$SLUICE" --data "$WORK/data" --out "$WORK/out1" >"$WORK/report1.txt"
bash "$SRC/examples/larkspur/report.sh" --sluice "$SLUICE" --data "$WORK/data" --out "$WORK/out2" >"$WORK/report2.txt"
# Reproducible: only the output folder's name may differ between the two runs.
if ! diff <(sed "s#$WORK/out1#OUT#g" "$WORK/report1.txt") <(sed "s#$WORK/out2#OUT#g" "$WORK/report2.txt"); then
  echo "FAIL: two runs over the same replay printed different reports"; exit 1
fi
R=$WORK/report1.txt
T=$WORK/data/truth
D=$(sed -n 's/^replay_day=//p' "$T/summary.txt")
failures=0
truth() { sed -n "s/^$1=//p" "$T/summary.txt" | grep . || echo 0; }
# expect LABEL ACTUAL EXPECTED
expect() {
  if [[ -n "$2" && "$2" == "$3" ]]; then echo "ok   $1: $2"; else echo "FAIL $1: report says '$2', expected '$3'"; failures=$((failures + 1)); fi
}
# num REGEX N: the Nth number on the report's first line matching REGEX.
num() { grep -m1 -E "$1" "$R" | grep -oE '[0-9]+' | sed -n "${2}p"; }

# col REGEX N: the Nth whitespace-separated field of the report's first line matching REGEX, without
# thousands separators (the job summary's Iceberg table).
col() { grep -m1 -E "$1" "$R" | tr -d , | awk -v n="$2" '{ print $n }'; }
lines=$(truth "day.$D.lines")
store_days=$(truth "day.$D.store_days")
# run: the job summary's Iceberg table (Step 3): one snapshot per table (one commit at end of input)
for t in pos_sales_lines store_sales_hourly store_sales_daily; do
  expect "$t snapshots" "$(col "^  stream\.$t " 2)" 1
done
expect "pos_sales_lines written = lines" "$(col '^  stream\.pos_sales_lines ' 3)" "$lines"
expect "pos_sales_lines read back = lines" "$(num '^pos_sales_lines ' 1)" "$lines"
expect "pos_sales_lines: no deletes" "$(col '^  stream\.pos_sales_lines ' 5),$(col '^  stream\.pos_sales_lines ' 6)" "0,0"
expect "store_sales_hourly written = read back" "$(col '^  stream\.store_sales_hourly ' 3)" "$(num '^store_sales_hourly ' 1)"
# The upsert table: a row per line, and each row written deletes its key's earlier row: by equality the
# first time a key is written in the commit (one per store-day), by position (the row before it in the
# same commit) after that. So eq + pos = written, and written - pos = live rows.
expect "store_sales_daily written = lines" "$(col '^  stream\.store_sales_daily ' 3)" "$lines"
expect "store_sales_daily eq deletes = store-days" "$(col '^  stream\.store_sales_daily ' 5)" "$store_days"
expect "store_sales_daily pos deletes = lines - store-days" "$(col '^  stream\.store_sales_daily ' 6)" "$(( lines - store_days ))"
expect "store_sales_daily key" "$(grep -m1 '^  stream\.store_sales_daily ' "$R" | awk '{ print $NF }')" "business_date,store_id"
# The tables' snapshot summaries agree with the job summary.
for t in pos_sales_lines store_sales_hourly store_sales_daily; do
  expect "$t snapshot summaries = job summary (snapshots, records, files, eq and pos deletes)" \
    "$(grep -m1 -E "^  stream\.$t .*[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$" "$R" | awk '{ print $2, $3, $4, $5, $6 }')" \
    "$(col "^  stream\.$t " 2) $(col "^  stream\.$t " 3) $(col "^  stream\.$t " 4) $(col "^  stream\.$t " 5) $(col "^  stream\.$t " 6)"
done
expect "store_sales_daily store-days read back (Iceberg source)" "$(num '^store_sales_daily   read back \(Iceberg source\)' 1)" "$store_days"
expect "store_sales_daily lines read back" "$(num '^store_sales_daily   read back \(Iceberg source\)' 2)" "$lines"
expect "store_sales_daily net sales read back" "$(num '^store_sales_daily   read back \(Iceberg source\)' 3)" "$(truth "day.$D.net_minor")"
expect "top_stores rows read back" "$(num '^                    read back by key: [0-9]+ rows' 1)" 9
expect "top_stores c - d = rows" "$(( $(num '^top_stores ' 2) - $(num '^top_stores ' 3) ))" 9

# dedup
expect "baskets kept by arrival" "$(num '^first copy by arrival' 1)" "$(truth "day.$D.baskets")"
dropped=$(num '^difference:' 1)
expect "dropped baskets found in the side output" "$(num '^dropped baskets' 2)" "$dropped"
late_truth=$(grep -c "\"upload_day\":\"$D\"" "$T/late_baskets.json" || true)
expect "dropped baskets <= late baskets in the truth" "$(( dropped <= late_truth ))" 1
missing=0
while read -r b; do
  grep -q "\"upload_day\":\"$D\",\"basket_id\":\"$b\"" "$T/late_baskets.json" || { echo "  $b dropped but not late in the truth"; missing=$((missing + 1)); }
done <"$WORK/out1/dedup/dropped_baskets.csv"
expect "dropped baskets that the truth lists as late (uploaded > 2 h after the sale)" "$missing" 0
expect "dropped baskets listed" "$(wc -l <"$WORK/out1/dedup/dropped_baskets.csv")" "$dropped"

# asof
expect "all lines" "$(num '^all lines' 1)" "$(truth "day.$D.lines")"
expect "till price = as-of list price on every priced line" "$(num '^all lines' 3)" "$(num '^all lines' 2)"
expect "lines that disagree with each SKU's latest price" "$(grep -m1 'latest price instead' "$R" | sed -E 's/.*: ([0-9]+) of.*/\1/')" "$(truth "day.$D.lines_latest_price_differs")"
while read -r from price n; do
  t=$(grep "\"upload_day\":\"$D\",\"business_date\":\"$D\",\"country\":\"SG\",\"sku\":\"SKU-00676\",\"price_from\":\"${from/T/ }\",\"price_minor\":$price," "$T/prices_charged.json" |
    sed -E 's/.*"lines":([0-9]+).*/\1/' || true)
  expect "SKU-00676 SG lines at $price" "$n" "${t:-0}"
done < <(sed -n '/^  price version from/,/^joined/p' "$R" | grep -E '^  2026' | awk '{print $1"T"substr($2,1,8), $3, $4}')

# reconcile
expect "stream = batch on every store-day" "$(num '^   store-days .*batch' 4)" "$(num '^   store-days .*batch' 1)"
expect "store-days in the batch run" "$(num '^   store-days .*batch' 3)" "$(truth "day.$D.store_days")"
expect "store-days of the upload day" "$(num '^   store-days [0-9]+, equal' 1)" "$(truth "day.$D.store_days")"
expect "store-days equal to Part 21" "$(num '^   store-days [0-9]+, equal' 2)" \
  "$(( $(truth "day.$D.store_days") - $(truth "day.$D.store_days_with_earlier_first_copy") ))"
expect "re-sends whose first copy is outside the replay" "$(grep -c 'a re-send; Part 21 accepted' "$R" || true)" "$(truth "day.$D.baskets_first_copy_earlier_day")"
expect "gold baskets" "$(num '^   gold ' 2)" "$(truth "business_date.$D.gold_baskets")"
expect "gold stores" "$(num '^   gold ' 1)" "$(truth "business_date.$D.gold_stores")"
expect "stream baskets of the business date" "$(num '^   stream [0-9]+ stores' 2)" "$(truth "business_date.$D.stream_baskets")"
while read -r day n; do
  expect "accepted baskets of $D first uploaded on $day" "$n" "$(truth "business_date.$D.first_uploaded.$day")"
done < <(grep -E '^   \+ accepted baskets' "$R" | sed -E 's/.*uploaded ([0-9-]+) .*: ([0-9]+) .*/\1 \2/')
expect "stream baskets whose first copy was earlier" "$(num '^   - baskets of that business date' 1)" "$(truth "business_date.$D.stream_baskets_first_copy_earlier_day")"
expect "stores where the buckets add up to gold" "$(num '^   stores where' 1)" "$(num '^   stores where' 2)"
expect "lines table baskets" "$(num '^   lines table' 1)" "$(truth "day.$D.baskets")"
expect "lines table lines" "$(num '^   lines table' 2)" "$(truth "day.$D.lines")"
expect "lines table units" "$(num '^   lines table' 3)" "$(truth "day.$D.units")"
expect "store-hours whose gap is the window's late rows" "$(num 'gap is exactly' 1)" "$(num '^   missing from the windows' 3)"
expect "baskets uploaded > 5 min after the sale" "$(num '^   baskets uploaded more than 5' 2)" "$(truth "day.$D.baskets_uploaded_after_5min")"
expect "... of them within 2 hours" "$(num '^   baskets uploaded more than 5' 3)" "$(truth "day.$D.baskets_uploaded_after_5min_within_2h")"

# changelog: SG-0042's running total (an insert, then a d and a c per further line) and the Top-N
sg_events=$(num '^SG-0042, business date' 5)
sg_c=$(num '^SG-0042, business date' 6)
sg_d=$(num '^SG-0042, business date' 7)
expect "SG-0042 events = c + d" "$sg_events" "$(( sg_c + sg_d ))"
expect "SG-0042 changes: one +I" "$(num '^  changes: \+I' 1)" 1
expect "SG-0042 changes: a -U per d" "$(num '^  changes: \+I' 2)" "$sg_d"
expect "SG-0042 changes: a +U per d" "$(num '^  changes: \+I' 3)" "$sg_d"
expect "SG-0042 changes: no -D" "$(num '^  changes: \+I' 4)" 0
expect "SG-0042 last event = the row read back" "$(sed -n '/^SG-0042, business date/,/^  changes/p' "$R" | tail -2 | head -1 | awk '{print $4, $5}')" \
  "$(grep -m1 '^  in lake.stream.store_sales_daily (Iceberg source' "$R" | sed -E 's/.*: ([0-9]+) baskets, sales_minor ([0-9]+)$/\1 \2/')"
expect "Top-N events read back: +I per c" "$(num '^  read back as a changelog' 1)" "$(num '^top 3 stores per country, in top_stores' 3)"
expect "Top-N events read back: -D per d" "$(num '^  read back as a changelog' 4)" "$(num '^top 3 stores per country, in top_stores' 4)"
expect "top-N rows at the end" "$(sed -n '/^top 3 stores per country, in top_stores/,/^$/p' "$R" | grep -cE '^  (GB|IN|SG) ')" 9

# mini-batch
# mini-batch: the daily upsert table's snapshot summaries (added-records, eq and pos deletes) and live rows
expect "rows written without mini-batch (one per line)" "$(num '^without mini-batch' 1)" "$lines"
for m in without with; do
  expect "store-days $m mini-batch (read back)" "$(num "^$m mini-batch" 4)" "$store_days"
  expect "eq deletes $m mini-batch = store-days" "$(num "^$m mini-batch" 2)" "$store_days"
  expect "eq + pos deletes $m mini-batch = written (an upsert deletes its key's earlier row)" \
    "$(( $(num "^$m mini-batch" 2) + $(num "^$m mini-batch" 3) ))" "$(num "^$m mini-batch" 1)"
  expect "written - pos deletes $m mini-batch = live rows" "$(( $(num "^$m mini-batch" 1) - $(num "^$m mini-batch" 3) ))" "$store_days"
done
expect "fewer rows written with mini-batch" "$(( $(num '^with mini-batch' 1) < $(num '^without mini-batch' 1) ))" 1
expect "final tables equal" "$(num '^final tables' 2)" "$(truth "day.$D.store_days")"

if [[ $failures -ne 0 ]]; then echo "$failures check(s) failed; report: $R"; exit 1; fi
echo "all checks passed"
