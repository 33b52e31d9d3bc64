-- Random query 2010-250 (temporal_join; tests/flink/random_queries.py)
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE v (
  uid INT, k STRING NOT NULL, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3), PRIMARY KEY (k) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/v.json', 'format' = 'debezium-json');
SELECT t.id, v.ts AS c1
FROM t JOIN v FOR SYSTEM_TIME AS OF t.ts ON t.k = v.k AND (CAST(301070 AS BIGINT) IS NULL);
