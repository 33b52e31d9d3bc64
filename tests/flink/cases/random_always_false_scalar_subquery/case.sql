-- Random query 2010-4 (subquery; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SELECT id
FROM t
WHERE a > (SELECT MAX(u.y) FROM u WHERE CASE WHEN (TRUE AND TRUE) THEN ('Pear' > 'apple') ELSE (CAST(u.ts AS DATE) IS NOT NULL) END);
