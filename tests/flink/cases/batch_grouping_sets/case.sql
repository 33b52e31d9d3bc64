-- Batch GROUPING SETS, ROLLUP and CUBE with GROUPING and GROUPING_ID.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT k, g, COUNT(*) AS n, SUM(v) AS sv, GROUPING_ID(k, g) AS gid FROM t GROUP BY GROUPING SETS ((k, g), (k), ());
SELECT k, s, SUM(v) AS sv, GROUPING(s) AS gs FROM t GROUP BY ROLLUP (k, s);
SELECT g, s, COUNT(*) AS n FROM t WHERE k IS NOT NULL GROUP BY CUBE (g, s);
