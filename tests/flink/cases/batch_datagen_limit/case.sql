-- A LIMIT over an unbounded datagen in batch mode is refused too (Flink checks the source before it
-- pushes the limit into it).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20');
SET 'execution.runtime-mode' = 'batch';
SELECT id FROM gen LIMIT 3;
