-- Batch over a VALUES table and over CROSS JOIN UNNEST of an array.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT c, COUNT(*) AS n, SUM(q) AS sq FROM (VALUES ('x', 1), ('y', 2), ('x', 3), (CAST(NULL AS STRING), 4)) AS v(c, q) GROUP BY c;
SELECT id, e FROM t CROSS JOIN UNNEST(ARRAY[id, id * 10]) AS a(e) WHERE id < 4;
