-- Early firing (delay 0) of a legacy HOP group window: a row updates its windows latest first.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, HOP_START(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n
FROM ev GROUP BY k, HOP(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE);
