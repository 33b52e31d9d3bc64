-- Window Top-N over a SESSION TVF with a row behind the watermark.
CREATE TABLE events (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/late.json', 'format' = 'json');
SELECT * FROM (
  SELECT window_start, window_end, k, v,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY v DESC) AS rn
  FROM TABLE(SESSION(TABLE events PARTITION BY k, DESCRIPTOR(ts), INTERVAL '1' MINUTE)))
WHERE rn <= 1;
