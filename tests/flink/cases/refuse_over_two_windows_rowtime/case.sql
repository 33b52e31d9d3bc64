-- Streaming mode refuses two different OVER windows in one SELECT (batch mode runs them: batch_over_multi_window).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SELECT id, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s, COUNT(*) OVER (PARTITION BY g ORDER BY ts) AS c FROM t;
