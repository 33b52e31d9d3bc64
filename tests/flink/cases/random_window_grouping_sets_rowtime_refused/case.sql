-- A window aggregation with CUBE whose aggregate reads an expression that keeps the rowtime a time
-- attribute (FLOOR(ts TO HOUR)): Flink 2.2.1's ExpandWindowTableFunctionTransposeRule fails with an
-- internal "Type mismatch" (found by tests/flink/random_queries.py, random query 2015-276); Sluice answers.
CREATE TABLE t (
  id INT, g INT, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT window_start, window_end, g, f, MAX(FLOOR(ts TO HOUR)) AS a0
FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY window_start, window_end, CUBE (g, f);
