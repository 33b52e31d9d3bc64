-- A correlated scalar aggregate whose value reads an uncorrelated scalar subquery.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, (SELECT MAX(p.qty) + (SELECT MIN(tier) FROM customers) FROM orders AS p WHERE p.customer = o.customer) AS s FROM orders AS o;
