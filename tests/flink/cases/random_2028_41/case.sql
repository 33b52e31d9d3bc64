-- Random query 2028-41: `0 = (SELECT COUNT(*) ...)` correlated, its condition never true: every row
-- qualifies; Flink 2.2.1 proves the subquery empty and returns no row (flink_differences.md#always-false-conditions).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
CREATE TABLE u (
  uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SELECT id, RPAD(RIGHT('', 0), 1, '#') AS c0, CASE WHEN (g IN (11, 6, 3)) THEN TRY_CAST(CONCAT('-1.005', SUBSTRING(s, 1, 0)) AS BIGINT) ELSE MINUTE(ts) END AS c1, (SELECT MAX(u.y) FROM u WHERE (NOT ((FALSE AND (u.uid > -5)) OR CAST(NULL AS BOOLEAN)))) AS sq
FROM t
WHERE 0 = (SELECT COUNT(*) FROM u WHERE u.g = t.g AND (NOT ((FALSE AND (u.uid > -5)) OR CAST(NULL AS BOOLEAN))));
