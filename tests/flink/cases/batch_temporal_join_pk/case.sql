-- Batch event-time temporal join against a versioned table with a primary key (Flink's batch
-- planner refuses it).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
CREATE TABLE v (
  k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  PRIMARY KEY (k) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT t.id, t.k, r.w FROM t JOIN v FOR SYSTEM_TIME AS OF t.ts AS r ON t.k = r.k;
