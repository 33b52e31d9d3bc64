-- Random query 2020-37: split distinct aggregation (an Expand of two column sets) with a NOT NULL
-- SUM, mini-batch, one phase, over a keep-last-row deduplication (Sluice failed its NOT NULL check).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '5 s';
SET 'table.exec.mini-batch.size' = '3';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT MOD(a, 3) AS k0, COUNT(DISTINCT m) AS a0, COUNT(*) FILTER (WHERE (NOT f)) AS a1, MAX(FLOOR(m)) AS a2, SUM(CAST(37854 AS BIGINT)) AS a3
FROM (SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1) AS t0
WHERE f
GROUP BY MOD(a, 3);
