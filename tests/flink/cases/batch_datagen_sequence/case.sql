-- Batch over a datagen sequence with 'number-of-rows' (bounded): an aggregate and a sort.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '30');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT MOD(id, 3) AS m, COUNT(*) AS n, SUM(id) AS s FROM gen GROUP BY MOD(id, 3);
SELECT id FROM gen WHERE id > 15 ORDER BY id DESC;
