-- A SESSION window aggregation per customer (the key selected first) filtered on window_start.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, window_start, window_end, COUNT(*) AS n
FROM TABLE(SESSION(TABLE orders PARTITION BY customer, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
WHERE window_start >= TIMESTAMP '2026-08-15 10:01:00'
GROUP BY customer, window_start, window_end;
