-- LEAD and LAG in batch mode: offsets 1 (default), 2, 3 and 0, a default value (of another type: cast;
-- taken, as Flink does, also where the target row holds NULL),
-- NULL values, over partitions, ordered ascending and descending, next to an aggregate.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, LAG(v) OVER (PARTITION BY k ORDER BY id) AS pv, LEAD(s, 2) OVER (PARTITION BY k ORDER BY id) AS ns, SUM(v) OVER (PARTITION BY k ORDER BY id) AS sv FROM t;
SELECT id, LEAD(v, 1, -1) OVER (ORDER BY id DESC) AS nv FROM t;
SELECT id, LAG(x, 2, -1) OVER (ORDER BY id) AS px FROM t;
SELECT id, LAG(id, 0) OVER (ORDER BY id) AS same, LEAD(g, 3) OVER (ORDER BY id) AS ng FROM t;
