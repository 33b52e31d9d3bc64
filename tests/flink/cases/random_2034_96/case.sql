-- Random query 2034-96, minimised by hand: Flink 2.2.1's batch planner fails on a NULL TIMESTAMP
-- literal in an IF under IS NULL (flink_differences.md#flinks-planning-failures); Sluice answers.
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, a FROM t WHERE IF(f, CAST(NULL AS TIMESTAMP(3)), ts) IS NULL;
