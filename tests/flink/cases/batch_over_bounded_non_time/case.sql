-- Batch OVER windows with bounded frames ordered by non-time columns: Flink's batch OverAggregate runs
-- them, Sluice refuses them (flink_differences.md; the ranking functions: batch_rank_unfiltered).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, COUNT(*) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c FROM t;
SELECT id, v, COUNT(*) OVER (ORDER BY v RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c FROM t WHERE v IS NOT NULL;
