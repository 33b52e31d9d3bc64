-- Batch GROUP BY with Flink's default agg-phase strategy (AUTO): rows agree; Flink plans a local and a
-- global HashAggregate.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT k, COUNT(*) AS n, SUM(v) AS sv, MAX(x) AS mx FROM t GROUP BY k;
