-- ORDER BY an aggregate that the SELECT list does not compute, with LIMIT.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, SUM(qty) AS s FROM orders GROUP BY customer ORDER BY COUNT(*), customer LIMIT 2;
