-- Batch SortMergeJoin for RIGHT and FULL joins and semi/anti joins, with NULL keys on both sides.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SET 'table.exec.disabled-operators' = 'HashJoin';
SELECT t.id, u.id AS uid FROM t RIGHT JOIN u ON t.k = u.k;
SELECT t.id, u.id AS uid, t.k, u.k AS uk FROM t FULL JOIN u ON t.k = u.k;
SELECT id FROM t WHERE k IN (SELECT k FROM u WHERE w > 150);
SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k);
