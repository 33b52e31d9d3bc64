-- A legacy GROUP BY SESSION window in batch mode is refused by Flink's batch planner.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT k, SESSION_START(ts, INTERVAL '10' SECOND) AS ws, SUM(v) AS sv FROM t GROUP BY k, SESSION(ts, INTERVAL '10' SECOND);
