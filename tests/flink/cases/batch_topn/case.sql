-- Batch Top-N with ROW_NUMBER, RANK and DENSE_RANK (rank number selected and not).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST, id) AS rn FROM t) WHERE rn <= 2;
SELECT id, g, v, r FROM (SELECT *, RANK() OVER (PARTITION BY g ORDER BY v) AS r FROM t) WHERE r <= 2;
SELECT id, s, x FROM (SELECT *, DENSE_RANK() OVER (ORDER BY s) AS r FROM t) WHERE r BETWEEN 2 AND 3;
