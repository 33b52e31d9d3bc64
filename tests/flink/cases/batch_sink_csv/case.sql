-- Batch INSERT of an aggregation into a csv filesystem sink: final rows only, as Flink's csv format writes them.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE out_csv (k STRING, n BIGINT, sv INT, mx DOUBLE) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_csv', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
INSERT INTO out_csv SELECT k, COUNT(*), SUM(v), MAX(x) FROM t GROUP BY k;
