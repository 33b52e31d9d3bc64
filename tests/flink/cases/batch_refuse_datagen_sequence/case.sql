-- A datagen sequence without 'number-of-rows' ends, but is unbounded for Flink's batch planner.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20');
SET 'execution.runtime-mode' = 'batch';
SELECT MOD(id, 3) AS m, COUNT(*) AS n FROM gen GROUP BY MOD(id, 3);
