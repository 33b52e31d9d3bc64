-- Late firing of a window TVF aggregation over insert-only input: Flink 2.2.1 refuses it, Sluice runs it
-- (docs/flink_differences.md, "Emit strategies on window TVF aggregations").
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';
CREATE TABLE ev (
  k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/emit.json', 'format' = 'json');
SELECT k, window_start, window_end, COUNT(*) AS n, SUM(v) AS total
FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY k, window_start, window_end;
