#!/usr/bin/env bash
# The Larkspur pipeline on a real Kafka broker (issue 17): run under tests/interop/kafka_broker.sh, which
# sets KAFKA_BOOTSTRAP and KAFKA_CP. Generates a small replay, runs the report's run part (the files, as
# `make demo` does) and its kafka part (examples/larkspur/kafka_part.sh: the replay produced into a
# 6-partition POS topic and a price topic by Sluice, the pipeline reading them with read_committed, the
# Top-N board written to an upsert-kafka compacted topic), and checks the kafka part's numbers: the
# events produced and read, the board topic's records against the sink's changes, the board read back
# equal to the run part's board (the files, folded), and after a compaction one record per key.
#   kafka_broker.sh bash tests/interop/larkspur_kafka_test.sh SLUICE_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
SLUICE=$1
SRC=$2
WORK=$3
: "${KAFKA_BOOTSTRAP:?run this under tests/interop/kafka_broker.sh}"
rm -rf "$WORK"
mkdir -p "$WORK"
"$SLUICE" gen larkspur --out "$WORK/data" --stores 150 --days 1 --seed 11 2>/dev/null
# The compaction wait is bounded well inside the test's timeout.
LARKSPUR_COMPACTION_SECONDS=60 bash "$SRC/examples/larkspur/report.sh" --sluice "$SLUICE" --data "$WORK/data" \
  --out "$WORK/out" --kafka "$KAFKA_BOOTSTRAP" run kafka >"$WORK/report.txt"
cat "$WORK/report.txt"
R=$WORK/report.txt
T=$WORK/data/truth
D=$(sed -n 's/^replay_day=//p' "$T/summary.txt")
failures=0
truth() { sed -n "s/^$1=//p" "$T/summary.txt" | grep . || echo 0; }
expect() {
  if [[ -n "$2" && "$2" == "$3" ]]; then echo "ok   $1: $2"; else echo "FAIL $1: report says '$2', expected '$3'"; failures=$((failures + 1)); fi
}
# num REGEX N: the Nth number on the report's first line matching REGEX.
num() { grep -m1 -E "$1" "$R" | grep -oE '[0-9]+' | sed -n "${2}p"; }

events=$(truth "day.$D.events")
expect "basket events produced into the POS topic" "$(num '^produced by Sluice' 1)" "$events"
expect "price versions produced" "$(num '^produced by Sluice' 2)" "$(wc -l <"$WORK/data/prices/price_changes.json" | tr -d " ")"
expect "basket events the pipeline read (read_committed)" "$(num '^pipeline.sql on the topics:' 1)" "$events"
ins=$(grep -m1 '^pipeline.sql on the topics:' "$R" | grep -oE '\+I=[0-9]+' | cut -d= -f2)
del=$(grep -m1 '^pipeline.sql on the topics:' "$R" | grep -oE '\-D=[0-9]+' | cut -d= -f2)
board='^larkspur\.top-stores: '
expect "board records = upserts + tombstones" "$(num "$board" 1)" "$(( $(num "$board" 2) + $(num "$board" 3) ))"
expect "board upserts = the sink's +I" "$(num "$board" 2)" "$ins"
expect "board tombstones = the sink's -D" "$(num "$board" 3)" "$del"
expect "board rows read back (upsert-kafka)" "$(num '^  read back by key \(upsert-kafka source\)' 1)" 9
expect "board equal to the run part's (files)" "$(grep -m1 -oE 'read back by key \(upsert-kafka source\).*board: [a-z]+' "$R" | grep -oE '[a-z]+$')" yes
expect "the run part's board rows" "$(num '^                    read back by key: [0-9]+ rows' 1)" 9
keys=$(num "$board" 4)
after='^  after one more upsert'
expect "compaction observed" "$(grep -c "$after" "$R" || true)" 1
expect "records after compaction = keys + the extra upsert" "$(num "$after" 1)" "$((keys + 1))"
expect "upserts after compaction = board rows + the extra upsert" "$(num "$after" 2)" 10
expect "tombstones after compaction = keys - board rows" "$(num "$after" 3)" "$((keys - 9))"
expect "keys left after compaction" "$(num '^  keys left after compaction' 1)" "$keys"
expect "board after compaction equal to the run part's" "$(grep -m1 -oE 'read back by key after compaction.*board: [a-z]+' "$R" | grep -oE '[a-z]+$')" yes
if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all Larkspur-on-Kafka checks passed"
