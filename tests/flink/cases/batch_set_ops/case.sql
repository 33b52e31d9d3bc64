-- Batch UNION, UNION ALL, INTERSECT, INTERSECT ALL, EXCEPT and EXCEPT ALL (NULLs compare equal).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT k FROM t UNION SELECT k FROM u;
SELECT k, g FROM t WHERE id < 4 UNION ALL SELECT k, id FROM u WHERE id > 4;
SELECT k FROM t INTERSECT SELECT k FROM u;
SELECT k FROM t INTERSECT ALL SELECT k FROM u;
SELECT k FROM t EXCEPT SELECT k FROM u;
SELECT k FROM t EXCEPT ALL SELECT k FROM u;
