-- A correlated IN of a grouped aggregate correlated by a non-equality: the value generator.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id FROM orders AS o WHERE qty IN (SELECT MAX(tier) + 1 FROM customers AS c WHERE c.tier < o.qty GROUP BY c.region);
