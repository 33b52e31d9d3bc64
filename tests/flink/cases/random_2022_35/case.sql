-- Random query 2022-35: a batch OVER over a table whose rows come out of order: batch mode has no
-- watermarks, so no row is late (Sluice's batch source used to assign them and its OVER dropped a row).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, ts, CAST(ts AS DATE) AS c0, MAX(m) OVER (ORDER BY ts) AS o0, MAX(ts) OVER (ORDER BY ts) AS o1
FROM t;
