-- A TUMBLE aggregation over a changelog whose deletes and update-befores retract rows it never saw:
-- the row count goes below 0 and the window is still emitted (only a count of 0 is empty).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/unmatched.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, COUNT(*) AS n, SUM(v) AS total, MAX(v) AS hi, MIN(v) AS lo, AVG(v) AS mean, COUNT(DISTINCT v) AS dv
FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, k;
