-- TUMBLE window aggregation over a changelog source (debezium-json) with the retracting COUNT, SUM, MAX, MIN, AVG and COUNT(DISTINCT).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, COUNT(*) AS n, SUM(v) AS total, MAX(v) AS hi, MIN(v) AS lo, AVG(v) AS mean, COUNT(DISTINCT v) AS dv
FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, k;
