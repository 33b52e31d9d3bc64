-- Late firing (delay 0, 1 hour of allowed lateness) of a legacy TUMBLE group window over a changelog:
-- each window fires once with its non-empty keys (b's second window is empty: nothing); a later
-- retraction within the lateness updates the fired result (-D when it empties the key, then +I).
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 h';
CREATE TABLE ev (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ev.json', 'format' = 'debezium-json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
