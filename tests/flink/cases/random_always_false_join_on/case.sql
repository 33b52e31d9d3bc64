-- A RIGHT JOIN whose ON is always false: Flink plans the preserved side alone (minimised from random query 4-12; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SELECT COALESCE(COALESCE('b', t.s), u.k) AS c0
FROM t RIGHT JOIN u ON t.k = u.k AND t.g = u.g AND (6 BETWEEN 17 AND 6);
