-- Random query 1-19 (unnest; tests/flink/random_queries.py)
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, e
FROM t CROSS JOIN UNNEST(ARRAY[CAST(CASE WHEN f THEN m ELSE m END AS DECIMAL(12, 2))]) AS ux (e)
WHERE (NOT (a BETWEEN 14 AND 16));
