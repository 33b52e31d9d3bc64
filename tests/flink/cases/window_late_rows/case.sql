-- A TUMBLE window with a row behind the watermark (b at 10:00:50 after a at 10:02:30; no delay).
CREATE TABLE events (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/late.json', 'format' = 'json');
SELECT window_start, window_end, k, SUM(v) AS total
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, k;
