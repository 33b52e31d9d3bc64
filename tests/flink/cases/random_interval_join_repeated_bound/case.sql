-- An interval join whose WHERE repeats a time bound: an interval join on both (random query 6-281;
-- Sluice planned a regular join before the repeated bound counted once)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SELECT (t.m / 3) AS c0
FROM t JOIN u ON t.k = u.k AND u.ts >= t.ts AND u.ts < t.ts + INTERVAL '17' SECOND
WHERE ((u.ts >= t.ts) AND (u.uid BETWEEN 8 AND 9));
