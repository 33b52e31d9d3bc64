-- Flink fails to plan a keep-last-row dedup under a WHERE it simplifies; Sluice answers (minimised from random query 4-63; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, IF((id IN (13, 18, 3)), b, b) AS c0, m AS c1, IF(f, CAST((m / 3) AS DECIMAL(12, 2)), CAST((61.43 / 3) AS DECIMAL(12, 2))) AS c2
FROM (SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1) AS t0
WHERE CASE WHEN f THEN (84.77 IS NULL) ELSE (a IS NULL) END AND (CAST(492022 AS BIGINT) IS DISTINCT FROM CAST(a AS BIGINT));
