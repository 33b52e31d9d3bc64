-- IN and NOT IN (a NULL among the values) in the SELECT list.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, customer IN (SELECT customer FROM customers WHERE tier >= 2) AS known, qty NOT IN (SELECT CASE WHEN region = 'north' THEN NULL ELSE tier END FROM customers) AS other FROM orders;
