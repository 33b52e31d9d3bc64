-- A SESSION window (PARTITION BY k) over a changelog source grouped by the window alone: the TVF feeds a GroupAggregate.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, COUNT(*) AS n, MAX(v) AS hi
FROM TABLE(SESSION(TABLE sales PARTITION BY k, DESCRIPTOR(ts), INTERVAL '30' SECOND))
GROUP BY window_start, window_end;
