-- Early and late firing (delays 0, 1 hour of allowed lateness) of a legacy TUMBLE group window over a
-- changelog: retractions update (or delete) the results before and after the window fires.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 h';
CREATE TABLE ev (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ev.json', 'format' = 'debezium-json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
