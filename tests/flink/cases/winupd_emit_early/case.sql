-- Early firing on every row (delay 0) of a legacy TUMBLE group window over a changelog (debezium-json;
-- the watermark follows every row at parallelism 1). A retraction updates the key's early result
-- (-U/+U), and one that leaves the key's window without rows deletes it (-D: a's first window, whose
-- update's +U then emits +I again, b's second, c's third). After the window fires, its changes are
-- late and dropped (id 2's delete, id 1's second update, id 3's update).
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE ev (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/ev.json', 'format' = 'debezium-json');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, COUNT(*) AS n, SUM(v) AS total
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
