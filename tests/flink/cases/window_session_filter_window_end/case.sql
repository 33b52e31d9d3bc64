-- A SESSION window aggregation per customer filtered on window_end: Flink aggregates the rows' attached sessions.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, customer, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(SESSION(TABLE orders PARTITION BY customer, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
WHERE window_end > TIMESTAMP '2026-08-15 10:02:00'
GROUP BY window_start, window_end, customer;
