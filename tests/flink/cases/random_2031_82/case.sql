-- Random query 2031-82: SELECT DISTINCT of a DOUBLE that is -0.0 for some rows and 0.0 for others: one
-- key for Sluice, two for Flink 2.2.1 (flink_differences.md#negative-zero-as-a-key).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT DISTINCT COALESCE((x * g), (-4.5E0 * id)) AS c0
FROM t
WHERE ((a IN (18, CAST(NULL AS INT))) IS NOT TRUE);
