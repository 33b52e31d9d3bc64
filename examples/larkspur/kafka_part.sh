# The report's kafka part (sourced by report.sh, which sets SLUICE, SQL, OUT, LOG, KAFKA and the helpers):
# the pipeline on a Kafka broker at $KAFKA (README.md, "On a Kafka broker").
#
# 1. Sluice produces the replay into two topics: the POS baskets into <prefix>pos (6 partitions, keyed
#    by till_id: 'key.fields' = 'till_id', the default partitioner, Kafka's murmur2 of the key) and the
#    price versions into <prefix>prices (1 partition), each in one transaction ('sink.delivery-guarantee'
#    = 'exactly-once': no checkpoints, so the run is one transaction per table).
# 2. tables.sql's two sources are pointed at the topics (ALTER TABLE ... SET: 'connector' = 'kafka',
#    'properties.isolation.level' = 'read_committed', 'scan.startup.mode' = 'earliest-offset',
#    'scan.bounded.mode' = 'latest-offset', so the job ends) and pipeline.sql's Top-N board becomes an
#    upsert-kafka table on the compacted topic <prefix>top-stores; the Iceberg outputs go to OUT/kafka/.
# 3. The board topic read back by Sluice: its records (upserts, and tombstones, which a 'kafka' source
#    skips and its job summary counts as skipped=), and the table an upsert-kafka source folds it to,
#    compared with the run part's board.
# 4. A compaction: the board topic's segment.ms is set to 100 ms and min.cleanable.dirty.ratio to 0.01
#    (kafka-configs), then one more upsert (a live key's own row, so the table does not change) rolls the
#    segment the job wrote; the log cleaner then keeps one record per key. The part waits (at most
#    LARKSPUR_COMPACTION_SECONDS, default 120) until the records left are one per key plus that upsert,
#    then counts them again.
#
# Sluice does not create topics. With Kafka's tools at hand ($KAFKA_CP, a classpath glob such as
# tests/interop/kafka_broker.sh sets, or .java-deps/kafka/ from scripts/install-kafka.sh) the part deletes
# and creates the three topics with kafka-topics (org.apache.kafka.tools.TopicCommand); without them,
# they must exist and be empty (README.md shows the commands). LARKSPUR_TOPIC_PREFIX (default
# 'larkspur.') prefixes the topic names.

TOPIC_PREFIX=${LARKSPUR_TOPIC_PREFIX:-larkspur.}

# kafka_tools_cp: the classpath glob of Kafka's tools, or nothing.
kafka_tools_cp() {
  if [[ -n "${KAFKA_CP:-}" ]]; then
    echo "$KAFKA_CP"
  elif [[ -f "$HERE/../../.java-deps/kafka/.pom.sha256" ]] && command -v java >/dev/null; then
    echo "$(cd "$HERE/../.." && pwd)/.java-deps/kafka/*"
  fi
}
# kafka_topics CP ARGS...: kafka-topics against $KAFKA.
kafka_topics() {
  local cp=$1
  shift
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "$KAFKA" "$@"
}
# kafka_fresh_topic CP NAME PARTITIONS [--config K=V]...: deletes NAME if it exists, then creates it
# (retried while the broker still finishes the deletion, at most 60 tries).
kafka_fresh_topic() {
  local cp=$1 name=$2 parts=$3
  shift 3
  kafka_topics "$cp" --delete --if-exists --topic "$name" >>"$LOG" 2>&1
  local i
  for i in $(seq 1 60); do
    if kafka_topics "$cp" --create --topic "$name" --partitions "$parts" --replication-factor 1 "$@" >>"$LOG" 2>&1; then
      return 0
    fi
    sleep 1
  done
  echo "report.sh: could not create topic '$name' on $KAFKA (see $LOG)" >&2
  return 1
}

# board_counts: "records-with-a-value,tombstones,distinct-keys-with-a-value" of the board topic, read by
# Sluice: a 'kafka' source with the key and value as raw strings; it skips tombstones (an append-only
# table has no row for them) and its job summary counts them (skipped=).
board_counts() {
  local err=$KOUT/board_counts.log r skipped
  r=$("$SLUICE" run --format csv --mode table -i "$SQL/kafka_board.sql" \
    -e "SET 'execution.runtime-mode' = 'batch'; SELECT COUNT(*), COUNT(DISTINCT k) FROM board_records" 2>"$err") ||
    { cat "$err" >&2; return 1; }
  r=$(tail -n +2 <<<"$r")
  cat "$err" >>"$LOG"
  skipped=$(grep -m1 -oE 'source board_records\([^)]*\)' "$err" | grep -oE 'skipped=[0-9]+' | cut -d= -f2 || true)
  echo "$(field 1 "$r"),${skipped:-0},$(field 2 "$r")"
}

