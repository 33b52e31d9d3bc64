-- Batch window Top-N over a TUMBLE window aggregation and over the window TVF directly.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY sv DESC, k) AS rn FROM (SELECT k, window_start, window_end, SUM(v) AS sv FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '30' SECOND)) WHERE k IS NOT NULL AND v IS NOT NULL GROUP BY k, window_start, window_end)) WHERE rn <= 2;
SELECT id, window_start, rn FROM (SELECT id, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY id DESC) AS rn FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '30' SECOND))) WHERE rn = 1;
