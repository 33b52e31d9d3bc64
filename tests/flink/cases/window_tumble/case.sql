-- TUMBLE window TVF aggregation on event time: one insert per window and key when the watermark passes.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, customer, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end, customer;
