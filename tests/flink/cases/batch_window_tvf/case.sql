-- Batch window TVF aggregation: TUMBLE, HOP, CUMULATE and SESSION over the event-time column.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT window_start, window_end, COUNT(*) AS n, SUM(v) AS sv FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '20' SECOND)) GROUP BY window_start, window_end;
SELECT k, window_start, window_end, COUNT(*) AS n FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '40' SECOND)) GROUP BY k, window_start, window_end;
SELECT window_start, window_end, MAX(v) AS mv FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '15' SECOND, INTERVAL '30' SECOND)) GROUP BY window_start, window_end;
