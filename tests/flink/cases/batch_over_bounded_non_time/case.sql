-- Batch OVER windows with bounded frames ordered by non-time columns, several ranking functions in one
-- SELECT and an unfiltered ROW_NUMBER: Flink's batch OverAggregate runs them, Sluice refuses them (flink_differences.md).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, COUNT(*) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c FROM t;
SELECT id, v, COUNT(*) OVER (ORDER BY v RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c FROM t WHERE v IS NOT NULL;
SELECT id, k, RANK() OVER (PARTITION BY k ORDER BY v) AS r, DENSE_RANK() OVER (PARTITION BY k ORDER BY v) AS dr FROM t;
SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM t;
