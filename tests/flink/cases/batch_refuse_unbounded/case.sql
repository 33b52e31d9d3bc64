-- A batch query over an unbounded source (datagen without 'number-of-rows') is refused.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.min' = '1', 'fields.id.max' = '3');
SET 'execution.runtime-mode' = 'batch';
SELECT id, COUNT(*) FROM gen GROUP BY id;
