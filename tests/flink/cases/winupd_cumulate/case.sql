-- CUMULATE window aggregation over a changelog source (debezium-json): updates, deletes and a row moved between windows; keys whose rows were all retracted are not emitted.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, COUNT(*) AS n, SUM(v) AS total, MIN(v) AS lo
FROM TABLE(CUMULATE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))
GROUP BY window_start, window_end, k;
