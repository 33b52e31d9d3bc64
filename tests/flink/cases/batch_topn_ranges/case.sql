-- Batch Top-N with a rank range not starting at 1, and RANK / DENSE_RANK with ties.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, rn FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id DESC) AS rn FROM t) WHERE rn BETWEEN 2 AND 3;
SELECT id, v, r FROM (SELECT id, v, RANK() OVER (ORDER BY v DESC) AS r FROM t WHERE v IS NOT NULL) WHERE r <= 4;
SELECT id, s, r FROM (SELECT id, s, DENSE_RANK() OVER (PARTITION BY g ORDER BY s) AS r FROM t) WHERE r <= 2;
