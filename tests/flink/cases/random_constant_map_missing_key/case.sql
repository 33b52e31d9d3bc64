-- Random query 2035-96, minimised by hand: Flink 2.2.1 folds a constant MAP's item of a missing key to -1
-- (NULL when the map reads a column); flink_differences.md#a-constant-maps-missing-key.
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, MAP['a', 14, 'b', 10]['c'] AS v FROM t WHERE f;
