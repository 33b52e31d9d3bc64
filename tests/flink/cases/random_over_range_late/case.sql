-- A RANGE OVER row behind the watermark in a partition with nothing processed yet (random query
-- 2002-280): Flink accepts it (per-key check), Sluice drops it (flink_differences.md).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, ts, SUM(a) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS o0
FROM t;
