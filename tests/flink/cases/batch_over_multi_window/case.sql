-- Several different OVER windows in one SELECT (Flink plans one OverAggregate per window group), the
-- default frames (with ORDER BY: RANGE UNBOUNDED PRECEDING to the current row's peers; without: the
-- whole partition), next to ROW_NUMBER, RANK and DENSE_RANK.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, g, COUNT(*) OVER (PARTITION BY k) AS ck, SUM(v) OVER (PARTITION BY g ORDER BY v) AS sg, MAX(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m, SUM(v) OVER () AS total FROM t;
SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn, RANK() OVER (ORDER BY g) AS r, DENSE_RANK() OVER (ORDER BY g) AS dr, COUNT(*) OVER (PARTITION BY k ORDER BY id) AS c FROM t;
