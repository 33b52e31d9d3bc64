-- A non-time OVER with the default RANGE frame: peers share a result and are updated before the new row.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, qty, SUM(qty) OVER (PARTITION BY customer ORDER BY qty) AS s FROM orders;
