-- A correlated EXISTS with GROUP BY and HAVING under OR, correlated by a non-equality.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id FROM orders AS o WHERE qty > 6 OR EXISTS (SELECT c.region FROM customers AS c WHERE c.tier < o.qty GROUP BY c.region HAVING COUNT(*) > 1);
