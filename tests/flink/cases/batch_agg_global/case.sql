-- Batch global aggregation: one row, also over an empty input (COUNT 0, the others NULL).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT COUNT(*) AS n, SUM(v) AS sv, MIN(s) AS ms, AVG(x) AS ax, COUNT(DISTINCT k) AS dk FROM t;
SELECT COUNT(*) AS n, SUM(v) AS sv, MAX(s) AS ms FROM t WHERE id > 100;
