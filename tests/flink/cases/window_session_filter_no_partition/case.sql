-- A SESSION window aggregation without PARTITION BY, filtered on window_start.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(ts), INTERVAL '30' SECOND))
WHERE window_start > TIMESTAMP '2026-08-15 10:00:30'
GROUP BY window_start, window_end;
