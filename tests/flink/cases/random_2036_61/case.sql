-- Random query 2036-61 without its mini-batch options: Flink 2.2.1 doubles SUM(DISTINCT g) in a split
-- distinct aggregation over a debezium-json table with a PRIMARY KEY read without ChangelogNormalize
-- (flink_differences.md#split-distinct-aggregation-over-an-upsert-source).
-- Random query 2036-61 (agg; tests/flink/random_queries.py)
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SET 'table.local-time-zone' = 'Asia/Kolkata';
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SELECT k AS k0, g AS k1, MAX(m) FILTER (WHERE (f OR f)) AS a0, AVG(a) AS a1, SUM(DISTINCT g) AS a2
FROM t
WHERE (DATE_FORMAT(CAST(ts AS TIMESTAMP_LTZ(3)), 'yyyy-MM-dd HH:mm:ss') NOT LIKE '%a%')
GROUP BY k, g;
