-- RANK Top-N in batch mode (random query 2001-121): rows agree; Flink plans a local and a global
-- sort-based Rank without a WatermarkAssigner, Sluice one batch Rank (flink_differences.md).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, s, rn FROM (
  SELECT *, RANK() OVER (PARTITION BY k ORDER BY s DESC) AS rn FROM t
) WHERE rn BETWEEN 2 AND 3;
