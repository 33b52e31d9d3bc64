-- Mini-batch Deduplicate keep-last-row on event time (Flink's RowTimeMiniBatchDeduplicateFunction):
-- a bundle of 3 rows is applied per key when it closes, every change of the key emitted (no
-- compaction, 'table.exec.deduplicate.mini-batch.compact-changes' is off). Rows arrive out of order; their
-- times (1970) stay within the first 'allow-latency' interval, so no watermark closes a bundle early.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE events (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/events.json', 'format' = 'json');
SELECT id, k, v, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM events
) WHERE rn = 1;
