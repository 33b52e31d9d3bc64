-- Early firing without a delay: Flink's WindowEmitStrategy validation message.
SET 'table.exec.emit.early-fire.enabled' = 'true';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
