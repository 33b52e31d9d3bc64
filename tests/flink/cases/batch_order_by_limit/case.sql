-- Batch ORDER BY with LIMIT, with OFFSET, and OFFSET without LIMIT (SortLimit / Sort).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, v FROM t ORDER BY v DESC NULLS LAST, id LIMIT 4;
SELECT id, x FROM t ORDER BY x, id LIMIT 3 OFFSET 2;
SELECT id FROM t ORDER BY id LIMIT 0;
