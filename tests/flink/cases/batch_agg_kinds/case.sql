-- Batch GROUP BY with every aggregate kind: COUNT(*), COUNT(col), SUM, MIN, MAX, AVG, DISTINCT and FILTER
-- (a one-phase HashAggregate, final rows once).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT k, COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS sv, MIN(x) AS mn, MAX(x) AS mx, AVG(v) AS av, MIN(s) AS ms, MAX(ts) AS mt FROM t GROUP BY k;
SELECT g, COUNT(DISTINCT k) AS dk, SUM(DISTINCT v) AS dv, COUNT(*) FILTER (WHERE x > 1) AS nf, SUM(v) FILTER (WHERE s <> 'x') AS sf, AVG(DISTINCT v) AS adv FROM t GROUP BY g;
