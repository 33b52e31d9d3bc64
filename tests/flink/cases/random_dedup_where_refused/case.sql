-- Flink fails to plan a keep-last-row dedup under WHERE s LIKE 'a%'; Sluice answers (minimised from random query 6-75)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, IF((f AND f), CAST(IF(f, CAST(ts AS TIMESTAMP(3)), CAST(ts AS TIMESTAMP(3))) AS TIMESTAMP(3)), CAST(CEIL(ts TO MINUTE) AS TIMESTAMP(3))) AS c2
FROM (SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1) AS t0
WHERE (s LIKE 'a%');
