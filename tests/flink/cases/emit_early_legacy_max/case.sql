-- Early firing (delay 0) where a row leaves the result unchanged (MAX): nothing is emitted for it.
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, MAX(v) AS m, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
