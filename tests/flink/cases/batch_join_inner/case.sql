-- Batch inner equi-join, also with a non-equi residual condition (a HashJoin).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT t.id, u.id AS uid, t.k, t.v, u.w FROM t JOIN u ON t.k = u.k;
SELECT t.id, u.id AS uid, t.v, u.w FROM t JOIN u ON t.k = u.k AND t.ts < u.ts AND t.v * 10 < u.w;
