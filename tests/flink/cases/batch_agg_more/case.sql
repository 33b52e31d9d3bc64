-- Batch GROUP BY with more aggregate functions: STDDEV/VAR, COUNT DISTINCT of several columns (with FILTER),
-- grouped by an expression, HAVING without GROUP BY.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT k, COUNT(DISTINCT g) AS dg, COUNT(DISTINCT s) AS ds, COUNT(DISTINCT g) FILTER (WHERE v > 5) AS dgf FROM t GROUP BY k;
SELECT g, STDDEV_POP(v) AS sp, VAR_SAMP(v) AS vs, VAR_POP(x) AS vp FROM t GROUP BY g;
SELECT UPPER(k) || '-' AS kk, SUM(CASE WHEN v > 8 THEN 1 ELSE 0 END) AS big, MAX(id) AS mid FROM t GROUP BY UPPER(k) || '-';
SELECT COUNT(*) AS n, SUM(v) AS sv FROM t HAVING COUNT(*) > 3;
