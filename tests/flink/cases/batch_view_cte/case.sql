-- Batch over a view and a WITH clause: nested aggregation, a join with it, a final ORDER BY.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
CREATE VIEW big_groups AS SELECT g, SUM(v) AS total FROM t WHERE g IS NOT NULL GROUP BY g HAVING SUM(v) > 10;
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
WITH per_k AS (SELECT k, COUNT(*) AS n, SUM(v) AS sv FROM t WHERE k IS NOT NULL GROUP BY k) SELECT p.k, p.n, p.sv, u.w FROM per_k p LEFT JOIN u ON p.k = u.k ORDER BY p.k, u.w;
SELECT g, total FROM big_groups ORDER BY total DESC, g;
