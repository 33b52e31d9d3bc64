-- CUMULATE over a changelog source with COUNT(DISTINCT), FILTER and MAX: the retracting calls merged over slices.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, COUNT(DISTINCT k) AS dk, SUM(v) FILTER (WHERE k = 'a') AS sa, MAX(v) AS hi FROM TABLE(CUMULATE(TABLE sales, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)) GROUP BY window_start, window_end;
