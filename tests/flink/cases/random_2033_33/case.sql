-- Random query 2033-33: mini-batch over a debezium-json source with cdc-events-duplicate: Flink plans a
-- MiniBatchAssigner below the DropUpdateBefore, Sluice none (flink_differences.md#mini-batch-bundles).
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '5 s';
SET 'table.exec.mini-batch.size' = '15';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT SUBSTRING(s, 1, 1) AS k0, CAST(ts AS DATE) AS k1, SUM(CASE WHEN f THEN b ELSE b END) AS a0, MAX(59.02) AS a1, COUNT(DISTINCT (CAST(ts AS DATE) + INTERVAL '34' DAY)) AS a2
FROM t
WHERE ((TIMESTAMP '2026-08-15 10:00:47' IS NOT NULL) AND (id NOT BETWEEN -1 AND 14))
GROUP BY SUBSTRING(s, 1, 1), CAST(ts AS DATE);
