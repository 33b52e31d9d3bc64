-- SUM of a DOUBLE in a HOP window: Flink adds per-slice sums, the last digit differs (random query 6-277)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT window_start, window_end, SUM(x) FILTER (WHERE f) AS a0, MIN(COALESCE(s, k)) AS a1
FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '15' SECOND, INTERVAL '45' SECOND))
GROUP BY window_start, window_end;
