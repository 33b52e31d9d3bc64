-- Batch semi and anti joins from IN, EXISTS, NOT EXISTS and NOT IN (with NULLs on both sides).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k FROM t WHERE k IN (SELECT k FROM u);
SELECT id, k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.w > 150);
SELECT id, k FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k);
SELECT id, k FROM t WHERE k NOT IN (SELECT k FROM u WHERE w < 450);
SELECT id, k FROM t WHERE k NOT IN (SELECT k FROM u);
SELECT id, g FROM t WHERE g NOT IN (SELECT id FROM u WHERE id < 3);
