-- Batch interval join: u rows within 10 seconds after a t row of the same key.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT t.id, u.id AS uid, t.k FROM t JOIN u ON t.k = u.k AND u.ts BETWEEN t.ts AND t.ts + INTERVAL '10' SECOND;
SELECT t.id, u.id AS uid FROM t LEFT JOIN u ON t.k = u.k AND u.ts BETWEEN t.ts - INTERVAL '5' SECOND AND t.ts + INTERVAL '5' SECOND;
