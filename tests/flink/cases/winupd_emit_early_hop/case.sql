-- Early firing on every row of a legacy HOP group window (2 minutes, sliding by 1) over a changelog: a
-- change updates each of its windows still open (the latest first) and is dropped for the fired ones.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ev.json', 'format' = 'debezium-json');
SELECT k, HOP_START(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE);
