-- OVER aggregation on event time: the running sum of the last three orders per customer.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, qty,
       SUM(qty) OVER (PARTITION BY customer ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last3,
       COUNT(*) OVER (PARTITION BY customer ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS n
FROM orders;
