-- A correlated COUNT in the SELECT list: 0 for an order without customer rows.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, (SELECT COUNT(*) FROM customers AS c WHERE c.customer = o.customer) AS n, (SELECT COUNT(*) + 1 FROM customers AS c WHERE c.tier < o.qty) AS m FROM orders AS o;
