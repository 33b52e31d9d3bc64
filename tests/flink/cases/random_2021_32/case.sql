-- Random query 2021-32: COUNT(DISTINCT) in an OVER aggregate in batch mode: refused by Flink 2.2.1's
-- batch planner ("Distinct not supported in Windowing function!") and by Sluice.
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, ts, SIGN(CASE WHEN f THEN b ELSE b END) AS c0, COUNT(DISTINCT k) OVER (PARTITION BY g ORDER BY ts) AS o0, AVG(m) OVER (PARTITION BY g ORDER BY ts) AS o1, MIN(a) OVER (PARTITION BY g ORDER BY ts) AS o2
FROM t;
