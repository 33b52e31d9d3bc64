-- A processing-time window TVF in batch mode.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE p (id INT, k STRING, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE p, DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;
