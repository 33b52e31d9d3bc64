-- Random query 2012-39 (unnest; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, e
FROM t LEFT JOIN UNNEST(ARRAY[m, (42.18 / 3), 56.92]) AS ux (e) ON TRUE
WHERE (IF(f, a, a) IS NOT NULL);
