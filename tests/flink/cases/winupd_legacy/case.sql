-- A legacy GROUP BY TUMBLE(...) over a changelog source (Flink's GroupWindowAggregate reads updates since 1.13).
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, k, COUNT(*) AS n, SUM(v) AS total
FROM sales GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), k;
