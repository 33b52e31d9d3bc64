-- Random query 2021-3: a non-time OVER (ORDER BY b, a named window) with COUNT(DISTINCT k): Flink 2.2.1's
-- job fails at run time ("Row arity: 9, but serializer arity: 8"; so does the inline OVER), Sluice answers
-- (flink_differences.md#flinks-planning-failures).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, ts, CAST(YEAR(TRY_CAST(CONCAT('2026-02-30', SUBSTRING(s, 1, 0)) AS DATE)) AS INT) AS c0, MIN(s) OVER w AS o0, COUNT(DISTINCT k) OVER w AS o1
FROM t
WINDOW w AS (PARTITION BY k ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
