-- ORDER BY with OFFSET and no LIMIT in batch mode is refused by Flink's batch planner.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, s FROM t ORDER BY s DESC, id OFFSET 8 ROWS;
