-- An OVER aggregate under a condition Flink proves always false (random query 2004-244): Flink's
-- filter becomes an empty Values without the time attribute and the OVER is refused; Sluice returns no rows.
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, ts, AVG(a) OVER (PARTITION BY g ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS o0
FROM t
WHERE (ts IS NULL) IS TRUE;
