-- Batch ORDER BY on non-time columns without LIMIT: a full Sort (ties broken by id).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, v FROM t ORDER BY v DESC, id;
SELECT id, s, x FROM t ORDER BY s, x DESC, id;
