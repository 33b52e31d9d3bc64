-- Early firing on every row (delay 0) of a legacy TUMBLE group window: +I, then -U/+U per row; the
-- watermark follows every row at parallelism 1 (Flink emits it eagerly), so late rows are dropped alike.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
