-- Batch GROUP BY with HAVING and an aggregate of an aggregate.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT k, SUM(v) AS sv FROM t GROUP BY k HAVING COUNT(*) > 1 AND SUM(v) > 10;
SELECT n, COUNT(*) AS c FROM (SELECT k, COUNT(*) AS n FROM t GROUP BY k) GROUP BY n;
