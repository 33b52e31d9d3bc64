-- Batch join of two aggregations, a LEFT JOIN filtered to its unmatched rows, and a self-join.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT a.k, a.n, b.sw FROM (SELECT k, COUNT(*) AS n FROM t GROUP BY k) a JOIN (SELECT k, SUM(w) AS sw FROM u GROUP BY k) b ON a.k = b.k;
SELECT t.id, t.k FROM t LEFT JOIN u ON t.k = u.k WHERE u.id IS NULL;
SELECT a.id, b.id AS bid FROM t a JOIN t b ON a.g = b.g AND a.id < b.id AND a.k = b.k;
