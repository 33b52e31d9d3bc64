-- A TUMBLE window aggregation filtered on window_start over a row behind the watermark.
CREATE TABLE events (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/late.json', 'format' = 'json');
SELECT window_start, window_end, k, SUM(v) AS total
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
WHERE window_start < TIMESTAMP '2026-08-15 10:03:00'
GROUP BY window_start, window_end, k;
