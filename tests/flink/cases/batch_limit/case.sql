-- Batch LIMIT without ORDER BY over a deterministic single-task input (a Limit).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k FROM t LIMIT 3;
SELECT id, k FROM t WHERE v > 5 LIMIT 2 OFFSET 1;
