-- The named WINDOW clause: one window refined with a frame in OVER (w ...), used by two aggregates.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, SUM(qty) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS units,
  COUNT(*) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS n
FROM orders WINDOW w AS (PARTITION BY customer ORDER BY ts);
