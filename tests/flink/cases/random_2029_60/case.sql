-- Random query 2029-60: a non-time OVER (ORDER BY m) with AVG(a): a row sorting first leaves one
-- row's INT average as it was but changes its accumulator; the later rows' updates go on (as Flink).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, ts, CAST(ts AS DATE) AS c0, TRY_CAST(CONCAT(' 2026-08-15 ', SUBSTRING(k, 1, 0)) AS DATE) AS c1, AVG(a) OVER (PARTITION BY k ORDER BY m RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS o0
FROM t;
