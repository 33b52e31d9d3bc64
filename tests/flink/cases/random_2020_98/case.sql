-- Random query 2020-98: a two-phase mini-batch aggregate over a changelog source. The local phase emits
-- accumulators, insert-only (Flink: LocalGroupAggregate and its Exchange changelogMode=[I]).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '100 ms';
SET 'table.exec.mini-batch.size' = '1';
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
SELECT k, COUNT(*) AS n, SUM(a) AS total, MAX(m) AS hi
FROM t
GROUP BY k;
