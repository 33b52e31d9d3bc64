-- A SESSION window without PARTITION BY grouped by f: Flink's sessions span all rows (random query 3-70)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT window_start, window_end, f, COUNT(*) AS n, SUM(a) AS total
FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND))
GROUP BY window_start, window_end, f;
