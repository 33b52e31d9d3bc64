-- Batch ORDER BY aggregates, with and without LIMIT.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT customer, SUM(qty) FROM orders GROUP BY customer ORDER BY SUM(qty) DESC LIMIT 3;
SELECT customer, MAX(qty) AS m FROM orders GROUP BY customer ORDER BY COUNT(*) DESC, customer;
