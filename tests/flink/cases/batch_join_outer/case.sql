-- Batch LEFT, RIGHT and FULL equi-joins with NULL keys and a residual condition.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT t.id, u.id AS uid, t.k, u.w FROM t LEFT JOIN u ON t.k = u.k;
SELECT t.id, u.id AS uid, u.k, u.w FROM t RIGHT JOIN u ON t.k = u.k AND t.v > 8;
SELECT t.id, u.id AS uid, t.k, u.k AS uk FROM t FULL JOIN u ON t.k = u.k AND t.id < u.id;
