-- SESSION windows merge sessions: FIRST_VALUE's retracting variant has no merge, so Flink refuses it.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, FIRST_VALUE(v) AS f FROM TABLE(SESSION(TABLE sales PARTITION BY k, DESCRIPTOR(ts), INTERVAL '30' SECOND)) GROUP BY window_start, window_end, k;
