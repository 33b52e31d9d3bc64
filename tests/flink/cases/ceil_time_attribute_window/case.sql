-- CEIL of a rowtime attribute as a window's time attribute.
CREATE TABLE events (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/late.json', 'format' = 'json');
CREATE VIEW ceiled AS SELECT k, v, CEIL(ts TO MINUTE) AS ts FROM events;
SELECT window_start, window_end, k, SUM(v) AS total
FROM TABLE(TUMBLE(TABLE ceiled, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, k;
