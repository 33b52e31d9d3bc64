-- A correlated scalar subquery with GROUP BY and HAVING.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, (SELECT COUNT(*) FROM orders AS o2 WHERE o2.customer = o.customer GROUP BY o2.customer HAVING COUNT(*) > 1) AS m FROM orders AS o;
