-- Batch INSERT of an ORDER BY ... LIMIT into a csv filesystem sink.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE out_csv (id INT, k STRING, x DOUBLE) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_csv', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
INSERT INTO out_csv SELECT id, k, x FROM t ORDER BY x DESC NULLS LAST, id LIMIT 5;
