-- CUMULATE merges slices: LAST_VALUE's retracting variant has no merge, so Flink refuses it over a changelog.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, LAST_VALUE(v) AS l FROM TABLE(CUMULATE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)) GROUP BY window_start, window_end;
