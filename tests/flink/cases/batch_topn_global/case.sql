-- Batch Top-N without PARTITION BY, and Top-N over an aggregation.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT id, v, rn FROM (SELECT id, v, ROW_NUMBER() OVER (ORDER BY v DESC NULLS LAST, id) AS rn FROM t) WHERE rn <= 3;
SELECT k, n FROM (SELECT k, n, ROW_NUMBER() OVER (ORDER BY n DESC, k) AS rn FROM (SELECT k, COUNT(*) AS n FROM t WHERE k IS NOT NULL GROUP BY k)) WHERE rn <= 2;
