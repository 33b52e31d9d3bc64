-- Random query 1-19 (unnest; tests/flink/random_queries.py)
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, e, e2, x AS c0
FROM t CROSS JOIN UNNEST(ARRAY[ROW(id, k)]) AS ux (e, e2);
