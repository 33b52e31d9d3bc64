-- A non-time OVER (ROWS) over rows that arrive out of ORDER BY order: later rows are updated (-U/+U).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, qty, SUM(qty) OVER (PARTITION BY customer ORDER BY qty ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM orders;
