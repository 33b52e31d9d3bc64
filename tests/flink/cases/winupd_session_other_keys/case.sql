-- A SESSION aggregation without PARTITION BY over a changelog source: sessions over all rows (retractions included), then a GroupAggregate per window and k.
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT window_start, window_end, k, COUNT(*) AS n, SUM(v) AS total
FROM TABLE(SESSION(TABLE sales, DESCRIPTOR(ts), INTERVAL '30' SECOND))
GROUP BY window_start, window_end, k;
