-- A correlated scalar subquery without FROM.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, (SELECT o.qty + 1) AS q FROM orders AS o;
