-- A correlated grouped scalar subquery correlated by a non-equality: SINGLE_VALUE per outer value.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, (SELECT MAX(c.tier) FROM customers AS c WHERE c.tier < o.qty AND c.region = 'north' GROUP BY c.region) AS m FROM orders AS o;
