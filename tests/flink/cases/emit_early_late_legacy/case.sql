-- Early and late firing (delays 0) of a legacy TUMBLE group window with 1 minute of allowed lateness:
-- late rows within it update their window (b, and the new key c), the row after it is dropped.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
