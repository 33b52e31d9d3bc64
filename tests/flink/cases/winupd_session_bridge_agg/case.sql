-- SESSION (PARTITION BY k) over a changelog grouped by the window only (a GroupAggregate): a delete merges two sessions and is counted against them; a session of a row and its delete nets to nothing.
CREATE TABLE changes (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/changes.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, COUNT(*) AS n, SUM(v) AS total
FROM TABLE(SESSION(TABLE changes PARTITION BY k, DESCRIPTOR(ts), INTERVAL '30' SECOND))
GROUP BY window_start, window_end;
