-- HOP merges slices: FIRST_VALUE's retracting variant has no merge, so Flink refuses it over a changelog.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, FIRST_VALUE(v) AS f, COUNT(*) AS n FROM TABLE(HOP(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE)) GROUP BY window_start, window_end;
