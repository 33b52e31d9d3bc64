-- Batch ORDER BY with NULLS FIRST / NULLS LAST against the default null order.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, x FROM t ORDER BY k NULLS LAST, id DESC;
SELECT id, x FROM t ORDER BY x DESC NULLS FIRST, id;
SELECT id, g FROM t ORDER BY g DESC, id;
