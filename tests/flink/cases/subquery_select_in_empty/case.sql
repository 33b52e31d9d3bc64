-- IN, NOT IN and EXISTS over an empty subquery in the SELECT list.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, qty IN (SELECT tier FROM customers WHERE tier > 100) AS i, qty NOT IN (SELECT tier FROM customers WHERE tier > 100) AS n, EXISTS (SELECT 1 FROM customers WHERE tier > 100) AS e FROM orders;
