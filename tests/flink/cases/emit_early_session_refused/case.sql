-- Early firing of a legacy SESSION group window: both refuse emit strategies on session windows.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, SESSION_START(ts, INTERVAL '30' SECOND) AS ws, COUNT(*) AS n
FROM ev GROUP BY k, SESSION(ts, INTERVAL '30' SECOND);
