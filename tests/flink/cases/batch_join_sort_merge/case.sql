-- Batch equi-joins with the hash joins disabled: SortMergeJoin (inner, left, full).
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
SELECT t.id, u.id AS uid, t.k, u.w FROM t JOIN u ON t.k = u.k;
SELECT t.id, u.id AS uid, t.k, u.w FROM t LEFT JOIN u ON t.k = u.k;
SELECT t.id, u.id AS uid FROM t FULL JOIN u ON t.k = u.k AND t.g = u.id;
