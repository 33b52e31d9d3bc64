-- FILTER on OVER aggregates over sliding batch frames: Flink 2.2.1's validator refuses FILTER with
-- OVER ("OVER must be applied to aggregate function"); Sluice runs it, in batch mode too.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, COUNT(*) FILTER (WHERE v > 7) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS c, SUM(v) FILTER (WHERE k = 'a') OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS s FROM t;
