-- A HOP window aggregation with CUBE: a window aggregation over the TVF rows Expand copies (Flink's
-- LocalWindowAggregate over Expand), so row 2, late for the window [09:59:40, 10:00:00) that has passed,
-- counts only in [09:59:50, 10:00:10) (found by tests/flink/random_queries.py, random query 2014-180;
-- minimised by hand). Sluice planned a GroupAggregate over the TVF: updating, and row 2 in both windows.
CREATE TABLE t (
  id INT, g INT, m DECIMAL(10, 2), f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT window_start, window_end, f, g, GROUPING(f) AS gr, COUNT(*) AS n, MIN(m) AS lo
FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND))
WHERE f
GROUP BY window_start, window_end, CUBE (f, g);
