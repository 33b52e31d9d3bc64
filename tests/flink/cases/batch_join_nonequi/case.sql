-- Batch joins without an equi-condition (Flink's NestedLoopJoin): inner and left.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT t.id, u.id AS uid FROM t JOIN u ON t.v * 20 > u.w AND t.id < 5;
SELECT t.id, u.id AS uid FROM t LEFT JOIN u ON t.id = u.id + 8 OR t.id * 100 = u.w;
