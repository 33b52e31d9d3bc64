-- A correlated scalar aggregate over a derived table whose WHERE reads the outer column.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, (SELECT MAX(x.tier) FROM (SELECT tier FROM customers AS c WHERE c.customer = o.customer) AS x) AS m FROM orders AS o;
