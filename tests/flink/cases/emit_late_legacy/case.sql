-- Late firing alone (delay 0, 1 minute of allowed lateness) of a legacy TUMBLE group window: each window
-- once when the watermark passes it, then late rows within the lateness update it (-U/+U, +I for c).
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS we, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
