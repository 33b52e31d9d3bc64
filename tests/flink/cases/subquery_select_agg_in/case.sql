-- IN over an aggregate in the SELECT list of an aggregation.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n, COUNT(*) IN (SELECT tier FROM customers) AS t, EXISTS (SELECT 1 FROM customers AS c WHERE c.tier > 2) AS e FROM orders GROUP BY customer;
