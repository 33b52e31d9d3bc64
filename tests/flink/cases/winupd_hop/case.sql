-- HOP window aggregation over a changelog source: each change in every window of its row time, COUNT(DISTINCT) per slice.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, COUNT(*) AS n, SUM(v) AS total, MAX(v) AS hi, COUNT(DISTINCT v) AS dv
FROM TABLE(HOP(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))
GROUP BY window_start, window_end, k;
