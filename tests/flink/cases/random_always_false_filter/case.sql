-- An always-false WHERE: Flink plans an empty Values, Sluice scans and filters (minimised from random query 4-0; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, IF((a BETWEEN 7 AND 6), (ts + INTERVAL '25' SECOND), TIMESTAMP '2026-08-15 10:00:17') AS c0, ts AS c1, NULLIF(GREATEST(id, a), CAST(m AS INT)) AS c2
FROM t
WHERE f AND (f AND (NOT f));
