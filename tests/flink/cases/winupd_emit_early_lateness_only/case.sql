-- Early firing with 'table.exec.emit.allow-lateness' but without late firing, over a changelog: the
-- allowed lateness is ignored, so changes after the window fired are dropped (as winupd_emit_early).
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 h';
CREATE TABLE ev (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ev.json', 'format' = 'debezium-json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