part_kafka() {
  [[ -n "$KAFKA" ]] || { echo "report.sh: the kafka part needs a broker: --kafka HOST:PORT (or KAFKA=HOST:PORT)" >&2; return 2; }
  ensure_run
  section "kafka: the pipeline on the Kafka broker at $KAFKA"
  KOUT=$OUT/kafka
  rm -rf "$KOUT"
  mkdir -p "$KOUT"
  local pos=${TOPIC_PREFIX}pos prices=${TOPIC_PREFIX}prices board=${TOPIC_PREFIX}top-stores cp
  cp=$(kafka_tools_cp)
  if [[ -n "$cp" ]]; then
    kafka_fresh_topic "$cp" "$pos" 6
    kafka_fresh_topic "$cp" "$prices" 1
    # Compacted; its segment.ms stays long until the records are counted (step 4 shortens it).
    kafka_fresh_topic "$cp" "$board" 1 --config cleanup.policy=compact
    echo "topics (created by kafka-topics): $pos (6 partitions), $prices (1), $board (1, cleanup.policy=compact)"
  else
    echo "topics (created beforehand, README.md): $pos (6 partitions), $prices (1), $board (1, cleanup.policy=compact)"
  fi
  local servers="'properties.bootstrap.servers' = '$KAFKA'"
  local read="'properties.isolation.level' = 'read_committed', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'"
  local lines="ARRAY<ROW<line_no INT, sku STRING, qty INT, unit_price_minor BIGINT, discount_minor BIGINT, promo_id STRING>>"
  # 1. The replay into the topics, written by Sluice from the files.
  cat >"$SQL/kafka_produce.sql" <<EOF
CREATE TABLE pos_topic (
  event_id STRING, basket_id STRING, store_id STRING, till_id STRING, currency STRING,
  event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3), lines $lines
) WITH ('connector' = 'kafka', 'topic' = '$pos', $servers,
  'key.format' = 'raw', 'key.fields' = 'till_id', 'value.format' = 'json', 'sink.partitioner' = 'default',
  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${TOPIC_PREFIX}pos-replay');
CREATE TABLE prices_topic (sku STRING, country STRING, currency STRING, price_minor BIGINT, effective_from TIMESTAMP(3))
WITH ('connector' = 'kafka', 'topic' = '$prices', $servers, 'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${TOPIC_PREFIX}prices-replay');
EXECUTE STATEMENT SET
BEGIN
INSERT INTO pos_topic SELECT event_id, basket_id, store_id, till_id, currency, event_ts, uploaded_at, lines FROM pos_basket_events;
INSERT INTO prices_topic SELECT sku, country, currency, price_minor, effective_from FROM price_changes;
END;
EOF
  "$SLUICE" run -i "$SQL/tables.sql" "$SQL/kafka_produce.sql" >/dev/null 2>"$KOUT/produce.log" ||
    { cat "$KOUT/produce.log" >&2; return 1; }
  cat "$KOUT/produce.log" >>"$LOG"
  local s
  s=$(grep -oE 'sink (pos_topic|prices_topic)\(\+I=[0-9]+' "$KOUT/produce.log" | sed -E 's/sink ([a-z_]+)\(\+I=/\1 /' | sort)
  echo "produced by Sluice (exactly-once, one transaction per topic): $(awk '$1 == "pos_topic" { print $2 }' <<<"$s") basket events into $pos (key till_id), $(awk '$1 == "prices_topic" { print $2 }' <<<"$s") price versions into $prices"
  # 2. The pipeline with its sources on the topics and the board on the compacted topic.
  sed -e "s#$OUT/#$KOUT/#g" "$SQL/tables.sql" >"$SQL/kafka_tables.sql"
  cat >>"$SQL/kafka_tables.sql" <<EOF

-- The kafka part (report.sh --kafka): the two sources on the broker's topics.
ALTER TABLE pos_basket_events RESET ('path');
ALTER TABLE pos_basket_events SET ('connector' = 'kafka', 'topic' = '$pos', $servers, $read);
ALTER TABLE price_changes RESET ('path');
ALTER TABLE price_changes SET ('connector' = 'kafka', 'topic' = '$prices', $servers, $read);
EOF
  local board_with="'connector' = 'upsert-kafka', 'topic' = '$board', $servers, 'key.format' = 'json', 'value.format' = 'json'"
  sed -e "s#$OUT/#$KOUT/#g" \
    -e "s#) WITH ('connector' = 'filesystem', 'path' = '[^']*/top_stores', 'format' = 'debezium-json');#) WITH ($board_with);#" \
    "$SQL/pipeline.sql" >"$SQL/kafka_pipeline.sql"
  grep -q "'upsert-kafka', 'topic' = '$board'" "$SQL/kafka_pipeline.sql" ||
    { echo "report.sh: pipeline.sql's top_stores WITH clause changed; the kafka part cannot point it at $board" >&2; return 1; }
  "$SLUICE" run -i "$SQL/kafka_tables.sql" "$SQL/kafka_pipeline.sql" >/dev/null 2>"$KOUT/pipeline.log" ||
    { cat "$KOUT/pipeline.log" >&2; return 1; }
  cat "$KOUT/pipeline.log" >>"$LOG"
  local src sink
  src=$(grep -oE 'source pos_basket_events\(rows=[0-9]+' "$KOUT/pipeline.log" | head -1 | grep -oE '[0-9]+$' || true)
  sink=$(grep -oE 'sink top_stores\([^)]*\)' "$KOUT/pipeline.log" | head -1 | sed -E 's/sink top_stores\((.*)\)/\1/')
  echo "pipeline.sql on the topics: $src basket events read (read_committed), the board's changes written: $sink"
  # 3. The board topic read back.
  cat >"$SQL/kafka_board.sql" <<EOF
-- The board topic's records: key and value as raw strings (tombstones are skipped and counted).
CREATE TABLE board_records (k STRING, v STRING) WITH ('connector' = 'kafka', 'topic' = '$board', $servers, $read,
  'key.format' = 'raw', 'key.fields' = 'k', 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY');
-- The board as the table the topic folds to.
CREATE TABLE board ($TOP_COLS, PRIMARY KEY (country, store_id) NOT ENFORCED)
WITH ($board_with, 'properties.isolation.level' = 'read_committed', 'scan.bounded.mode' = 'latest-offset');
-- The folded board, for batch queries.
CREATE TABLE board_final ($TOP_COLS) WITH ('connector' = 'filesystem', 'path' = '$KOUT/final', 'format' = 'json');
EOF
  local c keys
  c=$(board_counts) || return 1
  keys=$(field 3 "$c")
  echo "$board: $(( $(field 1 "$c") + $(field 2 "$c") )) records: $(field 1 "$c") upserts, $(field 2 "$c") tombstones, $keys keys"
  rm -rf "$KOUT/final"
  mkdir -p "$KOUT/final"
  "$SLUICE" run --format jsonl --mode table -i "$SQL/kafka_board.sql" -e "SELECT * FROM board" 2>>"$LOG" >"$KOUT/final/final.json"
  local equal=no
  cmp -s <(sort "$KOUT/final/final.json") <(sort "$OUT/final/top_stores/final.json") && equal=yes
  echo "  read back by key (upsert-kafka source): $(wc -l <"$KOUT/final/final.json") rows; equal to the run part's board: $equal"
  # 4. Compaction: with the board's segments rolling after 100 ms and any dirty share cleanable
  # (kafka-configs), a live key's own row once more rolls the segment the job wrote.
  if [[ -n "$cp" ]]; then
    java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" org.apache.kafka.tools.ConfigCommand \
      --bootstrap-server "$KAFKA" --alter --entity-type topics --entity-name "$board" \
      --add-config segment.ms=100,min.cleanable.dirty.ratio=0.01 >>"$LOG" 2>&1
    sleep 1  # the segment must be older than segment.ms when the next record comes
  fi
  local first
  first=$(sort "$KOUT/final/final.json" | head -1 | cut -d'"' -f8)
  # roll: that row once more (sent again every 10 s while no compaction shows, in case the segment
  # did not roll: each roll leaves the topic's folded table and its final record count unchanged).
  roll() {
    "$SLUICE" run -i "$SQL/kafka_board.sql" -e "INSERT INTO board SELECT * FROM board_final WHERE store_id = '$first';" \
      >/dev/null 2>>"$LOG"
  }
  roll
  local want=$((keys + 1)) deadline=$((SECONDS + ${LARKSPUR_COMPACTION_SECONDS:-120})) n next=$((SECONDS + 10))
  while :; do
    c=$(board_counts) || return 1
    n=$(( $(field 1 "$c") + $(field 2 "$c") ))
    [[ $n -le $want || $SECONDS -ge $deadline ]] && break
    sleep 1
    if [[ $SECONDS -ge $next ]]; then
      roll
      next=$((SECONDS + 10))
    fi
  done
  if [[ $n -gt $want ]]; then
    echo "  compaction not observed within ${LARKSPUR_COMPACTION_SECONDS:-120} s: $n records (the topic's cleanup.policy, segment.ms and the broker's log.cleaner.backoff.ms decide when)"
    return 0
  fi
  echo "  after one more upsert (a live row, unchanged) and a compaction: $n records: $(field 1 "$c") upserts, $(field 2 "$c") tombstones"
  echo "  keys left after compaction: $(( $(field 3 "$c") + $(field 2 "$c") )) ($(field 3 "$c") with a value, $(field 2 "$c") deleted: tombstones stay for delete.retention.ms)"
  "$SLUICE" run --format jsonl --mode table -i "$SQL/kafka_board.sql" -e "SELECT * FROM board" 2>>"$LOG" >"$KOUT/compacted.json"
  equal=no
  cmp -s <(sort "$KOUT/compacted.json") <(sort "$OUT/final/top_stores/final.json") && equal=yes
  echo "  read back by key after compaction: $(wc -l <"$KOUT/compacted.json") rows; equal to the run part's board: $equal"
}
