-- Batch SELECT DISTINCT, a scalar subquery in WHERE and a correlated scalar subquery.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT DISTINCT k, g FROM t;
SELECT id, v FROM t WHERE v > (SELECT AVG(v) FROM t);
SELECT id, k, v FROM t WHERE v = (SELECT MAX(v) FROM t t2 WHERE t2.k = t.k);
SELECT id, (SELECT MAX(w) FROM u WHERE u.k = t.k) AS mw FROM t;
