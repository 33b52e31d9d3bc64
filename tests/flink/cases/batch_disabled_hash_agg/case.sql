-- Batch GROUP BY with 'table.exec.disabled-operators' = 'HashAgg' (Flink: SortAggregate).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SET 'table.exec.disabled-operators' = 'HashAgg';
SELECT k, COUNT(*) AS n, SUM(v) AS sv, MAX(x) AS mx FROM t GROUP BY k;
SELECT g, COUNT(DISTINCT k) AS dk FROM t GROUP BY g;
