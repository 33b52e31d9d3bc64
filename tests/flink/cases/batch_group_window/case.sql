-- Legacy group windows TUMBLE and HOP in GROUP BY in batch mode.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT k, TUMBLE_START(ts, INTERVAL '30' SECOND) AS ws, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '30' SECOND);
SELECT HOP_START(ts, INTERVAL '20' SECOND, INTERVAL '40' SECOND) AS ws, SUM(v) AS sv FROM t GROUP BY HOP(ts, INTERVAL '20' SECOND, INTERVAL '40' SECOND);
