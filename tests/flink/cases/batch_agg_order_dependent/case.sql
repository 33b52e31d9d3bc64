-- Batch FIRST_VALUE, LAST_VALUE and LISTAGG in arrival order (one-phase HashAggregate).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT k, FIRST_VALUE(id) AS fv, LAST_VALUE(id) AS lv, LISTAGG(s) AS ls FROM t GROUP BY k;
